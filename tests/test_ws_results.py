"""Result clean-up, de-duplication and domain filters (pure functions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ws.results import (
    Result,
    canonical_domain,
    clean_text,
    domain_matches,
    finalise,
    http_url,
    url_key,
)


def test_clean_text_decodes_entities_and_collapses_whitespace():
    assert clean_text("  Rust &amp;\n\tfriends&nbsp;&#x27;24\u200b ") == "Rust & friends '24"
    assert clean_text(None) == ""


def test_clean_text_applies_the_text_policy():
    # Bidi override, tag characters and a C1 control go; a lone surrogate (a JSON escape
    # such as \ud800) is repaired; a ZWNJ inside a Persian word stays.
    hidden = "\u202e\U000e0069\U000e0067\x9b\u2066"
    assert (
        clean_text(f"Ti{hidden}tle \ud800 می\u200cخواهم\u2028x") == "Title \ufffd می\u200cخواهم x"
    )


def test_a_result_whose_url_holds_a_lone_surrogate_is_dropped():
    raw = [Result("bad", "https://a.example/\ud800"), Result("ok \udfff", "https://b.example/")]
    out, filtered = finalise(raw)
    assert [(r.title, r.url) for r in out] == [("ok \ufffd", "https://b.example/")]
    assert filtered == 0


@given(st.text())
def test_clean_text_is_always_one_trimmed_line(text):
    out = clean_text(text)
    assert "\n" not in out and "\r" not in out and "\t" not in out
    assert out == out.strip() and "  " not in out


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://a.example/x", "https://a.example/x"),
        ("//a.example/x", "https://a.example/x"),
        ("/relative/path", None),
        ("javascript:alert(1)", None),
        ("ftp://a.example/", None),
        ("https:///nohost", None),
        ("http://a.example:99999/", None),
        ("https://a.example/with space", None),
        ("", None),
    ],
)
def test_http_url(url, expected):
    assert http_url(url) == expected


def test_url_key_joins_spellings_of_one_page():
    same = [
        "https://www.example.com/a/?x=1&utm_source=ddg",
        "http://example.com/a?x=1#part",
        "https://EXAMPLE.com:443/a",
    ]
    assert url_key(same[0]) == url_key(same[1])
    assert url_key(same[2]) == url_key("https://example.com/a")
    assert url_key("https://example.com/a?x=1") != url_key("https://example.com/a?x=2")
    assert url_key("https://example.com:8443/a") != url_key("https://example.com/a")


@pytest.mark.parametrize(
    "spelling",
    [
        "https://example.com/a/./b",
        "https://example.com/a/c/../b",
        "https://example.com/a/%2E/b",
        "https://example.com/a/c/%2e%2E/b/",
        "https://example.com/../a/b",
    ],
)
def test_url_key_removes_dot_segments_as_rfc_3986_does(spelling):
    # review38: an engine's /a/./b and another's /a/b were two results of one page.
    assert url_key(spelling) == url_key("https://example.com/a/b") == "//example.com/a/b"


def test_url_key_keeps_names_that_only_start_with_a_dot():
    assert url_key("https://e.org/.well-known/x") == "//e.org/.well-known/x"
    assert url_key("https://e.org/a/..b/c") == "//e.org/a/..b/c"
    assert url_key("https://e.org/a/b/..") == url_key("https://e.org/a")


def test_url_key_keeps_the_order_of_the_parameters_and_drops_tracking_ones():
    # Decided as SearXNG and ddgs do: parameters in another order are another address.
    assert url_key("https://example.com/a?x=1&y=2") != url_key("https://example.com/a?y=2&x=1")
    assert url_key("https://e.org/?id=1&id=2") != url_key("https://e.org/?id=2&id=1")
    # Tracking parameters go wherever they are; the others keep their order.
    assert url_key("https://e.org/p?utm_source=a&y=2&fbclid=b&x=1&gclid=c") == url_key(
        "https://e.org/p?y=2&x=1"
    )
    assert url_key("https://e.org/p?y=2&x=1") == "//e.org/p?y=2&x=1"
    kept, _ = finalise(
        [Result("one", "https://e.org/p?x=1&y=2"), Result("two", "https://e.org/p?y=2&x=1")]
    )
    assert [r.title for r in kept] == ["one", "two"]


@pytest.mark.parametrize(
    ("text", "domain"),
    [
        ("Example.COM", "example.com"),
        ("*.example.com", "example.com"),
        ("https://docs.example.com/path?q", "docs.example.com"),
        ("example.com.", "example.com"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("not a domain", None),
        ("-bad-.example", None),
        ("", None),
    ],
)
def test_canonical_domain(text, domain):
    assert canonical_domain(text) == domain


def test_domain_matches_itself_and_subdomains_only():
    assert domain_matches("example.com", "example.com")
    assert domain_matches("a.b.example.com", "example.com")
    assert not domain_matches("badexample.com", "example.com")
    assert not domain_matches("example.com.evil.test", "example.com")


@given(
    st.from_regex(r"[a-z]{1,8}", fullmatch=True),
    st.from_regex(r"[a-z]{1,8}\.[a-z]{2,4}", fullmatch=True),
)
def test_a_longer_label_never_matches_by_suffix(prefix, domain):
    assert not domain_matches(prefix + domain, domain)
    assert domain_matches(prefix + "." + domain, domain)


def _r(url: str, title: str = "t") -> Result:
    return Result(title=title, url=url, provider="p")


def test_finalise_ranks_dedupes_filters_and_limits():
    raw = [
        _r("https://docs.example.com/a", " A\n title "),
        _r("https://www.docs.example.com/a/"),
        _r("https://other.test/b"),
        _r("javascript:void(0)"),
        _r("https://example.com/c", ""),
        _r("https://example.com/d"),
    ]
    out, filtered = finalise(raw, allow=("example.com",), limit=2)
    assert [(r.rank, r.url, r.title) for r in out] == [
        (1, "https://docs.example.com/a", "A title"),
        (2, "https://example.com/c", "example.com"),
    ]
    assert filtered == 1
    blocked, removed = finalise(raw, block=("docs.example.com",))
    assert [r.url for r in blocked] == [
        "https://other.test/b",
        "https://example.com/c",
        "https://example.com/d",
    ]
    assert removed == 1


def test_a_hostile_title_or_snippet_is_cut_with_a_mark():
    from ws.results import SNIPPET_CHARS, TITLE_CHARS

    long_title = "word " * 100_000
    long_snippet = "x" * 1_000_000
    raw = [
        Result(title=long_title, url="https://a.example/1", snippet=long_snippet),
        Result(title="Short title", url="https://a.example/2", snippet="Short snippet."),
    ]
    results, _ = finalise(raw)
    cut, kept = results
    assert len(cut.title) <= TITLE_CHARS and cut.title.endswith("...")
    assert len(cut.snippet) == SNIPPET_CHARS and cut.snippet.endswith("x...")
    assert (kept.title, kept.snippet) == ("Short title", "Short snippet.")


def test_a_published_value_longer_than_a_date_is_none():
    # An engine's date as it gave it ("3 days ago", an ISO stamp) is short: a hostile
    # answer's megabyte "publishedDate" was kept whole in --json.
    raw = [
        Result(title="A", url="https://a.example/1", published="2025-06-19 " * 100_000),
        Result(title="B", url="https://a.example/2", published="2025-06-19T10:00:00+02:00"),
        Result(title="C", url="https://a.example/3", published="3 days ago"),
    ]
    results, _ = finalise(raw)
    assert [r.published for r in results] == [None, "2025-06-19T10:00:00+02:00", "3 days ago"]


def test_a_cleaned_result_keeps_its_url_key_out_of_sight():
    from ws.results import key_of

    (kept,), _ = finalise([Result("T", " https://www.x.example/K%c3%b6ln/#top", provider="e")])
    assert key_of(kept) == url_key(kept.url) == "//x.example/K%C3%B6ln"
    # Not a public field: equal to the same result built by hand, not in its repr or JSON.
    plain = Result("T", "https://www.x.example/K%c3%b6ln/#top", provider="e", rank=1)
    assert kept == plain and hash(kept) == hash(plain) and repr(kept) == repr(plain)
    assert kept.as_json() == plain.as_json() and "x.example/K%C3" not in str(kept.as_json())
    assert key_of(plain) == key_of(kept)


def test_a_url_longer_than_wf_reads_is_dropped():
    # A hostile page's 3 MB result URL was printed whole, in text, --urls and --json; wf
    # refuses anything over common.http.url.MAX_URL_LENGTH, so it was no link either.
    from common.http.url import MAX_URL_LENGTH
    from ws.results import URL_CHARS

    assert URL_CHARS == MAX_URL_LENGTH
    at_limit = "https://a.example/" + "a" * (URL_CHARS - len("https://a.example/"))
    raw = [
        Result("long", "https://a.example/" + "a" * 3_000_000),
        Result("one over", at_limit + "b"),
        Result(
            "relative one over", "//a.example/" + "c" * (URL_CHARS - len("https://a.example/") + 1)
        ),
        Result("at the limit", at_limit),
    ]
    results, filtered = finalise(raw)
    assert [r.title for r in results] == ["at the limit"] and filtered == 0
    assert http_url(at_limit + "b") is None
