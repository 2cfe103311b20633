"""wf/empty.py: why a page's text is empty or tiny (a JavaScript shell, a consent or
sign-in wall, a paywall, only links or images), as pure functions on small pages of our
own, and the note through wf (stderr and --json, exit 0)."""

from __future__ import annotations

import json
import time

import pytest

from tests.helpers import ALLOW
from tests.servers import respond
from wf.empty import is_tiny, meta_refresh, why_empty
from wf.extract import extract_text

PAD = "<script>" + "var x = 1;\n" * 250 + "</script>"  # 2750 bytes of script
ARTICLE = "<p>" + "The harbour wall was rebuilt in stone after the winter storms. " * 12 + "</p>"


def page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>T</title>{head}</head><body>{body}</body></html>"


def why(html: str, url: str = "https://news.example/2026/harbour", **kw: bool) -> str | None:
    """The note for a page as wf extracts it, fetched and not rendered by default."""
    options = {"never": False, "rendered": False, "can_render": True, **kw}
    return why_empty(html, extract_text(html), url, **options)


SHELL = page('<div id="root"></div>' + PAD)
CONSENT = page(
    '<div id="onetrust-consent-sdk" role="dialog"><p>We and our partners</p>'
    "<button>Accept all</button><button>Settings</button></div>"
)
LOGIN = page(
    '<form action="/session"><label>E-mail <input name="user"></label>'
    '<label>Password <input type="password" name="pw"></label><button>Go</button></form>'
)
PAYWALL = page(
    "<article><h1>Harbour plans</h1><p>The council met on Tuesday.</p></article>",
    '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Harbour '
    'plans", "isAccessibleForFree": false, "hasPart": {"@type": "WebPageElement", '
    '"isAccessibleForFree": "False", "cssSelector": ".paid"}}</script>',
)
IMAGES = page("".join(f'<img src="/photos/{n}.jpg" alt="">' for n in range(6)))
LINKS = page(
    "<ul>" + "".join(f'<li><a href="/p/{n}">Part {n}</a></li>' for n in range(8)) + "</ul>"
)


# -- each kind ---------------------------------------------------------------------------


def test_a_javascript_shell_not_rendered_says_it_needs_rendering() -> None:
    assert extract_text(SHELL) == ""
    note = why(SHELL, never=True)
    assert note == (
        "no text: page looks JavaScript-rendered (empty mount point) and needs rendering; "
        "--render never kept it static, --render auto would try"
    )
    # A local document (--input) is never rendered, whatever the mode.
    note = why(SHELL, can_render=False)
    assert note is not None and note.endswith("wf renders only pages it fetches")
    # In auto mode the render was tried: its own note says how it went.
    assert why(SHELL) is None


def test_a_shell_that_was_rendered_is_not_called_a_shell() -> None:
    assert why(SHELL, rendered=True) == "no text: nothing readable even after rendering"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (
            CONSENT,
            "little text (19 characters): page shows a consent wall (id or class 'onetrust')",
        ),
        (
            page('<div id="cmpwrapper" class="cmpwrapper"><p>Wir verwenden Cookies.</p></div>'),
            "page shows a consent wall (id or class 'cmpwrapper')",
        ),
        (
            page("<main><p>Avant de continuer, donnez votre consentement.</p></main>"),
            "page shows a consent wall (its text asks about 'consentement')",
        ),
    ],
)
def test_a_consent_wall(html: str, expected: str) -> None:
    note = why(html)
    assert note is not None and note.endswith(expected), note


def test_adobe_experience_managers_cmp_container_is_no_wall() -> None:
    # AEM names its core components `cmp-<name>`: "cmp" is no consent manager there.
    html = page(
        '<div class="cmp-container"><div class="cmp-text">'
        "<p>Opening hours: nine to five.</p></div></div>"
    )
    assert why(html) is None


def test_a_consent_platforms_script_alone_is_no_wall() -> None:
    # Most pages load one; only a container of the platform's on the page counts.
    html = page(
        '<script id="Cookiebot" src="https://consent.cookiebot.example/uc.js"></script>'
        "<p>Opening hours: nine to five.</p>"
    )
    assert why(html) is None


def test_a_redirect_to_a_consent_or_sign_in_address() -> None:
    html = page("<p>One moment.</p>")
    note = why(html, url="https://consent.portal.example/?continue=https://news.example/")
    assert note is not None and "the address is a consent wall" in note
    note = why(html, url="https://news.example/account/login?next=/2026/harbour")
    assert note is not None and "the address is a sign-in page" in note
    # A page about logins or consent is not a wall.
    assert why(html, url="https://news.example/2026/login-trouble-explained") is None
    assert why(html, url="https://news.example/consent-explained/gdpr") is None


def test_a_sign_in_wall() -> None:
    assert why(LOGIN) == "no text: page asks to sign in (a password field)"
    html = page('<form action="/go"><p>Sign in to read on.</p><input name="e"></form>')
    note = why(html)
    assert note is not None and note.endswith("page asks to sign in (a sign-in form)")


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (PAYWALL, 'page is behind a paywall ("isAccessibleForFree": false)'),
        (
            page(
                "<p>Harbour plans.</p>", '<meta property="article:content_tier" content="locked">'
            ),
            """page is behind a paywall (content_tier" content="locked)""",
        ),
        (
            page('<div class="article paywall-overlay"><p>Only for our readers.</p></div>'),
            "page is behind a paywall (id or class 'paywall')",
        ),
        (
            page("<article><p>Subscribe to continue reading this story.</p></article>"),
            "page is behind a paywall (its text says 'Subscribe to continue')",
        ),
    ],
)
def test_a_paywall(html: str, expected: str) -> None:
    note = why(html)
    assert note is not None and note.endswith(expected), note


def test_a_page_of_only_links_or_images() -> None:
    assert why(IMAGES) == "no text: page holds only images (6 images)"
    note = why(LINKS)
    assert note is not None and note.endswith("page holds only links (8 links)")
    both = page("".join(f'<a href="/g/{n}"><img src="/t/{n}.jpg"></a>' for n in range(4)))
    assert why(both) == "no text: page holds only links and images (4 links, 4 images)"
    # Nothing printed at all: one picture is the page.
    one = page('<article><img src="/dawn.jpg"><img src="/dusk.jpg"></article>')
    assert why(one) == "no text: page holds only images (2 images)"
    # A heading over it is printed, and with so few pictures it says what the page is.
    titled = page('<article><h2>Harbour at dawn</h2><img src="/dawn.jpg"></article>')
    assert why(titled) is None


def test_a_meta_refresh_says_where_it_points() -> None:
    """A signpost page (a shortener's, a moved page's) is empty by design: the note says
    where it sends the reader, made absolute, since wf follows HTTP redirects only."""
    for content in (
        "0; url=/2026/harbour-seals",
        "0;URL='/2026/harbour-seals'",
        "5,/2026/harbour-seals",
    ):
        html = f'<html><head><meta http-equiv="Refresh" content="{content}"></head><body></body></html>'
        assert why(html) == (
            "no text: page redirects to https://news.example/2026/harbour-seals (a meta "
            "refresh); fetch that address"
        )
    # A timed reload of the page itself is no redirect.
    reload = '<html><head><meta http-equiv="refresh" content="300"></head><body></body></html>'
    assert why(reload) == "no text: nothing readable"
    # Nor is a refresh to the page's own address, however it is spelled.
    for own in ("https://news.example/2026/harbour", "/2026/harbour", "harbour"):
        itself = f'<html><head><meta http-equiv="refresh" content="0; url={own}"></head></html>'
        assert why(itself) == "no text: nothing readable", own
    # Without the page's address the target is kept as written.
    assert meta_refresh('<meta http-equiv="refresh" content="0; url=/next">', None) == "/next"
    # A page with its text is printed as it is, refresh or not.
    moved = page('<meta http-equiv="refresh" content="0; url=/elsewhere">' + ARTICLE)
    assert why(moved) is None


def test_the_edges_of_a_page_of_only_links_or_images() -> None:
    from wf.empty import _OWN_TEXT, _Seen

    # With nothing printed, one picture is the page (in the singular).
    single = page('<article><img src="/dawn.jpg"></article>')
    assert why(single) == "no text: page holds only images (1 image)"
    # With a little text, three links (or pictures) are; two are not.
    listing = "<ul>" + "".join(
        f'<li><a href="/{w}">{w}</a></li>' for w in ("Alpha", "Beta", "Gamma")
    )
    note = why(page(listing + "</ul>"))
    assert note is not None and note.endswith("page holds only links (3 links)"), note
    assert why(page(listing.replace('<li><a href="/Gamma">Gamma</a></li>', "") + "</ul>")) is None

    # Its own text under _OWN_TEXT characters: still a page of links; at it, not.
    def with_own(n: int) -> str:
        return page(f"<p>{'x' * n}</p>" + listing + "</ul>")

    at = next(n for n in range(200) if _Seen(with_own(n)).own == _OWN_TEXT)
    assert why(with_own(at)) is None
    below = why(with_own(at - 1))
    assert below is not None and below.endswith("page holds only links (3 links)"), below


def test_what_a_reader_sees_is_counted_from_the_first_character() -> None:
    from wf.empty import _Seen

    seen = _Seen('abc d\ne<a href="/x">link text</a>fg<img src="/p.jpg"><a>no href</a>')
    # Text outside links, without spaces and line ends: "abcde", "fg", "nohref".
    assert (seen.own, seen.links, seen.images) == (13, 1, 1)
    assert _Seen("xyz").own == 3 and _Seen("").own == 0
    # The text after the last tag counts too, spaces and line ends left out.
    assert _Seen("ab<i></i>c d\ne").own == 5 and _Seen("a b\nc").own == 3
    # Nobody reads a script, a style or a title (nor tags inside them); text after them is
    # read, an <a> inside an <a> closes the first, and an <a> closed counts its text out.
    hidden = _Seen(
        "ab<script>var c = '<a href=x>'</script>cd<style>p{}</style>"
        '<a href="/1">in<a href="/2">in</a>ef<title>T</title>gh<a href="/3">tail'
    )
    assert (hidden.own, hidden.links) == (8, 3), (hidden.own, hidden.links)
    assert hidden.text == "ab cd in in ef gh"
    # Only the hidden element's own end tag ends it.
    drawing = _Seen("ab<svg><g></g><text>xy</text></svg>cd")
    assert (drawing.own, drawing.text) == (4, "ab cd")
    closed = _Seen('<a href="/1">in</a>outside')
    assert (closed.own, closed.text) == (7, "in outside")


def test_the_words_a_reader_sees_are_read_past_many_empty_tags() -> None:
    # Twelve thousand empty tags make no text: the footer's words are still within the
    # characters looked at (the extractor drops the footer; the reader sees it).
    html = page("<i></i>" * 6000 + "<p>Harbour.</p><footer>Subscribe to continue reading</footer>")
    assert why(html) == (
        "little text (8 characters): page is behind a paywall (its text says "
        "'Subscribe to continue')"
    )


def test_sign_in_words_alone_or_a_form_alone_are_no_wall() -> None:
    assert why(page("<p>Sign in</p>")) is None
    assert why(page('<form action="/find"><input name="q"><p>Find</p></form>')) is None


def test_the_refresh_is_found_among_other_meta_tags() -> None:
    url = "https://news.example/2026/harbour"
    refresh = '<meta http-equiv="refresh" content="0; url=/next">'
    other = '<meta name="robots" content="noindex">'
    # First or last among them, the refresh's own content is read.
    assert meta_refresh(refresh + other, url) == "https://news.example/next"
    assert meta_refresh(other + refresh, url) == "https://news.example/next"
    assert meta_refresh(other + refresh + other, url) == "https://news.example/next"
    # A tag longer than a refresh ever is (2 KB) is not read.
    long = '<meta http-equiv="refresh" content="0; url=/next" data-x="' + "a" * 3000 + '">'
    assert meta_refresh(long, url) is None
    assert meta_refresh(long + refresh, url) == "https://news.example/next"
    assert meta_refresh(long + refresh + other, url) == "https://news.example/next"
    # Each <meta> gets its own 2 KB: one right after an unfinished one is read in full.
    head = '<meta<meta http-equiv="refresh" content="0; url=/next" data-x="'
    tight = head + "a" * (2050 - len(head) - 1) + '">'
    assert tight.index(">") == 2050
    assert meta_refresh(tight, url) == "https://news.example/next"


def test_a_refresh_without_content_is_no_redirect() -> None:
    bare = '<html><head><meta http-equiv="refresh"></head><body></body></html>'
    assert why(bare) == "no text: nothing readable"


def test_brief_cuts_at_80_characters() -> None:
    from wf.empty import _brief

    assert _brief(" a \n  b ") == "a b"
    assert _brief("a" * 80) == "a" * 80
    assert _brief("a" * 81) == "a" * 77 + "..."
    long = "https://news.example/" + "p" * 100
    html = f'<html><head><meta http-equiv="refresh" content="0; url={long}"></head></html>'
    assert why(html) == (
        f"no text: page redirects to {long[:77]}... (a meta refresh); fetch that address"
    )


def _explained(html: str, *, can_render: bool = True, **page_fields: object) -> list[str]:
    """The notes explain() gives a page (wf's default options), and the lines it logs."""
    from wf.empty import explain
    from wf.options import make_options
    from wf.view import PageResult

    said: list[str] = []
    result = PageResult(**page_fields)  # type: ignore[arg-type]
    text = extract_text(html)
    opts = make_options({})
    explain(result, lambda: html, text, opts, log=said.append, can_render=can_render)
    assert said == [f"note: {n}" for n in result.notes]
    return result.notes


def test_every_signal_of_a_shell_is_named() -> None:
    two = page(
        '<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>'
        + PAD
    )
    note = why(two, never=True)
    assert (
        note is not None
        and "rendered (noscript asks for JavaScript, empty mount point) and" in note
    )


def test_a_refresh_is_not_looked_for_after_rendering_or_at_a_wall_s_address() -> None:
    refresh = (
        '<html><head><meta http-equiv="refresh" content="0; url=/next"></head><body></body></html>'
    )
    assert why(refresh, rendered=True) == "no text: nothing readable even after rendering"
    wall = why(refresh, url="https://news.example/account/login?next=/a")
    assert (
        wall
        == "no text: the address is a sign-in page (https://news.example/account/login?next=/a)"
    )


def test_explain_reads_the_page_as_fetched() -> None:
    # The address the page ended at, else the one asked for.
    login = "https://news.example/account/login?next=/a"
    assert _explained(page("<p>One moment.</p>"), url=login)[0].endswith(
        "the address is a sign-in page (https://news.example/account/login?next=/a)"
    )
    assert _explained(page("<p>One moment.</p>"), url="https://news.example/a", final_url=login)
    # A rendered page is told as such.
    assert _explained(page(""), url="https://news.example/a", rendered=True) == [
        "no text: nothing readable even after rendering"
    ]
    # A shell wf could render was rendered (its own note says how); one it could not says so.
    assert _explained(SHELL, url="https://news.example/a") == []
    (note,) = _explained(SHELL, url="https://news.example/a", can_render=False)
    assert note.endswith("needs rendering; wf renders only pages it fetches"), note
    # A page long enough says nothing at all.
    assert _explained(ARTICLE, url="https://news.example/a") == []


def test_an_empty_page_without_a_reason_still_says_so() -> None:
    assert why(page("")) == "no text: nothing readable"
    assert why(page("<div><span> </span></div>")) == "no text: nothing readable"


# -- pages that get no note --------------------------------------------------------------


@pytest.mark.parametrize(
    "html",
    [
        page("<p>Opening hours: nine to five, Monday to Saturday.</p>"),
        page('<p>See the <a href="/hours">opening hours</a> and <a href="/map">map</a>.</p>'),
        page('<p>Our shop front, as it looks today.</p><img src="/shop.jpg">'),
        # Long pages never get here, whatever else they carry: a consent banner, a
        # sign-in box, a paywall's markup for the part of the text that is open.
        page(
            '<div id="onetrust-banner-sdk"><p>Cookies</p></div><form><input type="password">'
            '</form><article class="paywall">' + ARTICLE + "</article>" + PAD
        ),
    ],
)
def test_a_normal_page_gets_no_note(html: str) -> None:
    assert why(html) is None
    assert why(html, never=True) is None


def test_tiny_is_in_bytes() -> None:
    assert is_tiny("") and is_tiny("x" * 399) and not is_tiny("x" * 400)
    assert not is_tiny("ж" * 200)  # 400 bytes


@pytest.mark.parametrize(
    "hostile",
    [
        "<" * 2_000_000,
        "<noscript>" * 200_000,
        '<div id="' * 200_000,
        "<a href=x>" * 200_000,
        "<script>" * 200_000,
        '<div class="' + "a" * 2_000_000,
        "<form>" + "sign in " * 200_000,
        "<meta " * 400_000,
        '<meta http-equiv=refresh content="' * 100_000,
        '<meta http-equiv="refresh" content="0; url=' + "a" * 2_000_000,
    ],
)
def test_hostile_pages_cost_linear_time(hostile: str) -> None:
    # About 0.2 s each here; the bound catches a pattern that became quadratic (the
    # first of these took minutes with a ".*?" that ran on from every "<").
    start = time.process_time()
    why_empty(hostile, "", "https://news.example/", never=True, rendered=False, can_render=True)
    assert time.process_time() - start < 5


# -- through wf --------------------------------------------------------------------------


def served(serve, html: str):  # type: ignore[no-untyped-def]
    return serve(respond(200, html.encode(), {"Content-Type": "text/html; charset=utf-8"}))


def test_render_never_on_a_shell_prints_nothing_and_one_note(wf, serve) -> None:  # type: ignore[no-untyped-def]
    srv = served(serve, SHELL)
    r = wf(*ALLOW, "--render", "never", srv.url)
    assert (r.code, r.stdout) == (0, "")
    assert r.stderr == (
        "wf: note: no text: page looks JavaScript-rendered (empty mount point) and needs "
        "rendering; --render never kept it static, --render auto would try\n"
    )
    obj = json.loads(wf(*ALLOW, "--render", "never", "--json", srv.url).stdout)
    assert obj["error"] is None and obj["text"] == ""
    assert obj["notes"] == [r.stderr[len("wf: note: ") : -1]]


@pytest.mark.parametrize(
    ("html", "needle"),
    [
        (CONSENT, "consent wall"),
        (LOGIN, "asks to sign in"),
        (PAYWALL, "behind a paywall"),
        (IMAGES, "only images"),
        ('<meta http-equiv="refresh" content="0; url=/next">', "redirects to http://127.0.0.1"),
    ],
)
def test_each_kind_through_wf_exits_0_with_one_line(wf, serve, html: str, needle: str) -> None:  # type: ignore[no-untyped-def]
    r = wf(*ALLOW, "--render", "never", served(serve, html).url)
    assert r.code == 0
    assert r.stderr.startswith("wf: note: ") and r.stderr.count("\n") == 1, r.stderr
    assert needle in r.stderr


def test_a_local_shell_says_it_is_not_rendered(wf) -> None:  # type: ignore[no-untyped-def]
    r = wf("--input", "-", input=SHELL)
    assert (r.code, r.stdout) == (0, "")
    assert "wf renders only pages it fetches" in r.stderr and r.stderr.count("\n") == 1


def test_a_normal_page_through_wf_has_no_note(wf, serve) -> None:  # type: ignore[no-untyped-def]
    short = page("<p>Opening hours: nine to five, Monday to Saturday.</p>")
    for html in (short, page(ARTICLE)):
        r = wf(*ALLOW, "--render", "never", "--json", served(serve, html).url)
        assert r.code == 0 and r.stderr == ""
        assert json.loads(r.stdout)["notes"] == []
