"""Tuning of wf/extract/variants.py: Framer's copies of a component per breakpoint."""

# A `ssr-variant` box goes when this share of its words is in one of the VARIANT_BACK
# variants kept before it beside it: a phone's copy drops a line or two of the desktop's,
# while the next component, rendered beside it, shares few of its words.
VARIANT_SAME = 0.8
VARIANT_BACK = 4
# Bounds for a hostile page: text pieces of a variant read, and variants of a page weighed.
VARIANT_TEXTS = 2000
VARIANT_MAX = 500
