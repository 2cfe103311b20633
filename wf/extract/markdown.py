"""A cleaned lxml subtree -> light Markdown that reads as plain text.

One iterative walk (lxml's iterwalk), never Python recursion: pages nest thousands of
levels deep. Inline text is gathered into a run; every block boundary flushes the run
as one block (paragraph, `#` heading, `- ` item, `| a | b |` row, fenced pre).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common.late import late
from wf.extract import markdown_tuning, ranks
from wf.extract.anchors import permalink
from wf.extract.datatext import is_control, is_data
from wf.extract.names import BLOCK
from wf.extract.records import check_time
from wf.extract.sections import drop_empty, in_link
from wf.extract.spaces import APART_TAGS, BR, SPACES, apart, collapse, collapse_run
from wf.extract.tables import end_row, is_data_table, markdown_rows
from wf.extract.verdicts import CaseBlind

if TYPE_CHECKING:
    from wf.extract.images import Markers
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_LINK_SCHEMES = ("http", "https", "mailto")
_LINK_TEXT_MAX = 300  # characters: a run of anchors adds to a link's text up to this
_ASK_CHARS = 262_144  # characters written between two asks of the deadline at most
_CTA = CaseBlind(markdown_tuning.CALLS_TO_ACTION)


class MarkdownWriter:
    def __init__(
        self,
        *,
        base_url: str | None = None,
        markers: bool = False,
        want_links: bool = True,
        skip: Callable[[Any], bool] | None = None,
        main: bool = False,
        deadline: float | None = None,
        images: Markers | None = None,
    ) -> None:
        self.images = images  # --images: wf.extract.images writes their markers
        self.base_url = base_url
        self.markers = markers
        self.want_links = want_links or markers
        self.skip = skip
        self.main = main  # main-content mode: leave out what is no part of an article
        self.deadline = deadline
        self.late = late(deadline)
        self.written = 0  # characters written since the deadline was last asked
        # Blocks: (separator before, text, is a plain paragraph, links seen so far), and
        # each block's heading level (0 for no heading)
        self.out: list[tuple[str, str, bool, int]] = []
        self.levels: list[int] = []
        self.last_group: Any = None
        self.last_quote = 0
        self.parts: list[str] = []
        self.flushes = 0
        self.links: list[tuple[str, str]] = []  # (text, url), one per distinct url
        self.link_number: dict[str, int] = {}
        # Block context
        self.heading = 0
        self.inline_only = 0  # inside a heading or a table cell: blocks become spaces
        self.quote = 0
        self.lists: list[list[Any]] = []  # [ordered, next number, group]
        self.item_marker: str | None = None  # the marker the next flushed block takes
        self.item_indent = ""  # continuation indent inside a list item
        self.item_stack: list[tuple[str | None, str]] = []
        self.tables: list[list[Any]] = []  # [is_data, group, row cells, rows]
        self.linked: set[int] = set()  # indices in out of headings inside a link
        self.rules = 0  # characters of table separator rows: layout, not the page's text
        self.anchors: list[tuple[str | None, int, int]] = []  # (href, parts index, flushes)
        # The last link closed: (number, flushes, parts index where its run of adjacent
        # anchors to the same target starts, index of its marker part or -1, parts length
        # after it, whether the run made the link's entry in self.links, whether its
        # text ended in a space)
        self.last_link: tuple[int, int, int, int, int, bool, bool] | None = None

    # -- output ------------------------------------------------------------------------

    def emit(self, text: str, group: Any = None, fenced: bool = False) -> None:
        if self.item_marker is not None:
            lines, width = text.split("\n"), len(self.item_marker)
            marker, self.item_marker = ranks.marker(self.item_marker, lines[0]), None
            text = "\n".join(
                [self.item_indent[:-width] + marker + lines[0]]
                + [self.item_indent + line if line else line for line in lines[1:]]
            )
        elif self.item_indent:
            text = "\n".join(self.item_indent + line if line else line for line in text.split("\n"))
        if self.quote:
            prefix = "> " * min(self.quote, markdown_tuning.MAX_NESTING)
            text = "\n".join((prefix + line).rstrip() for line in text.split("\n"))
        if self.out:
            if group is not None and group == self.last_group:
                sep = "\n"
            elif self.quote and self.quote == self.last_quote:
                sep = "\n" + ">" * min(self.quote, markdown_tuning.MAX_NESTING) + "\n"
            else:
                sep = "\n\n"
        else:
            sep = ""
        plain = not (self.heading or self.lists or self.quote or self.tables or fenced)
        self.out.append((sep, text, plain, len(self.links)))
        self.levels.append(self.heading)
        self.last_group = group
        self.last_quote = self.quote

    def text(self) -> str:
        if len(self.out) == 1:
            return self.out[0][1]  # one block (a huge one, maybe): no copy
        return "".join([piece for sep, text, _, _ in self.out for piece in (sep, text)])

    def length(self) -> int:
        # Separator rows are left out so that they weigh nothing in the content choice.
        return sum(len(text) for _, text, _, _ in self.out) - self.rules

    def drop_empty_sections(self) -> None:
        """Drop the headings left with nothing under them once boilerplate was cut, but
        not a run of linked titles (wf/extract/sections.py). A page read whole that says
        nothing but headings (titles over pictures) keeps them: nothing was cut from
        under them, and without them the page would print nothing."""
        if self.skip is None and all(self.levels):
            return
        self.out, self.levels = drop_empty(self.out, self.levels, self.linked)

    def trim_calls_to_action(self) -> None:
        """Drop the short paragraphs at the end that ask the reader to subscribe, follow,
        sign up: the site talking, not the article."""
        out = self.out
        while out:
            _, text, plain, _ = out[-1]
            if not plain or len(text) > markdown_tuning.CTA_MAX or not _CTA.found(text):
                break
            out.pop()
            self.levels.pop()
            # Links first seen in the dropped paragraph are no longer in the text.
            del self.links[out[-1][3] if out else 0 :]
        if out and out[0][0]:
            out[0] = ("", *out[0][1:])

    def flush(self) -> None:
        parts = self.parts
        if not parts:
            return
        self.flushes += 1
        # Emptied in place (the walk holds its append): a flush lets a huge node go.
        text = collapse_run(parts, self.late)
        # Asked as the text is written too, not only every 1 024 elements: 20 paragraphs
        # of 500 KB each took 0.4 s to collapse between two asks.
        self.written += len(text)
        if self.written > _ASK_CHARS and self.deadline is not None:
            self.written = 0
            check_time(self.deadline)
        if not text:
            return
        bare = self.main and not self.lists and not self.tables
        if bare and (is_data(text) or (not self.heading and is_control(text))):
            return  # an address alone, a JSON document, a card's control
        if self.heading:
            text = text.replace("\n", " ")
            text = "#" * self.heading + " " + text
        self.emit(text, self.lists[0][2] if self.lists else None)

    def boundary(self) -> None:
        if self.inline_only:
            self.parts.append(" ")
        else:
            self.flush()

    # -- links -------------------------------------------------------------------------

    def resolve(self, href: str | None) -> str | None:
        if not href:
            return None
        href = href.strip()
        if not href or href[0] == "#":
            return None
        if "\n" in href or "\t" in href or "\r" in href:
            href = re.sub(r"[\t\n\r]", "", href)
        from urllib.parse import urljoin, urlsplit

        try:
            url = urljoin(self.base_url, href) if self.base_url else href
            scheme = urlsplit(url).scheme.lower()
        except ValueError:
            return None
        return url if scheme in _LINK_SCHEMES else None

    def close_anchor(self) -> None:
        href, start, flushes = self.anchors.pop()
        if flushes != self.flushes:
            start = 0
        parts = self.parts
        if start >= len(parts):
            return
        raw = "".join(parts[start:])
        text = collapse(raw)
        if not text:
            return
        url = self.resolve(href)
        if url is None:
            return
        number = self.link_number.get(url)
        new = number is None
        run_start = start
        last = self.last_link
        if (
            last is not None
            and number is not None
            and number == last[0]
            and last[1] == self.flushes
            and self._adjacent(last, start)
        ):
            # One link that the page split into several anchors (a word or a span each):
            # one marker after the whole run, whose text is the link's text.
            _, _, run_start, mark, end, new, spaced = last
            if mark >= 0:
                parts[mark] = parts[mark][: -len(f"[{number}]")]
            if mark >= start:  # an anchor inside this one: its text holds the other's
                raw = "".join(parts[start:])
                text = collapse(raw)
            else:
                run_start = min(run_start, start)
                so_far = self.links[number - 1][0]
                if len(so_far) >= _LINK_TEXT_MAX:
                    text = so_far
                elif new:
                    # Joined piece by piece: a run of many anchors costs linear time.
                    space = spaced or start > end or raw[0] in SPACES
                    text = so_far + (" " if space else "") + text
        if number is None:
            self.links.append((text.replace("\n", " "), url))
            number = self.link_number[url] = len(self.links)
        elif new:
            self.links[number - 1] = (text.replace("\n", " "), url)
        mark = -1
        if self.markers:
            stripped = raw.rstrip()
            del parts[start:]
            parts.append(f"{stripped}[{number}]")
            mark = len(parts) - 1
            if len(stripped) < len(raw):
                parts.append(" ")
        spaced = raw[-1] in SPACES
        self.last_link = (number, self.flushes, run_start, mark, len(parts), new, spaced)

    def _adjacent(self, last: tuple[int, int, int, int, int, bool, bool], start: int) -> bool:
        """Whether an anchor opened at parts index ``start`` follows the last link with
        nothing but spaces between them, or holds it (an anchor inside an anchor)."""
        end = last[4]
        if start >= end:
            return not "".join(self.parts[end:start]).strip(SPACES)
        return start <= last[2]

    # -- the walk ----------------------------------------------------------------------

    def write(self, root: Any) -> str:
        from lxml import etree

        skip = self.skip
        deadline = self.deadline
        want_links = self.want_links
        # self.parts is only ever emptied in place, never replaced: its append holds.
        append = self.parts.append
        block = BLOCK
        steps = 0  # elements begun: the deadline is asked every 1 024
        walker = etree.iterwalk(root, events=("start", "end"))
        skip_subtree = walker.skip_subtree
        skipped: Any = None
        opened: list[tuple[Any, str]] = []  # open blocks, innermost last: ends by identity
        for event, el in walker:
            if event == "start":
                # Every element, not only the blocks: a page of inline elements alone
                # (49 000 links or spans, each resolved or spaced) met no ask (0.5 s).
                steps += 1
                if deadline is not None and not steps & 1023:
                    check_time(deadline)
                tag = el.tag
                if tag in block:
                    if skip is not None and el is not root and skip(el):
                        self.boundary()
                        skip_subtree()
                        skipped = el
                        continue
                    if self.start_block(el, tag):
                        skip_subtree()  # written whole: a code block
                        skipped = el
                        continue
                    opened.append((el, tag))
                elif tag == "br":
                    append(" " if self.inline_only else BR)
                elif tag == "a" and permalink(el, bool(self.heading)):  # a title's ¶
                    skip_subtree()
                    skipped = el
                    continue
                elif tag == "a" and want_links:
                    self.anchors.append((el.get("href"), len(self.parts), self.flushes))
                elif tag == "img" and self.images is not None:
                    mark = self.images.marker(el, self.links, self.link_number)
                    if mark:
                        append(mark)
                text = el.text
                if text:
                    if tag in APART_TAGS and self.parts and apart(el, text, self.parts[-1]):
                        append(" ")
                    append(text)
                del text  # the run alone holds it: a flush may let a huge node go
                continue
            # end
            if el is skipped:
                skipped = None
            elif opened and el is opened[-1][0]:
                self.end_block(el, opened.pop()[1])
            elif want_links and self.anchors and el.tag == "a":
                self.close_anchor()
            tail = el.tail
            if tail and el is not root:
                append(tail)
            del tail
        self.flush()
        if self.main:
            self.trim_calls_to_action()
            self.drop_empty_sections()
        return self.text()

    def start_block(self, el: Any, tag: str) -> bool:
        """Opens a block; True when the block was written whole (its subtree is done)."""
        tables = self.tables
        in_data = bool(tables) and tables[-1][0]
        if in_data and tag in ("tr", "td", "th"):
            if tag == "tr":
                end_row(tables[-1])  # cells before the first <tr> make a row
            else:
                self.flush_cell_text()
                self.inline_only += 1
            return False
        if tag == "table":
            from wf.extract.codetext import table_code

            code = table_code(el)
            if code is not None:
                if self.inline_only:
                    self.parts.append(" ")
                elif self.parts:
                    self.flush()
                self.emit_code(code[0], code[1], el)
                return True
        if self.inline_only:
            self.parts.append(" ")
        elif self.parts:
            self.flush()
        if tag in _HEADINGS:
            if not self.heading:
                self.heading = _HEADINGS[tag]
            self.inline_only += 1
        elif tag == "ul" or tag == "ol" or tag == "menu" or tag == "dir":
            start = 1
            if tag == "ol":
                try:
                    start = int(el.get("start") or 1)
                except ValueError:
                    start = 1
            group = self.lists[0][2] if self.lists else object()
            self.lists.append([tag == "ol", start, group])
        elif tag == "li":
            # An item that opens with a nested list gives its marker to the nested item.
            self.item_stack.append((None, self.item_indent))
            if self.lists:
                current = self.lists[-1]
                marker = f"{current[1]}. " if current[0] else "- "
                current[1] += 1
                depth = len(self.lists) - 1
            else:
                marker, depth = "- ", 0
            self.item_marker = marker
            self.item_indent = "  " * min(depth, markdown_tuning.MAX_NESTING) + " " * len(marker)
        elif tag == "blockquote":
            self.quote += 1
        elif tag == "pre":
            from wf.extract.codetext import code_text

            self.emit_code(code_text(el), el)
            return True
        elif tag == "table":
            tables.append([is_data_table(el), object(), [], []])
        return False

    def end_block(self, el: Any, tag: str) -> None:
        tables = self.tables
        in_data = bool(tables) and tables[-1][0]
        if in_data and tag in ("tr", "td", "th"):
            if tag == "tr":
                end_row(tables[-1])
            else:
                text = collapse("".join(self.parts)).replace("\n", " ")
                self.new_parts()
                tables[-1][2].append(text.replace("|", "\\|"))
                self.inline_only -= 1
            return
        if tag in _HEADINGS:
            self.inline_only -= 1
            if not self.inline_only:
                n = len(self.out)
                self.flush()
                if len(self.out) > n and in_link(el):
                    self.linked.add(n)  # a card's title: its section may be empty
            if _HEADINGS[tag] == self.heading and not self.inline_only:
                self.heading = 0
            return
        if self.inline_only:
            self.parts.append(" ")
        elif self.parts:
            self.flush()
        if tag == "ul" or tag == "ol" or tag == "menu" or tag == "dir":
            if self.lists:
                self.lists.pop()
        elif tag == "li":
            if self.item_stack:
                self.item_marker, self.item_indent = self.item_stack.pop()
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        elif tag == "table" and tables:
            if tables[-1][0]:
                # Cells with no <tr> around them (libxml2 builds none) are a row too.
                end_row(tables[-1])
                self.emit_table(tables[-1][3], tables[-1][1])
            tables.pop()

    def emit_table(self, rows: list[list[str]], group: Any) -> None:
        """A data table's rows as a Markdown table (tables.markdown_rows); its separator
        row is counted in self.rules."""
        for n, line in enumerate(markdown_rows(rows)):
            self.emit(line, group)
            if n == 1:
                self.rules += len(self.out[-1][1])

    def flush_cell_text(self) -> None:
        # Text between cells (whitespace, stray words) belongs to no cell.
        self.new_parts()

    def new_parts(self) -> None:
        # A new run of inline text: the parts indices that open anchors and the last
        # link recorded are counted per run.
        self.parts.clear()
        self.flushes += 1

    def emit_code(self, raw: str, el: Any, table: Any = None) -> None:
        """A code block's text fenced, with the language `el` (its <pre>) is marked with,
        else the one the boxes around its `table` are (a gutter beside the code: Pygments'
        `div.highlight-python > table.highlighttable`, the <pre> deep in a cell)."""
        lines = [line.rstrip() for line in raw.replace("\r\n", "\n").split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            return
        lines = lines[next(i for i, line in enumerate(lines) if line) :]
        from wf.extract.codelang import label, language

        lang, shown = language(el), label(el) if el.tag == "pre" else None
        if lang is None and table is not None and table is not el:
            lang = language(table)
        if shown is not None:  # the label goes after the fence, not on a line of its own
            lang = lang or shown.lower()
            if self.out and self.out[-1][1].strip() == shown and not self.levels[-1]:
                del self.out[-1], self.levels[-1]
        self.emit(f"```{lang or ''}\n" + "\n".join(lines) + "\n```", fenced=True)
