"""Regressions found by trying two processes on one vault: a note deleted by one
process must leave every other process's graph, even after a snapshot was saved."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from rubi import app
from rubi.core.picklefiles import save_pickle
from rubi.sync import forget_vault_syncs
from rubi.sync.manifest import FileEntry, VaultState
from rubi.sync.plan import plan_from_changes
from rubi.sync.vaultsync import VaultSync

from helpers import write


def test_a_deletion_reaches_a_process_behind_a_new_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.sync.livegraph as graph_module

    monkeypatch.setattr(graph_module, "JOURNAL_MAX", 0)  # every change saves a snapshot
    vault = tmp_path / "v"
    write(vault / "a.md", "# A\n\n[[b]] [[c]]\n")
    write(vault / "b.md", "# B\n")
    write(vault / "c.md", "# C\n")
    paths = app.locate(vault)
    app.index(paths)
    behind = VaultSync(paths)  # another process, caught up before the deletion
    assert "b" in behind.graph().graph
    (vault / "b.md").unlink()
    app.apply_changes(paths, ["b.md"], code=False)
    write(vault / "c.md", "# C\n\n[[a]]\n")
    app.apply_changes(paths, ["c.md"], code=False)  # a later snapshot, past the deletion
    graph = behind.graph().graph
    assert "b" not in graph and "dangling:b" in graph
    assert "b" not in behind.notes()
    forget_vault_syncs()
    assert "b" not in VaultSync(paths).graph().graph


def test_moving_a_folder_of_attachments_away_needs_a_scan(tmp_path: Path) -> None:
    write(tmp_path / "Pics.md", "![[pic.png]]\n")
    info = (tmp_path / "Pics.md").stat()
    old = VaultState(
        files={"Pics.md": FileEntry(info.st_mtime_ns, info.st_size, "x", "Pics")},
        attachments=["imgs/pic.png"],
    )
    assert plan_from_changes(tmp_path, old, ["imgs"]) is None


def test_a_decomposed_file_name_needs_a_scan(tmp_path: Path) -> None:
    name = unicodedata.normalize("NFD", "Résumé.md")
    write(tmp_path / name, "# R\n")
    assert plan_from_changes(tmp_path, VaultState(), [name]) is None


def test_a_pickle_with_a_refused_mode_is_replaced_by_a_private_one(tmp_path: Path) -> None:
    from rubi.core.paths import cache_home

    path = cache_home() / "indexes" / "x" / "graph.pickle"
    save_pickle(path, {"a": 1})
    os.chmod(path, 0o646)
    save_pickle(path, {"a": 2})
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_quiet_store_is_not_opened_again_and_a_commit_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.sync.vaultsync as vaultsync_module

    vault = tmp_path / "v"
    write(vault / "a.md", "# A\n\n[[b]]\n")
    write(vault / "b.md", "# B\n")
    paths = app.locate(vault)
    app.index(paths)
    store = paths.store_file
    old = 1_000_000_000  # the files last changed long ago: their stat can be trusted
    for f in (store, store.with_name(store.name + "-wal")):
        if f.exists():
            os.utime(f, ns=(old, old))
    opened: list[Path] = []
    real_open = vaultsync_module.open_store

    def counting(path: Path, *, create: bool):  # type: ignore[no-untyped-def]
        opened.append(path)
        return real_open(path, create=create)

    monkeypatch.setattr(vaultsync_module, "open_store", counting)
    reader = VaultSync(paths)  # another process

    def read() -> tuple[set[str], int]:
        before = len(opened)
        nodes = set(reader.graph().graph)
        return nodes, len(opened) - before

    assert read() == ({"a", "b"}, 1)
    assert read() == ({"a", "b"}, 0)  # the second read trusted the stat
    write(vault / "c.md", "# C\n\n[[a]]\n")
    app.apply_changes(paths, ["c.md"], code=False)  # a commit by another process
    assert read() == ({"a", "b", "c"}, 1)
    assert read() == ({"a", "b", "c"}, 1)  # just written: not trusted until older


@pytest.mark.timeout(30)
def test_a_write_that_keeps_size_and_mtime_changes_the_stamp(tmp_path: Path) -> None:
    """The store rewritten at the same size with its modification time set back (a copy
    that keeps times over the same file, a writer whose clock is behind): a reader
    trusting the stamp would serve the old graph until the next commit."""
    from rubi.sync.rows import quiet_stamp

    store = tmp_path / "store.sqlite"
    store.write_bytes(b"a" * 4096)
    old = 1_000_000_000
    os.utime(store, ns=(old, old))
    before = quiet_stamp(store)
    assert before is not None
    changed = store.stat().st_ctime_ns
    while store.stat().st_ctime_ns == changed:  # until the file system's clock ticks
        store.write_bytes(b"b" * 4096)
        os.utime(store, ns=(old, old))
    after = store.stat()
    assert (after.st_size, after.st_mtime_ns) == (4096, old)
    assert quiet_stamp(store) != before
