"""A code block's language, as the page marks it: `language-x` or `lang-x` on <pre> or
<code> (highlight.js, Prism, Markdown renderers), `highlight-x` or
`highlight-source-x` on a box around it (Sphinx, GitHub), or a data-lang or
data-language attribute. Printed after the opening fence (```bash)."""

from __future__ import annotations

import re
from typing import Any

_CLASS = re.compile(
    r"(?:^|\s)(?:language|lang|highlight(?:-source)?)-([A-Za-z0-9_+#.-]{1,24})(?=\s|$)"
)
_VALUE = re.compile(r"[A-Za-z0-9_+#.-]{1,24}")
# Names that say "no language" or that a highlighter uses for itself.
_NONE = frozenset(("default", "none", "text", "plain", "plaintext", "nohighlight", "source"))
_LEVELS = 3  # <pre>, then up to two boxes around it


def language(pre: Any) -> str | None:
    """The language of a <pre>'s code, or None."""
    first = pre[0] if len(pre) and pre[0].tag == "code" else None
    candidates = [first, pre] if first is not None else [pre]
    el = pre.getparent()
    for _ in range(_LEVELS - 1):
        if el is None or el.tag in ("body", "html"):
            break
        candidates.append(el)
        el = el.getparent()
    for node in candidates:
        for attribute in ("data-lang", "data-language"):
            value = (node.get(attribute) or "").strip()
            if _VALUE.fullmatch(value) and value.lower() not in _NONE:
                return value.lower()
        found = _CLASS.search(node.get("class") or "")
        if found and found.group(1).lower() not in _NONE:
            return found.group(1).lower()
    return None
