"""Images for --images and --json: what an ``<img>`` shows, as an agent can use it.

An image's address is the best one the page names: the largest candidate of its
``srcset`` (or of a ``<picture>``'s sources), else a lazy-loading attribute (the real
address a script would have put in ``src``), else ``src``; made absolute, http(s) only
(a ``data:`` placeholder is no address). Its caption is its ``<figure>``'s
``<figcaption>``. Decorative images are left out: an empty ``alt`` (HTML's own word for
"decorative"), ``role=presentation`` or ``aria-hidden``, tracking pixels and icons (a
given width or height under ``MIN_SIZE`` px).

The Markdown writer (wf/extract/markdown.py) calls ``image_of`` where an image stands and
writes ``marker``; ``collect`` gives the list of a subtree on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

MIN_SIZE = 32  # px: a given width or height under this is an icon, a spacer or a pixel
MAX_ALT = 300  # characters of alt or caption text kept
# Where lazy-loading scripts keep the real address, most specific first.
LAZY_SRCSET = ("data-srcset", "data-lazy-srcset")
LAZY_SRC = (
    "data-src",
    "data-lazy-src",
    "data-original",
    "data-lazy",
    "data-url",
    "data-hi-res-src",
    "data-full-src",
)
_SPACES = re.compile(r"\s+")
_NUMBER = re.compile(r"\s*(\d{1,6})(?:\.\d*)?\s*(?:px)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Image:
    src: str
    alt: str
    caption: str | None = None
    width: int | None = None
    height: int | None = None

    def as_json(self) -> dict[str, str | int | None]:
        return {
            "src": self.src,
            "alt": self.alt,
            "caption": self.caption,
            "width": self.width,
            "height": self.height,
        }


def srcset_candidates(value: str) -> list[tuple[str, float, str]]:
    """A srcset's candidates as (url, size, unit): unit "w" (width) or "x" (density; 1
    when none is given). Parsed as HTML does: a URL is a run without spaces (commas inside
    it belong to it), a comma after it or after its descriptors ends a candidate."""
    out: list[tuple[str, float, str]] = []
    pos, end = 0, len(value)
    while pos < end:
        while pos < end and (value[pos].isspace() or value[pos] == ","):
            pos += 1
        start = pos
        while pos < end and not value[pos].isspace():
            pos += 1
        url = value[start:pos]
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            start = pos
            while pos < end and value[pos] != ",":
                pos += 1
            descriptor = value[start:pos].strip().lower()
        if not url:
            continue
        size, unit = 1.0, "x"
        if descriptor:
            word = descriptor.split()[0]
            try:
                number = float(word[:-1])
            except ValueError:
                continue  # a candidate whose descriptor is not one: dropped, as browsers do
            if word[-1] in "wx" and number > 0 and number < float("inf"):
                size, unit = number, word[-1]
            elif word[-1] != "h":
                continue
        out.append((url, size, unit))
    return out


def largest(value: str) -> str | None:
    """The srcset candidate that shows the most pixels: the widest by ``w``, else the
    densest by ``x``."""
    candidates = srcset_candidates(value)
    if not candidates:
        return None
    widths = [c for c in candidates if c[2] == "w"]
    pool = widths or candidates
    return max(pool, key=lambda c: c[1])[0]


def _absolute(href: str | None, base: str | None) -> str | None:
    if not href:
        return None
    href = re.sub(r"[\t\n\r]", "", href).strip()
    if not href:
        return None
    try:
        url = urljoin(base, href) if base else href
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    return url if scheme in ("http", "https") else None


def _srcsets(el: Any) -> list[str]:
    """The srcsets that may serve this image: its own (lazy ones first), then those of
    the ``<source>`` elements of its ``<picture>``."""
    found = [el.get(name) for name in LAZY_SRCSET + ("srcset",)]
    # libxml2 does not know <source> as empty: the <img> after one ends up inside it.
    for depth, ancestor in enumerate(el.iterancestors()):
        if ancestor.tag == "picture":
            for source in ancestor.iter("source"):
                found.extend(source.get(name) for name in LAZY_SRCSET + ("srcset",))
            break
        if depth > 2 or ancestor.tag != "source":
            break
    return [s for s in found if s]


def source_of(el: Any, base: str | None) -> str | None:
    """The absolute address an ``<img>`` shows at its largest, or None."""
    for srcset in _srcsets(el):
        url = _absolute(largest(srcset), base)
        if url is not None:
            return url
    for name in LAZY_SRC + ("src",):
        url = _absolute(el.get(name), base)
        if url is not None:
            return url
    return None


def _size(value: str | None) -> int | None:
    if not value:
        return None
    match = _NUMBER.match(value)
    return int(match.group(1)) if match else None


def _short(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1].rstrip() + "\u2026"


def caption_of(el: Any) -> str | None:
    """The ``<figcaption>`` of the ``<figure>`` that holds ``el`` (the nearest, a few
    levels up at most), as one line."""
    for depth, ancestor in enumerate(el.iterancestors()):
        if depth > 4:
            return None
        if ancestor.tag == "figure":
            for caption in ancestor.iter("figcaption"):
                text = _short("".join(caption.itertext()))
                return text or None
            return None
    return None


def is_decorative(el: Any) -> bool:
    """Decorative by the page's own word (an empty alt, role=presentation or none,
    aria-hidden) or by its size (a given width or height under MIN_SIZE)."""
    alt = el.get("alt")
    if alt is not None and not alt.strip():
        return True
    if (el.get("role") or "").strip().lower() in ("presentation", "none"):
        return True
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    for name in ("width", "height"):
        size = _size(el.get(name))
        if size is not None and size < MIN_SIZE:
            return True
    return False


def image_of(el: Any, base: str | None) -> Image | None:
    """What an ``<img>`` shows, or None when it is decorative or has no usable address."""
    if el.tag != "img" or is_decorative(el):
        return None
    src = source_of(el, base)
    if src is None:
        return None
    return Image(
        src=src,
        alt=_short(el.get("alt") or ""),
        caption=caption_of(el),
        width=_size(el.get("width")),
        height=_size(el.get("height")),
    )


def marker(alt: str, number: int) -> str:
    """``![alt](n)``: the brackets of the alt text escaped, so that no alt can close the
    marker early or forge another."""
    text = alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return f"![{text}]({number})"


class Images:
    """The images of one text, numbered in order of first appearance, one per address."""

    def __init__(self) -> None:
        self.items: list[Image] = []
        self._numbers: dict[str, int] = {}

    def add(self, image: Image) -> int:
        number = self._numbers.get(image.src)
        if number is None:
            self.items.append(image)
            number = self._numbers[image.src] = len(self.items)
        return number


# The tags parse.clean keeps for --images (it drops them otherwise): an <img>, and the
# <picture> and <source> around one (libxml2 nests the <img> in the <source>).
KEEP = ("img", "picture", "source")


def scan(root: Any, base: str | None) -> dict[Any, Image]:
    """Every image of the page that is worth showing, by its element: read before
    cleaning, while <picture> sources and the page's attributes are all there."""
    found: dict[Any, Image] = {}
    for el in root.iter("img"):
        image = image_of(el, base)
        if image is not None:
            found[el] = image
    return found


_PICTURE_NAME = re.compile(r"image|img|photo|picture|figure|media|gallery", re.IGNORECASE)


def frames_image(el: Any, found: dict[Any, Image]) -> bool:
    """Whether a block the content choice would leave out as boilerplate frames an image
    worth showing (--images): a ``<figure>`` or ``<picture>``, its ``<figcaption>``, or a
    block named for pictures, that holds a found image and no link (a linked thumbnail
    is a teaser for another page)."""
    tag = el.tag
    if tag == "figcaption":
        el = el.getparent()
        if el is None or el.tag != "figure":
            return False
    elif tag not in ("figure", "picture"):
        names = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not _PICTURE_NAME.search(names):
            return False
    if next(el.iter("a"), None) is not None:
        return False
    return any(img in found for img in el.iter("img"))


class Markers:
    """The markers of one Markdown text: the images found before cleaning, numbered as
    they are written; with link markers on (``shared``) an image takes its number in the
    link list, so that one list serves both."""

    def __init__(self, found: dict[Any, Image], *, shared: bool) -> None:
        self.found = found
        self.shared = shared
        self.images = Images()

    def marker(self, el: Any, links: list[tuple[str, str]], numbers: dict[str, int]) -> str:
        """The marker of ``el`` ("" when it shows nothing), its number taken from the
        writer's ``links`` and ``numbers`` when shared."""
        image = self.found.get(el)
        if image is None:
            return ""
        number = self.images.add(image)
        if self.shared:
            number = numbers.get(image.src, 0)
            if not number:
                links.append((image.alt or "image", image.src))
                number = numbers[image.src] = len(links)
        return marker(image.alt, number)


def collect(root: Any, base: str | None) -> list[Image]:
    """The images of a subtree, in document order, one per address."""
    images = Images()
    for el in root.iter("img"):
        found = image_of(el, base)
        if found is not None:
            images.add(found)
    return images.items
