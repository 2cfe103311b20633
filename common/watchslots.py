"""The watchdog's deadlines in memory the worker and its supervisor share
(common/watchdog.py): a page's deadline is set and cleared by a write, with no message on
the pipe and no signal to wake the supervisor; the supervisor reads the slots whenever it
wakes, and wakes at least every ``POLL`` seconds while any slot has been used.

``POLL`` is shorter than the watchdog's grace: a deadline set at most ``GRACE - POLL``
seconds in the past (every deadline is set as its work starts, ahead of it) is seen before
it is due, and enforced at the moment a deadline sent on the pipe would have been.

A slot: a sequence number (odd while the worker writes), the deadline (0.0: none), and
the bytes of what the work is on and, with --json, of its error document. The supervisor
takes a slot only from a read with the same even number before and after it (a seqlock);
a read that keeps meeting a write is left for the next wake-up.
"""

from __future__ import annotations

import mmap
import struct
import time
from dataclasses import dataclass

SLOTS = 16  # deadlines at once (a batch's pages, a search's engines); more go by the pipe
SLOT_SIZE = 16384
POLL = 0.2
WHAT_BYTES = 6144  # what the work is on, UTF-8 (the watchdog cuts it to 1500 characters)
_SEQ = struct.Struct("<Q")
_BODY = struct.Struct("<dII")  # deadline, length of what, length of the document
_WHAT_AT = _SEQ.size + _BODY.size
_DOCUMENT_AT = _WHAT_AT + WHAT_BYTES
DOCUMENT_BYTES = SLOT_SIZE - _DOCUMENT_AT
_TRIES = 100


@dataclass(frozen=True)
class Slot:
    """One consistent read of a slot."""

    index: int
    seq: int
    deadline: float  # 0.0: no deadline
    what: str
    document: str  # "" without --json


class Slots:
    """``SLOTS`` slots in one shared anonymous mapping, made before the fork."""

    def __init__(self) -> None:
        self.memory = mmap.mmap(-1, SLOTS * SLOT_SIZE)  # MAP_SHARED: the fork shares it
        self._seq = [0] * SLOTS  # the worker's: the last number it wrote to each slot
        self._free = list(range(SLOTS - 1, -1, -1))  # the worker's (pop, append: atomic)
        self._used: set[int] = set()  # the worker's: the slots it has told of
        self.watched: set[int] = set()  # the supervisor's: the slots the worker has used
        self._seen: dict[int, Slot] = {}  # the supervisor's: each watched slot as last read

    def take(self, deadline: float, what: str, document: str) -> tuple[int | None, bool]:
        """The worker's side: the deadline written in a free slot, and whether the slot is
        used for the first time (the supervisor is then told to watch it); None when none
        is free or the text does not fit."""
        encoded = what.encode("utf-8", "replace")
        data = document.encode("utf-8", "replace")
        if len(encoded) > WHAT_BYTES or len(data) > DOCUMENT_BYTES:
            return None, False
        try:
            index = self._free.pop()
        except IndexError:
            return None, False
        self.write(index, deadline, encoded, data)
        first = index not in self._used
        self._used.add(index)
        return index, first

    def give_back(self, index: int) -> None:
        """The worker's side: the deadline in slot ``index`` is over."""
        self.write(index, 0.0)
        self._free.append(index)

    def write(self, index: int, deadline: float, what: bytes = b"", document: bytes = b"") -> None:
        """Set (or, with 0.0, clear) slot ``index``: the worker's side, one thread per slot."""
        base = index * SLOT_SIZE
        seq = self._seq[index]
        _SEQ.pack_into(self.memory, base, seq + 1)
        self.memory[base + _WHAT_AT : base + _WHAT_AT + len(what)] = what
        at = base + _DOCUMENT_AT
        self.memory[at : at + len(document)] = document
        _BODY.pack_into(self.memory, base + _SEQ.size, deadline, len(what), len(document))
        _SEQ.pack_into(self.memory, base, seq + 2)
        self._seq[index] = seq + 2

    def read(self, index: int) -> Slot | None:
        """The supervisor's side: the slot as it stands, or None while the worker writes."""
        base = index * SLOT_SIZE
        for _ in range(_TRIES):
            (seq,) = _SEQ.unpack_from(self.memory, base)
            if seq & 1:
                continue
            deadline, what_len, document_len = _BODY.unpack_from(self.memory, base + _SEQ.size)
            what = bytes(self.memory[base + _WHAT_AT : base + _WHAT_AT + min(what_len, WHAT_BYTES)])
            at = base + _DOCUMENT_AT
            document = bytes(self.memory[at : at + min(document_len, DOCUMENT_BYTES)])
            if _SEQ.unpack_from(self.memory, base)[0] == seq:
                return Slot(
                    index,
                    seq,
                    deadline,
                    what.decode("utf-8", "replace"),
                    document.decode("utf-8", "replace"),
                )
        return None

    def watch(self, index: str) -> None:
        """The supervisor's side: the worker has begun to use slot ``index``."""
        if index.isdigit() and int(index) < SLOTS:
            self.watched.add(int(index))

    def armed(self) -> list[Slot]:
        """The watched slots that hold a deadline, read now (one the worker is writing at
        this moment: as last read)."""
        for index in self.watched:
            found = self.read(index)
            if found is not None:
                self._seen[index] = found
        return [slot for slot in self._seen.values() if slot.deadline]

    def unchanged(self, slot: Slot) -> bool:
        """Does the slot still hold the same write a moment later? Asked before a kill:
        a late deadline must not be one the page has just cleared."""
        time.sleep(0.005)
        again = self.read(slot.index)
        return again is not None and again.seq == slot.seq
