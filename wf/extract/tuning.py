"""Tuning data of the page kinds, apart from the code that uses it (as trafilatura keeps
its XPath expressions in xpaths.py): which declarations name which kind, and the
thresholds of the structural rules. Change a figure here only on the evidence of many
pages of a kind (tests/bench/bench_kinds.py), never of one.
"""

from __future__ import annotations

ARTICLE = "article"
THREAD = "thread"
DOCUMENTATION = "documentation"
PRODUCT = "product"
LISTING = "listing"
LANDING = "landing"
KINDS = (ARTICLE, THREAD, DOCUMENTATION, PRODUCT, LISTING, LANDING)

# schema.org types (JSON-LD @type, microdata itemtype's last part), lowered -> kind.
SCHEMA_KINDS = {
    "qapage": THREAD,
    "discussionforumposting": THREAD,
    "socialmediaposting": THREAD,
    "product": PRODUCT,
    "productgroup": PRODUCT,
    "individualproduct": PRODUCT,
    "productmodel": PRODUCT,
    "car": PRODUCT,
    "vehicle": PRODUCT,
    "techarticle": DOCUMENTATION,
    "apireference": DOCUMENTATION,
    "howto": DOCUMENTATION,
    "itemlist": LISTING,
    "collectionpage": LISTING,
    "searchresultspage": LISTING,
    "offercatalog": LISTING,
    "article": ARTICLE,
    "newsarticle": ARTICLE,
    "blogposting": ARTICLE,
    "reportagenewsarticle": ARTICLE,
    "analysisnewsarticle": ARTICLE,
    "opinionnewsarticle": ARTICLE,
    "scholarlyarticle": ARTICLE,
    "recipe": ARTICLE,
    "review": ARTICLE,
    "liveblogposting": ARTICLE,
    "faqpage": LANDING,
    "service": LANDING,
    "aboutpage": LANDING,
    "contactpage": LANDING,
}
# An ItemList of these alone (a landing page's testimonials as JSON-LD) declares no listing.
REVIEW_TYPES = frozenset(("review", "criticreview", "userreview", "employerreview"))
# og:type values -> kind (og:type "website" says nothing).
OG_KINDS = {
    "article": ARTICLE,
    "product": PRODUCT,
    "og:product": PRODUCT,
    "product.item": PRODUCT,
    "product.group": LISTING,
}
# When a page declares several kinds, the first of these wins: a question page declares
# a QAPage and an Article, a product page an ItemList of related products, an article an
# ItemList of its slides. A listing is believed only when nothing more specific is said.
PRIORITY = (THREAD, PRODUCT, DOCUMENTATION, ARTICLE, LISTING, LANDING)
# (Question and Answer alone name no thread: an FAQPage's mainEntity is a list of them.)
# A page that declares this many Product objects is a collection of products.
PRODUCTS_LISTING = 3
# Path segments of documentation sites, read only when the page declares no other kind
# than an article (documentation systems declare none, or an Article).
DOC_PATHS = frozenset(
    (
        "docs",
        "doc",
        "documentation",
        "reference",
        "manual",
        "api",
    )
)
# ...and the hosts of documentation sites (docs.python.org, doc.rust-lang.org,
# developer.android.com).
DOC_HOSTS = ("docs.", "doc.", "developer.")
# ...and segments that name a guide as often as a manual's part (a shop's /learn/, a news
# site's /guides/): they say documentation only on a page that shows code (a <pre> or a
# <code>).
DOC_PATHS_WITH_CODE = frozenset(("guide", "guides", "learn", "tutorial"))
# Path segments of a thread's own page, read as DOC_PATHS are: forum software and social
# sites name a topic's page so (Reddit's /r/x/comments/id/, XenForo's /threads/, Stack
# Exchange's /questions/, phpBB's and vBulletin's scripts) and declare no thread on some.
# Not /topic/ nor /t/: news sites and shops name their tag pages so.
THREAD_PATHS = frozenset(("comments", "threads", "questions", "viewtopic.php", "showthread.php"))
# A topic's page named in the query instead (SMF's index.php?topic=12.0).
THREAD_QUERY = r"(?:^|[&;])topic=\d"
JSONLD_MAX = 200_000  # characters of one JSON-LD script read (a catalogue can be huge)
JSONLD_SCRIPTS = 20  # scripts read per page

# Posts, cards and rows: sibling boxes of one tag and class (digits left out).
SIBLINGS_MIN = 3  # similar siblings that make a list of posts or items
SIBLINGS_MIN_THREAD = 2  # on a page declared a thread: a question and one answer
SIBLINGS_SHARE = 0.5  # the siblings hold this share of their parent's text at least
SIBLINGS_LEVELS = 4  # ancestors of the chosen block looked at
POST_PROSE = 30  # characters of prose that make a sibling a post
# On a page that declares no thread, its posts hold this share of its prose and of its text.
THREAD_SHARE = 0.75
THREAD_TEXT = 0.5
THREAD_SHARE_FEW = 0.6
THREAD_POSTS = 5  # posts at least that show a thread on a page that declares none
TOPIC_TITLE_MAX = 300  # characters: a longer <h1> in a first post is no topic's title

# A product page's own lines from its declaration: at most this long each.
PRODUCT_FIELD_MAX = 300
# schema.org's ItemAvailability values (the URL's tail, lowered) as a reader says them;
# a value not listed is split at its capitals ("LimitedAvailability": "Limited availability").
PRODUCT_AVAILABILITY = {
    "instock": "In stock",
    "outofstock": "Out of stock",
    "soldout": "Sold out",
    "preorder": "Pre-order",
    "presale": "Pre-sale",
    "backorder": "Back-order",
    "discontinued": "Discontinued",
    "instoreonly": "In store only",
    "onlineonly": "Online only",
    "madetoorder": "Made to order",
}
# ...but the description, printed when the chosen text does not show it: at most this long.
PRODUCT_DESCRIPTION_MAX = 4000
# The chosen text shows the declared description when it holds this share of its
# three-word runs (a shop's text and its declaration differ in spaces, marks and entities).
PRODUCT_DESCRIPTION_SHOWN = 0.5
# Class and id words of the boxes of a product's customer reviews and of the services
# that host them (Bazaarvoice, Yotpo, Trustpilot, Okendo, Judge.me, Stamped), matched
# as whole words of a lowered token.
PRODUCT_REVIEWS = (
    r"(?<![a-z])(?:reviews?|ratings?|testimonials?|yotpo|bazaarvoice|bv|trustpilot|okendo|"
    r"jdgm|judgeme|stamped)(?![a-z])"
)
# A product page whose choice prints under this share of the text outside links that the
# page prints without its named boilerplate is read whole (product_widen.second_opinion).
PRODUCT_TEXT_SHARE = 0.5
# A product page's section titled for the shop's policies (shipping, delivery, returns,
# warranty), in a few languages: the same text on every product of the shop, never the
# product's own. The whole title matches (a label of a few words, not a sentence).
_POLICY_WORD = (
    r"(?:(?:free|lifetime)\s+)?(?:shipping|delivery|returns?|exchanges?|refunds?|"
    r"warrant(?:y|ies)|guarantees?|versand|lieferung|r\u00fcckgabe|retouren?|garantie|"
    r"livraison|retours?|env\u00edos?|envios?|devoluci(?:\u00f3|o)n(?:es)?|garant\u00eda|"
    r"spedizioni?|resi|garanzia|verzending)"
)
# Class and id words of a box that sets other products beside this one (a table comparing
# a shop's kits, "Compare with similar items"): whole words of a lowered token.
PRODUCT_COMPARED = r"(?<![a-z])(?:compare|comparison)(?![a-z])"
PRODUCT_POLICY_TITLE = (
    rf"\W*{_POLICY_WORD}(?:\s*(?:&|and|und|et|y|e|en|\+|,|/)\s*{_POLICY_WORD})*"
    r"(?:\s+(?:policy|policies|info|information|details))?[^\w:]*"
)  # ...but a field's label ("Shipping:" before its cost) is no section's title
PRODUCT_POLICY_TITLE_MAX = 60  # characters: a longer first line is no section's title
# A class that hides its box (Bootstrap's `d-none`, `hide`, `is-hidden`) until a script
# shows it: on shops, a data dump the scripts read (a product's fields as a hidden list)
# or a menu's copy. A class that names a breakpoint (`md:block`) shows it on some screens.
# Amazon's style sheet hides its own so (`a-hidden`, `aok-hidden`: the wish list's error
# boxes, "Sorry, there was a problem").
PRODUCT_HIDDEN_CLASS = r"(?<![\w:-])(?:hidden|hide|d-none|is-hidden|a-hidden|aok-hidden)(?![\w:-])"
# Characters of prose (lines of 15 words or more) from which a product's text tells it
# well enough without its declared description (a summary for search engines). A shoe
# told in three short paragraphs (about 700 characters) is told; a page whose scripts
# write its text has none. Halfway between, on the pages tuned on.
PRODUCT_TOLD = 350
PRODUCT_POLICY_MAX = 1500  # characters: a longer section is more than the shop's policy
# Class and id words of a section's title in an accordion or tabs.
PRODUCT_POLICY_LABEL = r"title|heading|header|label|toggle|trigger|summary|accordion|tab"
# A post shows who wrote it or when: a <time>, or a box named for its author or date. A
# group of sibling boxes with prose is a thread only when most of them show one (sections
# of an article do not).
# A link to a person's page, by its path: a post's author when nothing names one.
POST_PROFILE_PATH = r"/(?:profile|profiles|users?|members?|u|people|author)/[^/?#]"
POST_AUTHOR_ATTRIBUTES = ("author", "data-author")  # a post box's own attribute naming its author
POST_MARK = r"author|user|byline|poster|member|date|time|meta|avatar"
MARK_SCAN = 400  # elements of a post looked at for its mark
MARK_POSTS = 12  # posts of a group looked at for their marks

# A box named as a pager (pagination, pager) that holds more text than this holds the
# page's results beside its pager: it is walked as any other box.
PAGER_TEXT_MAX = 400
# A box of this many characters or more that repeats an earlier box word for word is
# printed once (wf/extract/kinds/copies.py: a page's copies of a section per layout).
COPY_MIN = 100
# ...when a box on the path from either copy to the box holding both is named for a
# screen size (Bootstrap's `hidden-md` and `d-lg-none`, Tailwind's `md:hidden` or `hidden`
# beside `md:flex`, `mobile`, `desktop-only`): the page's layouts each have their copy.
# Searched in a lowered class attribute.
LAYOUT_COPY = (
    r"(?<![a-z])(?:mobile|desktop|tablet)(?![a-z])|(?<![a-z])(?:hidden|visible|hide|show)"
    r"-(?:for-)?(?:xs|sm|md|lg|xl|xxl|mobile|desktop|tablet|small|medium|large|gt|lt)"
    r"(?![a-z])|(?<![a-z])d-(?:xs|sm|md|lg|xl|xxl)-(?:none|block|flex)(?![a-z-])|"
    r"(?<![a-z-])(?:sm|md|lg|xl|2xl):hidden(?![a-z-])|"
    # Tailwind's box hidden on small screens: `hidden` and `md:block` (or flex...).
    r"(?:^|\s)hidden\s(?:.*\s)?(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline)(?:\s|$)"
)
# A link to a place on its own page (href="#...") that starts so is a skip link: hidden
# until a keyboard reaches it, never text a reader sees ("Skip to main content", "Skip
# this section", German, French, Spanish, Italian, Dutch, Portuguese). Matched on the
# lowered text of a link of at most SKIP_LINK_MAX characters.
SKIP_LINK = (
    r"^\W*(?:skip (?:to|this|past|over|navigation|directly)|jump to (?:the )?(?:main )?"
    r"(?:content|navigation|menu)|(?:direkt |springe )?zum inhalt|zur navigation|"
    r"(?:aller|passer) (?:au|à la) (?:contenu|navigation)|(?:saltar|ir) al contenido|"
    r"(?:passa|vai) al contenuto|(?:ga )?naar (?:de )?(?:hoofd)?inhoud|"
    r"(?:pular|ir) para o conte[uú]do)"
)
SKIP_LINK_MAX = 60
# A link so classed is shown only when a keyboard reaches it (Bootstrap's
# `sr-only-focusable`, `visually-hidden-focusable`): a skip link whatever its words.
FOCUS_ONLY = r"(?<![a-z])(?:sr-only|visually-hidden)-focusable(?![a-z])"


# The block scoring's words (wf/extract/names.py, notices.py).

# Words in class and id values that name boilerplate on any site (with the commonest
# non-English stems for comments and advertising). The distinctive ones match inside
# longer names too (sitefooter, relatedPosts, commentlist); the short or ambiguous ones
# only as whole words, so that "ad" does not match "header".
# fmt: off
NEGATIVE_STEMS = (
    "comment(?!ary)", "disqus", "share", "sharing", "social", "related", "recommend",
    "recirc", "promo", "newsletter", "subscri", "signup", "advert", "sponsor", "sidebar",
    "widget", "footer", "breadcrumb", "navbar", "navigation", "menu", "cookie", "consent",
    "gdpr", "banner", "popup", "modal", "outbrain", "taboola", "trending", "popular",
    "byline", "pagination", "toolbar", "login", "caption", "gallery", "slideshow",
    "carousel", "feedback", "coment", "komment", "reklam", "werbung", "publicidad",
    "publicite", "empfehlung", "verwandte", "meistgelesen", "relacionad", "illustration",
    # Consent platforms name their containers alike on every site: OneTrust, Cookiebot,
    # Didomi, Usercentrics, Quantcast, TrustArc, Sourcepoint, Borlabs, Complianz, CookieYes.
    "onetrust", "ot-sdk", "optanon", "cybot", "didomi", "usercentrics", "qc-cmp",
    "trustarc", "sp-message", "borlabs", "cmplz", "cmpbox", "iubenda", "axeptio",
    "tarteaucitron",
)
# (`illustration`: a landing page's picture beside a section, which draws the product's
# screens in HTML, every label and row of a made-up account shown as text.)
NEGATIVE_WORDS = (
    "ad", "ads", "adv", "nav", "rail", "tags", "cta", "follow", "rating", "skip", "pager",
    "print", "author", "cmp", "klaro", "anzeige", "more-from", "also-like", "may-like",
    "other-news", "lire-aussi", "articles-lies", "mehr-zum-thema", "weitere-artikel",
    "truste", "teaser", "teasers", "abo", "upsell", "date", "dates", "dateline", "timestamp",
    "meta", "page-metadata", "publish", "published", "photo", "photos", "image", "img",
    "picture", "sr-only", "visually-hidden", "screen-reader", "screen-reader-text",
    "most-read", "more-stories", "author-bio", "jump-link", "see-also", "also-read",
    "nocontent", "navheader",
)
# (`page-metadata`: a manual's list of the page's kind and date under its title, printed
# over its first paragraph; not `metadata` alone, which a listing's items are named by.)
# (`nocontent` is Google's mark for what its search leaves out of a page, on its
# developer sites' feedback and licence boxes among others; `navheader` DocBook's row of
# Prev, Up, Home and Next links over each page of a manual.)
# fmt: on


# Boilerplate that can outweigh a short article but never wraps one: reader comments and
# recommendations. A page is never read as if these held its content (matched without case).
NEVER_CONTENT = (
    r"comment(?!ary)|coment|komment|disqus|related|recommend|outbrain|taboola|popular|"
    r"trending|promo|newsletter|empfehlung|verwandte|meistgelesen|"
    # Consent managers (their legal text about vendors and purposes is long prose).
    r"consent|cookie|gdpr|onetrust|ot-sdk|optanon|cybot|didomi|usercentrics|qc-cmp|"
    r"truste|sp_message|borlabs|cmplz|cky-consent|uc-banner|cmpbox|iubenda|axeptio|"
    r"tarteaucitron|(?<![a-z])(?:cmp(?![a-z-])|klaro(?![a-z]))"
)
# Adobe Experience Manager prefixes its core components' classes so (`cmp-text`,
# `cmp-teaser`, `cmp-accordion__item`): "cmp" then names no consent manager.
AEM_PREFIX = "cmp"

# Words of a consent manager's legal text, in the languages most pages here use and as
# loanwords in most others ("cookie", "tracking"); one every NOTICE_SPACING characters of
# text at least makes a box a consent dialog rather than an article that mentions them.
# Counted with str.count on the lowered text: a regex alternation is a hundred times
# slower here.
CONSENT_WORDS = (
    "cookie", "consent", "einwillig", "zustimm", "datenschutz", "privacy", "privacidad",
    "confidentialit", "partner", "vendor", "anbieter", "purpose", "zweck", "finalit",
    "legitimate interest", "berechtigte", "personalis", "personaliz", "tracking",
    "widerruf", "withdraw", "gerät", "device", "stored", "gespeichert",
    "partenaire", "appareil", "donnée", "personal data", "personenbezogen",
    "\u30af\u30c3\u30ad\u30fc", "\u540c\u610f", "\u30d1\u30fc\u30c8\u30ca\u30fc",
)  # fmt: skip
# One of these is in every consent dialog: the rest are counted only then. (Japanese:
# "cookie" and "consent".)
CONSENT_CORE = (
    "cookie",
    "consent",
    "einwillig",
    "zustimm",
    "\u30af\u30c3\u30ad\u30fc",
    "\u540c\u610f",
)

# A subscription prompt under an article cut short ("Möchten Sie weiterlesen?", "Subscribe
# now to keep reading"): a small box that starts by asking to read on and offers a
# subscription, whatever it is named. Lowered text; the first in the box's first
# PROMPT_HEAD characters, the second anywhere in a box of at most PROMPT_MAX. "Read on"
# alone is a teaser card's link; an offer alone is a newsletter's, judged elsewhere.
READ_ON = (
    "weiterlesen", "lesen sie weiter", "weiter lesen", "keep reading", "continue reading",
    "read the rest", "read the full", "continuer à lire", "continuer la lecture",
    "poursuivre la lecture", "lire la suite", "seguir leyendo", "continuar leyendo",
    "continua a leggere", "continuare a leggere", "verder lezen", "lees verder",
    "continue lendo", "continuar lendo", "czytaj dalej", "kostenlos weiterlesen",
    # ...or says the rest is kept for subscribers.
    "for subscribers only", "reserved for subscribers", "nur für abonnenten",
    "exklusiv für abonnenten", "réservé aux abonnés", "réservée aux abonnés",
    "reservado a suscriptores", "reservado para suscriptores", "solo para suscriptores",
    "riservato agli abbonati", "alleen voor abonnees",
)  # fmt: skip
# An offer: a subscription (or a free registration) named, or its terms (a price by the
# month, a free trial, no tie: "monatlich kündbar", "sans engagement", "cancel anytime").
SUBSCRIPTION = (
    r"(?<![a-z])abos?(?![a-z])|digitalabo|abonn|subscri|suscri|assin[ae]|subskrypc|"
    r"prenumerat|membership|premium|registrier|register|free account|compte gratuit|"
    r"kündbar|gratis testen|jetzt testen|sans engagement|résiliable|"
    r"cancel any ?time|cancela cuando|disdici|opzegbaar|(?:per|a|pro|im|par|al) "
    r"(?:month|monat|mois|mes|mese)(?![a-z])|monatlich"
)
PROMPT_HEAD = 200
PROMPT_MAX = 600

# Threads: where a post names its author and date (class, id or itemprop), and the short
# controls around posts (votes, share, follow, flag, reply, "log in to reply").
POST_AUTHOR = (
    r"author|user-?name|poster|nickname|member-?name|display-?name|user-?link|user(?![a-z])"
)
POST_DATE = r"date|time|posted(?!it)|timestamp|relativetime"
# What parts a byline's author from its date ("by ann » Tue Aug 27, 2019 4:08 am"), and the
# words before an author's name.
POST_BYLINE_SEPARATOR = r"\s(?:[»|·•\-–—]|&raquo;)\s"
# phpBB's post icon's words for screen readers ("Post", "Beitrag", "Message") may head it.
POST_BY = (
    r"^(?:(?:posted|post|beitrag|message|mensaje|mensagem|bericht|messaggio)\s+)?"
    r"(?:by|von|par|door|da|por|av|przez|от)\s+"
)
# The verb and the preposition a date is shown with ("answered Mar 28, 2014", "on Dec 27,
# 2023", German "am 5. März 2024"), left out of the post's line: the date is the same
# without them, and the line names the author and the date only.
POST_DATE_ON = (
    r"^(?:(?:asked|answered|posted|replied|commented)\s+)?(?:(?:on|am|le|el)\s+)?"
    r"(?=\d|[^\W\d_]+\.?\s+\d)"
)
BYLINE_MAX = 80  # characters: an author's or a date's box is short
AVATAR_INITIAL = 2  # characters before a name in its card: an avatar's letter and a space
DATE_BOXES = 8  # boxes named for a date looked at in a post (the author's own, an editor's)
# Weekdays as dates write them, short and long: in English, and in German and French (the
# metadata's bylines read these too: metadata/tuning.py's BYLINE_WEEKDAYS and
# BYLINE_WEEKDAYS_MARKED).
WEEKDAYS_EN = (
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)  # fmt: skip
WEEKDAYS_DE_FR = (
    "mo", "di", "mi", "do", "fr", "sa", "so", "montag", "dienstag", "mittwoch",
    "donnerstag", "freitag", "samstag", "sonntag", "lun", "mar", "mer", "jeu", "ven", "sam",
    "dim", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
)  # fmt: skip
# Words of a date written out beside the month's name and numbers ("Wed Dec 27, 2023
# 11:04 am", "Di., 5. März 2024 um 10:00"): a short box of only these is a post's date.
POST_WEEKDAYS = WEEKDAYS_EN + WEEKDAYS_DE_FR
POST_DATE_WORDS = POST_WEEKDAYS + (
    "am", "pm", "at", "on", "um", "uhr", "le", "à", "st", "nd", "rd", "th", "utc", "gmt",
)  # fmt: skip
POST_CONTROLS = (
    "share", "follow", "flag", "report", "reply", "quote", "like", "upvote", "downvote",
    "vote", "bookmark", "permalink", "edit", "log in to reply", "sign in to reply",
    "log in to comment", "sign in to comment", "add a comment", "improve this answer",
    "improve this question", "show activity on this post", "copy link", "helpful",
)  # fmt: skip
CONTROL_MAX = 40  # characters: a control's box is short
# A post's note of its edits, by how it starts ("Last edited by ann", "Edited January 29
# by ann", "edited Apr 13, 2017 at 12:52"; not "Edited to add: ..."), and its length at most.
POST_EDITED = (
    r"(?:last edited|edited by|edited (?:on |at )?(?:[^\W\d_]+\.? )?\d|zuletzt bearbeitet"
    r"|bearbeitet von|derni[eè]re modification|modifi[eé] par|editado por|[uú]ltima edici[oó]n"
    r"|modificato da)"
)
EDIT_NOTE_MAX = 160
# An ad's label: the whole line of a pseudo-post's author ("Advertisement") or a short line
# in a post ("Advertisement (gone after registration)"), of AD_LABEL_MAX characters at most.
POST_AD_LABEL = r"(?:advertisements?|sponsored|anzeige|werbung|publicit[eé])(?: ?\(.*\))?"
AD_LABEL_MAX = 60
# How such a note's first words start, read before the note is read whole: an inline note
# (Invision's "<strong>Edited <time>August 26</time> by ann</strong>") is looked for so.
POST_EDITED_START = r"\s*(?:last edited|edited|zuletzt|bearbeitet|derni|modifi|editado|[uú]ltima)"
# A reply's title, the topic's with a prefix ("Re: Tide tables", German "AW:"): a heading
# so begun inside a thread is no part of the post.
POST_REPLY_TITLE = r"(?:re|aw|sv|vs|rif|odp)\s*:"
SHORT_REPLY = 1000  # characters at most in a reply too short to count as a post, card and all
SHORT_BLOCKS = 80  # blocks at most in such a reply (a hostile one nests hundreds)
PREVIEW_MIN = 40  # characters of a post's line that may be a preview of a later one
PREVIEW_ALIKE = 8  # later lines of one start a line is compared with
HEADINGS_MAX = 200  # headings of a thread compared with those above them
POST_QUOTE = r"(?<![a-z])quote"  # a box so named in a post is a quote (bbcode_quote, quotebox)
QUOTES_MAX = 50  # quotes of one post looked at (a hostile page nests hundreds)
QUOTE_RUN = 4  # words in a run compared between a quote and the posts above it
QUOTE_SEEN = 0.7  # share of a quote's runs printed above that make it a repeat
QUOTE_BODY = 0.8  # share of a post's text in one <blockquote> that makes it the post's body
# A <blockquote>'s attributes that say whose words it holds: a quote, not a post's body.
QUOTE_CITES = ("cite", "data-quote", "data-author")
# A post's counts its microdata names (upvoteCount, commentCount, answerCount, and
# Discourse's interactionStatistic, "3 Likes"): numbers, often hidden by a class the
# extractor does not read, that no reader takes for text.
POST_COUNT = r"count$|^interactionstatistic$"
# Boxes inside a post that are never its body: the comments under a question or an
# answer (when the post is not itself a comment) and the author's signature.
POST_SIGNATURE = r"signature|(?<![a-z])sig(?![a-z])"
POST_SIDE = r"comment|" + POST_SIGNATURE

# A figure's caption after its quotation, of this many characters at most, names who said
# it (names_held.attribution): no boilerplate, unlike a picture's caption.
ATTRIBUTION_MAX = 300

# Words a heading left with nothing under it holds at least, ending as a sentence does,
# to be kept as a paragraph (wf/extract/sections.py): prose in a heading's type.
HEADING_PROSE_WORDS = 8
HEADING_PROSE_LONG = 20  # words: prose however it ends
# A run of this many headings or more, of one level, each left with nothing under it, is
# a list written as headings (a product's features, a page's points), kept: the titles
# of sections whose text was cut stand one or two at a time.
HEADING_RUN = 3

# An element hidden from screen readers (aria-hidden) is shown to the eye when the nearest
# box of this many around it that has an aria-label speaks its words (wf/extract/hidden.py).
SPOKEN_LEVELS = 3

# The signs shops print beside an amount, read as a price's mark (a product's text shows
# its declared price: kinds/product_text; a shop's grid prices its items: listing_tuning).
# (The lira, hryvnia, dong, baht, peso, naira and shekel too: a shop in Bangkok prints
# "฿1,290" beside its buy button as one in London prints "£45.00".)
CURRENCY_SIGNS = "[$€£¥₹₩₽₺₴₫฿₱₦₪]"
