"""Page kinds: what a page is (article, thread, documentation, product, listing, landing),
decided before its content is chosen, and each kind's own rule for choosing it.

The kind comes first from the page's declarations (declared.py: schema.org types,
og:type, microdata), then from its structure once the blocks are scored (siblings.py:
posts, cards and rows of one shape around the chosen block). The names and thresholds
are in wf/extract/tuning.py.
"""

from __future__ import annotations
