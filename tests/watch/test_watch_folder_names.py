"""The watcher and the indexer share one ignore rule, applied to
paths relative to the vault (or project): a vault kept under a folder named ``build``
(or ``dist``, ``.idea``, ``__pycache__``) is watched, and notes in ``<vault>/build/`` are
both indexed and watched."""

from __future__ import annotations

from pathlib import Path

import pytest
from watchfiles import Change

from codemap.codemap_helpers import git
from rubi import app
from rubi.core.treerules import vault_path_skipped
from rubi.vault.scan import scan_vault
from rubi.watch import Batch, classify, event_filter, ignored, watch

from helpers import real_watcher, wait_until, write

PARENTS = ["build", "dist", ".idea", ".vscode", ".tox", "__pycache__", "node_modules"]


def _ids(vault: Path, query: str) -> list[str]:
    """The hits that match ``query``'s words (not only its meaning)."""
    hits = app.search(app.locate(vault), query, refresh=False).hits
    return [h.id for h in hits if any(r.kind == "text" for r in h.reasons)]


@pytest.mark.parametrize("parent", PARENTS)
def test_a_vault_under_any_folder_name_is_watched(tmp_path: Path, parent: str) -> None:
    vault = tmp_path / parent / "notes-vault"
    note = write(vault / "a.md", "# A\n")
    paths = app.locate(vault)
    keep = event_filter(paths)
    assert keep(Change.modified, str(note))
    batch = classify([(Change.modified, str(note))], paths)
    assert batch is not None and batch.vault_paths == {"a.md"}


def test_notes_in_a_build_folder_inside_the_vault_are_indexed_and_watched(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# A\n")
    app.index(app.locate(vault))
    note = write(vault / "build" / "release-notes.md", "# Release\n\nquagga\n")
    dist = write(vault / "dist" / "n.md", "# Dist\n\nquetzal\n")
    seen: list[Batch] = []
    watch(
        app.locate(vault),
        changes=[{(Change.added, str(note)), (Change.added, str(dist))}],
        on_report=lambda b, r: seen.append(b),
        catch_up=False,
    )
    assert seen and seen[0].vault_paths == {"build/release-notes.md", "dist/n.md"}
    assert _ids(vault, "quagga") == ["build/release-notes"]
    assert _ids(vault, "quetzal") == ["dist/n"]


def test_the_watcher_ignores_exactly_what_the_indexer_skips(tmp_path: Path) -> None:
    vault = tmp_path / "build" / "v"
    notes = [
        "a.md",
        "build/b.md",
        "dist/c.md",
        "__pycache__/d.md",
        ".idea/e.md",
        ".obsidian/f.md",
        ".trash/g.md",
        "node_modules/h.md",
        ".venv/i.md",
        "sub/.hidden.md",
        "sub/.git/j.md",
        ".index/k.md",
    ]
    for rel in notes:
        write(vault / rel, "# x\n")
    scanned = {f.path for f in scan_vault(vault).notes}
    for rel in notes:
        assert (rel in scanned) == (not ignored(rel)) == (not vault_path_skipped(rel)), rel


def test_code_under_a_build_parent_refreshes_the_code_map(tmp_path: Path) -> None:
    project = tmp_path / "build" / "p"
    write(project / "pkg" / "app.py", "def run():\n    pass\n")
    git(project, "init", "-q")
    app.init_project(project)
    vault = app.locate(project / ".rubi")
    app.index(vault)
    f = write(project / "pkg" / "util.py", "def SmartHelperThing():\n    pass\n")
    out = write(project / "build" / "gen.py", "x = 1\n")  # build output inside: ignored
    assert not event_filter(vault)(Change.added, str(out))
    batch = classify([(Change.added, str(f)), (Change.added, str(out))], vault)
    assert batch is not None and batch.code and batch.events == 1


@pytest.mark.slow
def test_real_watcher_on_a_vault_under_build(tmp_path: Path) -> None:
    vault = tmp_path / "build" / "v"
    write(vault / "a.md", "# Alpha\n")
    app.index(app.locate(vault))
    with real_watcher(vault):
        write(vault / "build" / "live.md", "# Live\n\nplatypus\n")
        assert wait_until(lambda: _ids(vault, "platypus") == ["build/live"])
