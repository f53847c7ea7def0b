"""The vault sync end to end on a real vault: edits applied change by change leave
the same derived data as a full index of the same files, for the vault sync that applied
them, for a second vault sync that only reads the store (another process), and for a
cold reader that starts from the graph snapshot and replays the store's journal."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.graph.build import GraphBuild
from rubi.sync import forget_vault_syncs, graph_for, notes_for, vault_sync_for
from rubi.sync.vaultsync import VaultSync

from helpers import copy_vault


def _shape(build: GraphBuild) -> dict[str, Any]:
    g = build.graph
    return {
        "nodes": {
            n: {
                k: (v.casefold() if k == "title" and d.get("kind") == "dangling" else v)
                for k, v in d.items()
            }
            for n, d in g.nodes(data=True)
        },
        "edges": Counter(g.edges(keys=True)),
        "names": build.names,
        "problems": build.problems,
    }


def _edit(vault: Path, rng: random.Random, step: int) -> str:
    notes = sorted(p for p in vault.rglob("*.md") if ".obsidian" not in p.parts)
    op = rng.random()
    target = rng.choice(notes)
    rel = target.relative_to(vault).as_posix()
    other = rng.choice(notes).stem
    if op < 0.3:  # a body edit
        target.write_text(target.read_text(encoding="utf-8") + f"\n\nMore words {step}.\n")
        return rel
    if op < 0.55:  # a link edit
        target.write_text(target.read_text(encoding="utf-8") + f"\n\nSee [[{other}]].\n")
        return rel
    if op < 0.7:  # a new note linking to an existing one and to a missing one
        new = vault / f"New note {step}.md"
        new.write_text(f"# New note {step}\n\n[[{other}]] and [[Nowhere {step % 3}]]\n")
        return new.name
    if op < 0.85:  # a delete
        target.unlink()
        return rel
    renamed = target.with_name(f"Renamed {step}.md")  # a rename: one path goes, one comes
    target.rename(renamed)
    return f"{rel}\n{renamed.relative_to(vault).as_posix()}"


@pytest.mark.parametrize("seed", [7, 11])
def test_edits_applied_one_by_one_equal_a_full_index(tmp_path: Path, seed: int) -> None:
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    reader = VaultSync(paths)  # another process that only reads
    first = reader.graph()
    assert first.graph.number_of_nodes() > 0
    rng = random.Random(seed)
    for step in range(25):
        changed = _edit(vault, rng, step).split("\n")
        app.apply_changes(paths, changed, code=False)
        if step % 6 == 0:  # the reader catches up from the journal now and then
            assert _shape(reader.graph()) == _shape(graph_for(paths))
    live = _shape(graph_for(paths))
    live_notes = notes_for(paths)
    assert _shape(reader.graph()) == live
    forget_vault_syncs()  # a cold process: the snapshot plus the journal
    assert _shape(graph_for(paths)) == live
    forget_vault_syncs()
    app.index(paths, full=True)  # the files read from scratch
    assert _shape(graph_for(paths)) == live
    assert notes_for(paths).keys() == live_notes.keys()
    assert _shape(reader.graph()) == live  # after another process's full rebuild


def test_a_long_journal_is_folded_into_a_new_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.sync.livegraph as graph_module

    monkeypatch.setattr(graph_module, "JOURNAL_MAX", 3)
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    before = paths.graph_file.stat().st_mtime_ns
    notes = sorted(p for p in vault.rglob("*.md") if ".obsidian" not in p.parts)
    for i, note in enumerate(notes[:5]):
        note.write_text(note.read_text(encoding="utf-8") + f"\n[[{notes[-1 - i].stem}]]\n")
        app.apply_changes(paths, [note.relative_to(vault).as_posix()], code=False)
    assert paths.graph_file.stat().st_mtime_ns != before
    live = _shape(graph_for(paths))
    forget_vault_syncs()
    assert _shape(graph_for(paths)) == live


def test_a_body_edit_leaves_the_graph_snapshot_alone(tmp_path: Path) -> None:
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    snapshot = paths.graph_file.stat().st_mtime_ns
    note = sorted(vault.rglob("*.md"))[3]
    note.write_text(note.read_text(encoding="utf-8") + "\nplain words only\n")
    report = app.apply_changes(paths, [note.relative_to(vault).as_posix()], code=False)
    assert report.updated == 1
    assert paths.graph_file.stat().st_mtime_ns == snapshot
    hits = app.search(paths, "plain words only", refresh=False).hits
    assert hits and hits[0].id == note.relative_to(vault).as_posix()[:-3]


def test_a_damaged_store_is_rebuilt_from_the_files(tmp_path: Path) -> None:
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    count = len(notes_for(paths))
    forget_vault_syncs()
    paths.store_file.write_bytes(b"not a database at all" * 100)
    for suffix in ("-wal", "-shm"):
        paths.store_file.with_name(paths.store_file.name + suffix).unlink(missing_ok=True)
    report = app.index(paths)
    assert report.full
    assert len(notes_for(paths)) == count
    assert vault_sync_for(paths).graph().graph.number_of_nodes() > 0
