"""The tuning data of a landing page read whole (wf/extract/kinds/landing.py), apart from
its code; its other thresholds are in wf/extract/tuning.py (LANDING_*)."""

# A call to action alone on its line: a link or button of CTA_MAX characters at most,
# mostly links, whose whole text (white space collapsed, case aside) is one of these,
# an arrow after it or not. Marketing pages put one under every card and section.
CTA_MAX = 40
CALLS_TO_ACTION = (
    r"(?:learn more(?: about [\w ]+)?|read more|see more|explore more|find out more|"
    r"discover more|more information|learn how|see how|"
    r"get started(?: for free)?|start for free|start (?:your )?free trial|"
    r"try (?:it )?(?:for )?free|sign up|download(?: now| free)?|"
    r"contact us|get in touch|contact sales|talk to sales|get a quote|"
    r"(?:book|request|get) a demo|book demo|"
    r"read the (?:article|story|report)|read (?:the )?full (?:article|story|post)|"
    r"read (?:case|success) story|watch (?:the )?video|"
    r"see all [\w ]+|view all[\w ]*|explore [\w ]+|see pricing|view pricing|see plans)"
    r"\s*(?:→|›|>|»)?"
)

# A box named for a promotion (`cmp-promo__content`, `promo-card`) is a landing page's
# part when part() says so (prose of its own, not mostly links): a service page's
# cards, each a service and a line on it, are its sections. Elsewhere the word names
# recommendations that are never content (wf/extract/tuning.py NEVER_CONTENT).
SPARED = ("promo",)

# What the page prints without its named boilerplate, weighed against a thin choice
# (landing._thin), leaves out a list that is a menu named as nothing: a <ul> or <ol> of
# MENU_ITEMS items at least, MENU_LINKS of its text in links. A public service's page
# beside its section's long menu, in a plain grid column, is its short text, not a
# landing page to read whole.
MENU_ITEMS = 5
MENU_LINKS = 0.9
