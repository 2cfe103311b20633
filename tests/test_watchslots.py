"""common/watchslots.py: the deadlines the worker writes in memory it shares with its
supervisor, and what the supervisor reads of them (a write in progress never read as a
deadline; a cleared slot not read as a late one). The processes around it are in
tests/hostile/test_after_the_bytes.py."""

from __future__ import annotations

import os

import pytest

from common import watchslots
from common.watchslots import SLOTS, Slots


def test_a_deadline_written_is_read_back_and_cleared():
    slots = Slots()
    index, first = slots.take(12.5, "https://example.com/ä", '{"error":1}')
    assert index is not None and first
    slots.watch(str(index))
    (slot,) = slots.armed()
    assert (slot.deadline, slot.what, slot.document) == (
        12.5,
        "https://example.com/ä",
        '{"error":1}',
    )
    slots.give_back(index)
    assert slots.armed() == []
    again, first = slots.take(13.0, "the next page", "")
    assert again == index and not first  # the supervisor watches it already: no word


def test_the_supervisor_sees_what_the_forked_worker_writes():
    slots = Slots()
    slots.watch("0")
    pid = os.fork()
    if pid == 0:
        try:
            slots.take(99.0, "in the child", "")
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert [(s.deadline, s.what) for s in slots.armed()] == [(99.0, "in the child")]


def test_a_slot_being_written_is_not_read():
    slots = Slots()
    index, _ = slots.take(5.0, "a page", "")
    assert index is not None
    slots.watch(str(index))
    assert slots.armed()[0].deadline == 5.0
    slots.memory[index * watchslots.SLOT_SIZE] = 7  # an odd number: a write under way
    assert slots.read(index) is None
    assert slots.armed()[0].deadline == 5.0  # as last read
    (slot,) = slots.armed()
    assert not slots.unchanged(slot)  # a kill waits for a slot it can read


def test_a_slot_moved_on_is_not_the_late_one():
    slots = Slots()
    index, _ = slots.take(1.0, "page 1", "")
    assert index is not None
    slots.watch(str(index))
    (late,) = slots.armed()
    assert slots.unchanged(late)
    slots.give_back(index)
    slots.take(2.0, "page 2", "")
    assert not slots.unchanged(late)


def test_every_slot_taken_or_a_text_too_long_goes_by_the_pipe():
    slots = Slots()
    taken = [slots.take(1.0, f"page {n}", "")[0] for n in range(SLOTS)]
    assert sorted(taken) == list(range(SLOTS))  # type: ignore[type-var]
    assert slots.take(1.0, "one more", "") == (None, False)
    slots.give_back(3)
    assert slots.take(1.0, "x" * (watchslots.WHAT_BYTES + 1), "") == (None, False)
    assert slots.take(1.0, "", "x" * (watchslots.DOCUMENT_BYTES + 1)) == (None, False)
    assert slots.take(1.0, "fits", "")[0] == 3


def test_a_bad_slot_number_on_the_pipe_is_ignored():
    slots = Slots()
    for word in ("-1", str(SLOTS), "x", ""):
        slots.watch(word)
    assert slots.watched == set()


def test_text_that_is_not_utf_8_is_replaced_not_raised():
    slots = Slots()
    index, _ = slots.take(1.0, "file \udc80name", '{"what":"\udc80"}')  # surrogate-escaped
    assert index is not None
    slot = slots.read(index)
    assert slot is not None and (slot.what, slot.document) == ("file ?name", '{"what":"?"}')


def test_a_text_exactly_the_size_of_its_place_fits():
    slots = Slots()
    what = "é" * (watchslots.WHAT_BYTES // 2)  # counted in bytes, not characters
    document = "d" * watchslots.DOCUMENT_BYTES
    index, _ = slots.take(4.0, what, document)
    assert index is not None
    slot = slots.read(index)
    assert slot is not None and (slot.what, slot.document) == (what, document)
    assert slots.take(4.0, what + "x", "") == (None, False)  # one byte over


def test_a_slot_given_back_keeps_nothing_of_the_page():
    slots = Slots()
    index, _ = slots.take(3.0, "a page", '{"a":1}')
    assert index is not None
    slots.give_back(index)
    slot = slots.read(index)
    assert slot is not None and (slot.deadline, slot.what, slot.document) == (0.0, "", "")


class _Watching:
    """The slots' memory, read back by the supervisor's side at each byte write: what a
    reader on another core could meet in the middle of a write."""

    def __init__(self, slots: Slots, index: int) -> None:
        self.memory = slots.memory
        self.slots = slots
        self.index = index
        self.seen: list[object] = []

    def __getitem__(self, key: slice) -> bytes:
        return self.memory[key]

    def __setitem__(self, key: slice, value: bytes) -> None:
        self.seen.append(self.slots.read(self.index))
        self.memory[key] = value


def test_a_slot_read_in_the_middle_of_a_write_is_not_read():
    slots = Slots()
    index, _ = slots.take(1.0, "page 1", '{"d":1}')
    assert index is not None
    watching = _Watching(slots, index)
    slots.memory = watching  # type: ignore[assignment]
    slots.write(index, 2.0, b"page 2", b'{"d":2}')
    assert watching.seen == [None, None]  # the old write gone, the new one not yet whole
    slots.memory = watching.memory
    slot = slots.read(index)
    assert slot is not None and (slot.deadline, slot.what) == (2.0, "page 2")


class _BusyFor:
    """The slot words as a reader sees them while the writer holds the sequence number
    odd for its first ``reads`` looks."""

    def __init__(self, words: memoryview, word: int, reads: int) -> None:
        self.words = words
        self.word = word
        self.reads = reads

    def __getitem__(self, at: int) -> int:
        if at == self.word and self.reads > 0:
            self.reads -= 1
            return self.words[at] | 1
        return self.words[at]


@pytest.mark.parametrize("busy", [1, watchslots._TRIES - 1])
def test_a_read_that_meets_a_write_tries_again(busy):
    slots = Slots()
    index, _ = slots.take(6.0, "a page", "")
    assert index is not None
    slots._words = _BusyFor(slots._words, index * watchslots._WORDS, busy)  # type: ignore[assignment]
    slot = slots.read(index)
    assert slot is not None and (slot.deadline, slot.what) == (6.0, "a page")


def test_a_read_that_keeps_meeting_writes_gives_up():
    slots = Slots()
    index, _ = slots.take(6.0, "a page", "")
    assert index is not None
    busy = _BusyFor(slots._words, index * watchslots._WORDS, watchslots._TRIES)
    slots._words = busy  # type: ignore[assignment]
    assert slots.read(index) is None and busy.reads == 0


def test_bytes_that_are_not_utf_8_in_a_slot_are_read_replaced():
    """The supervisor reads memory another process writes: whatever bytes are there, the
    read gives text (a supervisor that raised would end the run with exit 1)."""
    slots = Slots()
    slots.write(0, 8.0, b"caf\xe9", b'{"x":"\xff"}')
    slot = slots.read(0)
    assert slot is not None and (slot.what, slot.document) == ("caf\ufffd", '{"x":"\ufffd"}')


def test_the_second_look_before_a_kill_comes_a_moment_later(monkeypatch):
    """The wait before a kill counts against the contract (ended at most 1 s past the
    deadline): a few milliseconds, not a good part of that second."""
    slots = Slots()
    index, _ = slots.take(1.0, "a page", "")
    assert index is not None
    slots.watch(str(index))
    (slot,) = slots.armed()
    waited: list[float] = []
    monkeypatch.setattr(watchslots.time, "sleep", waited.append)
    assert slots.unchanged(slot)
    assert len(waited) == 1 and 0 < waited[0] <= 0.05
