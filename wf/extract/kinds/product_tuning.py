"""Tuning data of product pages (wf/extract/kinds/product.py): the older figures stay in
wf/extract/tuning.py (PRODUCT_*)."""

# A product's purchase form (its variant pickers with each one's price, the quantity, the
# buttons) holds under this many characters; a page wrapped whole in one <form> (ASP.NET
# writes every page so) holds more, and is no purchase form.
PURCHASE_FORM_MAX = 1500

# Class tokens that draw a box over the whole screen (Tailwind's fixed full-screen box):
# a dialog a shop opens on a click (product.overlay), not the product's text.
OVERLAY = frozenset(("fixed", "inset-0"))

# A <fieldset> under this many characters on a product page is a variant's picker (the
# legend "Colour" over its swatches, which are controls): it goes (product.picker).
PICKER_MAX = 300

# A table whose data rows repeat an earlier table's, this share of them or more, is a copy
# of it (the specifications in a tab and again in the mobile layout's accordion): it goes.
TABLE_REPEATED = 0.5

# A run of this many lines or more (blank lines, table rows and code left out) that
# repeats word for word the lines right before it is a copy (a marquee's or a carousel's
# slides printed again for its scroll to loop): it goes, short lines too. Shorter runs
# repeat as data (a kit's bits, each with its size and count: "4 mm", "1", "×"), and so
# do runs with other lines between the copies (two products' cards, each ending in the
# same features).
RUN_LINES = 5

# Lines of a product's text that are only a control's label, lowered, beside the read-more
# words of hidden_tuning.READ_MORE: a box's placeholder while its script loads, with the
# dots that say it waits ("Loading...", "Loading…"). Without them the word is a label or a
# feature ("Loading: front", a machine's modes "Loading", "Washing"). Two dots, not
# `\.{2,}`: the `\W*` after them takes the rest, and two quantifiers over the same dots
# would try every split of a long line of them.
CONTROL_LINES = r"\W*loading\s*(?:\.\.|\u2026)\W*"

# A product's buy button, lowered, matched whole (product_text.once): a line that is only
# its label goes, and so does the label a shop sets after the price on the price's line
# ("£45.00 Add to basket": WooCommerce's link beside its price). Some words of the label
# count at most BUY_WORDS_MAX words. Portuguese, Dutch, Polish, Swedish and Danish shops
# write theirs so too; Japanese and Chinese ones write theirs with no spaces
# (BUY_CONTROLS_UNSPACED): after a price it is read from the end of the line's last word.
BUY_CONTROLS_UNSPACED = "カートに入れる|カートに追加|加入购物车|加入購物車"
BUY_CONTROLS = (
    r"add to (?:cart|bag|basket|trolley)|buy (?:it )?now|"
    r"ajouter au panier|in den warenkorb|a[ñn]adir al carrito|agregar al carrito|"
    r"aggiungi al carrello|in (?:de )?winkel(?:wagen|mand(?:je)?)|"
    r"adicionar ao carrinho|comprar agora|dodaj do koszyka|kup teraz|"
    r"lägg i (?:varukorgen|kundvagnen)|köp nu|læg i (?:kurv(?:en)?|indkøbskurv(?:en)?)|køb nu|"
    rf"{BUY_CONTROLS_UNSPACED}"
)
BUY_WORDS_MAX = 4

# Pieces of text (white space among them) read at most of an accordion's item past its
# title for any word (product.title_alone: a title over an empty panel goes): an item's
# panel emptied by the cleaning holds a few; a hostile one's thousands cost no more.
PANEL_READ = 200
# ...and the item is a <details> or a box named so (a lowered class or id word): an
# accordion's item, a collapsible's, a tab's.
PANEL_ITEM = r"(?<![a-z])(?:accordion|collapsible|tabs?)(?![a-z])"

# A <figure> of text alone (no caption, picture, video or drawing among its first STAT_SCAN
# elements) under STAT_MAX characters is one of the product's figures told in words
# ("1600 nits peak HDR brightness", "Up to 50% faster"): its specifications, kept.
STAT_MAX = 300
STAT_SCAN = 50

# A block whose text is this share of identifiers (UUIDs) or more is noise written for
# copies of the page (product.identifiers): characters without spaces, of the first
# IDENTIFIERS_READ read; blocks under IDENTIFIERS_MIN characters are not looked at.
IDENTIFIERS_SHARE = 0.5
IDENTIFIERS_READ = 2000
IDENTIFIERS_MIN = 100

# A box named so holds the product's own details, whatever else names it: shops open
# their description, specifications and measurements in a dialog (`product-details-modal`,
# `measurements-modal`), a word that marks boilerplate elsewhere. "details" alone names
# a seller's, a delivery's or a comment's details as often: only the product's count.
# On a product page `meta` (`product_meta`, `game_meta_data`) names the product's own
# facts (its SKU and categories, a game's genre, developer and features), not an
# article's byline and date as elsewhere.
_FACTS_WORD = r"meta(?:[-_]?data)?"
DETAILS_NAMES = (
    r"(?<![a-z])(?:product[-_]?(?:details|description|specs?|specifications)"
    rf"|specs|specifications|measurements|dimensions|{_FACTS_WORD})(?![a-z])"
)

# Class and id words of the boxes a shop sets beside every product, whole words of a
# lowered token: the size chart (the same for every shoe of the shop), the loyalty
# points the purchase earns, the chat with its staff, the pay-later services (Afterpay,
# Klarna) that split the price, the options to pick (sizes, colours, each with its
# price), the bundles to buy with it, the press's logos and a marquee's slogans, the
# shops to pick it up from; the ways to have it delivered, the other ways to pay and
# the buyer's protections (a price guarantee, the days to change one's mind), the same
# beside every product of the shop; the other products it offers with this one
# (WooCommerce's `up-sells`, `cross-sells`: "You may also like"); the quantity's picker
# (`qty`, `quantity`: its label, its minus and plus, "Qty-1+"); the shop's story told
# under every product (`brand-message`, `brand-story`, `coop-brand-asset`: "Better things
# in a better way"), where `brand` alone names the product's maker, kept; Shopware's variant
# picker (`product-detail-configurator`: "Size", its options) and PrestaShop's module of
# the shop's promises (`blockreassurance_product`: its security, delivery and return
# policies).
SHOP_ASIDE = (
    r"(?<![a-z])(?:size-?charts?|size-?guides?|rewards?|chat|afterpay|klarna|options?|"
    r"bundles?|logos?|marquee|pickup|store-?locator|find-?in-?store|delivery|"
    r"ways-to-pay|protections?|up-?sells?|cross-?sells?|qty|quantity|configurator|"
    r"blockreassurance|"
    r"brand-?(?:messages?|story|stories|assets?|values?))(?![a-z])"
)

# A product's region that is the page's <main>, holding MAIN_SHARE of the page's text or
# more, which the pruning by names would cut to under MAIN_KEPT of its text, is read
# whole (product_region.names_misread): a marketplace names every module of its item page
# as the boilerplate it is elsewhere. Pruned so, such pages kept 18% to 19% of their
# <main> on the pages tuned on; product pages pruned rightly keep 85% and more.
MAIN_SHARE = 0.8
MAIN_KEPT = 0.3
# ...and, its grids of cards aside (other products: a shop's "related-products"), would
# cut more than what this share keeps of the rest: a marketplace names its modules of
# prose and tables (the seller, the shipping, the specifics) too, and keeps 22% to 54% of
# them on the pages tuned on; a shop whose names cut its grid alone keeps its summary.
MAIN_REST_KEPT = 0.7

# A product's chosen box that is one of SECTIONS_MIN boxes or more, side by side, each
# opening with an <h2> (its first element, or that one's first, to SECTIONS_DEPTH levels),
# in a box found within SECTIONS_UP blocks above it, is one of the product's sections:
# the box that holds them is taken (product_region.sectioned), unless it holds MAIN_SHARE
# of the page's text (the page's layout). SECTIONS_READ children of a box are read at
# most.
SECTIONS_MIN = 3
SECTIONS_UP = 3
SECTIONS_DEPTH = 3
SECTIONS_READ = 200

# A box named so beside the product's choice holds the product's facts (a game store's
# column of its genre, developer, features and languages beside the column of its
# description): the box that holds both is taken (product_region.with_facts).
FACTS_NAMES = rf"(?<![a-z]){_FACTS_WORD}(?![a-z])"  # DETAILS_NAMES's word for them
# Elements of a box so named read for an author's mark (product.bylined): a byline is a
# few links and a date; a product's facts box reads its first elements only.
BYLINE_READ = 64

# The parts of a price box that Shopify's own themes (Dawn and the free themes built on
# its price snippet: Refresh, Sense, Craft, Studio, Taste, Origin, Crave, ...) show only
# when the box carries a modifier (its class `price--on-sale`, `price--sold-out`), and
# the part the modifier hides: their style sheet draws either the regular price or the
# sale price, and a badge only when it applies. Read without it, every price printed
# "Regular price Sale price", then "Sale Sold out" (product_boxes.price_parts).
PRICE_BOX = "price"
PRICE_BOX_UP = 4  # levels above a price part its box is looked for
PRICE_SHOWN_BY = {
    "price__sale": "price--on-sale",
    "price__badge-sale": "price--on-sale",
    "price__badge-sold-out": "price--sold-out",
}
PRICE_HIDDEN_BY = {"price__regular": "price--on-sale"}
PRICE_PARTS_MAX = 200  # parts of price boxes read at most on a page

# Elements of a tab list (role="tablist") read for its tabs (product.tab_titles).
TABS_READ = 200
# ...whose titles hold this many characters each on average at most ("Additional
# information", "Reviews (0)"); a tab list of more text holds content.
TAB_TITLE_MAX = 40

# The title of the shop's other products, lowered, matched whole on a line of its own
# (product_text.before_others): those bought with this one, the similar ones, the ones
# seen before, the outfit it belongs to; those it may need, those recommended, those
# others bought, a marketplace's related and sponsored items and those to explore. In
# the text's second part (past OTHERS_AT of its lines) it ends the product's text: what
# follows on the pages tuned on is the shop's (the questions it answers for every
# product, more carousels, the seller's other items).
OTHERS_TITLE = (
    r"(?:frequently (?:bought|purchased) (?:together|with)|customers (?:also|who) "
    r"(?:bought|viewed)[\w ]*|(?:explore )?(?:similar|related) (?:items|products)|"
    r"you (?:may|might) also like|recently viewed(?: items| products)?|"
    r"(?:complete|get|shop) (?:the|your) look|(?:pairs?|goes) well with|"
    r"you (?:may|might) also need|recommended (?:for you|products)|"
    r"people (?:also )?(?:bought|viewed)[\w ]*|"
    r"(?:sponsored )?products related to this item|(?:more )?items to explore|"
    r"inspired by your browsing history)\W*"
)
OTHERS_AT = 0.5
OTHERS_TITLE_MAX = 80

# A box named `sticky` (a lowered token's whole word) under STICKY_MAX characters is the
# bar a shop pins to the screen's edge as the reader scrolls: the product's name, price
# and button again (130 to 260 characters on the pages tuned on). A larger one is the
# column that holds the product's own text and buy box beside its pictures (500 and up).
STICKY = r"(?<![a-z])sticky(?![a-z])"
STICKY_MAX = 400

# A shop that builds its product page of widgets named by what each shows (Amazon's
# `<div id="..._feature_div">` on every one of its sites) names the product's own parts
# so: the title, the byline, the price and availability, the overview table, the feature
# bullets, the description (a book's too, and the maker's "A+" content) and the details
# table, the editors' reviews. Every other widget there is the shop's (delivery, badges,
# the buy box, recommendations, customers' reviews). The page is one of them when it
# holds the product's title (SHOP_WIDGETS_TITLE) and SHOP_WIDGETS_MIN widgets so named.
SHOP_WIDGETS_TITLE = "productTitle"
SHOP_WIDGETS_SUFFIX = "_feature_div"
SHOP_WIDGETS_MIN = 20
SHOP_WIDGETS_KEPT = frozenset(
    (
        "title_feature_div",
        "titleblock_feature_div",
        "bylineInfo_feature_div",
        "corePrice_feature_div",
        "availability_feature_div",
        "productOverview_feature_div",
        "featurebullets_feature_div",
        "bookDescription_feature_div",
        "productDescription_feature_div",
        "aplus_feature_div",
        "productDetails_feature_div",
        "detailBulletsWrapper_feature_div",
        "editorialReviews_feature_div",
    )
)
# Classes that the widgets' shop hides (its style sheet: a popover's content loaded with
# the page, `a-popover-preload`; `aok-hidden`, `a-hidden`): such a box inside a kept
# widget goes (the form to report a lower price under the product's details).
SHOP_WIDGETS_HIDDEN = r"(?<![\w-])(?:a-popover-preload|aok-hidden|a-hidden)(?![\w-])"
# Characters the kept widgets print at least (their blocks' text): under it the product's
# widgets are empty shells (an item no longer sold) and the page's other rules read it.
SHOP_WIDGETS_TEXT_MIN = 1500
# Kept widgets at most (a page names each once; more are a hostile page's, and each
# costs a walk over its subtree).
SHOP_WIDGETS_KEPT_MAX = 40
# Elements looked at for the widgets' ids, at most: a hostile page's size bounds nothing.
SHOP_WIDGETS_SCAN_MAX = 200_000

# The availabilities (in words: tuning.PRODUCT_AVAILABILITY) that let one buy: of offers
# whose availabilities differ, the first of these is printed: the product can be had.
BUYABLE = frozenset(
    (
        "In stock",
        "In store only",
        "Online only",
        "Limited availability",
        "Pre-order",
        "Pre-sale",
        "Back-order",
        "Made to order",
    )
)
# A declared price at or above this is none (a hostile 1e308 prints 309 digits): a float
# holds cents exactly only below 2**53 / 100.
PRICE_MAX = 1e13
