"""The tuning data of documentation pages (wf/extract/kinds/docs.py): boilerplate web
components, version pickers and trails of links, captioned figures. Apart from the
scoring code, as wf/extract/tuning.py is."""

# A web component (a custom element) named as boilerplate is dropped when it holds no
# more text than this: a feedback widget, a licence line, a table of contents; a bigger
# one may frame the page (wf.extract.kinds.docs).
COMPONENT_TEXT_MAX = 2000
# A documentation page's version picker: a box whose links all name versions (numbers,
# or the words below), with no other text than separators and a label naming versions
# ("Supported Versions: Current (18) / 17 / 16"). A box with no label needs this many
# links; a box over PICKER_TEXT_MAX characters is no picker.
VERSION_LINK = (
    r"v?\d+(?:\.\d+){0,3}(?:\.x)?|current|latest|stable|dev|devel|development|master|main"
    r"|nightly|next|lts|beta|preview|unstable"
)
VERSION_LABEL = r"(?<![a-z])versions?(?![a-z])"
VERSION_LINKS_MIN = 3
PICKER_TEXT_MAX = 400
PICKER_LABEL_MAX = 40
# ...and a trail of links with arrows between them ("Documentation → PostgreSQL 18") no
# longer than this: a documentation page's breadcrumb no name gives away.
BREADCRUMB_TEXT_MAX = 200
# ...what stands between a trail's links, and how many levels above a link that names a
# version or stands before an arrow a picker or a trail is looked for.
TRAIL_ARROWS = "→›»▸⟩>⇒"
PICKER_LEVELS = 4
# A documentation page's figure (a code listing, a diagram) is its text when its caption
# holds this many characters: "Listing 9-3: Opening a file".
CAPTION_MIN = 10
# A grid of cards, each a link around a heading (a manual's index of the pages under it),
# stays though all links: a card's heading is looked for this many levels down, within
# this many elements.
CARD_DEPTH = 8
CARD_NODES = 200
# A documentation page whose chosen body holds no <h1> takes in its parent when the
# parent's <h1> stands before it (a header box of the title and the lead paragraph) and
# the parent adds no more than this share of the body's text: its table of contents goes
# by its name, the lead stays.
TITLE_BOX_SHARE = 0.25
# A box after the body this share of whose text is links holds no section of the page
# (docs_chrome.cut_foot): the site's columns of links, each under its heading.
FOOT_LINKED = 0.6
# A link that offers to edit the page's source, by its whole text (Docusaurus's "Edit this
# page", HashiCorp's "Edit this page on GitHub", Mintlify's "Suggest edits", MkDocs'
# "Edit on GitHub"): the manual's chrome, wherever its box stands and whatever its name.
EDIT_LINK = (
    r"(?:edit|improve) (?:this )?(?:page|doc|document|article|section)"
    r"(?: on (?:github|gitlab|bitbucket))?|edit (?:it )?on (?:github|gitlab|bitbucket)"
    r"|suggest (?:an )?edits?|view (?:page )?source"
    # ...and the links to the page's source: Sphinx's "Show Source" in its sidebar.
    # (Sphinx's "[source]" after each signature is not one: the readers of a reference
    # page keep it.)
    r"|(?:show|page) source"
)
# ...and the bare link to an item's source, rustdoc's "Source" beside each item's heading,
# only where it stands so: in an API entry's heading or signature (<h4>, <dt>), or in a
# box beside one, SOURCE_LEVELS boxes up at most and SOURCE_SIBLINGS elements away. A
# "Source" that heads a list of citations, or a table's cell, is the page's.
SOURCE_LINK = r"source|src"
SOURCE_LEVELS = 2
SOURCE_SIBLINGS = 2
# ...looked for this many levels up from the body (react.dev's title sits two boxes up).
TITLE_LEVELS = 3
# A documentation page's banners, by a class or id token: the site's news over every
# page (PostgreSQL's "pg-shout-box" of releases, Docusaurus's announcementBar, a
# "announce-wrapper"), the warning that an older version is shown (Docusaurus's
# theme-doc-version-banner, the pydata theme's bd-header-version-warning). The manual's
# chrome: dropped when no longer than DOC_BANNER_TEXT_MAX characters (a bigger box so
# named frames the page). (MDN's "Baseline" browser-support widget is not one: the
# readers of one reference page keep it, another's leave it out.)
DOC_BANNER = (
    r"(?<![a-z])(?:announce(?:ment)?s?|shout(?:-?box)?|version-?(?:warning|banner))(?![a-z])"
    r"|announcement-?bar|doc-version-banner"
)
DOC_BANNER_TEXT_MAX = 600
# ...and so is the menu of the manual's other versions and downloads, by a class token
# (Read the Docs' flyout, `rst-versions`: "v: latest", Versions, Downloads, "On Read the
# Docs"; a theme's version switcher) or by its whole accessible name ("Versions").
VERSION_MENU = (
    r"(?<![a-z])(?:rst-versions|versions?-?(?:switcher|selector|picker|menu|dropdown))(?![a-z])"
)
VERSION_MENU_LABEL = r"(?:versions?|version (?:switcher|selector|picker|menu))"
# ...but a box so named (not a banner) that is prose stays: release notes under a section
# labelled "Versions". Prose: more than VERSION_NOTES_MIN characters outside its links,
# options and buttons, and more than VERSION_NOTES_SHARE of its text (Read the Docs'
# flyout has some 80 of labels: "v: latest", "Downloads", "On Read the Docs").
VERSION_NOTES_MIN = 100
VERSION_NOTES_SHARE = 0.5
VERSION_NOTES_SCAN = 2000
# ...and no more boxes so named than this are weighed on a page (each one's text is read).
DOC_BANNERS_MAX = 20
# A line that says when the page was last changed, and nothing else: "This page was last
# updated on 2026-01-26 15:45:07Z" (SQLite), "Last updated on Mar 3, 2024 by Ann"
# (Docusaurus), "Last update: 2024-05-01" (MkDocs), "Last updated: December 3, 2024"
# (Google's developer sites), "Last modified January 7, 2026 at 4:12 AM PST: Fix the
# example (854aaf863c)" (Hugo Docsy's: the time of day, then the subject and short hash
# of the commit that changed the page). The manual's foot, not its text; what follows
# the words must be a date (wf.extract.kinds.post_dates.whole_date), maybe a time of day, a
# clock's zone, a name and a commit.
UPDATE_STAMP = (
    r"(?:this (?:page|document|article) (?:was |is )?|page |content )?last"
    r" (?:updated?|modified|edited|changed|reviewed)(?: (?:on|at))?\s*:?\s*"
    r"(?P<date>[^:].*?)"
    r"(?:,?\s+(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?:\s+[a-z]{2,5})?)?"
    r"(?:\s*(?:z|utc|gmt))?(?:\s+by\s+\S.{0,60})?(?::\s+\S.{0,100}\s\([0-9a-f]{7,40}\))?\.?"
)
# ...the date a time ago as well (GitBook's "Last updated 3 months ago", a <time> whose
# datetime the page shows so).
UPDATE_AGO = (
    r"(?:\d+|an?|a few)\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)"
    r"\s+ago|yesterday|today"
)
# ...looked for this many levels up from its words (SQLite's <p><small><i>), in a box of
# at most UPDATE_STAMP_MAX characters; no more stamps than STAMPS_MAX are read a page.
UPDATE_STAMP_LEVELS = 3
UPDATE_STAMP_MAX = 150
STAMPS_MAX = 10
# Texts that hold a stamp's or the feedback question's words read at most a page: a
# hostile page of 20 000 lines that nearly say "Last updated" cost 3 s of CPU.
STAMP_SEEDS_MAX = 200
# A link that only steps to the page before or after this one in the manual's order, by its
# whole text ("Previous", "Next", "« Prev", "Next →"): MDN draws the pair as buttons above
# the guide's first paragraph and under its last, words that say nothing of the page.
# A link that names the page it leads to ("Next: Flexbox") says something and stays.
STEP_LINK = r"(?:[«‹←<]\s*)?(?:previous|prev|next)(?:\s*[»›→>])?"
# ...and the boxes around such links (a list item, the list of the pair) that hold nothing
# else go with them, this many levels up.
STEP_LEVELS = 2
# A table of the page's own contents in a manual's body: a box of at least CONTENTS_LINKS_MIN
# links, all to anchors on the page, and no more other text than CONTENTS_TITLE_MAX
# characters (its title: "Table of Contents", "On this page"); looked for within
# CONTENTS_SCAN elements of the box (wf.extract.kinds.docs_chrome.contents).
CONTENTS_LINKS_MIN = 2
CONTENTS_TITLE_MAX = 40
CONTENTS_SCAN = 400
# A box whose whole text asks for the reader's verdict on the page ("Was this page
# helpful?", "Did you find what you needed?", "Rate this page", "Thanks for your
# feedback!"), its answers maybe left as words ("Yes No", thumbs, stars) once its buttons
# are gone: the manual's feedback widget, no name giving it away. Looked for from the
# text that holds FEEDBACK_SEEDS' words, up UPDATE_STAMP_LEVELS boxes of at most
# UPDATE_STAMP_MAX characters; no more than STAMPS_MAX a page.
FEEDBACK = (
    r"(?:(?:was|is) this (?:page|article|doc|document|documentation|content|section|guide"
    r"|tutorial|topic|information|answer)? ?(?:helpful|useful)"
    r"|did (?:you find what you (?:needed|were looking for)|this (?:page|article|doc) help"
    r"(?: you)?)|how (?:helpful|useful) (?:was|is) this (?:page|article|doc|content)"
    r"|rate this (?:page|article|doc|content)|thanks? (?:you )?for (?:your|the) feedback)"
    r"[?!.:]?(?:\s*(?:yes|no|[\U0001f44d\U0001f44e]|[★☆]+))*"
)
# (Searched as written, without a translation of case on every text node of the page:
# "ate this" finds "Rate this" and "rate this", "eedback" "Feedback" and "feedback".)
FEEDBACK_SEEDS = ("helpful", "useful", "what you", "ate this", "eedback")
# A control that opens or closes a part of the page, by its whole text (rustdoc's
# "Expand description" over an item's documentation and its "[−]" that folds them all,
# a code sample's "Show more"): printed as a line of the manual's text once its script is
# gone. Looked for from the short text nodes that hold TOGGLE_SEEDS (as written: "xpand"
# finds "Expand" and "expand"), up
# UPDATE_STAMP_LEVELS boxes; no more than STAMPS_MAX a page.
TOGGLE = (
    r"(?:(?:expand|collapse|show|hide)(?: all)?(?: (?:description|details|docs|sections?"
    r"|code|more|less|all))?|show/hide|\[[−+-]\])"
)
TOGGLE_SEEDS = ("xpand", "XPAND", "ollapse", "OLLAPSE", "how", "HOW", "ide", "IDE", "[")
# A manual's tabs (wf/extract/kinds/docs_tabs.py): each label is moved to head its panel
# in at most TAB_ROWS_MAX rows a page, rows of 2 to TABS_MAX tabs; the panels a page's
# tabs are paired with by name are looked for among its first TAB_PANELS_MAX.
TAB_ROWS_MAX = 50
TABS_MAX = 16
TAB_PANELS_MAX = 1000
# A page whose <meta name="generator"> names one of these made it as a manual's page, and
# is read as documentation (wf.extract.kinds.declared.generated): Sphinx (which writes
# none: its script documentation_options.js stands for it, wf.extract.parse), rustdoc,
# MkDocs ("mkdocs-1.6.1, mkdocs-material-9.5"), Docusaurus, VitePress and VuePress,
# Starlight, DocFX, Doxygen, TypeDoc, JSDoc, mdBook, Antora, Javadoc ("javadoc/ClassWriterImpl").
DOC_GENERATORS = (
    r"(?<![a-z])(?:sphinx|rustdoc|mkdocs|docusaurus|vitepress|vuepress|starlight|docfx|doxygen"
    r"|typedoc|jsdoc|mdbook|antora|javadoc)(?![a-z])"
)
# ...and the generators that name themselves by a <meta> of their own, not "generator"
# (wf.extract.parse): DocFX's table of contents ("docfx:tocrel", "docfx:navrel"; Microsoft
# Learn's "toc_rel") and Microsoft Learn's topic ("ms.topic": conceptual, quickstart,
# reference), which DocFX builds: its tabs, its notes, its "Feedback" are a manual's.
GENERATOR_METAS = {
    "docfx:tocrel": "docfx",
    "docfx:navrel": "docfx",
    "toc_rel": "docfx",
    "ms.topic": "docfx",
}
# ...unless the page declares itself one of these (schema.org types, lowered): a post of
# the blog a manual's generator builds beside it (Docusaurus's, MkDocs Material's).
GENERATOR_POSTS = frozenset(("blogposting", "newsarticle", "liveblogposting"))
# The label of a code block's copy button, left as text in the block or in its header when
# its button is no <button> ("Copy", "Copied!", "Copy code", "Copy to clipboard"), by its
# whole text (wf.extract.kinds.docs_lines.drop_lines).
COPY_SEEDS = ("opy", "OPY", "opied", "OPIED")
COPY_LABEL = (
    r"(?:copy|copied)(?: (?:code|command|snippet|text|block|code block))?(?: to clipboard)?"
    r"[!.]?"
)
# A line that says what built the manual or whose it is, and nothing else: "Built with
# Sphinx using a theme provided by Read the Docs.", "Made with Material for MkDocs",
# "Generated by Doxygen 1.9.8", "© Copyright 2024, the authors." (the sign, not the word
# alone: a licence's text, "Copyright (c) 2015 Ann", is a manual's page's own). Looked for
# from the text nodes that hold COLOPHON_SEEDS (as written), in boxes of at most
# UPDATE_STAMP_MAX characters (wf.extract.kinds.docs_lines.drop_lines).
COLOPHON = (
    r"(?:(?:built|made|created|generated|powered|documentation built) (?:with|by|using) "
    r"[^.!?]{1,100}[.!]?|©.{1,120})"
)
# ...and it is one only where a colophon stands: in the page's footer (a <footer>, a box
# of role contentinfo or named footer) or outside its <main> (after the content), or when
# it names what built the manual (COLOPHON_NAMES) or is a line of the © sign. A manual's
# own sentence alone, "Generated by the compiler.", is its text.
COLOPHON_NAMES = (
    r"(?<![a-z])(?:sphinx|mkdocs|docusaurus|doxygen|hugo|jekyll|gitbook|pdoc|rustdoc|javadoc"
    r"|typedoc|jsdoc|vitepress|vuepress|starlight|docfx|mdbook|antora|read ?the ?docs"
    r"|a theme provided by)(?![a-z])"
)
COLOPHON_FOOTER = r"(?<![a-z])(?:footer|page-footer|site-footer)(?![a-z])"
COLOPHON_SEEDS = (
    "uilt with",
    "ade with",
    "reated with",
    "enerated by",
    "owered by",
    "uilt using",
    "\u00a9",
)
# An API's signature drawn as a table (wf/extract/kinds/docs_signature.py: Doxygen's
# `table.memname`): SIGNATURE_CELLS cells at most, none over SIGNATURE_CELL_MAX
# characters, "(" and ")" each a cell alone; SIGNATURES_MAX tables a page read.
SIGNATURE_CELLS = 60
SIGNATURE_CELL_MAX = 120
SIGNATURES_MAX = 2000
# ...and a summary table drawn as a grid of boxes, by the class word that names its
# columns (Javadoc's `two-column-summary`, `three-column-summary`, `four-column-summary`).
GRID_COLUMNS = r"(?<![a-z])(two|three|four)-column-summary(?![a-z-])"
# An <aside> that is a manual's note, tip or warning (wf/extract/kinds/docs_asides.py), by
# a word of its class or its aria-label (Starlight's `starlight-aside--caution`, "Note"),
# kept with the boxes inside it, ADMONITION_LEVELS levels down.
ADMONITION = (
    r"(?<![a-z])(?:admonition|callout|note|tip|important|warning|caution|danger"
    r"|starlight-aside)(?![a-z])"
)
ADMONITION_LEVELS = 3
# Asciidoctor's admonitions drawn as tables read as a label and a box: this many a page.
ADMONITIONS_MAX = 1000
# A manual's debris (wf.extract.kinds.docs_debris), each by its mark: a section's label
# over the title by a class token (Mintlify's "eyebrow"); a screen reader's label by its
# class ("sr-only", "visually-hidden", "screen-reader-text") where it heads a code frame
# (Starlight's "Terminal window"), FRAME_LEVELS boxes up at most; a callout's box by its
# class (Nextra's "nextra-callout", ReadMe's "callout", "admonition"), its icon dropped;
# a link to an anchor on the page by its whole text (Doxygen's "More..."). Each no longer
# than DEBRIS_TEXT_MAX characters, DEBRIS_MAX marked elements read a page (gathered by
# DEBRIS_CLASS in the walk that looks for banners: docs_chrome.drop_banners).
# (DEBRIS_CLASS is matched as written, lower case as the generators write their classes.)
DEBRIS_CLASS = r"eyebrow|sr-only|visually-hidden|screen-reader|callout|admonition|[Cc]hip"
EYEBROW = r"(?<![a-z-])eyebrow(?![a-z-])"
SCREEN_READER = r"sr-only|visually-hidden|screen-reader"
CALLOUT_BOX = r"(?<![a-z])(?:callout|admonition)(?![a-z-])"
MORE_LINK = r"more\s*(?:\.\.\.|…)"
FRAME_LEVELS = 3
DEBRIS_TEXT_MAX = 60
DEBRIS_MAX = 1000
# ...the title's <h1> or the frame's <pre> looked for among the next box's first this many
# elements.
DEBRIS_NODES = 30
# ...a chip beside the page's <h1>, in its box, by a class token (pkg.go.dev's "go-Chip":
# "package", "module"), of at most CHIP_TEXT_MAX characters; and a package's facts in a
# row under the title (pkg.go.dev's), at least FACTS_MIN items of at most FACTS_MAX that
# each name one (its other items chips: "Latest"), each by its whole text.
CHIP = r"(?<![a-z])chip(?![a-z])"
CHIP_TEXT_MAX = 30
PACKAGE_FACT = (
    r"(?:version|published|released|last published|updated|licen[cs]es?|imports|imported by"
    r"|dependents|dependencies|(?:weekly )?downloads)\s*:\s*\S.{0,40}"
)
FACTS_MIN = 3
FACTS_MAX = 12
