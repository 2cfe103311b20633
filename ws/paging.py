"""One attempt's pages: the first page, then the engine's next pages while the run wants
more results (``-n``) and the engine has them, all within the attempt's one deadline.

The chain calls ``walk`` once per attempt; it sees one answer, with the results of every
page fetched (duplicates across pages are left to ``finalise``, which drops them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from common.errors import ToolError
from ws.backends.base import (
    EMPTY,
    OK,
    Answer,
    Backend,
    Late,
    Query,
    Request,
    check_stop,
    stop_when,
)
from ws.results import Result, finalise

if TYPE_CHECKING:
    from common.http.client import NetOptions, Response
    from ws.config import SearchOptions

# A bound on one attempt's requests whatever -n says: ten pages are 100 to 200 results.
MAX_PAGES = 10


def walk(
    backend: Backend,
    endpoint: str,
    request: Request,
    query: Query,
    options: SearchOptions,
    net: NetOptions,
    deadline: float,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    read_by: float | None = None,
    **fetch_args: Any,
) -> tuple[Response, Answer]:
    """The first page's response and one answer for every page fetched.

    A failure of the first page raises as a single fetch does; a later page that fails,
    times out or is blocked ends the walk with the results so far and a note saying so,
    unless ``cancelled()`` says the caller ended the attempt. Once ``cancelled()``, the page
    being read stops at its reader's next step (ws.backends.base.Stopped, a Timeout); the
    walk then raises, as a first page would, but when the run fuses every engine's results
    (--all, --engines), whose attempts are ended only at the total deadline: then the pages
    before are its answer, with a note. Past ``read_by`` (None: ``deadline``, the fetches'
    own) the page being read stops by itself (Late, a Stopped), as if the caller had
    ended the attempt then. The answer's results come cleaned as well
    (Answer.cleaned: the pass that counted them). ``fetch_args`` go to every fetch."""
    with stop_when(cancelled, deadline if read_by is None else read_by, options.environ):
        resp = _send(request, net, deadline, fetch_args)
        answer = backend.classify(resp.status, resp.headers, resp.body, query)
        if answer.outcome != OK:
            return resp, answer
        results = list(answer.results)
        usable = _usable(results, options)
        have = len(usable[0])
        page, pages, latest = query.page, 1, answer
        while have < options.max_results and pages < MAX_PAGES:
            page, pages = page + 1, pages + 1
            try:
                cursor = latest.find_next()
                if cursor is None:
                    break
                following = backend.build(replace(query, page=page), endpoint, cursor)
                more = _send(following, net, deadline, fetch_args)
                extra = backend.classify(more.status, more.headers, more.body, query)
                if extra.outcome == OK:
                    now = _usable(results + extra.results, options)
            except ToolError as exc:
                # Late: the total deadline passed while the page was read (read_by).
                stopped = cancelled() or isinstance(exc, Late)
                if stopped and not options.fuse:
                    raise
                why = "stopped at the total deadline" if stopped else exc.message
                answer.notes.append(f"page {page}: {why}; {_kept(have)}")
                break
            if extra.outcome != OK:
                if extra.outcome != EMPTY:  # an empty page is the natural end
                    answer.notes.append(
                        f"page {page}: {extra.outcome} ({extra.message}); {_kept(have)}"
                    )
                break
            results += extra.results
            (before, have), usable = (have, len(now[0])), now
            if have == before:
                break  # nothing new: the engine repeats itself (or only filtered results)
            latest = extra
        answer.results, answer.cleaned = results, usable
        return resp, answer


def _send(
    request: Request, net: NetOptions, deadline: float, fetch_args: dict[str, Any]
) -> Response:
    from common.http.client import fetch

    return fetch(
        request.url,
        net,
        method=request.method,
        data=request.data,
        headers=request.headers,
        deadline=deadline,
        **fetch_args,
    )


def _usable(results: list[Result], options: SearchOptions) -> tuple[list[Result], int]:
    """The results the run would print, clean, new and within the domain filters, and how
    many the filters removed (finalise; -n cuts them later)."""
    return finalise(results, allow=options.allow, block=options.block, step=check_stop)


def kept(
    answer: Answer, options: SearchOptions, cancelled: Callable[[], bool]
) -> tuple[list[Result], int]:
    """The results of a walk's answer the run keeps (``finalise``; -n unless fused: the
    fused list is cut afterwards), read no further once ``cancelled()`` (Stopped, as in
    ``walk``): the chain's loser must not clean thousands of a hostile page's results."""
    if answer.cleaned is not None:  # walk's count cleaned them: no pass the stop would end
        results, filtered = answer.cleaned
        return (results if options.fuse else results[: options.max_results]), filtered
    with stop_when(cancelled):
        return finalise(
            answer.results,
            allow=options.allow,
            block=options.block,
            limit=None if options.fuse else options.max_results,
            step=check_stop,
        )


def _kept(n: int) -> str:
    return f"keeping the {n} result{'s' if n != 1 else ''} of the pages before"
