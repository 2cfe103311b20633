"""A consent manager's list of vendors beside an article: however named, it is never the
page's list nor its content. Every page here is a small one of our own."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

ARTICLE = (
    "<h1>Ferry timetable changes in spring</h1>"
    "<p>The island ferry will sail twice more each weekday from April, the operator said "
    "on Monday, after a winter in which the last boat of the evening was often full.</p>"
    "<p>Commuters had asked for a later crossing for years; the new one leaves the "
    "harbour at half past ten and reaches the island a little before eleven.</p>"
    "<p>Fares stay the same until the summer, when the council will review the subsidy "
    "that keeps the route running through the quiet months.</p>"
)
ARTICLE_KEY = "half past ten"

NAV = (
    "<header><nav><ul>"
    + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(10))
    + "</ul></nav></header>"
)
FOOTER = "<footer><p>All rights reserved.</p></footer>"


def _vendor(i: int) -> str:
    return (
        f"<li class='entry'><h4>Adtech Partner {i} Ltd</h4><p>Purposes (consent): store "
        "and/or access information on a device, create profiles for personalised "
        "advertising, measure advertising performance. Purposes (legitimate interest): "
        f"develop and improve services.</p><p>Cookie expiry: {30 + i} days. Uses other "
        f"forms of storage: yes.</p><a href='/policy/{i}'>Privacy policy</a></li>"
    )


VENDORS = "<h2>Vendors</h2><ul>" + "".join(_vendor(i) for i in range(40)) + "</ul>"

# Boxes no consent platform's name gives away (a platform's own prefix, a dialog of a
# site's own, a plain overlay).
_BOXES = {
    "prefixed": "<div class='pm-vendors'>{}</div>",
    "message": "<div id='sp-vendor-list' class='message'>{}</div>",
    "overlay": "<div class='ov'><div class='inner'>{}</div></div>",
}


@pytest.mark.parametrize("box", sorted(_BOXES))
@pytest.mark.parametrize("wrapper", ["<main>{}</main>", "<div class='c1'><div>{}</div></div>"])
def test_a_vendor_list_longer_than_the_article_is_not_taken_for_its_list(
    box: str, wrapper: str
) -> None:
    html = (
        "<html><head><title>t</title></head><body>"
        + NAV
        + wrapper.format(ARTICLE)
        + _BOXES[box].format(VENDORS)
        + FOOTER
        + "</body></html>"
    )
    text = extract_text(html)
    assert ARTICLE_KEY in text
    assert "Adtech Partner" not in text


def test_a_list_of_cookie_recipes_is_still_a_list() -> None:
    items = "".join(
        f"<li><h3><a href='/r{i}'>Cookie number {i}</a></h3><p>A cookie with oats, another "
        f"cookie with nuts: this cookie recipe makes {i + 12} cookies, each cookie crisp "
        "at the edge; store the cookie dough cold.</p></li>"
        for i in range(30)
    )
    html = (
        "<html><head><title>t</title></head><body>"
        + NAV
        + "<main><h1>Cookies</h1><p>Our recipes.</p><ul class='recipes'>"
        + items
        + "</ul></main>"
        + FOOTER
        + "</body></html>"
    )
    text = extract_text(html)
    assert "Cookie number 29" in text
    assert "Cookie number 0" in text
