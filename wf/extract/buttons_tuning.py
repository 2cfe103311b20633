"""The tuning data of buttons kept as text (wf/extract/prose_buttons.py, and the accordion's
questions: wf/extract/accordion.py), apart from their code as wf/extract/tuning.py is from
the scoring."""

# A button that holds a paragraph of prose is a card or a tab drawn as a button (a
# feature's title over its sentence, a customer's quote): it is kept as a box when its
# text is PROSE_BUTTON_MIN characters at least with a sentence's end (a closing quote may
# follow the stop: a testimonial). A control's label is a word or two, with no stop.
PROSE_BUTTON_MIN = 60
PROSE_BUTTON_SENTENCE = r"[.!?][\"'\u201d\u2019)]*(?:\s|$)"

# Accordion questions (wf.extract.accordion): a button that opens a panel (aria-expanded or
# aria-controls) is kept as a line of its own when it reads as a question or a title
# (ACCORDION_WORDS words at least, a section's title as "Pricing details"; one word is a
# control's more often: "Menu", "Share"; no more than ACCORDION_WORDS_MAX) and the panel
# it opens is shown and holds prose: ACCORDION_PROSE characters outside links at least, over
# ACCORDION_PROSE_SHARE of its text, with a sentence's end. A menu's panel is links, a
# filter's is boxes to tick: neither is prose, and their buttons go as before.
ACCORDION_WORDS = 2
ACCORDION_WORDS_MAX = 30
ACCORDION_PROSE = 80
ACCORDION_PROSE_SHARE = 0.5
ACCORDION_SENTENCE = r"[.!?](?:\s|$)"
ACCORDION_READ_MAX = 1_000_000  # characters of panels measured per page at most

# A product page's closed accordion (wf.extract.accordion.closed_panels): a hidden panel
# right after the button that opens it is read open under the button's label, of
# PANEL_TITLE_WORDS_MAX words at most ("Description", "Size & fit"; a title, not a
# sentence), when no more than PANEL_LINKED_SHARE of its text is links (a menu's is
# mostly links, and stays closed).
PANEL_TITLE_WORDS_MAX = 6
PANEL_LINKED_SHARE = 0.5
# ...but a tab (role="tab") that opens the panel another tab opens, among the
# FILTER_TABS_MAX elements on either side of it, filters that panel: no question.
FILTER_TABS_MAX = 16

# Tabs drawn with CSS alone (wf.extract.radio_tabs): a row of RADIO_TABS_MIN to
# RADIO_TABS_MAX labels for radio buttons of one group, each label's text put at the head
# of its panel; RADIO_ROWS_MAX rows a page at most.
RADIO_TABS_MIN = 2
RADIO_TABS_MAX = 16
RADIO_ROWS_MAX = 50
