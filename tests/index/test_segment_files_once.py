"""A long-lived process reads the index without Whoosh for a call that searches once
(:func:`rubi.core.segmentreads.reading_once`: a starting ``rubi serve``'s first tool
call, a hook it answers cold), and through Whoosh for every other search: the same
hits either way, only in the thread inside the block, and the call's reader replaced
by Whoosh's at the next search outside it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from index.test_segment_files import _index
from index.test_termscore import QUERIES
from rubi.core.segmentreads import reading_once, reads_without_whoosh, segments_mapped
from rubi.index.searchindex import SearchIndex


def _hits(index: SearchIndex) -> list[object]:
    return [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]


def test_a_call_that_searches_once_reads_without_whoosh_and_the_next_through_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _index(monkeypatch, "once")
    plain = _hits(index)
    assert not segments_mapped() and not reads_without_whoosh()
    kept = SearchIndex(index.directory, keep_open=True)  # as a long-lived process keeps it
    with reading_once():
        assert reads_without_whoosh()
        assert _hits(kept) == plain
        assert kept._cold and kept._ix is None
    assert not reads_without_whoosh()
    assert _hits(kept) == plain
    assert not kept._cold and kept._ix is not None  # Whoosh's reader from now on
    with reading_once():  # an index open through Whoosh stays so
        assert _hits(kept) == plain
        assert not kept._cold
    kept.close()


def test_only_the_thread_in_the_block_reads_without_whoosh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _index(monkeypatch, "threads")
    plain = _hits(index)
    seen: list[bool] = []
    kept = SearchIndex(index.directory, keep_open=True)
    with reading_once():
        other = threading.Thread(target=lambda: seen.append(reads_without_whoosh()))
        other.start()
        other.join()
        assert reads_without_whoosh()
    assert seen == [False]
    assert _hits(kept) == plain and not kept._cold
    kept.close()


_PROBE = """
import sys
from pathlib import Path
from rubi.core.segmentreads import reading_once
from rubi.index.searchindex import SearchIndex
index = SearchIndex(Path(sys.argv[1]), keep_open=True)
with reading_once():
    first = index.bm25("alpha sync vault")
print("whoosh.reading" in sys.modules, "whoosh.index" in sys.modules)
second = index.bm25("alpha sync vault")
print("whoosh.reading" in sys.modules, first == second, len(first) > 0)
"""


def test_a_call_that_searches_once_imports_no_whoosh_reading_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _index(monkeypatch, "probe-once")
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(index.directory)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
        timeout=120,
    )
    assert run.stdout.split("\n")[:2] == ["False False", "True True True"], run.stdout


def test_a_long_lived_process_keeps_the_postings_it_read_without_whoosh_as_arrays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A call that searches once in a long-lived process keeps what it read in the
    index's cache, which outlives the call: as compact arrays (12 bytes a posting), as
    Whoosh's reads are kept; only a process that searches once and exits keeps the
    decoded lists as they are."""
    from array import array

    import rubi.core.segmentreads as segmentreads

    index = _index(monkeypatch, "arrays")
    plain = _hits(index)
    kept = SearchIndex(index.directory, keep_open=True)
    with reading_once():
        assert _hits(kept) == plain
    cached = list(kept._segments._postings.values())
    assert cached and all(type(ids) is array and type(weights) is array for ids, weights in cached)
    kept.close()
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])  # a one-shot process
    once = SearchIndex(index.directory)
    assert _hits(once) == plain
    cached = list(once._segments._postings.values())
    assert cached and all(type(ids) is list for ids, _ in cached)
