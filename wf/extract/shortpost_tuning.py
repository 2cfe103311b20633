"""Tuning data for wf/extract/shortpost.py (a short post whole where no block stood out)."""

from __future__ import annotations

# Characters of a heading, and of the page's <title>, for the one to repeat the other
# (as widen.POST_TITLE_MIN): a shorter heading ("News", "Blog") is in many titles.
POST_TITLE_MIN = 10
POST_HEADINGS = frozenset(("h1", "h2", "h3"))
# A page of no prose at all (a public office's address and hours under its name, a
# photo and its line): its box is the nearest around such a heading that holds this
# many characters beside it.
POST_BARE_MIN = 15
# Blocks read for such headings, ancestors climbed from one to the post's box, and
# pieces of a heading's text read: the cost stays bounded on any page.
POST_SCAN = 5000
POST_LEVELS = 6
POST_TITLE_PIECES = 20
# Boxes that are the site's frame, never a post's, however they hold the page's title.
POST_NOT = frozenset(("header", "nav", "footer", "aside"))
# Names of the site's banner (Blogger's `<div id="header">`, WordPress's
# `site-branding`), which holds the blog's name and tag line and is no post.
POST_BANNER = r"header|banner|masthead|branding|site-title"
