"""A one-shot reader (a cold recall hook, a cold ``rubi search``) opens the flat graph
when it holds the store's generation and code stamp, and searches it to the same
answers as the live graph; when the flat graph is behind the store (a note saved since),
of another code stamp or damaged, it reads the snapshot, replays the journal, and
writes the flat graph again for the next reader."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.graph import snapshot
from rubi.graph.flat import FlatGraph, read_flat, write_flat
from rubi.graph.frozen import FrozenGraph
from rubi.sync import forget_vault_syncs
from rubi.sync.rows import open_store
from rubi.sync.vaultsync import VaultSync

from helpers import login_project, write

QUERIES = ("why does the login token expire at night?", "cache server", "login", "auth.py")
NEW = "notes/gotcha-night-shift-tokens"
_LAZY = ("source", "day", "parts")


@pytest.fixture
def paths(tmp_path: Path) -> VaultPaths:
    return app.locate(login_project(tmp_path / "proj") / ".rubi")


def _flat_file(paths: VaultPaths) -> Path:
    return paths.graph_file.with_name("graph.flat")


def _store_gen(paths: VaultPaths) -> int:
    store = open_store(paths.store_file, create=False)
    assert store is not None
    try:
        return store.gen()
    finally:
        store.close()


def _answers(paths: VaultPaths) -> list[object]:
    """Each query's hits, every field but those read from the files when shown."""
    found = []
    for query in QUERIES:
        hits = [dataclasses.asdict(hit) for hit in app.search(paths, query, refresh=False).hits]
        found.append([{k: v for k, v in hit.items() if k not in _LAZY} for hit in hits])
    return found


def _save_a_note(paths: VaultPaths) -> None:
    write(
        paths.root / f"{NEW}.md",
        "---\ntype: gotcha\n---\n# Night shift tokens expire at the login rollover\n\n"
        "The login token rolls over at night; see "
        "[[gotcha-login-tokens-expire-at-midnight-utc]].\n",
    )
    app.index(paths)


def test_a_one_shot_reader_opens_the_flat_graph_and_answers_as_the_live_graph(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(snapshot, "_frozen", True)
    sync = VaultSync(paths)
    assert isinstance(sync.graph().graph, FlatGraph)
    assert sync._graphs.live is None  # no live graph (resolver, readers, records) loaded
    forget_vault_syncs()
    assert _answers(paths) == live_answers


def test_a_run_outside_a_watcher_writes_the_flat_graph_of_its_generation(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    _save_a_note(paths)
    build, gen, _ = read_flat(_flat_file(paths))
    assert gen == _store_gen(paths) and NEW in build.graph
    forget_vault_syncs()
    monkeypatch.setattr(snapshot, "_frozen", True)
    graph = VaultSync(paths).graph().graph
    assert isinstance(graph, FlatGraph) and NEW in graph


def test_a_note_saved_after_the_flat_graph_is_replayed_and_the_flat_graph_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As after a watcher's save in another process, which leaves the flat graph behind."""
    flat_file = _flat_file(paths)
    behind = flat_file.read_bytes()
    _save_a_note(paths)
    flat_file.write_bytes(behind)
    assert read_flat(flat_file)[1] < _store_gen(paths)
    forget_vault_syncs()
    monkeypatch.setattr(snapshot, "_frozen", True)
    graph = VaultSync(paths).graph().graph
    assert isinstance(graph, FrozenGraph) and NEW in graph  # the journal replayed
    build, gen, _ = read_flat(flat_file)
    assert gen == _store_gen(paths) and NEW in build.graph
    forget_vault_syncs()
    assert NEW in [h.id for h in app.search(paths, "night shift rollover", refresh=False).hits]


def test_a_flat_graph_of_another_code_stamp_is_not_read_and_is_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    flat_file = _flat_file(paths)
    build, gen, stamp = read_flat(flat_file)
    write_flat(flat_file, build, gen, stamp + 1)  # code nodes older than the store says
    forget_vault_syncs()
    monkeypatch.setattr(snapshot, "_frozen", True)
    graph = VaultSync(paths).graph().graph
    assert not isinstance(graph, FlatGraph)
    assert read_flat(flat_file)[1:] == (gen, stamp)


def test_a_damaged_flat_graph_is_refused_with_one_warning_and_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    flat_file = _flat_file(paths)
    data = flat_file.read_bytes()
    flat_file.write_bytes(data[: len(data) - 5])
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(snapshot, "_frozen", True)
    with caplog.at_level(logging.INFO, logger="rubi"):
        assert _answers(paths) == live_answers
    said = [r.getMessage() for r in caplog.records if "graph.flat" in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0] and "truncated" in said[0]
    assert flat_file.read_bytes() == data  # written again, as it was
