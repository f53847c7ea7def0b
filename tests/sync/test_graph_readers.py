"""Searches and reads in several threads while saves are applied in another, on the
same in-process vault sync, as in an MCP server beside its watcher: every reader sees one
consistent version of the live graph, so none fails, whatever a save does to it
meanwhile (an embedded file pasted or deleted and every note relinked, a hub note
renamed, links rewritten and appended, notes deleted and created)."""

from __future__ import annotations

import random
import sys
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.app.timeline import timeline
from rubi.core.errors import NoteNotFoundError, NoteParseError
from rubi.core.paths import VaultPaths

SAVES = 90
"""Saves the writer applies, each one run of the watcher's apply path."""
MAX_READS = 400
"""Rounds a reader thread runs at most (:func:`_read_round`); they stop with the saves."""
READERS = 4
"""Reader threads (an MCP server answers several calls at once)."""
NOTES = 400
"""Notes, each linking to the hub and embedding the diagram: a save that changes
either relinks them all, a long change of the graph."""
WORDS = ("cache", "index", "parser", "graph", "search", "token", "vault", "watcher")


def _note(i: int, rng: random.Random, hub: str) -> str:
    links = " ".join(f"[[Note {rng.randrange(NOTES)}]]" for _ in range(6))
    words = " ".join(rng.choice(WORDS) for _ in range(12))
    dated = f"---\ndate: 2026-0{1 + i % 9}-1{i % 10}\n---\n" if i % 10 == 0 else ""
    body = f"[[{hub}]] {links} [[Gone {i % 7}]] ![[diagram.png]]"
    return f"{dated}# Note {i}\n\n{words}\n\n{body}\n"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[VaultPaths]:
    root = tmp_path / "vault"
    root.mkdir()
    rng = random.Random(7)
    parts = "".join(f"## Part {k}\n\ncache index graph search, step {k}.\n\n" for k in range(300))
    (root / "Hub.md").write_text(f"# Hub\n\n{parts}", encoding="utf-8")  # long to read
    for i in range(NOTES):
        (root / f"Note {i}.md").write_text(_note(i, rng, "Hub"), encoding="utf-8")
    paths = app.locate(root)
    app.index(paths)
    app.set_watched(paths, True)  # searches skip their refreshing scan, as under a watcher
    yield paths
    app.set_watched(paths, False)


def _save(root: Path, rng: random.Random, step: int) -> list[str]:
    """One save as an editor makes it; the vault paths it changed."""
    op = step % 10
    notes = sorted(p.name for p in root.glob("Note *.md"))
    name = rng.choice(notes)
    if op % 2 == 1:  # the diagram every note embeds pasted or deleted: all are relinked
        diagram = root / "diagram.png"
        if diagram.exists():
            diagram.unlink()
        else:
            diagram.write_bytes(b"\x89PNG\r\n\x1a\n")
        return [diagram.name]
    if op == 0:  # the hub renamed: every note linking to it is relinked
        hub = next(root.glob("Hub*.md"))
        renamed = f"Hub {step}.md"
        hub.rename(root / renamed)
        return [hub.name, renamed]
    if op == 2:  # links rewritten
        (root / name).write_text(_note(step, rng, "Hub"), encoding="utf-8")
        return [name]
    if op == 4:  # a note deleted
        (root / name).unlink()
        return [name]
    if op == 6:  # a note created, linking to others and to nothing
        new = f"Note {NOTES + step}.md"
        (root / new).write_text(_note(step, rng, "Hub"), encoding="utf-8")
        return [new]
    with (root / name).open("a", encoding="utf-8") as f:  # a link appended
        f.write(f"\n[[Note {rng.randrange(NOTES)}]] [[Missing {step}]]\n")
    return [name]


def _read_round(paths: VaultPaths, rng: random.Random, turn: int) -> None:
    """What agents ask while the watcher works: a search shown in full (its days and
    passages read lazily by the renderer), the hub note read with its 400 backlinks,
    links both ways, and now and then a timeline and the index's status."""
    query = "hub " + " ".join(rng.sample(WORDS, 2))
    result = app.search(paths, query, refresh=False, top_k=20)
    app.render_search(result, 1500)
    app.read_note(paths, "Hub")
    for hit in result.hits[:3]:
        app.links(paths, hit.id)
        app.backlinks(paths, hit.id)
    if turn % 4 == 0:
        timeline(paths, "2026-05-15", days=30)
        app.status(paths)


def test_searches_and_reads_never_fail_while_watched_saves_change_the_graph(
    vault: VaultPaths,
) -> None:
    failures: list[str] = []
    saved: list[int] = []
    rounds = [0] * READERS
    done = threading.Event()

    def write() -> None:
        rng = random.Random(11)
        try:
            for step in range(SAVES):
                app.apply_changes(vault, _save(vault.root, rng, step), code=False)
                saved.append(step)
        finally:
            done.set()

    def read(seed: int) -> None:
        rng = random.Random(seed)
        for turn in range(MAX_READS):
            if done.is_set():
                return
            rounds[seed] += 1
            try:
                _read_round(vault, rng, turn)
            except (NoteNotFoundError, NoteParseError):
                pass  # a hit deleted or renamed before its reading: the documented answer
            except Exception:  # every other failure is what is counted
                failures.append(traceback.format_exc(limit=-6))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # threads take turns 50 times as often
    try:
        threads = [threading.Thread(target=write)]
        threads += [threading.Thread(target=read, args=(seed,)) for seed in range(READERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert len(saved) == SAVES
    assert failures == [], (
        f"{len(failures)} of {sum(rounds)} reads failed; the first:\n{failures[0]}"
    )


def test_a_save_waits_for_a_reader_s_block_and_the_next_block_sees_it(
    tmp_path: Path,
) -> None:
    from rubi.sync import reading_graph

    root = tmp_path / "vault"
    root.mkdir()
    (root / "a.md").write_text("# A\n\n[[b]]\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n", encoding="utf-8")
    paths = app.locate(root)
    app.index(paths)
    (root / "c.md").write_text("# C\n\n[[a]]\n", encoding="utf-8")
    saved = threading.Event()

    def save() -> None:
        app.apply_changes(paths, ["c.md"], code=False)
        saved.set()

    with reading_graph(paths) as build:
        nodes = sorted(build.graph)
        writer = threading.Thread(target=save)
        writer.start()
        assert not saved.wait(0.5)  # the save's graph change waits for this block
        with reading_graph(paths) as nested:  # a nested block: the same version
            assert nested is build
        assert sorted(build.graph) == nodes
    writer.join(10)
    assert saved.is_set()
    with reading_graph(paths) as build:
        assert "c" in build.graph and build.graph.has_edge("c", "a")


def test_asking_for_the_code_map_or_a_run_while_reading_the_graph_is_refused(
    tmp_path: Path,
) -> None:
    from rubi.sync import index_vault, load_code_map, notes_for, reading_graph

    root = tmp_path / "vault"
    root.mkdir()
    (root / "a.md").write_text("# A\n", encoding="utf-8")
    paths = app.locate(root)
    app.index(paths)
    with reading_graph(paths):
        for ask in (load_code_map, notes_for, index_vault):
            with pytest.raises(RuntimeError, match="while the graph is read"):
                ask(paths)
    assert notes_for(paths)  # and allowed after the block


def test_status_counts_an_index_file_removed_while_it_is_walked_as_gone(
    vault: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A segment file the watcher's writer removes between the walk and its size
    (seen in CI: ``_MAIN_22.toc``) is not an error of ``rubi status``."""
    import importlib
    import os

    status_module = importlib.import_module("rubi.app.status")
    app.index(vault)
    real_walk = os.walk

    def walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
        for folder, dirs, names in real_walk(top):
            yield folder, dirs, [*names, "_MAIN_99.toc"]  # listed, then removed

    monkeypatch.setattr(status_module.os, "walk", walk)
    assert app.status(vault).index_bytes > 0
