"""A product page's text once chosen: its lines once, after what its declaration says and
the chosen text does not (the name, price and availability, and the description when the
page does not tell the product itself).
"""

from __future__ import annotations

import re

from wf.extract import hidden_tuning, tuning
from wf.extract.kinds import product_tuning as pt
from wf.extract.kinds.offers import NUMBER, amount
from wf.extract.kinds.product import ANCHOR_MIN, norm

_WORDS = re.compile(r"\w+")


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _WORDS.findall(text.lower())
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


def _shown(description: str, text: str) -> bool:
    """Whether `text` shows the declared description: most of its three-word runs."""
    want = _runs(description)
    if not want:
        return True
    return len(want & _runs(text)) >= tuning.PRODUCT_DESCRIPTION_SHOWN * len(want)


# An amount beside a currency's mark, as shops print it: "$1,772.00", "€17", "17,90 €",
# "EUR 15.49" (the code the declaration names), "1 299 kr".
_MARK = rf"{tuning.CURRENCY_SIGNS}|\bkr\b|zł|Kč|円|元"
_CODE = re.compile(r"[A-Z]{3}")
AMOUNTS_MAX = 2000  # amounts read from a page's text, at most


def price_shown(price: str, text: str) -> bool:
    """Whether `text` shows the declared price ("1772.00 USD") as an amount beside a
    currency's mark, however it is written there ("$1,772.00"); a range of the variants'
    prices ("19.99 – 29.99 USD") when it shows one of them (the variant picked)."""
    words = price.split()
    code = words[-1] if words else ""
    wants = []
    for word in words[:-1] if _CODE.fullmatch(code) else words:
        if word == "–":
            continue
        try:
            want: float | None = float(word)  # schema.org's price: a dot marks the decimals
        except ValueError:
            want = amount(word)
        if want is None:
            return False
        wants.append(want)
    if not wants:
        return False
    mark = f"{_MARK}|\\b{code}(?![A-Za-z])" if _CODE.fullmatch(code) else _MARK
    amounts = re.compile(rf"(?:{mark})\s?({NUMBER})|({NUMBER})\s?(?:{mark})")
    for i, m in enumerate(amounts.finditer(text)):
        if i >= AMOUNTS_MAX:
            break
        found = amount(m.group(1) or m.group(2))
        if found is not None and min(wants) - 0.005 < found < max(wants) + 0.005:
            return True
    return False


ONCE_WORDS = 4  # words a line holds at least for a repeat of it to go
_MARKERS = re.compile(r"^(?:[#>*+-]+\s+|\d+[.)]\s+)+")
# A line that is only a control's label: "Read more" and its kin (the words that open a
# text cut short), a box's "Loading..." (product_tuning.CONTROL_LINES), the buy button's
# "Add to cart" (product_tuning.BUY_CONTROLS).
_CONTROL = re.compile(rf"{hidden_tuning.READ_MORE}|{pt.CONTROL_LINES}|\W*(?:{pt.BUY_CONTROLS})\W*")
_BUY = re.compile(pt.BUY_CONTROLS)
# ...the price's mark may be its currency's code ("45.00 EUR", "EUR 45.00"), and a dash or
# a bar may stand between it and the label ("₹1,299 — Add to cart").
_PRICED = rf"{_MARK}|(?<![A-Za-z])[A-Z]{{3}}(?![A-Za-z])"
_BETWEEN = " -\u2013\u2014|\u00b7"
_PRICE_END = re.compile(
    rf"(?:(?:{_PRICED})\s?(?:{NUMBER})|(?:{NUMBER})\s?(?:{_PRICED}))[\s{re.escape(_BETWEEN)}]*$"
)
PRICE_END_READ = 40  # characters of a line's head looked at for the price it ends with


def _unbought(line: str) -> str:
    """`line` without the buy button's label that ends it after a price ("£45.00 Add to
    basket" is "£45.00"): the label is read word by word from the line's end
    (product_tuning.BUY_WORDS_MAX words at most), the price from its head's last
    PRICE_END_READ characters: a long line costs what a short one does."""
    words = line.split()
    for n in range(2, min(pt.BUY_WORDS_MAX, len(words) - 1) + 1):
        if _BUY.fullmatch(" ".join(words[-n:]).lower()):
            head = " ".join(words[:-n])
            if _PRICE_END.search(head[-PRICE_END_READ:]):
                return line[: len(line) - len(line.lstrip())] + head.rstrip(_BETWEEN)
    return _unbought_unspaced(line)


# A label written with no spaces (product_tuning.BUY_CONTROLS_UNSPACED) ends the line,
# read from its last characters only: "¥1,200カートに入れる" is one word.
_BUY_END = re.compile(rf"(?:{pt.BUY_CONTROLS_UNSPACED})$")
_BUY_END_READ = 16


def _unbought_unspaced(line: str) -> str:
    """`line` without the buy button's label of a language written without spaces that
    ends it after a price, with or without a space between them (_unbought's rule)."""
    end = line.rstrip()
    found = _BUY_END.search(end[-_BUY_END_READ:])
    if found is None:
        return line
    head = end[: len(end) - len(found.group())]
    if head.strip() and _PRICE_END.search(head[-PRICE_END_READ:]):
        return head.rstrip(_BETWEEN)
    return line


def once(text: str) -> str:
    """`text` without the lines that repeat an earlier one word for word: shops print a
    product's selling points twice (a carousel's copies of its slides, the page's mobile
    and desktop layouts side by side). Short lines (a size, a price) and table rows repeat
    as data, but for a run of them printed again right after itself (_runs_again); a
    table goes whole when most of its rows repeat an earlier table's (the specifications
    printed in a tab and again in an accordion, _tables_once). A line that is only a
    control's label ("Read more", "View all", "Loading...") goes wherever it stands. Code
    is left as it is."""
    seen: set[str] = set()
    lines: list[str] = []
    fenced = dropped = False
    given = _tables_once(_buttons_out(text.split("\n")))
    keys = [_key(line.strip()) for line in given]
    again = _runs_again(given, keys)
    for i, line in enumerate(given):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if dropped and not stripped and (not lines or not lines[-1].strip()):
            continue  # the repeat's blank lines, one of them stays
        dropped = False
        key = keys[i]
        if i in again or (not fenced and _control(stripped, key)):
            dropped = True
        elif fenced or stripped.startswith("|") or len(key.split()) < ONCE_WORDS:
            lines.append(line)
        elif key in seen:
            dropped = True
        else:
            seen.add(key)
            lines.append(line)
    return "\n".join(lines).strip("\n")


def headings_once(text: str) -> str:
    """`text` without the headings that repeat an earlier heading's words over nothing
    (the next line with text is a heading, or there is none): the leftover of a
    section's copy once its text went as a repeat (once keeps a title too short to judge:
    the mobile layout's copy of the selling points). A repeated heading over text of its own stays (a second
    variant's "Size"). Lines inside code are left as they are."""
    lines = text.split("\n")
    heading = [False] * len(lines)
    fenced = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        heading[i] = not fenced and stripped.startswith("#")
    over_nothing = [False] * len(lines)
    follows = True  # what follows the line looked at: a heading, or nothing
    for i in range(len(lines) - 1, -1, -1):
        over_nothing[i] = heading[i] and follows
        if lines[i].strip():
            follows = heading[i]
    seen: set[str] = set()
    kept: list[str] = []
    dropped = False
    for i, line in enumerate(lines):
        if dropped and not line.strip() and (not kept or not kept[-1].strip()):
            continue  # the heading's blank lines: one of them stays
        dropped = False
        if heading[i]:
            key = _key(line.strip())
            if key in seen and over_nothing[i]:
                dropped = True
                continue
            seen.add(key)
        kept.append(line)
    return "\n".join(kept).strip("\n")


def _buttons_out(lines: list[str]) -> list[str]:
    """`lines` without the buy button's label after a price (_unbought); code is left as
    it is, and a table's rows (a price list's rows are data)."""
    fenced = False
    kept = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        elif not fenced and not stripped.startswith("|"):
            line = _unbought(line)
        kept.append(line)
    return kept


def _key(stripped: str) -> str:
    """A line as it is compared with others: without its list or heading marks, its
    spaces collapsed, in lower case."""
    return _MARKERS.sub("", " ".join(stripped.split())).lower()


def _control(stripped: str, key: str) -> bool:
    """Whether a line is only a control's label (_CONTROL). A table's row is data (its
    header row gone, the table is none) and a heading titles what follows it (a washing
    machine's "Loading"): neither is a control, whatever its words."""
    if stripped.startswith("|") or not _CONTROL.fullmatch(key):
        return False
    marks = _MARKERS.match(" ".join(stripped.split()))
    return marks is None or "#" not in marks.group()


def _runs_again(lines: list[str], keys: list[str]) -> set[int]:
    """The indexes of the lines that print again, word for word (`keys`, _key()), the
    lines right before them: a run of product_tuning.RUN_LINES lines or more (blank
    lines, table rows and code left out) that repeats every line from an earlier copy of
    its start up to itself. A marquee or a carousel prints its slides again, one copy
    after the other, for its scroll to loop ("100% vegan", "Non-GMO", ...), short lines
    once() keeps one by one as data (a size, a price). The
    same short lines with other lines between the copies are data too: two products
    compared, each card ending in the same features ("Supports", "Apple Pencil"). Each
    window of lines is hashed once, and a run grows by one line's comparison a step."""
    kept: list[int] = []
    fenced = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            continue
        if not fenced and stripped and not stripped.startswith("|"):
            kept.append(i)
    size = pt.RUN_LINES
    words = [keys[i] for i in kept]
    last: dict[tuple[str, ...], int] = {}  # each window's latest start
    again: set[int] = set()
    start = back = 0  # the run: its first window, and how far back it repeats (0: none)

    def close(end: int) -> None:
        """The run of windows start..end-1 is a copy when it is as long as its distance
        back: the lines between it and its original repeat too."""
        if back and end - 1 - start + size >= back:
            again.update(kept[start : end - 1 + size])

    windows = len(words) - size + 1
    for s in range(windows):
        window = tuple(words[s : s + size])
        if not back or words[s + size - 1] != words[s + size - 1 - back]:
            close(s)
            earlier = last.get(window)
            start, back = s, 0 if earlier is None else s - earlier
        last[window] = s
    close(windows)
    return again


_RULE = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+$")


def _tables_once(lines: list[str]) -> list[str]:
    """`lines` without the tables whose data rows repeat an earlier table's, half of them
    or more (product_tuning.TABLE_REPEATED): the same specifications printed twice, each
    copy worded a little otherwise ("Driver type" and "Transducer type"). Each row is
    read once."""
    seen: set[str] = set()
    kept: list[str] = []
    table: list[str] = []
    fenced = False

    def close() -> None:
        rows = [" ".join(r.lower().split()) for r in table if not _RULE.match(r.strip())]
        repeated = sum(r in seen for r in rows)
        if not rows or repeated < pt.TABLE_REPEATED * len(rows):
            kept.extend(table)
        seen.update(rows)
        table.clear()

    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and stripped.startswith("|"):
            table.append(line)
            continue
        if table:
            close()
        kept.append(line)
    if table:
        close()
    return kept


PROSE_WORDS = 15  # words a line holds at least to count as prose


def _prose(text: str) -> int:
    """Characters of `text` in lines of prose (PROSE_WORDS words or more)."""
    return sum(len(line) for line in text.split("\n") if line.count(" ") >= PROSE_WORDS - 1)


TITLE_SHARE = 0.5  # of a shown title's words in the declared name, at least, to name it


def titled(name: str, text: str) -> bool:
    """Whether `text` shows the product's own title: a first-level heading ("# ...")
    whose words are the declared name's, TITLE_SHARE of them at least. Shops declare
    a longer name for search engines ("iFixit Moray Driver Kit: Game Console and Small
    Electronics Bit Set") than the one their page shows ("Moray Driver Kit - 32
    Precision Bits"): the page's is the reader's, and the product is not named twice."""
    words = set(_WORDS.findall(name.lower()))
    fenced = False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif line.startswith("# ") and not fenced:  # code's "# " is a shell's comment
            shown = _WORDS.findall(line.lower())
            if shown and sum(w in words for w in shown) >= TITLE_SHARE * len(shown):
                return True
    return False


def header(declared: dict[str, str], text: str) -> str:
    """The declared name, price and availability not in `text` already, one line each,
    then the declared description when `text` does not show it (a script builds it on
    the page, or it is in a tab the chosen region left out) and tells the product in
    under tuning.PRODUCT_TOLD characters of prose: a page that tells it at length does
    so better than its declaration, most often a search engine's summary."""
    lines = []
    low = norm(text)
    name = declared.get("name")
    if name and norm(name) not in low and not titled(name, text):
        lines.append(f"# {name}")
    price = declared.get("price")
    if price and norm(price) not in low and not price_shown(price, text):
        lines.append(f"Price: {price}")
    availability = declared.get("availability")
    if availability and norm(availability) not in low:
        lines.append(f"Availability: {availability}")
    if len(lines) and len(lines[-1]) > tuning.PRODUCT_FIELD_MAX:
        lines.pop()
    description = declared.get("description") or declared.get("summary")
    if (
        description
        and len(description) >= ANCHOR_MIN
        and _prose(text) < tuning.PRODUCT_TOLD
        and not _shown(description, text)
    ):
        lines.append(description)
    return "\n\n".join(lines)


_OTHERS = re.compile(pt.OTHERS_TITLE, re.IGNORECASE)


def before_others(text: str) -> str:
    """A product's text up to the title of the shop's other products ("Frequently bought
    together", "Recently viewed") in its second part (product_tuning.OTHERS_AT): what
    follows it is the shop's (its carousels, the questions it answers for every product,
    more carousels), not this product's. A title in the first part stands between the
    product's name and its description: there the cleaning's rules judge each box."""
    lines = text.split("\n")
    for i in range(int(len(lines) * pt.OTHERS_AT) + 1, len(lines)):
        line = lines[i]
        if len(line) <= pt.OTHERS_TITLE_MAX and _OTHERS.fullmatch(_MARKERS.sub("", line.strip())):
            return "\n".join(lines[:i]).rstrip()
    return text


def finish(declared: dict[str, str], text: str) -> str:
    """A product page's text: up to the shop's other products (before_others), its lines
    once and its headings over nothing once (headings_once), after the declaration's own
    (header)."""
    text = headings_once(once(before_others(text)))
    head = header(declared, text) if declared else ""
    return f"{head}\n\n{text}" if head and text else head or text
