"""common/http/retry.py: --retry against local servers that count requests (transient
statuses, Retry-After in both forms, stalls, the total deadline, no retry on a 404)."""

from __future__ import annotations

import json
import re
import socket
import time
from email.utils import formatdate

import pytest

from common.errors import Blocked, Timeout
from common.http.retry import backoff, retry_after
from tests.helpers import ALLOW
from tests.servers import http_response


class Script:
    """A handler that answers the n-th request with the n-th reply (the last one repeats)
    and notes when each request arrived."""

    def __init__(self, *replies: bytes | float) -> None:
        self.replies = replies
        self.times: list[float] = []

    def __call__(self, conn: socket.socket, request: bytes) -> None:
        self.times.append(time.monotonic())
        reply = self.replies[min(len(self.times), len(self.replies)) - 1]
        if isinstance(reply, float):
            time.sleep(reply)  # a stalled server
            return
        conn.sendall(reply)


OK = http_response(200, b"fine\n", {"Content-Type": "text/plain"})


def _json(stdout: str) -> dict:  # type: ignore[type-arg]
    return json.loads(stdout)


def test_success_on_the_third_try(wf, serve):
    script = Script(http_response(503, b"busy"), http_response(502, b"bad gw"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "3", "--json", srv.url)
    assert r.code == 0, r.stderr
    page = _json(r.stdout)
    assert page["text"] == "fine" and page["attempts"] == 3
    assert len(script.times) == 3
    lines = r.stderr.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"wf: retrying {srv.url} in ")
    assert lines[0].endswith("s (503, attempt 2 of 4)")
    assert lines[1].endswith("s (502, attempt 3 of 4)")


def test_quiet_keeps_retry_lines_off_stderr(wf, serve):
    script = Script(http_response(503, b"busy"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "2", "--quiet", srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "fine\n", "")
    assert len(script.times) == 2


def test_the_trace_gives_each_attempt_its_share(wf, serve):
    script = Script(http_response(503, b"busy"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "1", "--timeout", "10", "-v", srv.url)
    assert r.code == 0
    # 10 s over two attempts: the first waits at most half of it.
    assert re.search(
        r"^wf: \* retry: attempt 1 of 2 waits at most (4\.9|5\.0) s for a connection or for bytes$",
        r.stderr,
        re.M,
    )
    assert "retry: attempt 2" not in r.stderr  # the last gets what is left, unbounded


def _man_retry_statuses() -> set[int]:
    from tests.helpers import ROOT

    text = " ".join((ROOT / "man" / "wf.1").read_text().split("\n.SH RETRIES\n")[1].split())
    listed = re.search(r"and the statuses ((?:\d{3}, )*\d{3} and \d{3})\.", text)
    assert listed, "man/wf.1's RETRIES lists the statuses retried"
    return {int(n) for n in re.findall(r"\d{3}", listed.group(1))}


def test_the_statuses_retried_are_the_man_page_s():
    from common.http.retry import RETRY_STATUSES

    assert _man_retry_statuses() == set(RETRY_STATUSES)


@pytest.mark.parametrize("status", sorted(_man_retry_statuses()))
def test_each_status_the_man_page_lists_is_retried(wf, serve, status):
    script = Script(http_response(status, b"again", {"Retry-After": "0"}), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "1", srv.url)
    assert (r.code, r.stdout) == (0, "fine\n"), r.stderr
    assert len(script.times) == 2


@pytest.mark.parametrize("status", [400, 403, 404, 410, 501, 505])
def test_statuses_not_listed_are_not_retried(wf, serve, status):
    script = Script(http_response(status, b"no"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "1", srv.url)
    assert r.code != 0 and len(script.times) == 1


def test_without_retry_a_503_is_one_request(wf, serve):
    script = Script(http_response(503, b"busy"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--json", srv.url)
    assert r.code == 5 and _json(r.stdout)["attempts"] == 1
    assert len(script.times) == 1


def test_retry_from_the_environment(wf, serve):
    script = Script(http_response(500, b"oops"), OK)
    srv = serve(script)
    r = wf(*ALLOW, srv.url, env={"WF_RETRY": "1"})
    assert (r.code, r.stdout) == (0, "fine\n")
    assert len(script.times) == 2


@pytest.mark.parametrize("form", ["seconds", "date"])
def test_retry_after_is_honoured(wf, serve, form):
    # The first back-off is at most 0.5 s: a gap of a second or more is Retry-After's.
    value = "1" if form == "seconds" else formatdate(time.time() + 2, usegmt=True)
    script = Script(http_response(503, b"later", {"Retry-After": value}), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "1", srv.url)
    assert r.code == 0, r.stderr
    assert len(script.times) == 2
    assert script.times[1] - script.times[0] >= 1.0


def test_retry_after_past_the_deadline_is_not_waited_for(wf, serve):
    script = Script(http_response(429, b"slow down", {"Retry-After": "8"}), OK)
    srv = serve(script)
    start = time.monotonic()
    r = wf(*ALLOW, "--retry", "3", "--timeout", "5", "--json", srv.url)
    assert time.monotonic() - start < 2.0
    assert r.code == Blocked.code
    assert len(script.times) == 1 and _json(r.stdout)["attempts"] == 1
    # Why --retry did not retry is one line, not only under -v.
    note, error = r.stderr.splitlines()
    assert note.startswith(f"wf: not retrying {srv.url} (429): Retry-After asks for 8.0 s, ")
    assert note.endswith(" s left; see --timeout)") and error.startswith("wf: (75) ")
    again = serve(Script(http_response(429, b"slow down", {"Retry-After": "8"})))
    r = wf(*ALLOW, "--retry", "3", "--timeout", "5", "--quiet", again.url)
    assert r.stderr.splitlines() == [error.replace(srv.url, again.url)]


def test_the_last_answer_stands_with_its_json_when_retries_run_out(wf, serve):
    script = Script(http_response(503, b"down for maintenance", {"Retry-After": "0"}))
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "2", "--json", srv.url)
    page = _json(r.stdout)
    assert r.code == 5 and page["status"] == 503 and page["attempts"] == 3
    assert page["error"]["retry_after"] == 0
    assert page["error"]["body"] == "down for maintenance"
    assert len(script.times) == 3


def test_retries_stop_at_the_deadline(wf, serve):
    script = Script(http_response(503, b"busy"))
    srv = serve(script)
    start = time.monotonic()
    r = wf(*ALLOW, "--retry", "10", "--timeout", "2", "--json", srv.url)
    took = time.monotonic() - start
    assert took < 2.5, took
    assert r.code == 5
    attempts = _json(r.stdout)["attempts"]
    assert 2 <= attempts < 11 and attempts == len(script.times)


def test_a_stalled_attempt_is_retried_and_the_last_gets_what_is_left(wf, serve):
    # Stalls on the first request only: the first attempt gives up after its share of
    # the deadline (3 s over 2 attempts), the second gets the answer.
    script = Script(2.5, OK)
    srv = serve(script)
    start = time.monotonic()
    r = wf(*ALLOW, "--retry", "1", "--timeout", "3", srv.url)
    assert (r.code, r.stdout) == (0, "fine\n"), r.stderr
    assert "(timed out, attempt 2 of 2)" in r.stderr
    assert time.monotonic() - start < 3.0
    assert len(script.times) == 2


def test_a_server_that_always_stalls_ends_at_the_deadline(wf, serve):
    script = Script(5.0)
    srv = serve(script)
    start = time.monotonic()
    r = wf(*ALLOW, "--retry", "2", "--timeout", "3", srv.url)
    took = time.monotonic() - start
    assert r.code == 28 and took < 3.6, (r.code, took)
    # Each stall ends at the attempt's share; the jitter decides whether the third
    # attempt still fits before the deadline.
    assert 2 <= len(script.times) <= 3
    assert r.stderr.count("(timed out, attempt ") == len(script.times) - 1


def test_no_retry_on_404(wf, serve):
    script = Script(http_response(404, b"gone"), OK)
    srv = serve(script)
    r = wf(*ALLOW, "--retry", "3", "--json", srv.url)
    assert r.code == 4
    assert len(script.times) == 1 and _json(r.stdout)["attempts"] == 1
    assert "retrying" not in r.stderr


def test_connect_errors_are_retried(wf):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there
    r = wf(*ALLOW, "--retry", "2", "--json", f"http://127.0.0.1:{port}/")
    assert r.code == 7
    assert _json(r.stdout)["attempts"] == 3
    assert r.stderr.count("(could not connect, attempt ") == 2


@pytest.mark.parametrize("value", ["-1", "11", "x"])
def test_bad_retry_values_exit_2_before_any_request(wf, serve, value):
    script = Script(OK)
    srv = serve(script)
    assert wf(*ALLOW, "--retry", value, srv.url).code == 2
    assert wf(*ALLOW, srv.url, env={"WF_RETRY": value}).code == 2
    assert script.times == []


def test_retry_after_forms():
    now = 1_700_000_000.0
    assert retry_after({"retry-after": "7"}, now) == 7.0
    assert retry_after({"retry-after": formatdate(now + 30, usegmt=True)}, now) == 30.0
    assert retry_after({"retry-after": formatdate(now - 30, usegmt=True)}, now) == 0.0
    assert retry_after({"retry-after": "soon"}, now) is None
    assert retry_after({}, now) is None
    assert retry_after({"retry-after": " 7 "}, now) == 7.0
    assert retry_after({"retry-after": "-5"}, now) is None
    assert retry_after({"retry-after": ""}, now) is None


HUGE_YEAR = "Sun, 06 Nov 99999999999999999999 08:49:37 GMT"


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("\u00b2", None),  # isdigit() says yes, int() says no: not delta-seconds
        ("\u0663", None),  # an Arabic-Indic three: int() reads it, the grammar does not
        ("1\u00b2", None),
        ("9" * 4400, 2**31),  # more digits than int() converts: clamped, never converted
        ("0" * 50 + "12", 12),
        ("2147483649", 2**31),
        (HUGE_YEAR, None),  # OverflowError in the date parser
        ("Sun, 06 Nov 99999 08:49:37 GMT", None),
        ("Sun, 06 Nov 1994 08:49:37 GMT" + " x" * 5000, None),
    ],
)
def test_retry_after_by_its_grammar(value, seconds):
    found = retry_after({"retry-after": value}, 1_700_000_000.0)
    assert found == (None if seconds is None else float(seconds))


def test_delta_seconds_and_http_dates_are_read_by_the_grammar():
    from common.http.retry import MAX_DELTA, delta_seconds, http_date

    assert [delta_seconds(v) for v in ("0", "42", " 42\t", "4 2", "+4", "4.0", "")] == [
        0,
        42,
        42,
        None,
        None,
        None,
        None,
    ]
    assert delta_seconds("9" * 100_000) == MAX_DELTA
    assert http_date("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777.0
    assert http_date("Sunday, 06-Nov-94 08:49:37 GMT") == 784111777.0
    assert http_date("Sun Nov  6 08:49:37 1994") == 784111777.0
    assert http_date(HUGE_YEAR) is None and http_date(None) is None
    assert http_date("Sun, 06 Nov 1994 08:49:37 -0000") == 784111777.0


def test_backoff_grows_with_jitter():
    for retry in (1, 2, 3, 4):
        ceiling = 0.5 * 2 ** (retry - 1)
        waits = {backoff(retry) for _ in range(50)}
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(waits) > 1
    assert backoff(30) <= 30.0


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (" \t42 \t", 42),  # OWS is space and tab ...
        ("\n42", None),  # ... and nothing else
        ("42\x0b", None),
        ("X42", None),
        ("42X", None),
        ("999999999", 999_999_999),  # nine digits, ten, and the clamp's own length
        ("1000000000", 1_000_000_000),
        ("2147483647", 2**31 - 1),
        ("2147483648", 2**31),
        ("02147483647", 2**31 - 1),  # leading zeros are not digits that count
        ("10000000000", 2**31),
    ],
)
def test_delta_seconds_at_its_edges(value, seconds):
    from common.http.retry import delta_seconds

    assert delta_seconds(value) == seconds


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(" 7\t", 7.0), ("\n7", None), ("7\r", None), ("X7", None), ("7X", None)],
)
def test_retry_after_strips_space_and_tab_only(value, seconds):
    assert retry_after({"retry-after": value}, 0.0) == seconds


def test_an_http_date_up_to_64_characters_is_read():
    from common.http.retry import http_date

    date = "Sun, 06 Nov 1994 08:49:37 GMT"
    assert http_date(date.ljust(64)) == 784111777.0
    assert http_date(date.ljust(65)) is None


def test_an_http_date_keeps_its_zone_and_one_without_is_gmt(monkeypatch):
    from common.http.retry import http_date

    assert http_date("Sun, 06 Nov 1994 08:49:37 +0100") == 784111777.0 - 3600
    assert http_date("Sun, 06 Nov 1994 08:49:37 -0130") == 784111777.0 + 5400
    # A machine whose local time is not UTC must still read "-0000" as GMT.
    monkeypatch.setenv("TZ", "XYZ+5")
    time.tzset()
    try:
        assert http_date("Sun, 06 Nov 1994 08:49:37 -0000") == 784111777.0
        assert http_date("Sun Nov  6 08:49:37 1994") == 784111777.0
    finally:
        monkeypatch.undo()
        time.tzset()


# ------------------------------------------------------------------ fetch_retrying in process


class FakeFetch:
    """retry's fetch stood in for: answers (or raises) the outcomes in turn and notes each
    call; a clock that each call moves to the time given."""

    def __init__(self, *outcomes: object, clock: list[float], at: tuple[float, ...] = ()) -> None:
        self.outcomes = list(outcomes)
        self.calls: list[dict[str, object]] = []
        self.clock = clock
        self.at = list(at)

    def __call__(
        self,
        url: str,
        opts: object,
        method: str = "GET",
        headers: object = None,
        deadline: float | None = None,
        attempt_timeout: float | None = None,
    ) -> object:
        self.calls.append(
            {"method": method, "headers": headers, "deadline": deadline, "share": attempt_timeout}
        )
        if self.at:
            self.clock[0] = self.at.pop(0)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


def _answer(status: int, headers: dict[str, str] | None = None) -> object:
    from common.http.client import Response

    return Response(
        url="http://h.test/", final_url="http://h.test/", status=status,
        headers=headers or {}, body=b"", elapsed_ms=1,
    )  # fmt: skip


@pytest.fixture
def fake(monkeypatch):  # type: ignore[no-untyped-def]
    """(install(outcomes...), clock): fetch, the clock and the back-off of retry.py stood in for."""
    import types

    from common.http import retry

    clock = [0.0]
    monkeypatch.setattr(
        retry, "time", types.SimpleNamespace(monotonic=lambda: clock[0], time=time.time)
    )
    monkeypatch.setattr(retry, "backoff", lambda n: 0.25 * n)  # exact in binary

    def install(*outcomes: object, at: tuple[float, ...] = ()) -> FakeFetch:
        f = FakeFetch(*outcomes, clock=clock, at=at)
        monkeypatch.setattr(retry, "fetch", f)
        return f

    return install, clock


@pytest.fixture
def traced(capsys):  # type: ignore[no-untyped-def]
    """The -v trace's lines written while the test runs (read by calling it)."""
    from common import trace

    trace.enable("wf", True)
    yield lambda: [line for line in capsys.readouterr().err.splitlines() if " * " in line]
    trace.enable("wf", False)


@pytest.mark.parametrize("method", ["POST", "post", "PUT", "DELETE"])
def test_only_get_and_head_are_retried(fake, method):
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(_answer(503), _answer(200))
    assert (
        fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, method=method).status
        == 503
    )  # type: ignore[arg-type]
    assert [c["method"] for c in f.calls] == [method]


@pytest.mark.parametrize("method", ["GET", "HEAD", "head"])
def test_get_and_head_are_retried_with_their_method_and_headers(fake, traced, method):
    from common.http.retry import Attempts, fetch_retrying

    install, _ = fake
    f = install(_answer(503), _answer(200))
    headers = {"If-None-Match": '"x"'}
    tally = Attempts()
    lines: list[str] = []
    resp = fetch_retrying(
        "http://h.test/", None, retries=1, deadline=100.0, method=method,  # type: ignore[arg-type]
        headers=headers, attempts=tally, log=lines.append,
    )  # fmt: skip
    assert resp.status == 200 and tally.count == 2
    assert lines == ["retrying http://h.test/ in 0.2 s (503, attempt 2 of 2)"]
    assert traced() == [
        "wf: * retry: attempt 1 of 2 waits at most 50.0 s for a connection or for bytes"
    ]
    assert [(c["method"], c["headers"], c["deadline"]) for c in f.calls] == [
        (method, headers, 100.0),
        (method, headers, 100.0),
    ]
    assert [c["share"] for c in f.calls] == [50.0, None]  # half of 100 s, then what is left


def test_the_attempts_need_no_tally(fake):
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(_answer(500), _answer(200))
    assert fetch_retrying("http://h.test/", None, retries=1, deadline=100.0).status == 200  # type: ignore[arg-type]
    assert [c["method"] for c in f.calls] == ["GET", "GET"]


def test_an_error_at_the_deadline_exactly_is_raised_without_a_retry_line(fake):
    from common.errors import ConnectError
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(ConnectError("refused"), _answer(200), at=(100.0,))
    lines: list[str] = []
    with pytest.raises(ConnectError):
        fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, log=lines.append)  # type: ignore[arg-type]
    assert len(f.calls) == 1 and lines == []


@pytest.mark.parametrize(
    ("first", "why"),
    [("connect", "could not connect"), ("timeout", "timed out"), ("503", "503")],
)
def test_a_back_off_past_the_deadline_says_whose_wait_it_is(fake, traced, first, why):
    from common.errors import ConnectError
    from common.http.retry import fetch_retrying

    install, _ = fake
    outcome = {
        "connect": ConnectError("refused"),
        "timeout": Timeout("stalled"),
        "503": _answer(503),
    }[first]
    f = install(outcome, _answer(200), at=(99.875,))
    lines: list[str] = []
    if first == "503":
        got = fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, log=lines.append)  # type: ignore[arg-type]
        assert got is outcome
    else:
        with pytest.raises(type(outcome)):
            fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, log=lines.append)  # type: ignore[arg-type]
    assert len(f.calls) == 1
    assert lines == [
        f"not retrying http://h.test/ ({why}): the back-off is {0.25:.1f} s, past the"
        f" deadline ({0.125:.1f} s left; see --timeout)"
    ]
    assert traced()[-1] == f"wf: * retry: no retry, a wait of {0.25:.1f} s would reach the deadline"


def test_a_wait_that_ends_at_the_deadline_exactly_is_not_made(fake):
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(_answer(503), _answer(200), at=(99.75,))  # 99.75 + 0.25 = 100.0
    assert fetch_retrying("http://h.test/", None, retries=2, deadline=100.0).status == 503  # type: ignore[arg-type]
    assert len(f.calls) == 1


def test_a_wait_that_leaves_the_attempt_no_time_of_its_own_is_not_made(fake):
    # A back-off of 0.25 s with 0.375 s left would leave the next attempt 0.125 s: it
    # would time out at once, after a retry line that promised it.
    from common.http.retry import ATTEMPT_MIN, fetch_retrying

    install, _ = fake
    f = install(_answer(503), _answer(200), at=(99.625,))
    lines: list[str] = []
    got = fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, log=lines.append)  # type: ignore[arg-type]
    assert got.status == 503 and len(f.calls) == 1
    assert lines == [
        "not retrying http://h.test/ (503): the back-off is 0.2 s, too near the deadline"
        " (0.4 s left; see --timeout)"
    ]
    # With the attempt's own time left after the wait, the retry is made.
    f = install(_answer(503), _answer(200), at=(100.0 - 0.25 - ATTEMPT_MIN,))
    assert fetch_retrying("http://h.test/", None, retries=2, deadline=100.0).status == 200  # type: ignore[arg-type]
    assert len(f.calls) == 2


def test_retry_after_past_the_deadline_is_named_as_the_servers(fake):
    from common.http.retry import fetch_retrying

    install, _ = fake
    install(_answer(429, {"retry-after": "120"}), _answer(200), at=(10.0,))
    lines: list[str] = []
    got = fetch_retrying("http://h.test/", None, retries=2, deadline=100.0, log=lines.append)  # type: ignore[arg-type]
    assert got.status == 429
    assert lines == [
        "not retrying http://h.test/ (429): Retry-After asks for 120.0 s, past the deadline"
        " (90.0 s left; see --timeout)"
    ]


@pytest.mark.parametrize("first", ["503", "connect"])
def test_an_interrupted_back_off_gives_the_last_outcome(fake, monkeypatch, first):
    from common.errors import ConnectError
    from common.http import deadline
    from common.http.retry import fetch_retrying

    monkeypatch.setattr(deadline, "pause", lambda seconds: True)  # abort_fetches came
    install, _ = fake
    outcome = _answer(503) if first == "503" else ConnectError("refused")
    f = install(outcome, _answer(200))
    if first == "503":
        assert fetch_retrying("http://h.test/", None, retries=2, deadline=100.0) is outcome  # type: ignore[arg-type]
    else:
        with pytest.raises(ConnectError) as raised:
            fetch_retrying("http://h.test/", None, retries=2, deadline=100.0)  # type: ignore[arg-type]
        assert raised.value is outcome
    assert len(f.calls) == 1


def test_the_default_method_is_get(fake):
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(_answer(200))
    fetch_retrying("http://h.test/", None, retries=0, deadline=100.0)  # type: ignore[arg-type]
    assert f.calls[0]["method"] == "GET"


def test_a_negative_retry_count_is_a_callers_bug_and_sends_nothing(fake):
    from common.http.retry import fetch_retrying

    install, _ = fake
    f = install(_answer(200))
    with pytest.raises(AssertionError) as raised:
        fetch_retrying("http://h.test/", None, retries=-1, deadline=100.0)  # type: ignore[arg-type]
    assert str(raised.value) == "unreachable: the last attempt returns or raises"
    assert f.calls == []
