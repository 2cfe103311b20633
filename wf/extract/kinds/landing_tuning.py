"""The tuning data of a landing page read whole (wf/extract/kinds/landing.py,
landing_prune.py, faq.py, footers.py), apart from its code: the thresholds of its second
opinions, the names of its parts, its site's header and footer (moved from
wf/extract/tuning.py, which was near the 500-line limit), and its calls to action."""

# A call to action alone on its line: a link or button of CTA_MAX characters at most,
# mostly links, whose whole text (white space collapsed, case aside) is one of these,
# an arrow after it or not. Marketing pages put one under every card and section.
CTA_MAX = 40
CALLS_TO_ACTION = (
    r"(?:learn more(?: about [\w ]+)?|read more|see more|explore more|find out more|"
    r"discover more|more information|learn how|see how|"
    r"get started(?: for free)?|start for free|start (?:your )?free trial|"
    r"try (?:it )?(?:for )?free|sign up|download(?: now| free)?|"
    r"contact us|get in touch|contact sales|talk to sales|get a quote|"
    r"(?:book|request|get) a demo|book demo|"
    r"read the (?:article|story|report)|read (?:the )?full (?:article|story|post)|"
    r"read (?:case|success) story|watch (?:the )?video|"
    r"see all [\w ]+|view all[\w ]*|explore [\w ]+|see pricing|view pricing|see plans)"
    r"\s*(?:→|›|>|»)?"
)

# A box named for a promotion (`cmp-promo__content`, `promo-card`) is a landing page's
# part when part() says so (prose of its own, not mostly links): a service page's
# cards, each a service and a line on it, are its sections. Elsewhere the word names
# recommendations that are never content (wf/extract/tuning.py NEVER_CONTENT).
SPARED = ("promo",)

# What the page prints without its named boilerplate, weighed against a thin choice
# (landing._thin), leaves out a list that is a menu named as nothing: a <ul> or <ol> of
# MENU_ITEMS items at least, MENU_LINKS of its text in links. A public service's page
# beside its section's long menu, in a plain grid column, is its short text, not a
# landing page to read whole.
MENU_ITEMS = 5
MENU_LINKS = 0.9

# A chosen box named for questions and answers or as an accordion (a class or id token,
# camelCase and snake_case split into words) on a page that declares no kind is a
# landing page's FAQ: one section of the page.
LANDING_FAQ = r"(?<![a-z])(?:faqs?|accordions?)(?![a-z])"
# Landing pages: a choice that holds under this share of the page's prose (outside named
# boilerplate), on a page that declares no article, thread, product or listing, is one
# section of many.
LANDING_SHARE = 0.5
# ...and when other boxes beside the choice or its ancestors (its sections' siblings) hold
# prose of a like weight: this many, each with this share of the choice's prose, most of
# it outside list items (a news ticker beside an article is no section).
LANDING_SECTIONS = 1
LANDING_SECTION_SHARE = 0.25
# A page that declares no article, or is documentation, is read whole without its named
# boilerplate when the choice prints under this share of the text outside links that
# would print (a service page's one section chosen among its cards, FAQs and calls to
# action; a manual's chapter whose text sits in boxes beside the chosen one).
LANDING_TEXT_SHARE = 0.65
# ...and when it leaves out this many characters at least: a short article's few teasers
# and sign-up lines are no sections.
LANDING_TEXT_LEFT = 500
# ...and when the choice prints under THIN_PAGE characters (links included) of a page
# that prints THIN_PAGE_OVER times as many without its named boilerplate: a manual's
# chapter page (its introduction chosen, its table of contents all links), a thread whose
# first post was chosen alone. Both figures were flat around these values on the tuning
# pages (600 to 1500 characters, 2 to 4 times).
THIN_PAGE = 1000
THIN_PAGE_OVER = 3.0
# ...and on a documentation page this many: its version pickers are gone before the
# choice (wf.extract.kinds.docs), and a chapter's page of a manual is often a short
# introduction beside a table of contents of a dozen links and nothing else. Flat from
# 1.5 to 2.5 on the tuning pages.
DOC_THIN_PAGE_OVER = 2.0
# A page's footer (footers.footers_out: a <footer>, role contentinfo or a box named by
# SITE_FOOTER) holding under this share of the page's text leaves a page read whole,
# though the walk exempted it as the wrapper of the page's prose.
FOOTER_SHARE = 0.5
# Boilerplate words that name a landing page's parts (its hero banner, calls to action,
# carousels of testimonials, promotions, pictures with their text, widgets): a box so
# named alone, with prose of its own and not mostly links, is one of its sections.
LANDING_PARTS = (
    "banner", "cta", "carousel", "promo", "image", "img", "picture", "photo", "photos",
    "widget", "slideshow", "gallery",
)  # fmt: skip
PART_LINKS = 100  # links of such a box read to count its text in links
# A landing page's section of testimonials, customers' logos and figures, named for the
# marketing term "social proof" (socialProof, social-proof, social_proof): no share box.
SOCIAL_PROOF = r"social[-_]?proof"
# A box so named (a word of a lowered class or id token: `hero-select__dropdown`) that
# is mostly links is a menu that drops down: the page read whole leaves it out.
LINK_DROPDOWN = r"(?:^|__|-)(?:dropdown|drop-down)(?:$|-|__)"
# A box named as the site's header (a whole lowered class or id token), which the page
# read whole leaves out when its text is mostly links.
SITE_HEADER = (
    r"^(?:(?:site|global|main|page|top|primary|universal)-?)?(?:header|masthead|top-?bar)"
    r"(?:-?(?:wrapper|container|inner))?$"
)
# A box named as the page's footer (in any class or id token: "site-footer",
# "Footer-styled__Lower", "footerContent"): a choice inside one is a notice, not content.
SITE_FOOTER = r"footer"
# ...unless it holds FOOTER_SHARE of the page's text or more and the page prints fewer
# characters than this without it and its named boilerplate: then the box so named wraps
# the page, which has no <h1> to tell it.
FOOTER_LEFT_MIN = 250
