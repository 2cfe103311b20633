"""A sign-up box inside an article, of no telling name, around a form that its own
attributes name a sign-up: the box goes whole (pitch, fine print, thanks), though it is
larger than a form's widget otherwise is. Every page here is a small one of our own."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

PARAGRAPHS = [
    "The island ferry will sail twice more each weekday from April, the operator said on "
    "Monday, after a winter in which the last boat of the evening was often full.",
    "Commuters had asked for a later crossing for years; the new one leaves the harbour "
    "at half past ten and reaches the island a little before eleven at night.",
    "Fares stay the same until the summer, when the council will review the subsidy that "
    "keeps the route running through the quiet months of the year.",
    "The operator also plans to repaint the older of its two boats, which has carried "
    "passengers since the eighties and is due for an inspection in the autumn.",
    "Islanders welcomed the news at a meeting in the village hall, though some asked "
    "why the early morning crossing on Sundays is not coming back as well.",
    "A spokeswoman said the Sunday timetable would be looked at again next year, once "
    "the figures for the new evening crossing are known and counted.",
    "The harbour master said the pier could take the extra sailings without works, as "
    "the berth was rebuilt three years ago with money from the regional fund.",
    "Local shops expect more visitors in the evenings, and the pub by the slipway says "
    "it will keep its kitchen open later on weekdays through the summer season.",
    "The bus that meets the ferry on the mainland side will run later as well, the "
    "county's transport office confirmed in a short statement on Tuesday.",
    "Cyclists will still have to book a place for their bikes on the busiest crossings, "
    "which the operator says fill up in the first week of every month.",
    "A survey of passengers last year found that most travel to work or school, and "
    "that one in five would use a later boat at least once a week.",
    "The operator will publish the full timetable on its website in March, and printed "
    "copies will be left at the library, the post office and both harbour offices.",
]
FINE_PRINT = (
    "By signing up, you agree to receive recurring automated text messages from Harbour "
    "News at the number provided. Message and data rates may apply. Up to two messages a "
    "day. Reply STOP to opt out, HELP for help. Consent is not a condition of purchase. "
    "See our privacy policy and terms of use for how we handle your number."
)


def _box(form_attrs: str) -> str:
    return (
        "<section class='relative p-8 my-12 border'><div class='label'>Harbour News "
        "Deals</div><div class='flex'><div class='font-bold'>Be the first to know!</div>"
        "<div class='lead'>Get the day's sailings and offers texted right to your phone "
        f"every morning!</div><form {form_attrs}><input type='tel' name='phone'>"
        f"<button>Sign me up</button></form><div class='small'>{FINE_PRINT}</div></div>"
        "<div class='ok'>Thanks for signing up!</div></section>"
    )


def _page(box: str) -> str:
    paragraphs = [f"<p>{p}</p>" for p in PARAGRAPHS]
    body = "".join(paragraphs[:2]) + box + "".join(paragraphs[2:])
    return (
        "<html><head><title>t</title></head><body><header><a href='/'>Home</a></header>"
        f"<div class='c1'><h1>Ferry timetable changes</h1>{body}</div></body></html>"
    )


@pytest.mark.parametrize(
    "attrs",
    [
        "x-ref='subscribeForm' class='flex mt-4'",
        "action='https://example.us20.list-manage.com/subscribe/post?u=1' method='post'",
        "id='wf-form-Newsletter-Form' data-name='Newsletter Form'",
    ],
)
def test_a_signup_box_named_by_its_form_is_left_out_whole(attrs: str) -> None:
    text = extract_text(_page(_box(attrs)))
    assert "half past ten" in text
    assert "looked at again next year" in text
    assert "Be the first to know" not in text
    assert "Reply STOP" not in text


def test_a_form_of_no_sign_up_keeps_the_box_around_it() -> None:
    """A guard: a box of text around a form that names nothing (a quiz, a calculator)
    larger than a widget stays."""
    text = extract_text(_page(_box("action='/quiz' class='flex mt-4'")))
    assert "half past ten" in text
    assert "Reply STOP" in text
