"""common/watchslots.py: the deadlines the worker writes in memory it shares with its
supervisor, and what the supervisor reads of them (a write in progress never read as a
deadline; a cleared slot not read as a late one). The processes around it are in
tests/hostile/test_after_the_bytes.py."""

from __future__ import annotations

import os

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
    watchslots._SEQ.pack_into(slots.memory, index * watchslots.SLOT_SIZE, 7)  # odd: writing
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
