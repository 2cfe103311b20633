"""wf's command line: click options -> WfFlags -> WfOptions -> the pipeline -> stdout.

Only click is imported at start-up; the HTTP client and lxml come in with the first fetch.
"""

from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING, Any

import click

from common import output, run
from common.clickopts import (
    SizeType,
    completion_option,
    fresh_runs,
    given,
    shared_options,
    verbose_option,
)
from common.errors import ToolError, UsageError
from wf import __version__

if TYPE_CHECKING:
    from wf.pipeline import Archive
    from wf.warc.write import WarcWriter

from wf.options import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    MAX_RETRIES,
    RENDER_MODES,
    WfFlags,
    WfOptions,
    check_batch,
    make_options,
)

TOOL = "wf"

EPILOG = """\b
Examples:
  wf https://example.com/article
  wf https://example.com/docs --filter 'install|pip' --links
  ws 'rust async' --urls | wf - --json | jq -r .title
  wf --input saved.html --base-url https://example.com/
  wf https://example.com/paper.pdf --pages 1-3

Exit codes are listed in man wf (EXIT STATUS); 0 is success."""


def steering_options(command: Any) -> Any:
    """The options that steer what a page gives (wf/steering.py), in --help's order."""
    for option in reversed(
        (
            click.option(
                "--select",
                multiple=True,
                metavar="CSS",
                help="Keep only the elements this CSS selector matches (repeatable); exit 65 when none does.",
            ),
            click.option(
                "--remove",
                multiple=True,
                metavar="CSS",
                help="Drop the elements this CSS selector matches before extraction (repeatable).",
            ),
            click.option(
                "--images",
                is_flag=True,
                help="Keep images as ![alt](n) in the text; --json gains their list.",
            ),
            click.option(
                "--wait-for",
                metavar="CSS",
                help="Rendered pages: read the page once an element matching CSS has text.",
            ),
            click.option(
                "--wait",
                type=int,
                metavar="MS",
                help="Rendered pages: wait MS milliseconds more after load.",
            ),
            click.option(
                "--accept-markdown/--no-accept-markdown",
                default=None,
                help="Ask servers for Markdown first and print it as served (default on) [env WF_ACCEPT_MARKDOWN=0].",
            ),
            click.option(
                "--robots",
                is_flag=True,
                default=None,
                help="Honour robots.txt (RFC 9309); a disallowed URL exits 77 [env WF_ROBOTS=1].",
            ),
            click.option(
                "--per-host",
                type=int,
                metavar="N",
                help="In a batch, at most N pages at once from one server, host and port (default 2).",
            ),
            click.option(
                "--delay",
                type=int,
                metavar="MS",
                help="In a batch, start requests to one server at least MS milliseconds apart.",
            ),
        )
    ):
        command = option(command)
    return command


@click.command(
    cls=fresh_runs(lambda: _pending.clear()),  # an earlier run in this process is not this one
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EPILOG,
)
@click.argument("urls", nargs=-1, metavar="[URL]... | -")
@click.option("-f", "--filter", "filter", metavar="REGEX", help="Keep only the lines that match.")
@click.option("-x", "--exclude", metavar="REGEX", help="Then drop the lines that match.")
@click.option(
    "--from",
    "from_line",
    type=int,
    metavar="N",
    help="First line of the window (1-based, after filters).",
)
@click.option("--to", "to_line", type=int, metavar="N", help="Last line of the window (inclusive).")
@click.option(
    "--max-length",
    type=int,
    metavar="N",
    help="Print at most N characters, whole lines only (a longer line alone is cut and marked; default 20000; 0 = no limit, no auto-save) [env WF_MAX_LENGTH].",
)
@click.option("--save", is_flag=True, help="Save the full text to the scratch dir and say where.")
@click.option(
    "--save-path",
    metavar="NAME",
    help="Save under this file name (base name only) in the scratch dir; with several URLs it must hold {n}, the URL's number.",
)
@click.option(
    "--no-save", is_flag=True, help="Never auto-save a large page; print it (up to --max-length)."
)
@click.option(
    "--full",
    is_flag=True,
    help="The whole page's text, navigation and footer included (PDFs: running headers and footers).",
)
@click.option(
    "--links", is_flag=True, help="Mark links as [n] and list their targets after the text."
)
@click.option(
    "--raw", is_flag=True, help="Print the decoded HTML itself instead of extracting text."
)
@click.option(
    "--meta", is_flag=True, help="Print a header (title, author, date, URL) above the text."
)
@click.option(
    "--pages",
    metavar="LIST",
    help="PDFs: read only these pages (3, 3-7, 3-, -7, 1,4-6; numbered from 1).",
)
@click.option(
    "--render",
    type=click.Choice(RENDER_MODES),
    default=RENDER_MODES[0],
    show_default=True,
    help="Render JavaScript pages in headless Chromium [env WF_RENDER].",
)
@click.option(
    "--render-stop",
    is_flag=True,
    help="Stop the browser that WF_RENDER_KEEPALIVE keeps running, now, and exit (give no URL).",
)
@steering_options
@click.option(
    "--input",
    "input_file",
    metavar="FILE",
    help="Extract a local document (- for stdin) instead of fetching.",
)
@click.option(
    "--base-url", metavar="URL", help="With --input: the URL that relative links resolve against."
)
@click.option(
    "--max-bytes",
    type=SizeType(),
    default=DEFAULT_MAX_BYTES,
    show_default=True,
    help="Refuse bodies larger than this, compressed or not (e.g. 500K, 20M) [env WF_MAX_BYTES].",
)
@click.option(
    "-H",
    "--header",
    "headers",
    multiple=True,
    metavar="'NAME: VALUE'",
    help="Send this request header (repeatable); dropped on a redirect to another origin.",
)
@click.option(
    "--retry",
    type=click.IntRange(0, MAX_RETRIES),
    metavar="N",
    help="Retry transient failures (connect, stalls, 408, 429, 5xx) up to N times within --timeout [env WF_RETRY].",
)
@click.option(
    "--cache/--no-cache",
    default=None,
    help="Keep pages in an HTTP cache; reuse fresh ones, revalidate stale ones [env WF_CACHE=1].",
)
@click.option(
    "--proxy-resolves",
    is_flag=True,
    default=None,
    help="Names that do not resolve here go to the proxy, which resolves them and enforces egress [env WF_PROXY_RESOLVES=1].",
)
@click.option(
    "--warc",
    is_flag=True,
    help="The arguments are WARC files (.gz or not; - for stdin): print each HTML, PDF or feed response as a JSON line.",
)
@click.option(
    "--warc-out",
    metavar="FILE",
    help="Also archive every fetched answer (request and response records) in this WARC file (.gz: compressed).",
)
@shared_options(
    timeout_env="WF_TIMEOUT",
    default_timeout=DEFAULT_TIMEOUT,
    timeout_help="Deadline for each page: fetch, render and extraction (several URLs: each its own)",
)
@verbose_option(
    TOOL,
    "each hop (address, status, time to first byte, bytes), the policy's decisions, the "
    "charset, the type branch, the extractor's choice, rendering and saving",
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="No notes and no progress line on stderr; errors are still reported.",
)
@completion_option(TOOL)
@click.version_option(__version__, prog_name="wf", message="%(prog)s %(version)s")
def command(urls: tuple[str, ...], **flags: Any) -> int:
    """Fetch web pages and print their clean, readable text.

    URL may be several URLs (fetched concurrently, printed in order) or - to read URLs
    from stdin, one per line."""
    from common.http.proxy_env import check_proxy_environment

    # Options first, from flags and environment together: every configuration error is
    # exit 2 before stdin is read or a byte is sent, a proxy variable we cannot use too.
    check_proxy_environment()
    opts = make_options(flags=_flags(flags))
    input_file = flags["input_file"]
    from common import trace

    trace.enable(TOOL, opts.verbose)
    output.environment().quiet = opts.quiet
    if flags["render_stop"]:
        if urls or input_file is not None:
            raise UsageError(
                "--render-stop stops the shared browser; give no URL or --input with it"
            )
        return _render_stop(opts)
    if flags["warc"]:
        if not urls:
            raise UsageError("--warc needs WARC files to read (- for stdin)")
        from wf.warc.run import print_warc

        return print_warc(opts, list(urls))
    if input_file is not None:
        if urls:
            raise UsageError("--input reads a local document; give no URL with it")
        from wf.local_input import read_input

        _pending.append(input_file)  # --json: a failure to read it is that page's error
        local = read_input(input_file, limit=opts.net.max_bytes, timeout=opts.net.timeout)
        _pending.clear()  # _run lists it again
        return _run(opts, [input_file], local)
    targets = _targets(urls)
    if not targets:
        raise UsageError("no URL given (wf URL, wf - to read URLs from stdin, or wf --input FILE)")
    check_batch(opts, len(targets))
    return _run(opts, targets, None)


def _flags(given_flags: dict[str, Any]) -> WfFlags:
    """click's parameters as WfFlags. Left at their defaults, --render, --max-bytes and
    --timeout give way to WF_RENDER, WF_MAX_BYTES and WF_TIMEOUT."""
    values = dict(given_flags)
    del values["render_stop"]  # an action of its own, no option of a run
    for name in ("render", "max_bytes", "timeout"):
        values[name] = given(name, values[name])
    if values["warc"]:
        # An archive's pages are kept whole: never cut to --max-length, never auto-saved.
        values["as_json"] = True
        if values["max_length"] is None and "WF_MAX_LENGTH" not in os.environ:
            values["max_length"] = 0
    return WfFlags(**values)


def _render_stop(opts: WfOptions) -> int:
    """--render-stop: the keep-alive's browser stopped within --timeout; none is no error."""
    import time

    from common import trace
    from wf.render.keeper import stop

    state = stop(deadline=time.monotonic() + opts.net.timeout)
    if state is None:
        trace.trace("render: no shared browser is running (WF_RENDER_KEEPALIVE)")
    else:
        trace.trace(
            "render: stopped the shared browser (keeper %d, browser %d)",
            state["keeper_pid"],
            state["browser_pid"],
        )
    return 0


def _targets(urls: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for arg in urls:
        if arg == "-":
            # Only an explicit '-' reads stdin.
            from wf.local_input import url_list

            for line in url_list().splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    out.append(line)
        else:
            out.append(arg)
    return out


def _run(opts: WfOptions, targets: list[str], local: bytes | None) -> int:
    from common import progress
    from wf.pipeline import process, process_many
    from wf.render.decide import LazyBrowser

    def log(message: str) -> None:
        output.diag(TOOL, message)

    browser = LazyBrowser(opts)
    writer, archive = _archive(opts)
    first_error = 0
    # The pages not printed yet, in order: a Ctrl-C names the first in its JSON object.
    _pending.extend(targets)
    shown = progress.start(TOOL, len(targets))
    try:
        if local is not None:
            pages = iter([process(targets[0], opts, log=log, browser=None, local_body=local)])
        else:
            pages = process_many(
                targets,
                opts,
                log=log,
                browser=browser,
                on_done=lambda page: shown.finished(page.error is not None),
                archive=archive,
            )
        many = len(targets) > 1
        for page in pages:
            if page.error is not None:
                run.error_line(TOOL, page.error)
                first_error = first_error or page.error.code
            if opts.as_json:
                output.write_json(page.as_json())
            elif page.error is None:
                if many:
                    output.write(f"==> {page.url} <==\n")
                output.write_pieces(page.output_pieces())
            if _pending:
                _pending.popleft()
    except BaseException:
        if writer is not None:
            writer.discard()  # complete or absent: an interrupted run leaves no file
        raise
    finally:
        shown.close()
        browser.close()
    if writer is not None:
        writer.commit()
    return first_error


def _archive(opts: WfOptions) -> tuple[WarcWriter | None, Archive | None]:
    """--warc-out: the writer, and what the pipeline calls with each answer."""
    if opts.warc_out is None:
        return None, None
    from common.http.client import Response, request_headers
    from wf.warc.write import WarcWriter

    writer = WarcWriter(opts.warc_out)
    sent = request_headers(opts.net)

    def archive(resp: Response) -> None:
        writer.add(resp, sent)

    return writer, archive


_pending: deque[str] = deque()


def json_error(exc: ToolError, url: str | None = None) -> dict[str, Any]:
    from wf.view import PageResult

    page = PageResult(url=url or (_pending[0] if _pending else ""))
    page.error = exc
    return page.as_json()


def main(argv: list[str] | None = None) -> None:
    run.main_exit(run.run_cli(TOOL, command, argv, json_error=json_error))


if __name__ == "__main__":
    main()
