"""Hostile freshness and retry headers: a max-age of a superscript digit or of thousands of
digits, an Expires, Date or Retry-After with a twenty-digit year. Each is read by its
grammar (RFC 9110 delta-seconds: ASCII digits, clamped) or not at all. The first run
stores the entry; the runs after it must not crash on it, and --retry must not either."""

from __future__ import annotations

import json

import pytest

from tests.helpers import ALLOW
from tests.hostile import proc
from tests.servers import respond

BODY = b"<html><head><title>Kept</title></head><body><article><p>" + b"word " * 60
BODY += b"</p></article></body></html>"
HUGE_YEAR = "Sun, 06 Nov 99999999999999999999 08:49:37 GMT"
SOON = "Sun, 06 Nov 2094 08:49:37 GMT"


def _page(headers: dict[str, str]):  # type: ignore[no-untyped-def]
    return respond(200, BODY, {"Content-Type": "text/html", "ETag": '"v1"', **headers})


@pytest.mark.parametrize(
    "headers",
    [
        {"Cache-Control": "max-age=\u00b2"},
        {"Cache-Control": "max-age=" + "9" * 4400},
        {"Cache-Control": "max-age=300", "Age": "\u00b2"},
        {"Cache-Control": "max-age=300", "Age": "9" * 4400},
        {"Expires": HUGE_YEAR},
        {"Expires": SOON, "Date": HUGE_YEAR},
        {"Expires": "Sun, 06 Nov 99999 08:49:37 GMT"},
    ],
    ids=["superscript", "4400-digits", "age-superscript", "age-4400", "expires", "date", "y99999"],
)
def test_a_hostile_lifetime_never_breaks_a_later_run(serve, headers):
    srv = serve(_page(headers))
    runs = [proc.run(["wf", *ALLOW, "--cache", "--json", srv.url], env=proc.env()) for _ in "ab"]
    for r in runs:
        assert r.code == 0, r.stderr
        assert json.loads(r.stdout)["title"] == "Kept"


def test_a_huge_max_age_is_clamped_and_still_fresh(serve):
    srv = serve(_page({"Cache-Control": "max-age=" + "9" * 4400}))
    runs = [proc.run(["wf", *ALLOW, "--cache", "--json", srv.url], env=proc.env()) for _ in "ab"]
    assert [json.loads(r.stdout)["cache"] for r in runs] == ["miss", "hit"], runs[1].stderr


@pytest.mark.parametrize(
    "value", ["\u00b2", HUGE_YEAR, "9" * 4400, "Sun, 06 Nov 99999 08:49:37 GMT"]
)
def test_a_hostile_retry_after_is_ignored_by_retry(serve, value):
    srv = serve(respond(503, b"down\n", {"Content-Type": "text/plain", "Retry-After": value}))
    r = proc.run(
        ["wf", *ALLOW, "--retry", "1", "--timeout", "20", "--json", srv.url], env=proc.env()
    )
    assert r.code == 5 and "this is a bug" not in r.stderr, r.stderr
    error = json.loads(r.stdout)["error"]
    assert error["kind"] == "http_5xx"
    huge = value == "9" * 4400
    assert error["retry_after"] == (2**31 if huge else None)
