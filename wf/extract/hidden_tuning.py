"""Tuning of wf/extract/hidden_alone.py (boxes hidden by a class with nothing beside them)
and of the text cut short behind "Read more" that wf/extract/hidden.py keeps."""

# Class tokens that hide a box (display: none) in the common stylesheets.
ALONE_TOKENS = frozenset(("hidden", "d-none"))
# ...unless the same class attribute shows it from a screen size on (Tailwind's
# `hidden md:block`, Bootstrap's `d-none d-lg-flex`): a layout's box, shown on a desktop.
ALONE_SHOWN = (
    r"(?:^|\s)(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|table|contents)"
    r"|(?:^|\s)d-(?:sm|md|lg|xl|xxl)-(?:block|flex|grid|inline|table)"
)
# What may stand beside such a box and leave it alone: nothing a reader sees or clicks.
ALONE_BESIDE = frozenset(("script", "style", "template", "noscript", "link", "meta"))
# Code samples stay: a manual hides the source of the live example it shows.
ALONE_KEEP = frozenset(("pre", "code", "html", "body"))
ALONE_SIBLINGS = 50  # children of a parent read at most
ALONE_MAX = 5000  # class attributes weighed at most
# Levels above a box looked through for a hidden box found around it (measured once).
ALONE_UP = 100
# A hidden box holding one of these is the page's content waiting for a script: it stays.
ALONE_CONTENT = ("h1", "main", "article")
# An inline box of these tags a class hides, its text under LABEL_MAX characters and
# without a figure, is a figure's labels waiting for a script (hidden_alone.empty_labels:
# on product pages): "Unit price / per" beside a price.
LABEL_TAGS = frozenset(("span", "small", "s", "b", "i", "em", "strong", "label", "sup", "sub"))
LABEL_MAX = 60
LABEL_READ = 600  # characters of such a box read, white space and all
# ...and all its letters are in boxes of these classes, for screen readers only.
SCREEN_READER = frozenset(
    ("visually-hidden", "visuallyhidden", "sr-only", "screen-reader-text", "screen-reader-only")
)
# What may follow a box for screen readers only glued to it (hidden_alone.read_apart).
NO_SPACE_BEFORE = frozenset(".,;:!?)]}\u2019\"'")
# A <noscript> box of MENU_MIN characters or more, over half of them in links, is the
# menu a page writes for browsers without scripts (hidden_alone.menus).
MENU_MIN = 200
MENU_TEXTS = 5000  # text pieces (and links) of a box read at most
MENU_MAX = 200  # <noscript> boxes of a page weighed at most

# The rest of a text cut short behind "Read more" (hidden.read_more): the control after
# the hidden box says so in one of these lines (its whole text, lowered, an ellipsis or
# an arrow allowed), READ_MORE_LINE characters at most, among the READ_MORE_AFTER
# siblings after it; the shown box before it holds READ_MORE_BEFORE characters at least
# (a text, not a list's short items or a label).
READ_MORE = (
    r"\W*(?:(?:read|show|see|view)\s+(?:more|all|full(?:\s+\w+)?)"
    r"|lire\s+la\s+suite|voir\s+plus|weiterlesen|mehr\s+(?:anzeigen|lesen)"
    r"|(?:leer|ver|mostrar)\s+m[a\u00e1]s|leggi\s+(?:di\s+pi\u00f9|tutto)|lees\s+meer"
    r"|toon\s+meer)\W*"
)
READ_MORE_LINE = 40
READ_MORE_AFTER = 2
READ_MORE_BEFORE = 100
READ_MORE_PIECES = 200  # text pieces of a box read at most to measure either

# A box of this class is a tab panel, read as shown as one with role="tabpanel" is
# (hidden._tab_panels): Bootstrap's `tab-pane` and the like, hidden by a style until
# their tab is clicked (shop themes name each panel `tab-content`: a product's
# specifications and care behind their tabs; others a word of their tabs, its panel, its
# content or its body: `product-tabs__panel`, `tabs-content`, `tab__body`).
PANEL_CLASS = (
    r"(?<![\w-])(?:tab-pane|tab-panel|tabpanel|tab-content|tab_content)(?![\w-])"
    r"|(?<![a-z])tabs?(?:-|_|__)(?:panes?|panels?|contents?|body)(?![a-z])"
)
# ...and so is the hidden source of a web component named as tabs (by its tag, a custom
# element's: AWS's `<awsdocs-tabs><dl style="display: none">`, each <dd> a tab's steps,
# which the component's script draws as tabs): the manual's steps for each way to do it.
PANEL_HOST = r"(?<![a-z])tabs?(?![a-z])"
# Characters of each tab panel's text compared with its siblings' to find the copies
# (hidden._tab_panels): enough to tell two panels' texts apart, a bound on the text a nest
# of panels copies at each level.
PANEL_COMPARED = 2000
# Class words (whole words of a lowered token) of a box that titles the hidden panel right
# after it, as a heading does (hidden.accordion_panel): Magento's tabs (`data item title`
# before `data item content`), a theme's `accordion-title`, `collapsible-trigger`,
# `tab-label`, `toggle`.
PANEL_TITLE_NAMES = r"(?<![a-z])(?:title|toggle|trigger|label)(?![a-z])"
# The page's boxes of controls: a title's box or a button in one opens a control's panel
# (the search box, the mini cart), no accordion's (hidden.accordion_panel,
# accordion.closed_panels).
CONTROL_BOXES = ("header", "nav")
# Comments passed over between a hidden box and the title before it that makes it an
# accordion's panel, or the box after it shown in its stead (hidden.accordion_panel), at
# most.
PANEL_TITLE_SKIP = 8
# Steps (across, up or down a box) read from a dropped icon each way for the text beside
# it (hidden.between_numbers: a day in a <span>, then a clock, then the hour): a nest of
# boxes beside each of a page's icons costs a bounded read each.
ICON_BEFORE_DEPTH = 8
