"""Is this page a JavaScript shell, and can its state be read without a browser?

Pure functions over the static HTML: cheap regular expressions, no lxml, no browser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

# A shell is big (scripts, inline state) and says little; both thresholds are in bytes.
MIN_RAW_BYTES = 2000
MAX_TEXT_BYTES = 400

NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript\s*>", re.IGNORECASE | re.DOTALL)
_NEEDS_JS = re.compile(
    r"\b(?:enable|turn on|requires?|need|needs|activate|allow|without)\b[^<>]{0,80}?\bjava\s*script\b"
    r"|\bjava\s*script\b[^<>]{0,80}?\b(?:required|disabled|enabled|turned off|is off|must|needs? to be)\b",
    re.IGNORECASE,
)
# An empty mount point: the element opens and closes with nothing but blanks or comments.
# No part may run past a "<" or far into the page: from every "<div" a pattern that could
# would read on to the end, and a page of many is then quadratic.
_MOUNT = re.compile(
    r"""<(?:div|main|section)\b[^<>]*\bid\s*=\s*["']?(?:root|app|__next|___gatsby|q-app)"""
    r"""(?:["'\s>]|$)[^<>]*>(?:\s|<!--.{0,200}?-->)*</(?:div|main|section)\s*>""",
    re.IGNORECASE | re.DOTALL,
)
_NOSCRIPT_OPEN = re.compile(r"<noscript\b[^<>]*>", re.IGNORECASE)
_NOSCRIPT_CLOSE = re.compile(r"</noscript\s*>", re.IGNORECASE)
_MARKERS = (
    "__NEXT_DATA__",
    "data-reactroot",
    "ng-version=",
    "data-v-app",
    "window.__NUXT__",
    "data-sveltekit",
    "flutter_bootstrap",
    "window.__remixContext",
)
_NEXT_DATA = re.compile(
    r"""<script\b[^>]*\bid\s*=\s*["']?__NEXT_DATA__["']?[^>]*>(.*?)</script\s*>""",
    re.IGNORECASE | re.DOTALL,
)


def shell_signals(raw_html: str) -> list[str]:
    """The signals of a client-rendered page found in the raw HTML, for notes and tuning."""
    found: list[str] = []
    if any(_NEEDS_JS.search(content) for content in _noscripts(raw_html)):
        found.append("noscript asks for JavaScript")
    mount = _MOUNT.search(raw_html)
    if mount:
        found.append("empty mount point")
    found.extend(f"marker {m}" for m in _MARKERS if m in raw_html)
    return found


def _noscripts(raw_html: str) -> Iterator[str]:
    """The content of each <noscript>, as NOSCRIPT finds them, in linear time: past an
    unclosed one there is no other (NOSCRIPT.finditer would read on to the end of the
    page from every later "<noscript")."""
    pos = 0
    while True:
        start = _NOSCRIPT_OPEN.search(raw_html, pos)
        if start is None:
            return
        end = _NOSCRIPT_CLOSE.search(raw_html, start.end())
        if end is None:
            return
        yield raw_html[start.end() : end.start()]
        pos = end.end()


def looks_like_js_shell(raw_html: str, static_text: str) -> bool:
    """Big HTML, little text, and at least one sign that JavaScript builds the page."""
    if len(raw_html) < MIN_RAW_BYTES // 4:
        return False  # cannot reach the byte threshold even at four bytes a character
    if len(static_text.encode("utf-8", "replace")) >= MAX_TEXT_BYTES:
        return False
    if len(raw_html.encode("utf-8", "replace")) < MIN_RAW_BYTES:
        return False
    return bool(shell_signals(raw_html))


def recover_next_data(raw_html: str, *, cap: int = 200_000) -> str | None:
    """The page state a Next.js page ships in ``__NEXT_DATA__``, pretty-printed, or None.

    The page's own props (``props.pageProps``) are what a reader wants; the build
    metadata around them is noise. Past ``cap`` characters the text is cut at a line end
    and says so on its last line, so it is readable but no longer valid JSON.
    """
    match = _NEXT_DATA.search(raw_html)
    if not match:
        return None
    try:
        data = json.loads(match.group(1).strip())
    except ValueError:
        return None
    props = data.get("props") if isinstance(data, dict) else None
    page_props = props.get("pageProps") if isinstance(props, dict) else None
    state = page_props if page_props not in (None, {}, []) else data
    text = json.dumps(state, indent=2, ensure_ascii=False)
    if len(text) <= cap:
        return text
    cut = text.rfind("\n", 0, cap)
    head = text[: cut if cut > 0 else cap]
    return f"{head}\n... (cut at {len(head)} of {len(text)} characters)"
