"""The tuning data of the metadata reader, apart from the code that uses it: limits, the
schema.org types, the <meta> names of each key, month names, and the class tokens that
mark a byline or a date. Changing a list here changes what is found, never how."""

from __future__ import annotations

from wf.extract.tuning import WEEKDAYS_DE_FR, WEEKDAYS_EN

# --- limits (a page is written by anyone) -----------------------------------------------

# A JSON-LD script above this many characters is skipped: real ones (with a whole article
# body) stay well under it, and json.loads of a hostile one costs memory and time.
MAX_JSONLD_CHARS = 300_000
MAX_JSONLD_TOTAL = 1_000_000  # over all scripts of a page
MAX_JSONLD_SCRIPTS = 32
MAX_NODES = 5_000  # JSON objects visited per page
MAX_DEPTH = 12
MAX_VALUE_CHARS = 1_000  # per value; a description is a sentence or two
MAX_PARSELY = 10_000  # characters of Parse.ly's JSON tag read at most
BYLINE_CHARS = 100  # a visible byline longer than this is prose, not a name
BYLINE_WORDS = 12
MAX_BYLINES = 50  # candidate elements looked at
MAX_DATE_TEXT = 200  # characters of one value read for a date
MAX_DATE_ELEMENTS = 60  # elements with a date's class, attribute or tag looked at
MAX_SCRIPT_SCAN = 2_000_000  # characters of inline scripts searched for a date key
MAX_HEADER_SCAN = 40  # elements after the <h1> read for a visible date
MAX_HEADINGS = 5  # <h1> elements looked at for a product's name
MAX_HEADING_CHARS = 150  # a product's <h1> longer than this is no name
# What parts a page's own title from the site's name in its <title> or og:title
# ("Tutorial - User Guide - FastAPI", "Ansible playbooks — Ansible Community Documentation").
TITLE_SEPARATORS = (" - ", " – ", " — ", " | ", " · ", " • ", " :: ", " » ")
# A heading's permalink mark after its words ("Tutorial - User Guide¶": Sphinx, MkDocs,
# and the icon fonts' private-use glyphs).
PERMALINK_MARKS = "¶#§🔗\uf0c1"
SITE_NAME_CHARS = 80  # what a separator leaves after the heading, longer, is no site name

# --- schema.org types, lowercased -------------------------------------------------------

ARTICLE_SUFFIXES = ("article", "posting", "blogposting")
# What the page is about, most specific first.
CONTENT_TYPES = {
    "article": "article",
    "report": "article",
    "review": "review",
    "product": "product",
    "productgroup": "product",
    "recipe": "recipe",
    "event": "event",
    "videoobject": "video",
    "audioobject": "audio",
    "podcastepisode": "audio",
    "book": "book",
    "movie": "movie",
    "course": "course",
    "jobposting": "job",
    "howto": "howto",
    "qapage": "qa",
    "faqpage": "faq",
    "question": "qa",
    "dataset": "dataset",
    "softwareapplication": "software",
}
MEDIA = {"video", "audio"}
# Types that are a part of a page (the questions of its FAQ), taken for the page only
# when shown to be about it (a QAPage's question is in the page's title).
PARTS = {"question"}
# og:type values and JSON-LD kinds of a product page, whose <h1> names the product.
PRODUCT_TYPES = {"product", "product.item", "product.group"}
PAGE_TYPES = {
    "webpage",
    "itempage",
    "aboutpage",
    "collectionpage",
    "profilepage",
    "searchresultspage",
    "contactpage",
    "medicalwebpage",
}
SITE_TYPES = {"website"}
ORG_TYPES = {"organization", "newsmediaorganization", "corporation", "localbusiness"}

# --- <meta> names -----------------------------------------------------------------------

# Keys of <meta property|name|itemprop>, lowercased, to a metadata key, in order of trust
# (OpenGraph and Twitter first, then the rest).
META = {
    "title": (
        "og:title",
        "twitter:title",
        "dc:title",
        "dc.title",
        "dcterms:title",
        "dcterms.title",
        "headline",
    ),
    "author": (
        "article:author",
        "og:article:author",
        "dc:creator",
        "dc.creator",
        "dcterms:creator",
        "dcterms.creator",
        "author",
        "byl",
        "parsely-author",
        "sailthru.author",
        "citation_author",
    ),
    "date": (
        "article:published_time",
        "og:published_time",
        "datepublished",
        "dc:date",
        "dc.date",
        "dcterms:date",
        "dcterms.date",
        "dc.date.issued",
        "dcterms.created",
        "date",
        "pubdate",
        "publishdate",
        "parsely-pub-date",
        "sailthru.date",
        "citation_publication_date",
        # The names of other content systems and analytics tags, seen across news sites.
        "og:article:published_time",
        "article.published",
        "article_date_original",
        "publish-date",
        "publish_date",
        "publication_date",
        "date_published",
        "dc.date.created",
        "dc.date.published",
        "rnews:datepublished",
        "cxenseparse:recs:publishtime",
        "originalpublicationdate",
        "published",
        "w-published-date",
        "citation_date",
        "citation_online_date",
    ),
    "modified": (
        "article:modified_time",
        "og:updated_time",
        "datemodified",
        "dcterms.modified",
        "og:article:modified_time",
        "article_date_updated",
        "dc.date.modified",
    ),
    "sitename": ("og:site_name", "application-name"),
    "description": (
        "og:description",
        "twitter:description",
        "dc:description",
        "dc.description",
        "dcterms:description",
        "dcterms.description",
        "description",
    ),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "image"),
    "canonical_url": ("og:url",),
    "type": ("og:type",),
    "lang": ("og:locale", "dc.language", "content-language"),
}

# Labels of twitter:label1..4 whose twitter:data is the author's name.
AUTHOR_LABELS = ("written by", "author", "by", "geschrieben von", "verfasst von", "écrit par")

# Paths of an author's or a forum user's page on the page's own site: the text of the
# first link to one, outside comments, related lists and sidebars, is a byline's name
# when no byline says more. ("/profile/" and "/members/" are as often sign-up pages.)
AUTHOR_PATHS = (
    "/author/",
    "/authors/",
    "/staff/",
    "/contributors/",
    "/writers/",
    "/users/",
    "/u/",
    "user?id=",
)

# --- words ------------------------------------------------------------------------------

# Month names in the languages most pages here are in (English, German, French), full
# and cut short: "December 27, 2014", "Dec. 27, 2014", "27. Dezember 2014", "27 déc. 2014".
MONTH_NAMES = (
    "january jan januar janvier janv",
    "february feb februar février fevrier févr fevr",
    "march mar märz maerz mär mars",
    "april apr avril avr",
    "may mai",
    "june jun juni juin",
    "july jul juli juillet juil",
    "august aug août aout",
    "september sep sept septembre",
    "october oct oktober okt octobre",
    "november nov novembre",
    "december dec dezember dez décembre decembre déc",
)

# "By" and its kin, where no name starts with the word ("Di", "Van" or "Af" may).
BY_WORDS = ("by", "von", "par", "por")
# A byline's first line that is a label for the name on the line under it, its whole
# text ("Posted<br>ann", "Author<br>Ann Lee"): no name.
BYLINE_LABELS = (
    "posted", "published", "updated", "written", "author", "authors", "autor", "auteur",
    "autore", "posted on", "published on", "written by",
)  # fmt: skip
# A byline's first line that is the writer's job ("Staff Writer<br>Ann Lee", "Senior
# Editor<br>Ann Lee"): every word one of BYLINE_ROLE_WORDS, one of them a job's own name
# (BYLINE_ROLES); the name is on the lines under it.
BYLINE_ROLES = (
    "writer", "editor", "reporter", "correspondent", "contributor", "columnist", "journalist",
    "photographer", "producer", "analyst", "intern", "redakteur", "redakteurin", "rédacteur",
    "rédactrice", "journaliste", "redactor", "redactora", "periodista",
)  # fmt: skip
BYLINE_ROLE_WORDS = BYLINE_ROLES + (
    "staff", "senior", "junior", "contributing", "managing", "executive", "associate",
    "deputy", "chief", "news", "sports", "features", "freelance", "guest", "assistant",
    "editor-in-chief", "editorial", "technical", "copy", "data", "science", "health",
    "business", "politics", "digital", "content", "lead", "principal", "and", "&", "of",
    "the", "in", "at",
)  # fmt: skip
# A weekday as a board writes it before a post's date ("Mon Jan 01, 2024 10:00 am"): what
# is left of a byline once the date went, no name (no name is one of these words).
BYLINE_WEEKDAYS = WEEKDAYS_EN
# The same in the languages of phpBB's other packs ("Beitrag von ann » Mo 1. Jan 2024",
# "Message par ann » lun. 1 janv. 2024"), read only after a board's mark: some are names
# alone ("Sam", "Dom", "Di"). German and French as a post's date reads them
# (wf/extract/tuning.py), then Spanish and Portuguese.
BYLINE_WEEKDAYS_MARKED = WEEKDAYS_DE_FR + (
    "mié", "mie", "jue", "vie", "sáb", "sab", "dom", "lunes", "martes", "miércoles",
    "miercoles", "jueves", "viernes", "sábado", "sabado", "domingo", "seg", "ter", "qua",
    "qui", "sex",
)  # fmt: skip
# A weekday before a date of its own language: a byline of the date alone ("Mo 1. Jan
# 2024", "lun. 1 janv. 2024", "sáb 6 ene 2024") names nobody. Some of these words are names
# ("Sam", "Dom", "Di") and stay so before a date of another language ("Sam 1. Jan 2024",
# "Dom 5 May 2024"). Per language: its weekdays, the month words its dates have and
# English ones lack, and whether its day is written "1.".
BYLINE_DATE_LANGUAGES = (
    (
        "mo di mi do fr sa so montag dienstag mittwoch donnerstag freitag samstag sonntag",
        "januar februar märz mär maerz mai juni juli oktober okt dezember dez",
        True,
    ),
    (
        "lun mar mer jeu ven sam dim lundi mardi mercredi jeudi vendredi samedi dimanche",
        "janvier janv février févr fevrier fevr mars avril avr mai juin juillet juil août aout "
        "septembre octobre novembre décembre déc decembre",
        False,
    ),
    (
        "lun mar mié mie jue vie sáb sab dom lunes martes miércoles miercoles jueves viernes "
        "sábado sabado domingo seg ter qua qui sex",
        "ene enero febrero marzo abr mayo junio julio ago agosto septiembre set octubre out "
        "noviembre diciembre dic janeiro fev fevereiro março marco maio junho julho setembro "
        "outubro novembro dezembro dez",
        False,
    ),
)
# The weekdays of BYLINE_DATE_LANGUAGES that are also names, or words of one: before a
# date of digits alone ("01/01/2024"), which has no language, the others are the date's
# weekday ("lundi 01/01/2024"), these a name ("Sam 01/01/2024").
BYLINE_WEEKDAY_NAMES = ("di", "do", "sa", "so", "mar", "sam", "dom", "domingo", "sex", "ter")
# The post icon's words for screen readers before a board's "by" ("Post by ann", "Beitrag
# von ann", "Message par ann", "Mensaje por ann"): no part of the name.
BOARD_POST_WORDS = ("post", "beitrag", "message", "mensaje", "mensagem")

# --- dates the page shows (pagedates.py) ------------------------------------------------

# Words in a data-* attribute's name that mark a date ("data-date", "data-published",
# "data-timestamp", "data-item_date") and in a class or id ("post-date", "dateline",
# "entry-meta", "DateTime", a byline "By Ann Lee, May 3, 2021"); an element so marked
# counts only when its value parses.
DATE_ATTR_WORDS = ("date", "publish", "time", "posted", "created")
DATE_CLASS_WORDS = (
    "date",
    "Date",
    "publish",
    "Publish",
    "posted",
    "time",
    "Time",
    "meta",
    "uthor",
    "yline",
)
# Ancestors whose class or id has a word (split at "-", "_" and the like) starting with
# one of these hold dates that are not the page's; one that also has the word "main" is
# the page's own layout ("sno-story-sidebar-mode-single sno-main-content").
NOT_DATE_AREA = (
    "comment",
    "related",
    "recommend",
    "sidebar",
    "widget",
    "popular",
    "trending",
    "reply",
    "replies",
    "footer",
)
# Labels that call a date the publication or an update, in the languages of MONTH_NAMES.
PUBLISHED_WORDS = (
    "publish",
    "posted",
    "created",
    "pubdate",
    "veröffentlicht",
    "erschienen",
    "publié",
)
UPDATED_WORDS = (
    "updat",
    "modif",
    "edited",
    "revised",
    "aktualisiert",
    "geändert",
    "mis à jour",
)
# English written day first ("03/04/2025" is 3 April); other English is month first, and
# every other language day first.
DAYFIRST_ENGLISH = ("en-gb", "en-au", "en-nz", "en-ie", "en-in", "en-za")
# Keys under which frameworks ship a page's publication date in inline scripts.
SCRIPT_DATE_KEYS = (
    "datePublished",
    "publishedDate",
    "published_on",
    "publishedOn",
    "publishDate",
    "publish_date",
    "postDate",
    "publishedAt",
    "published_at",
    "date_published",
    "firstPublishedAt",
    "first_published_at",
    "pubDate",
)
