"""Documentation pages: the notes, tips and warnings a manual's generator draws as an
<aside> (Starlight's `<aside aria-label="Note" class="starlight-aside
starlight-aside--note">`), which the article's rule leaves out as a page's side column.
An admonition is the manual's text: kept, and the boxes inside it (its title, its
content, named after the aside) with it. And Asciidoctor's (Antora's) admonitions, drawn
as a table of one row, the icon's cell and the content's, printed as its label over its
content, where they were a Markdown table ("|  | Verify the checksum. |").
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning
from wf.extract.spaces import settable

_ADMONITION = re.compile(docs_tuning.ADMONITION, re.IGNORECASE)


def admonition(el: Any) -> bool:
    """Whether a block is an <aside> named as an admonition by its class or its accessible
    name (docs_tuning.ADMONITION), or stands in one docs_tuning.ADMONITION_LEVELS levels
    up at most. One whose class or id names boilerplate (an `ad-callout`, a
    `cookie-warning`) is none: the page's chrome."""
    from wf.extract.names import negative_words

    box = el
    for _ in range(docs_tuning.ADMONITION_LEVELS + 1):
        if box is None:
            return False
        if box.tag == "aside":
            names = f"{box.get('class') or ''} {box.get('aria-label') or ''}"
            if _ADMONITION.search(names) is None:
                return False
            return not negative_words(f"{box.get('class') or ''} {box.get('id') or ''}")
        box = box.getparent()
    return False


_BLOCKS = "//div[contains(concat(' ', normalize-space(@class), ' '), ' admonitionblock ')]/table"


def untable_admonitions(root: Any) -> None:
    """Each Asciidoctor admonition's table (`div.admonitionblock > table`: one row of
    `td.icon`, its label as text or as the icon's title, and `td.content`) made a box of
    its label's paragraph and its content; docs_tuning.ADMONITIONS_MAX a page."""
    from common.xpath import compiled

    for table in islice(compiled(_BLOCKS)(root), docs_tuning.ADMONITIONS_MAX):
        icon = next(table.iterfind(".//td[@class='icon']"), None)
        content = next(table.iterfind(".//td[@class='content']"), None)
        if icon is None or content is None:
            continue
        label = " ".join("".join(icon.itertext()).split())
        if not label:
            label = next((el.get("title") for el in icon.iter() if el.get("title")), "")
        box = table.makeelement("div", {})
        if label:
            head = box.makeelement("p", {})
            head.text = settable(label)
            box.append(head)
        box.append(content)
        content.tag = "div"
        box.tail = settable(table.tail)
        table.getparent().replace(table, box)
