"""The tuning data of the metadata reader, apart from the code that uses it: limits, the
schema.org types, the <meta> names of each key, month names, and the class tokens that
mark a byline or a date. Changing a list here changes what is found, never how."""

from __future__ import annotations

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
