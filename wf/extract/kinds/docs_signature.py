"""Documentation pages: an API's signature drawn as a table, its words spread over cells to
align them (Doxygen's `table.memname`: the return type and name, "(", each parameter's
type and name, ")"), printed as one line. Read as a table of data it was a row of cells
under a separator row ("| int Gear::spin | ( | int | turns | ) |"); read as layout,
each cell a paragraph of its own. A parameter's type after its name in a definition
list (docutils' classifier: numpydoc's "sep : str, default ','") set apart as the
stylesheet draws it, where the two were glued ("sepstr"). And an API's summary table
drawn as a grid of boxes
(Javadoc's `div.summary-table.three-column-summary`), made the table it draws: its cells
were printed one a line, "Modifier and Type", "Method", "Description", "int", ...
Javadoc's lists of sections (`ul.details-list`, `ul.member-list`: an item a `<section>`
under its heading) read as the sections they lay out, not items: "- ## Method Details",
"  - ### push".
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning
from wf.extract.spaces import settable


def join_signatures(root: Any) -> None:
    """Each table that is a signature made a paragraph of one line: a small table
    (docs_tuning.SIGNATURE_CELLS cells at most, none longer than
    docs_tuning.SIGNATURE_CELL_MAX characters) whose second cell is "(" alone, after the
    name, and with a cell that is ")" alone, no table inside: a table of a syntax's
    characters ("(" opens a group, ")" closes it), each in the first cell of its row,
    is data. docs_tuning.SIGNATURES_MAX tables a page."""
    for table in islice(root.iter("table"), docs_tuning.SIGNATURES_MAX):
        words = _cells(table)
        if words is None or len(words) < 2 or words[1] != "(" or ")" not in words:
            continue
        line = " ".join(w for w in words if w)
        line = line.replace("( ", "(").replace(" )", ")").replace(" ,", ",")
        paragraph = table.makeelement("p", {})
        paragraph.text = settable(line)
        paragraph.tail = settable(table.tail)
        table.getparent().replace(table, paragraph)


def _cells(table: Any) -> list[str] | None:
    """A table's cells' texts, white space collapsed, in order; None when it is not a
    signature's size or holds a table."""
    words: list[str] = []
    for cell in table.iter("td", "th", "table"):
        if cell.tag == "table" and cell is not table:
            return None
        if cell.tag == "table":
            continue
        if len(words) >= docs_tuning.SIGNATURE_CELLS:
            return None
        text = " ".join("".join(cell.itertext()).split())
        if len(text) > docs_tuning.SIGNATURE_CELL_MAX:
            return None
        words.append(text)
    return words


_GRIDS = "//div[contains(@class, '-column-summary')]"
_COLUMNS = re.compile(docs_tuning.GRID_COLUMNS)
_WIDTHS = {"two": 2, "three": 3, "four": 4}


def grid_tables(root: Any) -> None:
    """Each grid of boxes that draws a table (a class word docs_tuning.GRID_COLUMNS names
    its columns: Javadoc's `three-column-summary`) made that table: its children, in
    order, the cells of rows of that many, the header's cells (class `table-header`)
    <th>s. A grid whose children do not fill its rows is left as it is;
    docs_tuning.SIGNATURES_MAX grids a page."""
    from common.xpath import compiled

    for grid in islice(compiled(_GRIDS)(root), docs_tuning.SIGNATURES_MAX):
        found = _COLUMNS.search(grid.get("class") or "")
        cells = [c for c in grid if isinstance(c.tag, str)]
        width = _WIDTHS[found.group(1)] if found else 0
        if not width or not cells or len(cells) % width:
            continue
        table = grid.makeelement("table", {})
        for start in range(0, len(cells), width):
            row = table.makeelement("tr", {})
            for cell in cells[start : start + width]:
                header = "table-header" in (cell.get("class") or "").split()
                box = row.makeelement("th" if header else "td", {})
                box.append(cell)  # moved, its tail with it
                row.append(box)
            table.append(row)
        grid.text = None
        grid.append(table)


def unlist_sections(root: Any) -> None:
    """Each list (`<ul>`) whose every item holds one `<section>` and nothing else, made
    boxes: Javadoc lays out its summaries and details so, a section an item, and each
    heading was printed as a list's item, nested as deep as the sections."""
    for ul in list(root.iter("ul")):
        items = [c for c in ul if isinstance(c.tag, str)]
        if not items or not all(_one_section(li) for li in items):
            continue
        ul.tag = "div"
        for li in items:
            li.tag = "div"


def _one_section(li: Any) -> bool:
    """Whether a list's item is a <li> that holds one <section> and no text beside it."""
    if li.tag != "li" or (li.text or "").strip():
        return False
    inside = [c for c in li if isinstance(c.tag, str)]
    if len(inside) != 1 or inside[0].tag != "section":
        return False
    return not (inside[0].tail or "").strip()


_CLASSIFIERS = "//dt/span[contains(concat(' ', normalize-space(@class), ' '), ' classifier ')]"


def set_classifiers_apart(root: Any) -> None:
    """Each classifier of a term (docutils' `<dt>sep<span class="classifier">str</span>`)
    after " : ", as Sphinx's stylesheet draws it (`content: ":"`)."""
    from common.xpath import compiled

    for span in compiled(_CLASSIFIERS)(root):
        before = span.getprevious()
        if before is not None:
            before.tail = settable(f"{before.tail or ''} : ")
        else:
            parent = span.getparent()
            parent.text = settable(f"{parent.text or ''} : ")
