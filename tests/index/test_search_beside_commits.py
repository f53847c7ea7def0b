"""A kept-open index searched in one thread while another commits to it, as a
long-lived process's searches run beside its watcher's saves: every commit replaces
the table of contents, and no search fails for the generation it was opening."""

from __future__ import annotations

import sys
import threading
import traceback
from pathlib import Path

import pytest

import rubi.core.segmentreads as segmentreads
from rubi import app
from rubi.index.documents import note_document
from rubi.index.searchindex import SearchIndex
from rubi.markdown import parse_note

COMMITS = 150
"""Commits the writer makes, each one note replaced (a save)."""


@pytest.mark.parametrize("mapped", [False, True], ids=["whoosh", "one-shot reader"])
def test_searches_of_a_kept_open_index_never_fail_while_commits_replace_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mapped: bool
) -> None:
    """Also with the one-shot process's reader (:mod:`rubi.index.segmentfiles`): a
    generation gone while it opens, or midway, is read through Whoosh instead."""
    if mapped:
        monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    root = tmp_path / "vault"
    root.mkdir()
    for i in range(30):
        (root / f"n{i}.md").write_text(f"# Note {i}\n\ncache index graph {i}\n", encoding="utf-8")
    paths = app.locate(root)
    app.index(paths)
    failures: list[str] = []
    searches = [0]
    done = threading.Event()

    def write() -> None:
        index = SearchIndex(paths.whoosh_dir)
        try:
            for step in range(COMMITS):
                note = parse_note(f"# Note 0\n\ncache index step {step}\n", "n0.md")
                index.apply([note_document(note)], [])
        finally:
            index.close()
            done.set()

    def read() -> None:
        index = SearchIndex(paths.whoosh_dir, keep_open=True)
        try:
            while not done.is_set():
                searches[0] += 1
                try:
                    assert index.bm25("cache index", limit=5)
                except Exception:  # every failure is what is counted
                    failures.append(traceback.format_exc(limit=-4))
        finally:
            index.close()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        threads = [threading.Thread(target=write), threading.Thread(target=read)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert failures == [], f"{len(failures)} of {searches[0]} searches failed:\n{failures[0]}"
