"""common.xpath in a long-running process: what a thread keeps compiled stays bounded,
whatever the expressions (a library given a new --select on each call), and an XPath
that uses EXSLT holds no memory per evaluation."""

from __future__ import annotations

import gc
import threading
import tracemalloc
from typing import Any

from lxml import etree

import wf
from common import xpath


def _in_a_new_thread(work: Any) -> Any:
    """``work()``'s answer, run in a thread of its own (so with a cache of its own)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]


def test_a_thread_keeps_at_most_cache_max_expressions_and_the_newest_of_them():
    def work() -> tuple[int, bool, bool]:
        for n in range(xpath.CACHE_MAX + 40):
            xpath.compiled(f"//*[@id='n{n}']")
        cache = xpath._local.cache
        newest = f"//*[@id='n{xpath.CACHE_MAX + 39}']"
        return len(cache), newest in cache, "//*[@id='n0']" in cache

    size, has_newest, has_oldest = _in_a_new_thread(work)
    assert size == xpath.CACHE_MAX
    assert has_newest and not has_oldest


def test_a_new_selector_on_each_library_call_does_not_grow_the_cache(monkeypatch):
    # 20 000 calls of wf.extract(select=...) grew a process by 133 MB: every selector's
    # XPath was kept.
    monkeypatch.setattr(xpath, "CACHE_MAX", 8)
    html = "<html><body><article><p class='a'>Some words to read here.</p></article></body></html>"

    def work() -> int:
        for n in range(30):
            wf.extract(html, "https://example.com/", select=f"article, .c{n}")
        return len(xpath._local.cache)

    assert _in_a_new_thread(work) <= 8


def test_held_words_keeps_no_memory_per_call():
    # lxml kept about 100 bytes per evaluation of a kept XPath that registers EXSLT's
    # namespace: 3000 calls held 3000 more blocks. Counted by tracemalloc where they are
    # made (in common/xpath.py), so that other threads' allocations do not count.
    root = etree.fromstring(
        "<html><body><p class='hidden a'>x</p><div class='b'>y</div></body></html>",
        etree.HTMLParser(),
    )
    assert xpath.held_words(root, "class", ("hidden", "b", "gone")) == ("hidden", "b")
    calls = 3000
    here = [tracemalloc.Filter(True, xpath.__file__)]
    tracemalloc.start()
    try:
        gc.collect()  # and empty the free lists, which tracemalloc counts as held
        before = tracemalloc.take_snapshot().filter_traces(here)
        for _ in range(calls):
            xpath.held_words(root, "class", ("hidden", "b", "gone"))
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(here)
    finally:
        tracemalloc.stop()
    assert sum(stat.count_diff for stat in after.compare_to(before, "filename")) < calls // 2
