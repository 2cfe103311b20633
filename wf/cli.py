"""wf's command line: click options -> WfOptions -> the pipeline -> stdout.

Only click is imported at start-up; urllib3 and lxml come in with the first fetch.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from common import output, run
from common.clickopts import SizeType, shared_options
from common.errors import ToolError, UsageError
from wf import __version__

TOOL = "wf"

EPILOG = """\b
Examples:
  wf https://example.com/article
  wf https://example.com/docs --filter 'install|pip' --links
  ws 'rust async' --urls | wf - --json | jq -r .title
  wf --input saved.html --base-url https://example.com/

Exit codes are listed in man wf (EXIT STATUS); 0 is success."""


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r} is not a whole number") from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.argument("urls", nargs=-1, metavar="[URL]... | -")
@click.option("-f", "--filter", "filter_", metavar="REGEX", help="Keep only the lines that match.")
@click.option("-x", "--exclude", metavar="REGEX", help="Then drop the lines that match.")
@click.option("--from", "from_line", type=int, metavar="N", help="First line of the window (1-based, after filters).")
@click.option("--to", "to_line", type=int, metavar="N", help="Last line of the window (inclusive).")
@click.option(
    "--max-length",
    type=int,
    metavar="N",
    help="Truncate the output at N characters, at a line end (default 20000; 0 = no limit) [env WF_MAX_LENGTH].",
)
@click.option("--save", is_flag=True, help="Save the full text to the scratch dir and say where.")
@click.option("--save-path", metavar="NAME", help="Save under this file name (base name only) in the scratch dir.")
@click.option("--no-save", is_flag=True, help="Never auto-save a large page; print it (up to --max-length).")
@click.option("--full", is_flag=True, help="The whole page's text, navigation and footer included.")
@click.option("--links", is_flag=True, help="Mark links as [n] and list their targets after the text.")
@click.option("--raw", is_flag=True, help="Print the decoded HTML itself instead of extracting text.")
@click.option(
    "--render",
    type=click.Choice(["auto", "always", "never"]),
    envvar="WF_RENDER",
    default="auto",
    show_default=True,
    help="Render JavaScript pages in headless Chromium [env WF_RENDER].",
)
@click.option("--input", "input_file", metavar="FILE", help="Extract a local document (- for stdin) instead of fetching.")
@click.option("--base-url", metavar="URL", help="With --input: the URL that relative links resolve against.")
@click.option(
    "--max-bytes",
    type=SizeType(),
    envvar="WF_MAX_BYTES",
    default="10M",
    show_default=True,
    help="Refuse bodies larger than this, compressed or not (e.g. 500K, 20M) [env WF_MAX_BYTES].",
)
@shared_options(timeout_env="WF_TIMEOUT")
@click.version_option(__version__, prog_name="wf", message="%(prog)s %(version)s")
def command(urls: tuple[str, ...], **kw: Any) -> int:
    """Fetch web pages and print their clean, readable text.

    URL may be several URLs (fetched concurrently, printed in order) or - to read URLs
    from stdin, one per line."""
    opts, targets, local = _build(urls, kw)
    return _run(opts, targets, local)


def _build(urls: tuple[str, ...], kw: dict[str, Any]) -> tuple[Any, list[str], bytes | None]:
    from common.http.client import NetOptions
    from common.policy import policy_from_env
    from wf.lines import compile_regex
    from wf.options import DEFAULT_AUTOSAVE_BYTES, DEFAULT_MAX_LENGTH, WfOptions
    from wf.save import confine_name

    for name in ("from_line", "to_line"):
        value = kw[name]
        if value is not None and value < 1:
            flag = "--from" if name == "from_line" else "--to"
            raise UsageError(f"{flag} must be 1 or more (lines are numbered from 1), not {value}")
    if kw["from_line"] and kw["to_line"] and kw["from_line"] > kw["to_line"]:
        raise UsageError(f"--from {kw['from_line']} is after --to {kw['to_line']}")
    max_length = kw["max_length"]
    if max_length is None:
        max_length = _env_int("WF_MAX_LENGTH", DEFAULT_MAX_LENGTH)
    if max_length < 0:
        raise UsageError(f"--max-length must be 0 (no limit) or more, not {max_length}")
    if kw["no_save"] and (kw["save"] or kw["save_path"]):
        raise UsageError("--no-save conflicts with --save/--save-path")
    if kw["save_path"] is not None:
        confine_name(kw["save_path"])
    if kw["base_url"] and not kw["input_file"]:
        raise UsageError("--base-url goes with --input")
    keep = compile_regex(kw["filter_"], "--filter") if kw["filter_"] is not None else None
    drop = compile_regex(kw["exclude"], "--exclude") if kw["exclude"] is not None else None
    autosave = _env_int("WF_AUTOSAVE_BYTES", DEFAULT_AUTOSAVE_BYTES)

    net = NetOptions(
        timeout=kw["timeout"],
        max_bytes=kw["max_bytes"],
        user_agent=kw["user_agent"],
        policy=policy_from_env(allow_private=kw["allow_private"], allow_hosts=kw["allow_hosts"]),
    )
    opts = WfOptions(
        net=net,
        full=kw["full"],
        links=kw["links"],
        raw=kw["raw"],
        filter=keep,
        exclude=drop,
        from_line=kw["from_line"],
        to_line=kw["to_line"],
        max_length=max_length,
        save=kw["save"],
        save_path=confine_name(kw["save_path"]) if kw["save_path"] else None,
        no_save=kw["no_save"],
        autosave_bytes=autosave,
        render=kw["render"],
        base_url=kw["base_url"],
        as_json=kw["as_json"],
    )
    local: bytes | None = None
    if kw["input_file"] is not None:
        if urls:
            raise UsageError("--input reads a local document; give no URL with it")
        local = _read_input(kw["input_file"])
        return opts, [kw["input_file"]], local
    targets = _targets(urls)
    if not targets:
        raise UsageError("no URL given (wf URL, wf - to read URLs from stdin, or wf --input FILE)")
    return opts, targets, local


def _read_input(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise UsageError(f"cannot read --input {path}: {exc.strerror or exc}") from None


def _targets(urls: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for arg in urls:
        if arg == "-":
            # Only an explicit '-' reads stdin.
            for line in sys.stdin.read().splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    out.append(line)
        else:
            out.append(arg)
    return out


def _run(opts: Any, targets: list[str], local: bytes | None) -> int:
    from wf.pipeline import LazyBrowser, process, process_many

    def log(message: str) -> None:
        output.diag(TOOL, message)

    renderers = LazyBrowser(opts)
    first_error = 0
    try:
        if local is not None:
            pages = iter([process(targets[0], opts, log=log, renderers=None, local_body=local)])
        else:
            pages = process_many(targets, opts, log=log, renderers=renderers)
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
                output.write(page.output)
    finally:
        renderers.close()
    return first_error


def _json_error(exc: ToolError, url: str | None = None) -> dict[str, Any]:
    from wf.pipeline import PageResult

    page = PageResult(url=url or "")
    page.error = exc
    return page.as_json()


def main(argv: list[str] | None = None) -> None:
    run.main_exit(run.run_cli(TOOL, command, argv, json_error=_json_error))


if __name__ == "__main__":
    main()
