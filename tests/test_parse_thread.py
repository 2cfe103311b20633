"""common.parse_thread: the work that parses runs in a helper thread of the caller's own,
which retires after RETIRE_BYTES of input, so that libxml2's names dictionary (one per
thread, freed when the thread ends) cannot grow without bound over many pages."""

from __future__ import annotations

import os
import signal
import threading

import pytest

import common.parse_thread as parse_thread
from common import trace
from common.parse_thread import parsing


def _where() -> threading.Thread:
    return threading.current_thread()


@pytest.fixture(autouse=True)
def past_the_first_page() -> None:
    """This thread has parsed its first page: the calls go to a helper."""
    parse_thread._local.began = True


def test_a_thread_parses_its_first_page_itself() -> None:
    found: list[threading.Thread] = []

    def call() -> None:
        found.extend([threading.current_thread(), parsing(_where, 1), parsing(_where, 1)])

    caller = threading.Thread(target=call)
    caller.start()
    caller.join()
    assert found[1] is found[0]  # the first page: in the caller
    assert found[2] is not found[0]  # the second: in its helper


def test_the_work_runs_in_a_helper_thread_and_its_result_comes_back() -> None:
    helper = parsing(_where, 10)
    assert helper is not threading.current_thread()
    assert helper.name == "wf-parse"
    assert parsing(lambda: "text", 10) == "text"


def test_the_same_helper_serves_the_calls_until_it_retires(monkeypatch) -> None:
    monkeypatch.setattr(parse_thread, "RETIRE_BYTES", 100)
    parse_thread._local.helper = None
    first = parsing(_where, 60)
    assert parsing(_where, 60) is first  # 60 handed before: under the bound
    # 120 handed: the next call starts a new helper, once the old one has ended (its
    # thread is joined first: glibc then hands the new thread the old one's arena).
    joined: list[threading.Thread] = []
    real_join = first.join
    monkeypatch.setattr(first, "join", lambda *a, **k: joined.append(first) or real_join(*a, **k))
    second = parsing(_where, 1)
    assert second is not first
    assert joined == [first] and not first.is_alive()
    assert parsing(_where, 1) is second


def test_an_exception_of_the_work_is_raised_in_the_caller() -> None:
    class Refused(Exception):
        pass

    def work() -> None:
        raise Refused("no match")

    with pytest.raises(Refused, match="no match"):
        parsing(work, 1)
    assert parsing(lambda: 2, 1) == 2  # the helper goes on serving


def test_work_already_in_a_helper_runs_where_it_is() -> None:
    def outer() -> tuple[threading.Thread, threading.Thread]:
        return threading.current_thread(), parsing(_where, 1)

    here, inner = parsing(outer, 1)
    assert inner is here


def test_a_helper_ends_with_the_thread_that_called_it() -> None:
    found: list[threading.Thread] = []

    def call() -> None:
        parse_thread._local.began = True
        found.append(parsing(_where, 1))

    caller = threading.Thread(target=call)
    caller.start()
    caller.join()
    found[0].join(timeout=10)
    assert not found[0].is_alive()


def test_a_call_given_up_while_it_waited_leaves_its_helper_to_finish_alone() -> None:
    parse_thread._local.helper = None
    first = parsing(_where, 1)
    # An interrupt while the caller waited leaves the helper marked busy.
    parse_thread._local.helper.busy = True
    second = parsing(_where, 1)
    assert second is not first
    first.join(timeout=10)
    assert not first.is_alive()


def test_the_callers_trace_label_heads_the_lines_of_the_work() -> None:
    with trace.label("3"):
        assert parsing(trace.prefix, 1) == "[3] "
    assert parsing(trace.prefix, 1) == ""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_parses_in_a_helper_of_its_own() -> None:
    parsing(_where, 1)  # the parent has a helper now; the child does not inherit its thread
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's outcome is its exit status
        signal.alarm(20)  # a child left waiting on the parent's helper would hang: end it
        ok = False
        try:
            ok = parsing(lambda: 7, 1) == 7
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_an_extraction_parses_in_the_helper() -> None:
    from wf.extract import extract_text, parse

    parse_thread._local.helper = None  # a new helper: no parser of its own yet
    assert extract_text("<html><body><p>" + "Some words here. " * 10 + "</p></body></html>")
    # wf.extract.parse keeps a parser per thread: the helper's is the one that parsed.
    assert parsing(lambda: getattr(parse._local, "parser", None) is not None, 1)


def test_without_a_thread_to_be_had_the_work_runs_in_the_caller(monkeypatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    parse_thread._local.helper = None
    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert parsing(_where, 1) is threading.current_thread()


def test_release_ends_the_helper_and_the_next_call_starts_another(monkeypatch) -> None:
    first = parsing(_where, 1)
    joined: list[threading.Thread] = []
    real_join = first.join
    monkeypatch.setattr(first, "join", lambda *a, **k: joined.append(first) or real_join(*a, **k))
    parse_thread.release()
    assert joined == [first] and not first.is_alive()  # ended when release() returns
    assert parsing(_where, 1) is not first


def test_an_exception_raised_through_it_keeps_no_helper_alive() -> None:
    import gc

    parse_thread._local.helper = None
    caught: list[BaseException] = []

    def work() -> None:
        raise ValueError("bad page")

    try:
        parsing(work, 1)
    except ValueError as exc:
        caught.append(exc)
    helper_thread = parsing(_where, 1)
    gc.disable()  # only reference counts may free it
    try:
        parse_thread._local.helper = None
        helper_thread.join(timeout=10)
        assert not helper_thread.is_alive()
    finally:
        gc.enable()
    assert caught  # the exception itself is still held here
