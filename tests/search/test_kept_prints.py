"""A long-lived process (the MCP server, the engine) takes a candidate its memo lacks
from the fingerprint store through one reader it keeps across searches
(:func:`rubi.search.printstore.kept_store`), with the decisions made from the text: an
edit between two searches is seen by the second, a store written anew or made
untrustworthy is opened anew, and the reader serves any thread."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from rubi import app
from rubi.search import duplicates, printstore
from rubi.search.duplicates import forget_bodies
from rubi.search.printstore import PRINTS_FILE, forget_kept_stores, kept_store

from helpers import counted_bodies, notes_vault, write

COPY = (
    "# Mental health\n\nWe offer every teammate free sessions with a licensed therapist or "
    "coach through our mental health partner. Sessions are confidential and the company "
    "never sees who used them. You can book up to twelve sessions a year, and more with a "
    "referral. Reach the partner through the app or the website, any time of day.\n"
)
FILES = {
    "benefits/mental-health.md": COPY,
    "people/mental-health.md": COPY.replace("any time of day", "at any time"),
    "guides/therapist.md": "# Therapist\n\nFind a therapist for your sessions here.\n",
    "Hub/Therapist.md": "---\ntags: [hub]\n---\n",
}
QUERY = "therapist sessions"


def _vault(root: Path) -> app.VaultPaths:
    """The notes of :data:`FILES` as a plain vault at ``root``, indexed."""
    paths: app.VaultPaths = notes_vault(root, FILES)
    app.index(paths)
    return paths


def _shown(paths: app.VaultPaths, refresh: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    return [(h.id, h.also) for h in app.search(paths, QUERY, refresh=refresh).hits]


def _from_text(paths: app.VaultPaths, monkeypatch: pytest.MonkeyPatch) -> object:
    """The hits as made from every candidate's text (no store, an empty memo)."""
    forget_bodies()
    with monkeypatch.context() as m:
        m.setattr(printstore, "stored", lambda digest: None)
        m.setattr(duplicates, "stored", lambda digest: None)
        return _shown(paths)


def test_a_long_lived_search_reads_the_store_for_what_its_memo_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    plain = _from_text(paths, monkeypatch)
    assert any(also for _, also in plain)  # the two copies are one slot
    forget_bodies()
    made = counted_bodies(monkeypatch)
    assert _shown(paths) == plain
    assert _shown(paths) == plain
    assert made == []  # every fingerprint from the store, then from the memo
    assert kept_store(paths.index_dir) is kept_store(paths.index_dir)  # kept open


@pytest.mark.parametrize("refresh", [False, True])
def test_an_edit_between_two_searches_is_seen_by_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refresh: bool
) -> None:
    paths = _vault(tmp_path)
    forget_bodies()
    first = _shown(paths)
    assert any("people/mental-health" in also for _, also in first)
    # the copy now differs: not a near-duplicate any more; its stored row is stale
    # until an index run (refresh) updates the store under the kept reader
    write(
        tmp_path / "people/mental-health.md",
        "# Mental health\n\nAsk your lead about leave and the team calendar.\n",
    )
    made = counted_bodies(monkeypatch)
    second = _shown(paths, refresh=refresh)
    assert second != first
    assert not any("people/mental-health" in also for _, also in second)
    assert made == ([] if refresh else ["Mental health"])  # the edited note: its new row
    assert second == _from_text(paths, monkeypatch)


def test_a_store_written_anew_is_opened_anew(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    store = paths.index_dir / PRINTS_FILE
    first = kept_store(paths.index_dir)
    assert first.get(b"no such digest") is None  # opened
    assert kept_store(paths.index_dir) is first
    copy = store.with_name("copy.sqlite")
    shutil.copyfile(store, copy)
    os.chmod(copy, 0o600)
    os.replace(copy, store)  # as a full index run replaces it
    second = kept_store(paths.index_dir)
    assert second is not first
    assert first.get(b"no such digest") is None and first._done  # the old one is closed
    store.chmod(0o644)  # a change of mode: checked again
    assert kept_store(paths.index_dir) is not second
    store.unlink()
    gone = kept_store(paths.index_dir)
    assert gone.get(b"x") is None
    forget_kept_stores()
    assert gone._done


def test_a_journal_that_is_not_a_file_reopens_the_reader_which_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    first = kept_store(paths.index_dir)
    first.get(b"x")
    os.mkfifo(printstore.journal_of(paths.index_dir / PRINTS_FILE))
    monkeypatch.setattr(printstore, "_WARNED", False)
    again = kept_store(paths.index_dir)
    assert again is not first
    assert again.get(b"x") is None and again._done  # checked, refused; nothing blocks


def test_a_busy_reader_is_opened_anew_by_the_next_search(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    first = kept_store(paths.index_dir)
    writer = sqlite3.connect(paths.index_dir / PRINTS_FILE)
    try:
        writer.execute("BEGIN EXCLUSIVE")  # an index run commits
        assert first.get(b"x") is None and first._done
    finally:
        writer.rollback()
        writer.close()
    second = kept_store(paths.index_dir)
    assert second is not first and not second._done


def test_the_kept_reader_serves_another_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    plain = _from_text(paths, monkeypatch)
    forget_bodies()
    assert _shown(paths) == plain  # opened in this thread
    forget_bodies()
    made = counted_bodies(monkeypatch)
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(_shown(paths)))
    worker.start()
    worker.join()
    assert out == [plain] and made == []
