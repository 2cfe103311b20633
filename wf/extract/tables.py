"""Tables: a table of data told from one that lays out the page, and a data table's rows
as a Markdown table (header, separator row, rows) for the writer (markdown.py)."""

from __future__ import annotations

from typing import Any

_CELL_MAX = 300  # characters: a cell longer than this is page layout, not data
# ...unless one cell in this many at most is, by no more than _CELL_LONG_MAX: a long
# description in a comparison table of a thousand cells.
_CELLS_PER_LONG = 20
_CELL_LONG_MAX = 900


def is_data_table(table: Any) -> bool:
    """A table of data (rendered as rows) rather than one used for page layout."""
    if table.find(".//table") is not None:
        return False
    cells = long = 0
    for cell in table.iter("td", "th"):
        cells += 1
        size = len("".join(cell.itertext()).strip())
        if size > _CELL_MAX:
            if size > _CELL_LONG_MAX:
                return False
            long += 1
    return cells > 1 and long * _CELLS_PER_LONG <= cells


def end_row(table: list[Any]) -> None:
    """The cells read since the last row's end make a row, unless all are empty."""
    cells = table[2]
    if any(cells):
        table[3].append(cells)
    table[2] = []


def markdown_rows(rows: list[list[str]]) -> list[str]:
    """A data table's rows as the lines of a Markdown table: the first row is its header
    (Markdown has no table without one), then the separator row that makes renderers show
    a table (the second line), then the other rows. The header is padded to the widest
    row: renderers drop the cells of a row that reach past the header."""
    if not rows:
        return []
    width = max(len(cells) for cells in rows)
    head = rows[0] + [""] * (width - len(rows[0]))
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * width]
    return lines + ["| " + " | ".join(cells) + " |" for cells in rows[1:]]
