"""The tuning data of listings (wf/extract/kinds/listing.py): what makes sibling boxes
the items of a list, when the list outweighs the article rule's choice, and what of a
card goes. Apart from the scoring code, as wf/extract/tuning.py is."""

from wf.extract.tuning import CURRENCY_SIGNS

# Listings: items are sibling boxes of one shape, each with a link and some words of its
# own beside it (a title and a date, a price, an excerpt); a menu's items are all link.
LIST_MIN = 5  # items that make a list
LIST_ITEM_WORDS = 12  # characters outside links that most items hold
# ...and an item is short: boxes that hold this many characters each on average are the
# sections of a page (a product page's panels), not the items of a list.
LIST_ITEM_MAX = 2000
# A list inside a box named for the page's frame is its navigation, whatever its shape.
# (A box hidden from sight but for screen readers, as a page's copy of its menus, too.)
LIST_FRAME = r"(?<![a-z])(?:nav|navbar|menu|megamenu|header|footer|breadcrumbs?|sidebar|toolbar|tabs|filters?|facets?|reviews?|visually-hidden|sr-only|screen-reader-text)(?![a-z])"
# ...but not after has-, with-, no-, without- or is-: "o-layout has-sidebar" names the
# layout that puts a sidebar beside the list, not the sidebar (as names.py reads them).
LIST_FRAME_UNMODIFIED = r"(?<!has-)(?<!with-)(?<!no-)(?<!without-)(?<!is-)"
LIST_FRAME_TAGS = frozenset(("nav", "aside", "footer", "header", "form"))
# The second opinion takes the list over the article rule's choice when the choice is
# thin or the list holds this many times its text.
LIST_OVER_CHOICE = 2.0
# ...or, when most of its items show a price (a shop's grid of products, each a linked
# name and its price, no words of its own beside them), this many times: the goods are
# what a shop's category page is for; its buying guide beside them is read with them
# (the list grows to the box that holds the page's heading).
LIST_OVER_PRICED = 1.0
PRICE_SAMPLE = 20
PRICE_GROUPS = 10
LIST_LOOKED = 5
# A price: an amount beside a currency's mark or code, as a shop's grid prints it under
# each item ("$20.00 USD", "£20.00", "17,90 €", "EUR 15.49"). Read in at most CARD_SCAN
# pieces of an item's text, in the first PRICE_SAMPLE items of each of the PRICE_GROUPS
# largest groups; the LIST_LOOKED largest lists are looked at (one in the page's frame is
# not the page's list).
_CODES = r"(?:USD|EUR|GBP|CHF|CAD|AUD|kr|zł|Kč)"
PRICE = (
    rf"(?:{CURRENCY_SIGNS}|\b{_CODES}\b)\s?\d"
    rf"|\d(?:[.,]\d{{1,2}})?\s?(?:{CURRENCY_SIGNS}|{_CODES}\b)"
)
# On a page declared an article: when its choice holds under this many characters, and
# the list this many times its text and half the page's (an index of reviews declared an
# article, its one-paragraph introduction chosen).
LIST_ARTICLE_SHORT = 1000
LIST_OVER_ARTICLE = 5.0
# A list taken grows to the box that holds the page's heading too, unless that box holds
# this share of the page's text (the page whole, its frame and all).
LIST_HEADING_SHARE = 0.95
# Inside a list taken, a block of links alone and this short (a category, tags, "More
# like this") beside a card's linked title goes; the card is the nearest of CARD_LEVELS
# ancestors holding a linked heading, each under CARD_TEXT characters and CARD_CHILDREN
# children (more is a list, read at no cost per item), CARD_SCAN
# elements of each looked at (a hostile page's nested boxes are not read again and again).
CARD_LABEL_MAX = 60
CARD_LEVELS = 4
CARD_TEXT = 1500
CARD_CHILDREN = 12
CARD_SCAN = 300
# Inside a list taken, a box of an item's controls (a form, buttons) without a heading or
# a link to another page, this short at most, goes.
CONTROLS_MAX = 300
# A paragraph that is a card's control word for word, and nothing else: compare it, look
# at it in a box drawn over the list, put it in the basket (a shop's grid and a ranking
# print one under every item). Matched whole, without case; a heading or any other word
# keeps the line ("Compare plans", "Add Moab 3 to Compare").
CARD_CONTROLS = (
    r"compare|add to compare|quick ?view|quick shop|quick add|"
    r"add to (?:cart|bag|basket|wish ?list|favou?rites)|"
    # The same controls in the languages most pages here are in (French, German, Spanish).
    r"comparer|aper[çc]u rapide|achat rapide|ajouter au panier|vergleichen|schnellansicht|"
    r"in den warenkorb|comparar|vista r[áa]pida|a[ñn]adir al carrito|agregar al carrito"
)
# Inside a list taken, a block that is a date and nothing else (a card's "Feb 9, 2026",
# "2025-12-22": kinds/byline.py's whole_date, as a post's date is told; or a time ago,
# "9 mins ago") goes: when an item was posted, not what it is; a listing's readers scan
# titles. Looked at on a block of at most CARD_DATE_MAX characters.
CARD_AGO = (
    r"(?:\d+|an?)\s+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)"
    r"\s+ago"
)
CARD_DATE_MAX = 40
