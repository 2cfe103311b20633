"""Tuning data for wf/extract/widen.py's joining of the chosen block's siblings."""

from __future__ import annotations

# A list beside the chosen text whose items are short lines (under the prose floor one by
# one: a live ticker's "60' Tor! Kane trifft zum 2:0.", a guide's topics under "Key
# topics include:") joins it as a sibling of prose does. Lists only: short lines in
# boxes of their own are a page's labels and captions as often. So many items at least
# (a pair of lines is a byline or a caption), and one character in LIST_JOIN_LINKS at
# most in links (a list of links is a menu or related stories, not more of the text).
LIST_JOIN_TAGS = frozenset(("ul", "ol"))
LIST_JOIN_ITEMS = 5
LIST_JOIN_LINKS = 10
