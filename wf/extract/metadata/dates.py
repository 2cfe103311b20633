"""A date written as text to ISO 8601: the ISO forms, RFC 2822 (e-mail and HTTP), dates
with a month's name, and the date in a news site's address. Every reader here looks at
a bounded prefix of its value and never raises."""

from __future__ import annotations

import re

from wf.extract.metadata.tuning import MAX_DATE_TEXT, MONTH_NAMES

# ISO 8601 and the year-first forms beside it ("2018/06/18", "2018.06.18"), and the basic
# form with its "T" ("20180619T055000+0900"; eight digits alone could be any number).
_ISO_DATE = re.compile(
    r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?)?"
    r"|(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$"
)
# RFC 2822, as e-mail and HTTP write dates: "Sat, 27 Dec 2014 15:06:00 +0100".
_RFC2822 = re.compile(
    r"\s*(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?"
    r"\s*(?:[+-]\d{4}|[A-Za-z]{1,5})?\s*$"
)
MONTHS = {
    name: number for number, names in enumerate(MONTH_NAMES, start=1) for name in names.split()
}
_WORDY_DATE = re.compile(
    r"(?:^|[\s,])(?:([^\W\d_]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})"
    r"|(\d{1,2})\.?\s+([^\W\d_]{3,9})\.?,?\s+(\d{4}))(?!\d)"
)
# A date in a news site's address: /2014/12/27/, /2014-12-27/, /2023-11/17/.
_URL_DATE = re.compile(
    r"/((?:19|20)\d{2})[/-](0?[1-9]|1[0-2])[/-](0?[1-9]|[12]\d|3[01])(?:[/_.-]|$)"
)
_TIMEZONE = re.compile(r"([+-])(\d{2}):?(\d{2})$")
# Anywhere in a text: a year-first date ("2025-12-17", "2025.12.17", "2025/12/17"), or
# day and month before a four-digit year ("17.12.2025", "12/17/2025", "11-29-2024").
_YEAR_FIRST = re.compile(r"(?<![\d.])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d])")
_YEAR_LAST = re.compile(r"(?<![\d.])(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?![\d.])")
# A Unix time in seconds or milliseconds, as data-* attributes keep it.
_EPOCH = re.compile(r"\s*(\d{10})(\d{3})?\s*$")
FIRST_YEAR = 1990  # a page's date before the web is a misread number


def iso_date(value: str | None) -> str | None:
    """A date or date-time as ISO 8601 (the time and its zone kept when given), from ISO
    forms and RFC 2822 (e-mail style); None when it is no date."""
    if not value:
        return None
    value = value[:MAX_DATE_TEXT].strip()
    match = _ISO_DATE.match(value)
    if match:
        return _from_iso(match.groups())
    if not _RFC2822.match(value):
        # Not e-mail style: the e-mail parser would take "3:06 PM" for 03:06.
        return wordy_date(value)
    from email.utils import parsedate_to_datetime

    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return wordy_date(value)
    return parsed.isoformat() if parsed.tzinfo else parsed.replace(tzinfo=None).isoformat()


def _from_iso(groups: tuple[str | None, ...]) -> str | None:
    year, month, day, hour, minute, second, zone = groups[:7] if groups[0] else groups[7:]
    assert year is not None and month is not None and day is not None
    if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31 and 1000 <= int(year) <= 9999):
        return None
    date = f"{year}-{int(month):02d}-{int(day):02d}"
    if hour is None or minute is None:
        return date
    if int(hour) > 23 or int(minute) > 59 or int(second or 0) > 60:
        return date
    stamp = f"{date}T{int(hour):02d}:{minute}:{second or '00'}"
    if zone == "Z":
        return stamp + "Z"
    if zone:
        z = _TIMEZONE.search(zone)
        if z:
            return stamp + f"{z.group(1)}{z.group(2)}:{z.group(3)}"
    return stamp


def wordy_date(value: str) -> str | None:
    """The date of "Saturday, December 27, 2014, 12:06 PM" or "27. Dezember 2014" (the
    time, whose zone such a text rarely gives, left out); None when no month is named."""
    match = _WORDY_DATE.search(value[:MAX_DATE_TEXT])
    if match is None:
        return None
    name, day, year = match.group(1, 2, 3) if match.group(1) else match.group(5, 4, 6)
    month = MONTHS.get(name.lower())
    if month is None or not 1 <= int(day) <= 31:
        return None
    return f"{year}-{month:02d}-{int(day):02d}"


def text_date(value: str, *, dayfirst: bool = False) -> str | None:
    """The first date written anywhere in ``value`` (its first MAX_DATE_TEXT characters):
    ISO and year-first forms, a month's name, then day and month as numbers before the
    year. "03/04/2025" is read month first unless ``dayfirst`` (the page's language
    says so) or the separator is a dot; a number over 12 settles it either way."""
    value = value[:MAX_DATE_TEXT]
    found: list[tuple[int, str]] = []
    match = _YEAR_FIRST.search(value)
    if match:
        year, _, month, day = match.groups()
        date = _checked(int(year), int(month), int(day))
        if date:
            found.append((match.start(), date))
    wordy = _WORDY_DATE.search(value)
    if wordy:
        date = wordy_date(value[wordy.start() :])
        # A real day and no later than tomorrow, like the numeric forms: "Feb 30" or a
        # year 9999 in a date's tooltip is no date.
        date = date and _checked(*(int(part) for part in date.split("-")))
        if date:
            found.append((wordy.start(), date))
    match = _YEAR_LAST.search(value)
    if match:
        first, sep, second, year = match.groups()
        day_first = dayfirst or sep == "."
        day, month = (first, second) if day_first else (second, first)
        if int(month) > 12 >= int(day):
            day, month = month, day
        date = _checked(int(year), int(month), int(day))
        if date:
            found.append((match.start(), date))
    return min(found)[1] if found else None


def epoch_date(value: str) -> str | None:
    """The UTC date of a Unix time in seconds or milliseconds ("1703632452")."""
    match = _EPOCH.match(value[:40])
    if match is None:
        return None
    from datetime import UTC, datetime

    stamp = datetime.fromtimestamp(int(match.group(1)), UTC)
    return _checked(stamp.year, stamp.month, stamp.day)


def _checked(year: int, month: int, day: int) -> str | None:
    """YYYY-MM-DD when it is a real day from FIRST_YEAR to tomorrow (a page is not
    published in the future; tomorrow allows for time zones), else None."""
    from datetime import date, timedelta

    if not FIRST_YEAR <= year <= 9999:
        return None
    try:
        found = date(year, month, day)
    except ValueError:
        return None
    return found.isoformat() if found <= date.today() + timedelta(days=1) else None


def url_date(url: str | None) -> str | None:
    """The date a news site's address holds (/2014/12/27/), the last resort."""
    if not url:
        return None
    match = _URL_DATE.search(url[:2048])
    if match is None:
        return None
    year, month, day = match.groups()
    return f"{year}-{int(month):02d}-{int(day):02d}"
