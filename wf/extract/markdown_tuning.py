"""The tuning data of the Markdown writer (wf/extract/markdown.py), apart from its code as
wf/extract/tuning.py is from the scoring: the calls to action it leaves off an article's
end."""

# Calls to action that close many articles: the site asking for a subscription or a
# follow. Only short plain paragraphs at the very end are judged by these words (searched
# without case: verdicts.CaseBlind, so written in lower case).
CALLS_TO_ACTION = (
    r"\u00a9 ?\d{4}|\b(?:subscribe|sign up|signup|newsletter|inbox|follow (?:us|me|him|her|"
    r"them)|follow @|on (?:twitter|facebook|instagram)|click here|all rights reserved|copyright|"
    r"listen to|download (?:the|our)|join (?:our|us)|"
    # The same asks in the languages most pages here are in: subscriptions, trial
    # offers, sign-ups (German, French, Spanish, Italian, Dutch).
    r"abonnier|abonnement|digitalabo|vorteile sichern|gratis testen|jetzt testen|"
    r"jetzt anmelden|registrieren sie|s'abonner|abonnez|inscrivez|suscr[ií]b|"
    r"iscriviti|abbonati|abonneer|aanmelden)"
)
CTA_MAX = 300  # characters: a longer paragraph is the article's own

# Nesting shown by indentation or quote marks: deeper lists and quotes print at this
# depth, so that a hostile page's thousands of nested levels cost output linear in its
# text, not in its text times its depth. No page of the three benchmark sets (961)
# changes with it.
MAX_NESTING = 12
