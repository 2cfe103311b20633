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
# ...or a box of any tag whose entries open with a time, a live ticker's or a liveblog's
# ("60'", "90+2'", "14:05", "14h05", "14.05 Uhr"): at least LIST_JOIN_ITEMS of its
# children (under wrappers of one child) and TIMED_SHARE of them. A box of labels or
# captions does not open each of its lines with a time. The first TIMED_CHARS characters
# of an entry are read, the first TIMED_ENTRIES entries counted.
TIMED_OPENING = (
    r"^\s*(?:\d{1,3}(?:\+\d{1,2})?\s*['\u2019\u2032]|\d{1,2}\s*[:h.]\s*\d{2}(?![.:]?\d))"
)
TIMED_SHARE = 0.6
TIMED_CHARS = 24
TIMED_ENTRIES = 200

# A form that its attributes (action, id, class, name, data-*) name a sign-up: the box
# around it that is its widget (pitch, fine print, "Thanks for signing up!") can be
# larger than widen.FORM_BOX_MAX, up to SIGNUP_BOX_MAX characters and SIGNUP_BOX_SHARE
# of the chosen text. The first SIGNUP_ATTRIBUTES attributes are read.
SIGNUP_FORM = r"(?i)subscri|newsletter|sign-?up|optin|opt-in|list-manage|abonn|anmeld"
SIGNUP_BOX_MAX = 1500
SIGNUP_BOX_SHARE = 0.25
SIGNUP_ATTRIBUTES = 12
