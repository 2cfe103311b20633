"""Tuning of wf/extract/kinds/copies.py's pairs: a box drawn twice side by side, once per
screen size (the copies word for word are tuning.COPY_MIN's)."""

# Two boxes side by side, each so named, are one box drawn for two screen sizes (a post's
# title and byline once for phones, once for desktops, their parts in another order) when
# their words (those with a letter: counts differ, a phone's shows up and down votes) are
# LAYOUT_PAIR_SHARE of them shared, of the words of both, LAYOUT_PAIR_WORDS of them at
# least (a grid's items, "iPhone 15 Pro" beside "iPhone 15 Pro Max", share fewer); each of
# LAYOUT_PAIR_MAX characters at most (a head or a byline; a longer copy is COPY_MIN's).
# The one named for small screens goes (LAYOUT_SMALL, searched in a lowered class
# attribute: Bootstrap's `d-md-none`, Tailwind's `md:hidden`, Foundation's
# `show-for-small-only`, `visible-xs`, `mobile-only`, `hidden-desktop`), else the second.
LAYOUT_PAIR_SHARE = 0.9
LAYOUT_PAIR_WORDS = 3
LAYOUT_PAIR_MAX = 600
LAYOUT_PAIR_ELEMENTS = 64  # elements of each box read at most (a head's copy: 30 or so)
LAYOUT_PAIR_TRIES = 200  # pairs of boxes compared at most on a page
LAYOUT_SMALL = (
    r"(?<![a-z-])d-(?:sm|md|lg|xl|xxl)-none(?![a-z-])|(?<![a-z-])(?:sm|md|lg|xl|2xl):hidden"
    r"(?![a-z-])|(?<![a-z])(?:show-for-small|hide-for-(?:medium|large)|visible-xs)|"
    r"(?<![a-z])hidden-(?:md|lg|xl)(?![a-z])|(?<![a-z-])(?:mobile|phone)(?:-only)?(?![a-z-])|"
    r"(?<![a-z])(?:show|visible)-(?:on-)?(?:mobile|phone)(?![a-z])|"
    r"(?<![a-z])(?:hide|hidden)-(?:on-)?desktop(?![a-z])"
)
