"""Tuning data for wf/extract/notices.py beyond wf/extract/tuning.py (which is full)."""

from __future__ import annotations

# A consent manager's list of vendors (each entry its purposes, its cookies' lifetime and
# a link to its policy) is a list of linked items longer than any dialog, which the
# listing rule would take for the page's list. A box is one when VENDOR_SHARE at least
# of its windows of notices.NOTICE_SAMPLE characters read as consent text. A privacy
# policy's sections on rights, retention or contact do not, nor does a list of stories
# about cookies (too sparse in legal words). At most VENDOR_WINDOWS windows and
# VENDOR_PIECES pieces of text are read (the cost on a long page); fewer than
# VENDOR_WINDOWS_MIN windows say nothing.
VENDOR_WINDOWS = 40
VENDOR_WINDOWS_MIN = 6
VENDOR_SHARE = 0.9
VENDOR_PIECES = 5000
# Legal words of a window that count: so many different ones at least. A list of cookie
# recipes says "cookie" often, and little else of a consent text.
VENDOR_DISTINCT = 3
