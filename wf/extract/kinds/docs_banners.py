"""Documentation pages' banners: the site's news and the warning that an older version
is shown, each named so by a class or id token
(docs_tuning.DOC_BANNER). The article's rule keeps them when the page is read whole or
when they stand inside the chosen box, over the manual's first paragraph."""

from __future__ import annotations

import re
from typing import Any

from wf.extract.kinds import docs_tuning

_BANNER = re.compile(docs_tuning.DOC_BANNER, re.IGNORECASE)
# The elements a banner is looked for on: those with a class or an id, one regex each.
_NAMED = "//*[@class or @id]"


def drop_banners(root: Any) -> None:
    """Remove the boxes named as banners (docs_tuning.DOC_BANNER) that hold no more text
    than a banner (docs_tuning.DOC_BANNER_TEXT_MAX); the outermost of nested ones goes."""
    from common.xpath import compiled, text_length
    from wf.extract.parse import drop

    length = text_length()
    named = 0
    found: list[Any] = []
    for el in compiled(_NAMED)(root):
        if el.tag in ("html", "body") or not _BANNER.search(_names(el)):
            continue
        named += 1
        if named > docs_tuning.DOC_BANNERS_MAX:
            break
        if length(el) <= docs_tuning.DOC_BANNER_TEXT_MAX:
            found.append(el)
    chosen = set(found)
    for el in found:
        if not any(up in chosen for up in el.iterancestors()):
            drop(el)


def _names(el: Any) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''}"
