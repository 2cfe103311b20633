"""Tuning of wf/extract/names.py beyond tuning.py's word lists."""

# A box named after a newsletter is a sign-up box on most sites, but a site that
# publishes each issue of its newsletter as a page names the issue's box so too
# (`newsletter-content`). It is the issue when it holds at least this many paragraphs
# with this many characters of text between them, and no form (a sign-up box's
# pitch is a paragraph or two beside its field).
ISSUE_PARAGRAPHS = 5
ISSUE_CHARS = 1000
# The name words (as tuning.NEGATIVE_STEMS and NEVER_CONTENT match them) such a box may
# carry: any other boilerplate word in its names still makes it boilerplate.
ISSUE_WORDS = frozenset(("newsletter",))
# Bounds of the reading (names_held.issue): paragraphs looked at, and elements searched for
# a form. A sign-up box is small; a box past either bound is read as far as them.
ISSUE_READ = 50
ISSUE_SCAN = 3000

# A utility class that sets the size, colour or alignment of a box's text (Tailwind's
# `text-sm`, `text-gray-500`, `text-primary/80`, `text-[13px]`), or displays it as a
# table's caption (`table-caption`, `caption-top`; a figure's caption on react.dev); maybe
# after a prefix such as Nextra's `nx-`: it names neither content nor boilerplate
# (wf.extract.names).
UTILITY = (
    r"(?:[a-z]{1,3}-)?(?:table-caption|caption-(?:top|bottom)"
    r"|text-(?:xs|sm|base|md|lg|\d?xl|left|center|right|justify|start|end"
    r"|wrap|nowrap|balance|pretty|ellipsis|clip|white|black|transparent|current|inherit"
    r"|(?:slate|gray|grey|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald"
    r"|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose|primary|secondary|muted"
    r"|accent|foreground|background|dark|light|subtle|info|success|warning|danger|error)"
    r"(?:-\d{1,3})?(?:/\d{1,3})?|\[[^\]]{1,40}\]))"
)

# The box of an API item's documentation comment, by its whole class token (lowered):
# TypeDoc's `tsd-comment` (and `tsd-comment-tags`), the item's description, not a
# reader's comment: "comment" names no boilerplate there. (Not `doc-comments`: the
# PostgreSQL manual's box inviting corrections, `docComments`, is its chrome.)
DOC_COMMENT = r"tsd-comment(?:-[a-z]+)*"
# The live example a code block feeds, by its whole class token (lowered): MDN's
# `live-sample___<id>` and `live-sample---<id>` on each <pre> of an example, the id its
# section's title ("table_caption_and_column_summary", "sticky_footer"), whose words say
# nothing of the block: "caption" or "footer" there dropped the example's code.
LIVE_SAMPLE = r"live-sample-.*"

# The characters of a class or id value whose tokens are judged (name_tokens.tokens): the
# longest values on real pages are about 6 000 (a utility framework's); a hostile page's
# one value of 10 MB, a million new words, cost seconds of regexes read whole.
NAMES_READ = 16_384
