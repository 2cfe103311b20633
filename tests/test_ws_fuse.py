"""ws/fuse.py and --all/--engines: the four local engines of the default chain, whose
results overlap, the fused order checked against reciprocal rank fusion computed by hand."""

from __future__ import annotations

import html
import json
import time

from tests.test_ws_chain import PAGES, engines, ws  # noqa: F401 - engines is a fixture
from ws.fuse import K, fuse, fuse_until
from ws.results import Result


def ddg_page(urls: list[str]) -> bytes:
    items = "".join(
        f'<div class="result web-result"><h2 class="result__title">'
        f'<a class="result__a" href="{html.escape(u)}">DDG {i}</a></h2>'
        f'<a class="result__snippet" href="{html.escape(u)}">ddg snippet {i}</a></div>'
        for i, u in enumerate(urls, 1)
    )
    return f'<html><body><div id="links" class="results">{items}</div></body></html>'.encode()


def lite_page(urls: list[str]) -> bytes:
    # A result is a title row, a snippet row, an address row and a spacer row.
    rows = "".join(
        f'<tr><td valign="top">{i}.&nbsp;</td><td><a rel="nofollow" href="{html.escape(u)}" '
        f"class='result-link'>Lite {i}</a></td></tr>"
        f"<tr><td>&nbsp;</td><td class='result-snippet'>lite snippet {i}</td></tr>"
        f"<tr><td>&nbsp;</td><td><span class='link-text'>{html.escape(u)}</span></td></tr>"
        "<tr><td>&nbsp;</td><td>&nbsp;</td></tr>"
        for i, u in enumerate(urls, 1)
    )
    return f'<html><body><div class="filters"><table border="0">{rows}</table></div></body></html>'.encode()


def brave_page(urls: list[str]) -> bytes:
    items = "".join(
        f'<div class="snippet" data-type="web"><a href="{html.escape(u)}">'
        f'<div class="title search-snippet-title">Brave {i}</div></a>'
        f'<div class="generic-snippet"><div class="content">brave snippet {i}</div></div></div>'
        for i, u in enumerate(urls, 1)
    )
    return f'<html><body><main><div id="results">{items}</div></main></body></html>'.encode()


def mojeek_page(urls: list[str]) -> bytes:
    items = "".join(
        f'<li><h2><a class="title" href="{html.escape(u)}">Mojeek {i}</a></h2>'
        f'<p class="s">mojeek snippet {i}</p></li>'
        for i, u in enumerate(urls, 1)
    )
    return f'<html><body><ul class="results-standard">{items}</ul></body></html>'.encode()


A, B, C, D, E, F = (f"https://{x}.example/page" for x in "abcdef")


def _serve_overlap(engines) -> None:  # noqa: F811
    engines["duckduckgo"].answer(200, ddg_page([A, B, C]))
    engines["duckduckgo-lite"].answer(200, lite_page([D, "https://C.example/page/", F]))
    # The same pages as another engine spells them: www., case, default port, a trailing
    # slash, tracking parameters.
    engines["brave"].answer(
        200,
        brave_page(
            [
                "https://B.example:443/page/?utm_source=brave&fbclid=x",
                D,
                "https://www.a.example/page?gclid=1",
            ]
        ),
    )
    engines["mojeek"].answer(200, mojeek_page([D, B + "/", E]))


# By hand, k = 60:
#   D: 1/61 (lite 1) + 1/62 (brave 2) + 1/61 (mojeek 1) = 0.048916
#   B: 1/62 (ddg 2) + 1/61 (brave 1) + 1/62 (mojeek 2)  = 0.048651
#   A: 1/61 (ddg 1) + 1/63 (brave 3)                    = 0.032266
#   C: 1/63 (ddg 3) + 1/62 (lite 2)                     = 0.032002, spelled as lite did
#   F: 1/63 (lite 3) = E: 1/63 (mojeek 3)               = 0.015873: a tie, broken by the
#      engine's place in the chain (duckduckgo-lite before mojeek)
FUSED = [
    (D, ["duckduckgo-lite", "mojeek", "brave"]),
    ("https://B.example:443/page/?utm_source=brave&fbclid=x", ["brave", "duckduckgo", "mojeek"]),
    (A, ["duckduckgo", "brave"]),
    ("https://C.example/page/", ["duckduckgo-lite", "duckduckgo"]),
    (F, ["duckduckgo-lite"]),
    (E, ["mojeek"]),
]
EVERY = ["duckduckgo", "duckduckgo-lite", "brave", "mojeek"]


def test_all_fuses_every_engine_by_reciprocal_rank(engines):  # noqa: F811
    _serve_overlap(engines)
    r = ws(engines, "rust", "--all", "--json")
    assert r.code == 0 and r.stderr == "", r.stderr
    doc = json.loads(r.stdout)
    assert [(x["url"], x["providers"]) for x in doc["results"]] == FUSED
    assert [x["rank"] for x in doc["results"]] == [1, 2, 3, 4, 5, 6]
    first, second = doc["results"][:2]
    # A tie for the best rank goes to the engine earlier in the chain.
    assert first["ranks"] == {"duckduckgo-lite": 1, "mojeek": 1, "brave": 2}
    assert (first["provider"], first["title"]) == ("duckduckgo-lite", "Lite 1")
    assert second["ranks"] == {"brave": 1, "duckduckgo": 2, "mojeek": 2}
    assert (second["provider"], second["title"]) == ("brave", "Brave 1")
    assert doc["providers"] == EVERY
    assert [a["outcome"] for a in doc["attempts"]] == ["ok"] * 4
    assert all(e.connections == 1 for e in engines.values())

    text = ws(engines, "rust", "--all", "-n", "2").stdout
    assert text.splitlines()[0] == (
        'Search results for: "rust" (via DuckDuckGo, DuckDuckGo Lite, Brave, Mojeek, 2 results)'
    )
    assert "3. " not in text and "1. Lite 1" in text and "2. Brave 1" in text


def test_providers_are_those_whose_results_were_printed(engines):  # noqa: F811
    # -n 1 prints D alone, which DuckDuckGo did not return: it is not named.
    _serve_overlap(engines)
    r = ws(engines, "rust", "--all", "-n", "1", "--json")
    doc = json.loads(r.stdout)
    assert [x["url"] for x in doc["results"]] == [D]
    assert doc["providers"] == ["duckduckgo-lite", "brave", "mojeek"]
    assert doc["provider"] == "duckduckgo-lite"
    assert [a["outcome"] for a in doc["attempts"]] == ["ok"] * 4
    text = ws(engines, "rust", "--all", "-n", "1").stdout
    assert text.splitlines()[0] == (
        'Search results for: "rust" (via DuckDuckGo Lite, Brave, Mojeek, 1 result)'
    )


def test_engines_asks_only_those_named(engines):  # noqa: F811
    _serve_overlap(engines)
    r = ws(engines, "rust", "--engines", "mojeek,ddg", "--json", "--urls")
    assert r.code == 2  # --json and --urls
    r = ws(engines, "rust", "--engines", "mojeek,ddg", "--json")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert engines["brave"].connections == engines["duckduckgo-lite"].connections == 0
    assert [a["provider"] for a in doc["attempts"]] == ["duckduckgo", "mojeek"]
    # B: 1/62 + 1/62; D: 1/61; A: 1/61 (ddg's first, ahead of D only by the chain order)
    assert [x["url"] for x in doc["results"]] == [B, A, D, C, E]


def test_n_cuts_the_fused_list_not_each_engine_s(engines):  # noqa: F811
    # B is second at both engines and first once fused (1/62 + 1/62 against 1/61): cut
    # to -n 1 before fusing, each engine would offer only its first (A, D), and B is lost.
    _serve_overlap(engines)
    r = ws(engines, "rust", "--engines", "mojeek,ddg", "-n", "1", "--json")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(x["url"], x["ranks"]) for x in doc["results"]] == [(B, {"duckduckgo": 2, "mojeek": 2})]


def test_one_engine_failing_still_exits_0_with_the_others(engines):  # noqa: F811
    _serve_overlap(engines)
    engines["brave"].answer(429, b"<html><body>Too many requests</body></html>")
    r = ws(engines, "rust", "--all")
    assert r.code == 0
    assert r.stderr.splitlines() == ["ws: brave: blocked (HTTP 429, rate-limit page)"]
    assert r.stdout.startswith(
        'Search results for: "rust" (via DuckDuckGo, DuckDuckGo Lite, Mojeek, 6 results)\n'
    )


def test_all_failing_gives_the_chain_exit_code(engines):  # noqa: F811
    for engine in engines.values():
        engine.answer(429, b"<html><body>Too many requests</body></html>")
    r = ws(engines, "rust", "--all")
    assert r.code == 75 and r.stdout == ""
    assert r.stderr.splitlines()[-1].startswith("ws: (75) every provider was blocked")


def test_all_asks_at_once_not_one_after_the_other(engines):  # noqa: F811
    _serve_overlap(engines)
    for engine in engines.values():
        engine.delay = 0.4
    r = ws(engines, "rust", "--all", "--json")
    assert r.code == 0 and engines["duckduckgo"].meter.peak == 4


def test_usage_errors(engines):  # noqa: F811
    for args, needle in [
        (["--all", "--provider", "brave"], "--provider and --all cannot be used together"),
        (["--all", "--engines", "brave"], "--all and --engines cannot be used together"),
        (["--engines", "brave,bing"], "unknown provider 'bing'"),
        (["--engines", "searxng"], "needs SEARXNG_URL"),
        (["--engines", ","], "--engines needs at least one provider name"),
    ]:
        r = ws(engines, "rust", *args)
        assert r.code == 2 and needle in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert sum(e.connections for e in engines.values()) == 0


def _r(url: str, provider: str) -> Result:
    return Result(title=url, url=url, provider=provider)


def test_fuse_scores_and_ties():
    fused = fuse(
        [
            ("one", [_r("https://x.example/", "one"), _r("https://y.example/", "one")]),
            ("two", [_r("https://y.example", "two"), _r("https://z.example/", "two")]),
        ]
    )
    # The URL as the engine that ranked it best spelled it.
    assert [f.url for f in fused] == [
        "https://y.example",
        "https://x.example/",
        "https://z.example/",
    ]
    assert fused[0].score == 1 / (K + 2) + 1 / (K + 1)
    assert dict(fused[0].ranks) == {"two": 1, "one": 2} and fused[0].providers == ("two", "one")
    # A page an engine lists twice counts once, at its better rank.
    twice = fuse([("one", [_r("https://x.example/", "one"), _r("https://x.example", "one")])])
    assert len(twice) == 1 and twice[0].score == 1 / (K + 1)
    assert fuse([("one", [_r("https://x.example/", "one")])] * 1, limit=0) == []


def test_an_engine_s_own_duplicate_does_not_hide_what_follows_it():
    fused = fuse(
        [
            (
                "one",
                [
                    _r("https://x.example/", "one"),
                    _r("https://x.example", "one"),
                    _r("https://w.example/", "one"),
                ],
            )
        ]
    )
    assert [(f.url, dict(f.ranks)) for f in fused] == [
        ("https://x.example/", {"one": 1}),
        ("https://w.example/", {"one": 3}),
    ]


def test_an_equal_score_goes_to_the_better_single_rank_before_the_chain_order():
    # 1/(60+1) is exactly 1/(60+62) twice: y (ranked 62nd by both engines) ties with x
    # (first at the second engine only). x has the better rank; y the earlier engine.
    filler = [_r(f"https://f{i}.example/", "e") for i in range(61)]
    y = _r("https://y.example/", "e")
    x = _r("https://x.example/", "e")
    fused = fuse([("one", [*filler, y]), ("two", [x, *filler[:60], y])])
    top = {f.url: f for f in fused if f.url in ("https://x.example/", "https://y.example/")}
    assert top["https://x.example/"].score == top["https://y.example/"].score
    order = [f.url for f in fused if f.url in top]
    assert order == ["https://x.example/", "https://y.example/"]


def test_the_best_copy_s_fields_with_the_others_filling_its_gaps():
    bare = Result(title="Bare", url="https://x.example/", snippet="", provider="one")
    full = Result(
        title="Full",
        url="https://x.example",
        snippet="said",
        provider="two",
        published="2024-05-01",
    )
    (best,) = fuse([("one", [bare]), ("two", [full])])
    # The best-ranked copy's title and URL; the snippet and date of the first copy that has one.
    assert (best.title, best.url, best.snippet, best.published) == (
        "Bare",
        "https://x.example/",
        "said",
        "2024-05-01",
    )
    # The best copy's own snippet and date win over the others'.
    own = Result(
        title="Own",
        url="https://x.example/",
        snippet="mine",
        provider="one",
        published="2020-01-01",
    )
    (best,) = fuse([("one", [own]), ("two", [full])])
    assert (best.snippet, best.published) == ("mine", "2020-01-01")
    # None anywhere: an empty snippet and no date.
    (alone,) = fuse([("one", [bare]), ("two", [bare])])
    assert (alone.snippet, alone.published) == ("", None)


def test_a_cached_fused_answer_keeps_providers_and_ranks(engines):  # noqa: F811
    _serve_overlap(engines)
    first = ws(engines, "rust", "--all", "--json", WS_CACHE_TTL="600")
    second = ws(engines, "rust", "--all", "--json", WS_CACHE_TTL="600")
    assert first.code == second.code == 0
    assert all(e.connections == 1 for e in engines.values())  # the second run asked nobody
    before, after = json.loads(first.stdout), json.loads(second.stdout)
    assert after["cached"] is True
    assert after["providers"] == before["providers"] == EVERY
    assert after["results"] == before["results"]
    assert after["results"][0]["ranks"] == {"duckduckgo-lite": 1, "mojeek": 1, "brave": 2}
    text = ws(engines, "rust", "--all", WS_CACHE_TTL="600").stdout
    assert text.startswith(
        'Search results for: "rust" (via DuckDuckGo, DuckDuckGo Lite, Brave, Mojeek, 6 results'
    )


def test_fusing_cleaned_results_computes_no_url_key_again(monkeypatch):
    # finalise keys each result as it cleans it; the fusion reads that key rather than
    # computing it again for each of --all's thousands of results (90 % of its CPU).
    import ws.fuse
    import ws.results
    from ws.results import finalise

    one, _ = finalise(
        [_r("https://www.x.example/a/?utm_source=e", "one"), _r("https://y.example/", "one")]
    )
    two, _ = finalise([_r("http://x.example/a", "two"), _r("https://z.example/", "two")])
    expected = fuse([("one", one), ("two", two)])
    calls: list[str] = []

    def counted(url: str, parts: object = None) -> str:
        calls.append(url)
        return url_key(url)

    url_key = ws.results.url_key
    monkeypatch.setattr(ws.results, "url_key", counted)
    monkeypatch.setattr(ws.fuse, "url_key", counted, raising=False)
    fused = fuse([("one", one), ("two", two)])
    assert calls == []
    assert fused == expected and [f.url for f in fused][:1] == [
        "https://www.x.example/a/?utm_source=e"
    ]
    assert dict(fused[0].ranks) == {"one": 1, "two": 1}
    # A result built elsewhere (no key kept) is keyed as before.
    fuse([("one", [_r("https://x.example/", "one")])])
    assert calls == ["https://x.example/"]


def _engines_of(n: int, rows: int) -> list[tuple[str, list[Result]]]:
    # Every engine ranks the same pages in the same order.
    return [
        (f"e{e}", [_r(f"https://p{i}.example/", f"e{e}") for i in range(rows)]) for e in range(n)
    ]


def test_a_stop_already_set_ends_the_fusion_at_its_first_ask():
    # The first ask comes once every engine's first result is read: what is fused is those.
    asks: list[int] = []

    def stop() -> bool:
        asks.append(1)
        return True

    fused, cut = fuse_until(
        [
            ("one", [_r("https://x.example/", "one"), _r("https://w.example/", "one")]),
            ("two", [_r("https://y.example/", "two"), _r("https://x.example", "two")]),
        ],
        None,
        stop,
    )
    assert len(asks) == 1
    assert [(f.url, dict(f.ranks)) for f in fused] == [
        ("https://x.example/", {"one": 1}),
        ("https://y.example/", {"two": 1}),
    ]
    assert cut == "2 results from the first 1 of each engine"


def test_the_fusion_asks_its_stop_every_ask_every_results_and_keeps_the_best_ranks():
    asks: list[int] = []
    ranked = _engines_of(3, 2000)
    assert fuse_until(ranked, None, lambda: bool(asks.append(1))) == (fuse(ranked), None)
    # Reading: at 3 results (the first row), then at the row that reaches each 1 024 more:
    # 1 029, 2 055, 3 081, 4 107, 5 133; writing 2 000 results: at 1 024.
    assert len(asks) == 6 + 1
    # Stopped at its second ask: the fusion of each engine's first 343 ranks (1 029 read).
    asks.clear()
    fused, cut = fuse_until(ranked, None, lambda: bool(asks.append(1)) or len(asks) == 2)
    assert fused == fuse([(name, results[:343]) for name, results in ranked])
    assert cut == "343 results from the first 343 of each engine"
    # Stopped while writing: the best part of the list.
    asks.clear()
    fused, cut = fuse_until(ranked, None, lambda: bool(asks.append(1)) or len(asks) == 7)
    assert fused == fuse(ranked)[:1024]
    assert cut == "1024 results from the first 2000 of each engine"


def test_all_past_the_deadline_prints_what_its_fusion_read_with_a_note(engines, monkeypatch):  # noqa: F811
    # The fusion starting once the run's stop says the deadline is 0.1 s past: it reads
    # each engine's first result, then stops; exit 0 with those and a note.
    def late(ranked, limit, stop):
        give_up = time.monotonic() + 10
        while not stop() and time.monotonic() < give_up:
            time.sleep(0.01)
        return fuse_until(ranked, limit, stop)

    monkeypatch.setattr("ws.fuse.fuse_until", late)
    _serve_overlap(engines)
    r = ws(engines, "rust", "--all", "--json", "--timeout", "1")
    assert r.code == 0, r.stderr
    assert (
        r.stderr
        == "ws: fusion stopped at the total deadline (3 results from the first 1 of each engine)\n"
    )
    doc = json.loads(r.stdout)
    assert [x["url"] for x in doc["results"]] == [
        D,
        A,
        "https://B.example:443/page/?utm_source=brave&fbclid=x",
    ]
    assert doc["providers"] == ["duckduckgo", "duckduckgo-lite", "brave", "mojeek"]
