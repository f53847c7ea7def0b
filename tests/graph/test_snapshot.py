"""A graph snapshot reads back as the graph that was saved (nodes, edges, their
order, the key dicts networkx shares between its successor and predecessor views,
the notes, name tables, readers and resolver), keeps working change by change like
the graph it was saved from, and is refused when it is of another format or outside
the user cache."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from rubi.core.errors import IndexCorruptError
from rubi.core.paths import cache_home
from rubi.graph import snapshot
from rubi.graph.live import LiveGraph, build_graph
from rubi.markdown import parse_note

from helpers import graph_notes


def _state(live: LiveGraph) -> dict[str, Any]:
    g = live.build.graph
    state = live.__getstate__()
    build = state.pop("build")
    return {
        "nodes": list(g.nodes(data=True)),
        "succ": [(u, list(nbrs.items())) for u, nbrs in g._succ.items()],
        "pred": [(v, list(nbrs.items())) for v, nbrs in g._pred.items()],
        "build": {k: v for k, v in vars(build).items() if k != "graph"},
        "resolver": {k: (type(v), v) for k, v in vars(state.pop("_resolver")).items()},
        **{k: (type(v), v) for k, v in state.items()},
    }


@pytest.fixture
def snapshot_path() -> Path:
    return cache_home() / "indexes" / "vault-1" / "graph.pickle"


@pytest.mark.parametrize("chunk", [1, 3, snapshot.CHUNK])
def test_a_snapshot_reads_back_the_graph_it_saved(
    chunk: int, snapshot_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "CHUNK", chunk)
    live = LiveGraph.from_notes(graph_notes(), ["spec.pdf"])
    snapshot.save_snapshot(snapshot_path, live, 42)
    loaded, gen = snapshot.load_snapshot(snapshot_path)
    assert gen == 42
    assert _state(loaded) == _state(live)
    g = loaded.build.graph
    assert all(g._succ[u][v] is g._pred[v][u] for u in g._succ for v in g._succ[u])
    assert snapshot_path.stat().st_mode & 0o777 == 0o600


def test_a_loaded_snapshot_applies_changes_like_the_graph_it_came_from(
    snapshot_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "CHUNK", 2)
    notes = graph_notes()
    snapshot.save_snapshot(snapshot_path, LiveGraph.from_notes(notes, ["spec.pdf"]), 1)
    live, _ = snapshot.load_snapshot(snapshot_path)
    renamed = parse_note("---\naliases: [Delta]\n---\n# Beta\n\n[[plan]]\n", "beta.md")
    new = parse_note("# Missing one\n\n[[alpha]]\n", "Missing one.md")
    notes.update({renamed.id: renamed, new.id: new})
    del notes["bulk/n3"]
    live.apply(upserts=[renamed, new], removes=["bulk/n3"], attachments_added=["gone.png"])
    want = build_graph(notes, ["spec.pdf", "gone.png"])
    g, w = live.build.graph, want.graph
    assert dict(g.nodes(data=True)) == dict(w.nodes(data=True))
    assert sorted(g.edges(keys=True, data=True)) == sorted(w.edges(keys=True, data=True))
    assert live.build.names == want.names
    assert live.build.problems == want.problems


def test_a_snapshot_of_the_previous_format_is_rebuilt(snapshot_path: Path) -> None:
    snapshot_path.parent.mkdir(parents=True)
    with snapshot_path.open("wb") as fh:  # format 13: a header, then two parts
        pickle.dump((13, 5, 2), fh)
        pickle.dump({}, fh)
        pickle.dump({}, fh)
    with pytest.raises(IndexCorruptError, match="old format"):
        snapshot.load_snapshot(snapshot_path)


def test_an_unknown_class_in_a_snapshot_is_refused(snapshot_path: Path) -> None:
    snapshot_path.parent.mkdir(parents=True)
    with snapshot_path.open("wb") as fh:
        pickle.dump((snapshot.GRAPH_FORMAT, 5), fh)
        pickle.dump(("obj", "Popen", []), fh)
    with pytest.raises(IndexCorruptError, match="old format"):
        snapshot.load_snapshot(snapshot_path)


def test_a_snapshot_outside_the_user_cache_is_never_read(tmp_path: Path) -> None:
    planted = tmp_path / "vault" / ".index" / "graph.pickle"
    snapshot.save_snapshot(planted, LiveGraph.from_notes(graph_notes()), 1)
    with pytest.raises(IndexCorruptError, match="never loaded"):
        snapshot.load_snapshot(planted)
