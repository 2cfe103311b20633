"""A tiny PDF writer for the tests: text pages in Helvetica, the information dictionary,
an XMP packet, an outline, the standard security handler (RC4, revision 2 or 3), and the
raw pieces (objects, xref, trailer) that hostile files are made of.

Text is written with a WinAnsi-like encoding whose Differences give codes 1-7 the
ligature glyphs (fi, fl, ff, ffi, ffl): PDFium reads those glyph names as U+FB01 and
friends, as it does in real files set with ligatures.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

LIGATURE_CODES = {"\ufb01": 1, "\ufb02": 2, "\ufb00": 3, "\ufb03": 4, "\ufb04": 5}
_DIFFERENCES = b"[1 /fi /fl /ff /ffi /ffl]"
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def pdf_string(text: str) -> bytes:
    """A literal string in the font's encoding (Latin-1 plus the ligature codes)."""
    out = bytearray()
    for ch in text:
        code = LIGATURE_CODES.get(ch)
        out += bytes([code]) if code is not None else ch.encode("latin-1")
    escaped = bytes(out).replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + escaped + b")"


def text_stream(
    lines: Sequence[str], *, size: int = 11, top: int = 760, leading: int = 14
) -> bytes:
    """Content that draws each line below the last, from the top of a Letter page."""
    parts = [b"BT /F1 %d Tf %d TL 72 %d Td" % (size, leading, top)]
    for line in lines:
        parts.append(pdf_string(line) + b" Tj T*")
    parts.append(b"ET")
    return b"\n".join(parts)


def info_string(text: str) -> bytes:
    """A text string for the information dictionary: UTF-16BE with its BOM."""
    data = b"\xfe\xff" + text.encode("utf-16-be")
    return b"<" + data.hex().encode() + b">"


class Writer:
    """Objects numbered from 1, written in order, with a correct xref table."""

    def __init__(self) -> None:
        self.objects: list[bytes | None] = []

    def reserve(self) -> int:
        self.objects.append(None)
        return len(self.objects)

    def set(self, number: int, body: bytes) -> int:
        self.objects[number - 1] = body
        return number

    def add(self, body: bytes) -> int:
        return self.set(self.reserve(), body)

    def stream(self, data: bytes, extra: bytes = b"") -> int:
        return self.add(
            b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"
        )

    def build(self, root: int, *, info: int | None = None, trailer_extra: bytes = b"") -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(self.objects, 1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % number + (body or b"null") + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1)
        for offset in offsets:
            out += b"%010d 00000 n \n" % offset
        trailer = b"/Size %d /Root %d 0 R" % (len(self.objects) + 1, root)
        if info is not None:
            trailer += b" /Info %d 0 R" % info
        out += b"trailer\n<< " + trailer + trailer_extra + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
        return bytes(out)


def make_pdf(
    pages: Sequence[Sequence[str] | bytes],
    *,
    info: dict[str, str] | None = None,
    outline: Sequence[tuple[str, int]] = (),
    xmp: str | None = None,
    user_password: str | None = None,
    owner_password: str = "owner",
    media_box: tuple[float, float, float, float] = (0, 0, 612, 792),
) -> bytes:
    """A document: each page a list of text lines (or raw content bytes); ``info`` keys
    are the dictionary's (Title, Author, CreationDate, ...); ``outline`` is (title,
    0-based page) bookmarks; ``user_password`` (may be "") encrypts with RC4 128-bit."""
    w = Writer()
    catalog = w.reserve()
    tree = w.reserve()
    font = w.add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding "
        b"<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences "
        + _DIFFERENCES
        + b" >> >>"
    )
    ids = b"0123456789abcdef"
    crypt = _Crypt(user_password, owner_password, ids) if user_password is not None else None
    kids = []
    for page in pages:
        content = page if isinstance(page, bytes) else text_stream(page)
        number = w.reserve()
        stream = w.reserve()
        if crypt is not None:
            content = crypt.encrypt(stream, content)
        w.set(stream, b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        w.set(
            number,
            b"<< /Type /Page /Parent %d 0 R /MediaBox [%s] /Resources << /Font << /F1 %d 0 R >> >> "
            b"/Contents %d 0 R >>"
            % (tree, " ".join(f"{v:g}" for v in media_box).encode(), font, stream),
        )
        kids.append(number)
    w.set(
        tree,
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)),
    )
    extra = b""
    if outline:
        extra += b" /Outlines %d 0 R /PageMode /UseOutlines" % _outline(w, outline, kids, crypt)
    if xmp is not None:
        packet = xmp.encode("utf-8")
        extra += b" /Metadata %d 0 R" % w.stream(packet, b"/Type /Metadata /Subtype /XML ")
    w.set(catalog, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (tree, extra))
    info_ref = None
    if info:
        entries = b" ".join(
            b"/" + key.encode() + b" " + _text(w, value, crypt) for key, value in info.items()
        )
        info_ref = w.add(b"<< " + entries + b" >>")
    trailer_extra = b" /ID [<%s> <%s>]" % (ids.hex().encode(), ids.hex().encode())
    if crypt is not None:
        trailer_extra += b" /Encrypt %d 0 R" % w.add(crypt.dictionary())
    return w.build(catalog, info=info_ref, trailer_extra=trailer_extra)


def _text(w: Writer, value: str, crypt: _Crypt | None) -> bytes:
    if crypt is None:
        return info_string(value)
    # Strings of an encrypted file are encrypted with their object's key: the info
    # dictionary is the next object written.
    data = crypt.encrypt(len(w.objects) + 1, b"\xfe\xff" + value.encode("utf-16-be"))
    return b"<" + data.hex().encode() + b">"


def _outline(
    w: Writer, outline: Sequence[tuple[str, int]], kids: list[int], crypt: _Crypt | None
) -> int:
    root = w.reserve()
    items = [w.reserve() for _ in outline]
    for i, (title, page) in enumerate(outline):
        links = b""
        if i > 0:
            links += b" /Prev %d 0 R" % items[i - 1]
        if i + 1 < len(items):
            links += b" /Next %d 0 R" % items[i + 1]
        if crypt is None:
            title_bytes = info_string(title)
        else:
            data = crypt.encrypt(items[i], b"\xfe\xff" + title.encode("utf-16-be"))
            title_bytes = b"<" + data.hex().encode() + b">"
        w.set(
            items[i],
            b"<< /Title %s /Parent %d 0 R /Dest [%d 0 R /Fit]%s >>"
            % (title_bytes, root, kids[page], links),
        )
    w.set(
        root,
        b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>"
        % (items[0], items[-1], len(items)),
    )
    return root


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


class _Crypt:
    """The standard security handler, revision 3, RC4 with a 128-bit key (PDF 1.4)."""

    def __init__(self, user: str, owner: str, file_id: bytes) -> None:
        self.length = 16
        self.permissions = -4
        upad = (user.encode("latin-1") + _PAD)[:32]
        opad = (owner.encode("latin-1") + _PAD)[:32]
        okey = hashlib.md5(opad).digest()
        for _ in range(50):
            okey = hashlib.md5(okey).digest()
        o = _rc4(okey, upad)
        for i in range(1, 20):
            o = _rc4(bytes(b ^ i for b in okey), o)
        self.o = o
        key = hashlib.md5(upad + o + struct.pack("<i", self.permissions) + file_id).digest()
        for _ in range(50):
            key = hashlib.md5(key[: self.length]).digest()
        self.key = key[: self.length]
        u = _rc4(self.key, hashlib.md5(_PAD + file_id).digest())
        for i in range(1, 20):
            u = _rc4(bytes(b ^ i for b in self.key), u)
        self.u = u + b"\x00" * 16

    def encrypt(self, number: int, data: bytes) -> bytes:
        key = hashlib.md5(self.key + struct.pack("<i", number)[:3] + b"\x00\x00").digest()
        return _rc4(key[: min(self.length + 5, 16)], data)

    def dictionary(self) -> bytes:
        return b"<< /Filter /Standard /V 2 /R 3 /Length 128 /P %d /O <%s> /U <%s> >>" % (
            self.permissions,
            self.o.hex().encode(),
            self.u.hex().encode(),
        )


def xmp_packet(title: str, creator: str, created: str, producer: str = "pdfmake") -> str:
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
        f'xmp:CreateDate="{created}" pdf:Producer="{producer}">'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>'
        f"<dc:creator><rdf:Seq><rdf:li>{creator}</rdf:li></rdf:Seq></dc:creator>"
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
        '<?xpacket end="w"?>'
    )


def page_tree_loop() -> bytes:
    """A page tree whose Kids point back at their parent: recursion without end."""
    w = Writer()
    catalog = w.reserve()
    tree = w.reserve()
    inner = w.reserve()
    w.set(tree, b"<< /Type /Pages /Kids [%d 0 R] /Count 3 >>" % inner)
    w.set(
        inner,
        b"<< /Type /Pages /Parent %d 0 R /Kids [%d 0 R %d 0 R] /Count 3 >>" % (tree, tree, inner),
    )
    w.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    return w.build(catalog)


def page_bomb(fanout: int = 60, depth: int = 3) -> bytes:
    """A small file that claims fanout**depth pages: every level's Kids repeat one node."""
    w = Writer()
    catalog = w.reserve()
    font = w.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    content = w.stream(text_stream(["bomb"]))
    node = w.add(
        b"<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> "
        b"/Contents %d 0 R >>" % (font, content)
    )
    count = 1
    for _ in range(depth):
        count *= fanout
        kids = b" ".join([b"%d 0 R" % node] * fanout)
        node = w.add(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count))
    w.set(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % node)
    return w.build(catalog)
