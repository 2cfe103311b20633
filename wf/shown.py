"""What of a page's text is shown, and where the rest went: the whole text, a window of
its lines (--filter, --exclude, --from, --to, --max-length), or a preview with the whole
text auto-saved; --save; a binary body saved instead of printed; the marker lines that
say which, and the --links list of the targets still shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from common import trace
from common.errors import WriteError
from wf import lines
from wf.options import PREVIEW_CHARS, WfOptions
from wf.save import default_name, save_bytes, save_name
from wf.view import Log, PageResult, marker


def apply_lines(
    page: PageResult,
    text: str,
    opts: WfOptions,
    deadline: float | None = None,
    *,
    log: Log | None = None,
    pinned: Callable[[str], bool] | None = None,
    number: int = 1,
) -> None:
    # The page's lines as a list cost about 50 bytes each besides their text (a 10 MB page
    # of short lines: 40 MB), and a line list is needed only to select lines: a file, a
    # preview and a page shown whole are cut from the text itself.
    page.total = _line_count(text)
    if opts.save or opts.save_path:
        name = save_name(opts.save_path, number) if opts.save_path else None
        _save_view(page, text, name, what="full text", opts=opts)
    elif (
        not opts.narrows
        and opts.max_length > 0  # 0 asks for the whole text, here, not a file
        and _utf8_size(text) > opts.autosave_bytes
    ):
        trace.trace("save: auto-save, the text is over WF_AUTOSAVE_BYTES (%d)", opts.autosave_bytes)
        _preview(page, text, opts, log=log)
        return
    else:
        trace.trace("save: none (%s)", _why_not_saved(opts))
    page.notes.extend(r.fallback for r in (opts.filter, opts.exclude) if r and r.fallback)
    selects = opts.filter or opts.exclude or opts.from_line or opts.to_line
    if text and not selects and (opts.max_length <= 0 or len(text) <= opts.max_length):
        # Every line, whole: what select_lines and page_lines give, without the list.
        page.text = text[:-1] if text.endswith("\n") else text
        page.matched = page.last = page.total
        page.first = 1
        _append_link_list(page, opts)
        return
    full_view = lines.split_lines(text)
    sel = lines.select_lines(
        full_view,
        keep=opts.filter,
        drop=opts.exclude,
        from_line=opts.from_line,
        to_line=opts.to_line,
        deadline=deadline,
        pinned=pinned,
    )
    shown = lines.page_lines(sel.lines, sel.first, opts.max_length)
    page.matched, page.first, page.last = sel.matched, shown.first, shown.last
    page.partial = shown.partial
    page.text = "\n".join(shown.lines)
    window_end = sel.last or 0
    if shown.last is not None and (shown.last < window_end or shown.partial):
        page.truncated = True
        parts = [
            f"output truncated at {shown.shown} of {shown.total} characters "
            f"(lines {shown.first}-{shown.last} of {sel.matched})"
        ]
        if shown.partial:
            parts.append(_whole_line_hint(shown, opts))
        if shown.last < window_end:
            parts.append(
                f"see the rest with --from {shown.last + 1}, or raise --max-length (0 = no limit)"
            )
        note = "; ".join(parts)
        page.trailer.append(marker(note))
        page.notes.append(note)
    elif opts.from_line and sel.matched and not sel.lines:
        # Exit 0 with nothing printed: say why on stderr too, not only in --json.
        page.note(f"--from {opts.from_line} is past the last line ({sel.matched})", log)
    _append_link_list(page, opts)


def _why_not_saved(opts: WfOptions) -> str:
    if opts.narrows:
        return "--no-save, or a part of the page was asked for"
    if opts.max_length == 0:
        return "--max-length 0 prints the whole text"
    return f"the text is within WF_AUTOSAVE_BYTES ({opts.autosave_bytes})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _whole_line_hint(shown: lines.Page, opts: WfOptions) -> str:
    """The one command that prints a cut line whole (the same filters, since line numbers
    count the filtered view)."""
    same = " with the same --filter/--exclude" if opts.filter or opts.exclude else ""
    n = shown.last
    return (
        f"line {n} is cut at {len(shown.lines[-1])} of {shown.cut_from} characters; "
        f"print it whole with --from {n} --to {n} --max-length 0 --no-save{same}"
    )


def _line_count(text: str) -> int:
    """len(lines.split_lines(text)), without the list."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


_SIZE_SLICE = 1 << 20


def _utf8_size(text: str) -> int:
    """len(text.encode("utf-8")), a slice at a time: the whole text is never copied."""
    if text.isascii():
        return len(text)
    return sum(
        len(text[at : at + _SIZE_SLICE].encode("utf-8")) for at in range(0, len(text), _SIZE_SLICE)
    )


def _head(text: str, limit: int) -> list[str]:
    """The text's first lines, each whole, as many as page_lines(..., limit) can reach: the
    lines that begin within ``limit + 1`` characters of the start (every line for 0, no
    limit)."""
    end = text.find("\n", limit + 1) if limit > 0 else -1
    return lines.split_lines(text if end < 0 else text[:end])


def _preview(page: PageResult, text: str, opts: WfOptions, *, log: Log | None) -> None:
    """Auto-save: the whole text to a file, a preview under the same paging contract."""
    limit = min(PREVIEW_CHARS, opts.max_length)
    head = _head(text, limit)
    shown = lines.page_lines(head, 1 if head else None, limit)
    try:
        path = _save_view(page, text, None, what=None, opts=opts)
    except WriteError as exc:
        # Auto-save is a convenience: without a usable scratch dir the preview stands.
        where = "the whole text was not saved"
        page.note(f"auto-save failed ({exc.message}); text is a preview", log)
    else:
        where = f"the whole text is in {path}"
        page.notes.append(f"auto-saved: full text in {path}; text is a preview")
    count = len(shown.lines)
    showing = f"showing the first {_count(count, 'line')}"
    if shown.partial:
        hint = _whole_line_hint(shown, opts)
        showing += f" ({hint})"
        page.notes.append(hint)  # --json has no marker line: the way to the rest is here
    after = (shown.last or 0) + 1
    ask = "ask for a range with --from N --to M, or for lines with --filter REGEX"
    go_on = f"Page on with --from {after}; {ask}" if after <= page.total else "A" + ask[1:]
    page.markers.append(
        marker(
            f"page too large to inline ({_count(len(text), 'character')}, "
            f"{_count(page.total, 'line')}); {where}; {showing}. {go_on}"
        )
    )
    page.text = "\n".join(shown.lines)
    page.truncated = True
    page.partial = shown.partial
    page.matched, page.first, page.last = page.total, shown.first, shown.last
    _append_link_list(page, opts)


def _save_view(
    page: PageResult, text: str, name: str | None, *, what: str | None, opts: WfOptions
) -> Path:
    data = text.encode("utf-8")
    if not data.endswith(b"\n") and data:
        data += b"\n"
    path = save_bytes(
        data,
        name or default_name(page.final_url or page.url, None, text=True),
        limits=opts.scratch,
        chosen=name is not None,
    )
    page.saved_to = str(path)
    trace.trace("save: %d bytes to %s", len(data), path)
    if what:
        page.markers.append(
            marker(f"saved {what} ({len(data)} bytes, {page.total} lines) to {path}")
        )
        page.notes.append(f"saved {what} to {path}")
    return path


def _append_link_list(page: PageResult, opts: WfOptions) -> None:
    """With --links, list the targets whose markers survived the line pipeline."""
    if not opts.links or not page.links:
        return
    import re

    # [n] after a link's text; with --images, ![alt](n) too (one numbering for both).
    found = re.findall(r"\[(\d+)\]|!\[(?:[^\]\\\n]|\\.)*\]\((\d+)\)", page.text)
    present = sorted({int(a or b) for a, b in found})
    refs = [f"[{n}]: {page.links[n - 1]['url']}" for n in present if 0 < n <= len(page.links)]
    if refs:
        page.trailer[:0] = ["", *refs]


def save_binary(
    page: PageResult,
    body: bytes,
    source: str,
    mime: str,
    opts: WfOptions,
    *,
    log: Log | None = None,
    number: int = 1,
) -> None:
    """A body that is no text to print, saved instead (to --save-path's name, or one made
    from ``source``, the address it came from) with a marker line that says where."""
    what = mime or "binary data"
    asked = bool(opts.save or opts.save_path)
    name = (
        save_name(opts.save_path, number)
        if opts.save_path
        else default_name(source, mime, text=False)
    )
    try:
        path = save_bytes(body, name, limits=opts.scratch, chosen=bool(opts.save_path))
    except WriteError as exc:
        if asked:  # --save: the file was the point
            raise
        # Nobody asked for a file: a body that cannot be kept is reported, not an error.
        page.markers.append(
            marker(f"binary content ({what}, {len(body)} bytes) not saved: {exc.message}")
        )
        page.note(f"binary content ({what}) not printed and not saved: {exc.message}", log)
        return
    page.saved_to = str(path)
    trace.trace("save: binary content, %d bytes to %s", len(body), path)
    page.markers.append(marker(f"binary content ({what}, {len(body)} bytes) saved to {path}"))
    page.notes.append(f"binary content ({what}) saved, not printed")
