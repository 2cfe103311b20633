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


# Lists that name only the vendors' legal basis, never "cookie" or "consent".
_BASIS = {
    "de": (
        "<h2>Unsere Partner</h2><p>Wir und unsere Partner verarbeiten Daten auf Grundlage "
        "von berechtigtem Interesse.</p>",
        "Zwecke (berechtigtes Interesse): Profile für personalisierte Werbung erstellen, "
        "Leistung von Werbung messen. Datenverarbeitung: Gerätemerkmale, IP-Adresse. "
        "Speicherdauer: {} Tage. Datenschutzerklärung des Anbieters",
    ),
    "fr": (
        "<h2>Nos partenaires</h2><p>Nos partenaires et nous traitons des données sur la "
        "base de l'intérêt légitime.</p>",
        "Finalités (intérêt légitime) : créer des profils pour la publicité personnalisée, "
        "mesurer la performance des publicités. Données traitées : caractéristiques de "
        "l'appareil, adresse IP. Durée de conservation : {} jours. Politique de "
        "confidentialité du partenaire",
    ),
    "en": (
        "<h2>Our vendors</h2><p>We and our vendors process data on the basis of legitimate "
        "interest.</p>",
        "Purposes (legitimate interest): create profiles for personalised advertising, "
        "measure advertising performance. Data processed: device characteristics, IP "
        "address. Retention: {} days. Vendor privacy policy",
    ),
}


@pytest.mark.parametrize("lang", sorted(_BASIS))
@pytest.mark.parametrize("before", [True, False])
def test_a_vendor_list_that_names_only_its_legal_basis_is_not_the_content(
    lang: str, before: bool
) -> None:
    head, entry = _BASIS[lang]
    vendors = (
        "<div class='box'>"
        + head
        + "<ul class='items'>"
        + "".join(
            f"<li class='item'><a href='/v{i}'>Vendor {i} GmbH</a><p>{entry.format(i + 1)}</p></li>"
            for i in range(24)
        )
        + "</ul></div>"
    )
    article = f"<div class='content'><article>{ARTICLE}</article></div>"
    inside = vendors + article if before else article + vendors
    html = (
        "<html><head><title>t</title></head><body>"
        + NAV
        + f"<div class='wrap'>{inside}</div>"
        + FOOTER
        + "</body></html>"
    )
    text = extract_text(html)
    assert ARTICLE_KEY in text
    assert "Vendor 3 GmbH" not in text


def test_a_privacy_policy_that_names_its_legal_basis_is_its_pages_content() -> None:
    policy = "<h1>Datenschutzerklärung</h1>" + "".join(
        f"<h2>Abschnitt {i}</h2><p>Wir verarbeiten Ihre Daten auf Grundlage von "
        "berechtigtem Interesse, um unseren Dienst sicher zu betreiben. Unsere Partner "
        "erhalten Gerätemerkmale nur, soweit der Zweck es verlangt; die Speicherdauer "
        "richtet sich nach dem Zweck der Datenverarbeitung.</p>"
        for i in range(6)
    )
    html = (
        "<html><head><title>t</title></head><body>"
        + NAV
        + f"<main>{policy}</main>"
        + FOOTER
        + "</body></html>"
    )
    text = extract_text(html)
    assert "Abschnitt 5" in text and "Abschnitt 0" in text
