"""The tuning data of buttons kept as text (wf/extract/prose_buttons.py), apart from its code as
wf/extract/tuning.py is from the scoring (the accordion's questions read tuning.py's
ACCORDION_* values)."""

# A button that holds a paragraph of prose is a card or a tab drawn as a button (a
# feature's title over its sentence, a customer's quote): it is kept as a box when its
# text is PROSE_BUTTON_MIN characters at least with a sentence's end (a closing quote may
# follow the stop: a testimonial). A control's label is a word or two, with no stop.
PROSE_BUTTON_MIN = 60
PROSE_BUTTON_SENTENCE = r"[.!?][\"'\u201d\u2019)]*(?:\s|$)"
