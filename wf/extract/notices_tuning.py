"""Tuning data for wf/extract/notices.py beyond wf/extract/tuning.py (which is full)."""

from __future__ import annotations

# A consent manager's list of vendors (each entry its purposes, its cookies' lifetime and
# a link to its policy) is a list of linked items longer than any dialog, which the
# listing rule would take for the page's list. A box is one when VENDOR_SHARE at least
# of its windows of notices.NOTICE_SAMPLE characters read as consent text. A privacy
# policy's sections on rights, retention or contact do not, nor does a list of stories
# about cookies (too sparse in legal words). At most VENDOR_WINDOWS windows and
# VENDOR_PIECES pieces of text are read (the cost on a long page); fewer than
# VENDOR_WINDOWS_MIN windows say nothing.
VENDOR_WINDOWS = 40
VENDOR_WINDOWS_MIN = 6
VENDOR_SHARE = 0.9
VENDOR_PIECES = 5000
# Legal words of a window that count: so many different ones at least. A list of cookie
# recipes says "cookie" often, and little else of a consent text.
VENDOR_DISTINCT = 3
# A consent manager's list of vendors and purposes that never says "cookie" or "consent"
# (TCF's second legal basis: "Zwecke (berechtigtes Interesse)", "Finalités (intérêt
# légitime)"): the basis named stands for tuning.CONSENT_CORE, and then VENDOR_DISTINCT
# different legal words at least are needed (a privacy policy's one section on its legal
# bases says little else of a vendor list). Lowered text, counted with str.count.
VENDOR_BASIS = (
    "legitimate interest", "berechtigtes interesse", "berechtigtem interesse",
    "berechtigten interesse", "intérêt légitime", "intérêts légitimes", "interés legítimo",
    "intereses legítimos", "legittimo interesse", "interesse legittimo",
    "gerechtvaardigd belang", "prawnie uzasadniony interes",
)  # fmt: skip
# Each of VENDOR_BASIS holds one of these (notices.py asserts it): a text that holds none
# of them names no basis, and is not searched for each (the search of every sample that
# holds no core word).
VENDOR_BASIS_STEMS = ("interes", "interé", "intérêt", "belang")
# ...and the words of such a list that tuning.CONSENT_WORDS has not (its data processed,
# its French and Spanish legal basis).
VENDOR_WORDS = ("datenverarbeitung", "intérêt légitime", "interés legítimo", "finalidad")

# A site's colophon, the line that names the platform it is built with ("Powered by
# Blogger.", "Proudly powered by WordPress", "Propulsé par Ghost"): a block of at most
# COLOPHON_MAX characters that says so is never the page's content, even where its
# footer is named as nothing (a short post's page read whole). Platforms named, not any
# "powered by": a landing page's "Powered by cutting-edge research." is its text.
COLOPHON_MAX = 120
# Its words, each verb with the words that follow it. A block's text that holds none of
# the verbs is not read further (notices.colophon).
COLOPHON = (
    ("powered|built|made|created|hosted", "by|with|on"),
    ("propulsé", "par"),
    ("propulsado", "por"),
    ("realizzato", "con"),
    ("betrieben", "mit|von"),
    ("erstellt", "mit"),
)
COLOPHON_PLATFORMS = (
    r"blogger|wordpress|ghost|hugo|jekyll|hexo|gatsby|eleventy|11ty|pelican|gridsome|"
    r"docusaurus|mkdocs|squarespace|wix|weebly|tumblr|drupal|joomla|typo3|shopify|"
    r"substack|medium|write\.?as|writefreely|bear blog|micro\.blog|blot|svbtle|"
    r"typepad|livejournal|jimdo|webflow|craft cms|statamic|kirby|grav|neocities|"
    r"github pages|netlify|vercel|cloudflare pages"
)

# notices.sample(): a block that holds more than SAMPLE_BLOCKS blocks is read through a
# walk of at most SAMPLE_EVENTS nodes' starts and ends, at most SAMPLE_DEPTH levels below
# it: a box nested a thousand deep costs each block around it that much, not the chain
# under it. On the three sets a sample needs at most 896 events and 48 levels. Only a
# block with no block inside is read by itertext(): 128 blocks let each of 120 boxes
# around 40 000 empty <span>s before a short paragraph read all of them (3 s of CPU).
SAMPLE_BLOCKS = 1
SAMPLE_EVENTS = 1024
SAMPLE_DEPTH = 64

# An article's estimated reading time on a line of its own ("11 min read", "3 MIN. READ",
# "Reading Time: 11 minutes", "Lesezeit: 5 Min."), or its label alone ("Reading time"):
# the site's, never the article's words ("30 minutes reading" alone names an activity, an
# item of a day's plan). A line of READING_TIME_MAX characters at most.
READING_TIME = (
    r"(?:(?:estimated\s+)?(?:reading|read)\s+time|lesezeit|temps\s+de\s+lecture"
    r"|tiempo\s+de\s+lectura)(?:\s*:?\s*(?:about\s+|~\s*)?\d+\s*(?:min(?:ute)?s?|min\.)"
    r"(?:\s+read)?)?"
    r"|(?:about\s+|~\s*)?\d+\s*(?:-\s*)?(?:min(?:ute)?s?\.?|m)\s+(?:read|reading\s+time)"
)
READING_TIME_MAX = 40
