"""wf as a library: ``extract`` and ``fetch`` run the CLI's own pipeline (wf.pipeline) and
return a ``Page``, whose ``to_json`` is the line ``wf --json`` prints (wf.view's
PageResult JSON, written by common.output). Options are the CLI's: keyword arguments are
WfFlags fields checked by make_options, or a WfOptions built once with ``build_options``.

Nothing here is module-level mutable state: a call holds its own options, page and (for
``fetch``) browser, so calls from several threads are safe. What the library does not do
is the CLI's supervisor: a page that keeps C code busy past the deadline is not stopped
(run hostile input in worker processes; README "At scale").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from common.errors import ToolError, UsageError

if TYPE_CHECKING:
    from wf.options import WfOptions
    from wf.view import PageResult


class OptionError(UsageError, ValueError):
    """A bad option value: the CLI's message and exit code 2, and a ValueError."""


@dataclass(frozen=True)
class Page:
    """One page as wf read it. ``document`` is the --json object; the attributes below
    are read from it, so that the two never disagree."""

    document: dict[str, Any]
    # What the page is: article, thread, documentation, product, listing, landing (HTML,
    # the extractor's page kind), or pdf, feed, text, binary, empty (wf.sniff's).
    kind: str | None = None

    @property
    def url(self) -> str:
        return str(self.document["url"])

    @property
    def text(self) -> str:
        return str(self.document["text"])

    @property
    def title(self) -> str | None:
        value = self.document["title"]
        return None if value is None else str(value)

    @property
    def metadata(self) -> dict[str, str | None]:
        return dict(self.document["metadata"])

    @property
    def links(self) -> list[dict[str, str]]:
        return list(self.document["links"])

    @property
    def notes(self) -> list[str]:
        return list(self.document["notes"])

    @property
    def status(self) -> int | None:
        value = self.document["status"]
        return None if value is None else int(value)

    @property
    def final_url(self) -> str | None:
        value = self.document["final_url"]
        return None if value is None else str(value)

    @property
    def content_type(self) -> str | None:
        value = self.document["content_type"]
        return None if value is None else str(value)

    def to_json(self) -> str:
        """The line ``wf --json`` prints for this page, without its line end."""
        from common.output import json_line

        return json_line(self.document).rstrip("\n")

    @classmethod
    def of(cls, result: PageResult) -> Page:
        return cls(result.as_json(), result.kind)


def build_options(environ: Mapping[str, str] | None = None, **flags: Any) -> WfOptions:
    """WfOptions from WfFlags fields (``full=True``, ``filter="x"``, ``timeout=5``, ...) and
    the WF_* variables (``environ``, os.environ when None), checked as the CLI checks them.
    Unlike the CLI, the text is never cut or auto-saved unless ``max_length`` is given, and
    the page is always read for JSON (metadata, feed entries). A bad value raises
    OptionError (a ValueError) with the CLI's message."""
    from wf.options import WfFlags, make_options

    known = {f.name for f in fields(WfFlags)}
    unknown = sorted(set(flags) - known)
    if unknown:
        raise TypeError(f"unknown wf option(s): {', '.join(unknown)}")
    for f in fields(WfFlags):
        # A list flag given one str (allow_hosts="example.com", select="main") is that
        # one value, not its characters.
        if f.default == () and isinstance(flags.get(f.name), str):
            flags[f.name] = (flags[f.name],)
    _check_types(environ, flags)
    flags.setdefault("max_length", 0)
    flags["as_json"] = True
    try:
        return make_options(environ, WfFlags(**flags))
    except UsageError as exc:
        raise OptionError(exc.message) from None


# The kind (common.apitypes.KINDS) of each WfFlags annotation, and the flags not spelt
# as their field is.
KIND_OF = {
    "str | None": "text?",
    "int | None": "whole?",
    "float | None": "seconds?",
    "bool": "flag",
    "bool | None": "flag?",
    "tuple[str, ...]": "texts",
}
_FLAG_NAMES = {
    "from_line": "--from",
    "to_line": "--to",
    "as_json": "--json",
    "input_file": "--input",
    "allow_hosts": "--allow-host",
    "headers": "--header",
}


def _check_types(environ: Any, flags: dict[str, Any]) -> None:
    """OptionError naming the flag when a value is not of the type its flag takes."""
    from common.apitypes import wrong, wrong_environ
    from wf.options import WfFlags

    message = wrong_environ(environ)
    for f in fields(WfFlags):
        if message is None and f.name in flags:
            flag = _FLAG_NAMES.get(f.name, "--" + f.name.replace("_", "-"))
            message = wrong(flag, KIND_OF[str(f.type)], flags[f.name])
    if message is not None:
        raise OptionError(message)


def _checked(opts: WfOptions | None, flags: dict[str, Any]) -> WfOptions:
    if opts is not None:
        if flags:
            raise TypeError("give options= or keyword options, not both")
        return opts
    return build_options(**flags)


def _no_log(message: str) -> None:
    """Notes stay in the page; a library writes nothing to stderr."""


def extract(
    html: str | bytes | bytearray | memoryview,
    url: str | None = None,
    *,
    options: WfOptions | None = None,
    **flags: Any,
) -> Page:
    """A document (HTML, a PDF, a feed, text) through wf's pipeline, as ``wf --input FILE
    --base-url URL --json`` reads it. Raises the ToolError of the CLI's exit code."""
    if options is None:
        flags.setdefault("input_file", "-")
        if url is not None:
            flags.setdefault("base_url", url)
    opts = _checked(options, flags)
    if url is not None and opts.base_url != url:
        from dataclasses import replace

        opts = replace(opts, base_url=url)
    from wf.pipeline import process

    if isinstance(html, (bytearray, memoryview)):
        html = bytes(html)
    elif not isinstance(html, (str, bytes)):
        raise TypeError(f"wf.extract reads a document as str or bytes, not {type(html).__name__}")
    if isinstance(html, str):
        # A str is text already: the BOM makes the decoder take its UTF-8 bytes as UTF-8,
        # whatever charset a <meta> inside it names (the BOM wins over <meta>).
        body = ("" if html.startswith("\ufeff") else "\ufeff").encode() + html.encode(
            "utf-8", "replace"
        )
    else:
        body = html
    result = process(url or "", opts, log=_no_log, browser=None, local_body=body)
    return _done(result)


def fetch(url: str, *, options: WfOptions | None = None, **flags: Any) -> Page:
    """A URL fetched and read as ``wf URL --json`` does (under the same network policy,
    rendered when it needs it). Raises the ToolError of the CLI's exit code."""
    opts = _checked(options, flags)
    from wf.pipeline import process
    from wf.render.decide import LazyBrowser

    browser = LazyBrowser(opts)
    try:
        result = process(url, opts, log=_no_log, browser=browser)
    finally:
        browser.close()
    return _done(result)


def _done(result: PageResult) -> Page:
    if result.error is not None:
        error: ToolError = result.error
        raise error
    return Page.of(result)


def warc_pages(
    paths: str | list[str], *, options: WfOptions | None = None, **flags: Any
) -> Iterator[Page]:
    """Each readable response record of the WARC files, as ``wf --warc`` reads it: the
    Page's document carries warc_target_uri, warc_record_id and warc_date, and its
    ``to_json`` is the line ``wf --warc`` prints. A page that failed is yielded too (its
    document's ``error``), as the CLI prints it; a damaged file raises."""
    from wf.warc.run import warc_documents

    opts = _checked(options, flags)
    for document, page in warc_documents(
        [paths] if isinstance(paths, str) else paths, opts, log=_no_log
    ):
        yield Page(document, page.kind)


def stop_render_keepalive(*, timeout: float = 10.0) -> bool:
    """Stop the browser that WF_RENDER_KEEPALIVE keeps running for this user (the runtime
    dir's, as ``wf --render-stop``), now rather than when it has been idle long enough.
    True when one was running; it and every process of it are gone when this returns.
    Raises Timeout when another wf held the keep-alive's lock for ``timeout`` seconds."""
    import time

    from common.apitypes import wrong
    from wf.render.keeper import stop

    message = wrong("--timeout", "seconds", timeout)
    if message is None and not timeout > 0:
        message = f"--timeout takes a number of seconds above 0, not {timeout!r}"
    if message is not None:
        raise OptionError(message)
    return stop(deadline=time.monotonic() + timeout) is not None
