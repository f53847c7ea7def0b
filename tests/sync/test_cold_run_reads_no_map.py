"""A cold run (a new vault sync: ``rubi index``, a SessionStart hook) of a project whose
code did not change reads no code map (on spring-framework 0.08 s of the 0.3 s such a
run costs); one whose code changed reads it once, as before. What the graph needs of
the map before the run (to move its code nodes when the snapshot is behind the code
stamp) is read only then, and the graph is the one a build from scratch gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.sync import codememory
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_edits_as_full_index import HANDLER
from sync.test_cold_map_memory import ColdRepo, project

__all__ = ["project"]  # the fixture, shared

NOTE = "# Loader notes\n\nSee [[other]] and the loader.\n"


def _map_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record every read of the saved code map by a vault sync."""
    reads: list[int] = []
    read = codememory.read_code_map

    def recorded(paths: object) -> object:
        reads.append(1)
        return read(paths)  # type: ignore[arg-type]

    monkeypatch.setattr(codememory, "read_code_map", recorded)
    return reads


def _cold_run(project: Path) -> VaultSync:
    vault_sync = VaultSync(app.locate(project / ".rubi"))
    vault_sync.run()
    return vault_sync


def test_a_cold_run_with_no_code_change_reads_no_map(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = project / ".rubi" / "notes" / "loader-notes.md"
    note.write_text(NOTE, encoding="utf-8")
    _cold_run(project)  # a note added: the map pages list it (they read the map)
    reads = _map_reads(monkeypatch)
    _cold_run(project)  # nothing changed
    assert reads == []
    note.write_text(NOTE + "\nOne more line.\n", encoding="utf-8")
    vault_sync = _cold_run(project)  # a note's text: neither the code nor the graph
    assert reads == []
    assert _graph_of(vault_sync) == _scratch(vault_sync)
    repo = ColdRepo(project)
    text = (project / HANDLER).read_text(encoding="utf-8")
    repo.write(HANDLER, text.replace("import", "import org.demo.core.FileResource;\nimport"))
    reads.clear()
    vault_sync = _cold_run(project)  # an import added: the map before the run, once
    assert reads == [1]
    assert _graph_of(vault_sync) == _scratch(vault_sync)


def test_a_snapshot_behind_the_code_stamp_moves_from_the_map_read_then(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watcher's import edit whose deferred snapshot was never written (the process
    ended first): the next cold run, a note edit, finds the snapshot's code nodes behind
    and moves them from the map it reads only then."""
    paths = app.locate(project / ".rubi")
    watcher = VaultSync(paths)
    watcher.watched = True
    repo = ColdRepo(project)
    text = (project / HANDLER).read_text(encoding="utf-8")
    repo.write(HANDLER, text.replace("import", "import org.demo.core.FileResource;\nimport"))
    watcher.run(changed_paths=[], changed_code=[HANDLER])
    watcher._graphs.snapshots.cancel()  # the deferred write never comes
    assert watcher._graphs.snapshots.behind(watcher._graphs.live, watcher._graphs.gen)  # type: ignore[arg-type]
    reads = _map_reads(monkeypatch)
    (project / ".rubi" / "notes" / "loader-notes.md").write_text(NOTE, encoding="utf-8")
    vault_sync = _cold_run(project)
    assert reads == [1]  # the pages' and the graph's: read once
    assert _graph_of(vault_sync) == _scratch(vault_sync)
