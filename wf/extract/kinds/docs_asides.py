"""Documentation pages: the notes, tips and warnings a manual's generator draws as an
<aside> (Starlight's `<aside aria-label="Note" class="starlight-aside
starlight-aside--note">`), which the article's rule leaves out as a page's side column.
An admonition is the manual's text: kept, and the boxes inside it (its title, its
content, named after the aside) with it.
"""

from __future__ import annotations

import re
from typing import Any

from wf.extract.kinds import docs_tuning

_ADMONITION = re.compile(docs_tuning.ADMONITION, re.IGNORECASE)


def admonition(el: Any) -> bool:
    """Whether a block is an <aside> named as an admonition by its class or its accessible
    name (docs_tuning.ADMONITION), or stands in one docs_tuning.ADMONITION_LEVELS levels
    up at most."""
    box = el
    for _ in range(docs_tuning.ADMONITION_LEVELS + 1):
        if box is None:
            return False
        if box.tag == "aside":
            names = f"{box.get('class') or ''} {box.get('aria-label') or ''}"
            return _ADMONITION.search(names) is not None
        box = box.getparent()
    return False
