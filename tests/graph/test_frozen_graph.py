"""A graph snapshot read back frozen (a one-shot search process: no networkx) reads
as the networkx graph it was saved from, in the same orders; replays the store's
changes into the same dicts, in the same orders, without networkx; hands whatever
else it is asked to a networkx graph over those same dicts; and is saved as the same
file."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from rubi.core.paths import cache_home
from rubi.graph import readmode, snapshot
from rubi.graph.frozen import FrozenGraph
from rubi.graph.live import LiveGraph
from rubi.markdown import parse_note

from helpers import graph_notes


def _written(path: Path) -> tuple[object, bytes]:
    """A snapshot file's header without the write's random id, and the bytes after it
    (each write has an id of its own: ``rubi.graph.snapshot.save_snapshot``)."""
    with path.open("rb") as fh:
        header = pickle.load(fh)
        return header[:2], fh.read()


def _dicts(g: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """The graph's three dicts, every level in its order."""

    def nested(adj: dict[str, dict[str, dict[str, Any]]]) -> list[Any]:
        return [
            (u, [(v, list(keys.items())) for v, keys in nbrs.items()]) for u, nbrs in adj.items()
        ]

    return list(g._node.items()), nested(g._succ), nested(g._pred)


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch) -> Path:
    path = cache_home() / "indexes" / "vault-1" / "graph.pickle"
    monkeypatch.setattr(snapshot, "CHUNK", 3)
    snapshot.save_snapshot(path, LiveGraph.from_notes(graph_notes(), ["spec.pdf"]), 7)
    return path


def _load(path: Path, frozen: bool, monkeypatch: pytest.MonkeyPatch) -> LiveGraph:
    monkeypatch.setattr(readmode, "_frozen", frozen)
    live, gen = snapshot.load_snapshot(path)
    assert gen == 7
    return live


def test_a_frozen_snapshot_reads_as_the_networkx_graph(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _load(saved, False, monkeypatch).build.graph
    f = _load(saved, True, monkeypatch).build.graph
    assert isinstance(f, FrozenGraph) and isinstance(g, nx.MultiDiGraph)
    assert _dicts(f) == _dicts(g)
    assert list(f) == list(g) and len(f) == len(g) and f.graph == g.graph
    for n in g:
        assert n in f
        assert f.nodes[n] == g.nodes[n] and f.nodes.get(n) == g.nodes.get(n)
        assert list(f.succ[n]) == list(g.succ[n]) and list(f.pred[n]) == list(g.pred[n])
        assert list(f.adj[n]) == list(g.adj[n])
        assert all(f.succ[n][v] is f.pred[v][n] for v in f.succ[n])
        assert f.in_degree(n) == g.in_degree(n)
        assert f.out_edges(n, keys=True) == list(g.out_edges(n, keys=True))
    assert "nowhere" not in f and f.nodes.get("nowhere") is None
    assert ["a", "list"] not in f  # unhashable: no node, as networkx says
    with pytest.raises(TypeError):
        f.nodes["plan"] = {}  # type: ignore[index]


def test_a_frozen_graph_replays_changes_into_the_same_dicts_without_networkx(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _load(saved, False, monkeypatch)
    frozen = _load(saved, True, monkeypatch)
    renamed = parse_note(
        "---\naliases: [Delta]\n---\n# Beta\n\n[[plan]] [[Missing 1]]\n", "beta.md"
    )
    new = parse_note("# Missing one\n\n[[alpha]] [[alpha]]\n", "Missing one.md")
    again = parse_note("# N5\n\n[[Missing 9]]\n", "bulk/n5.md")
    rounds = [
        {"upserts": [renamed, new], "removes": ["bulk/n3"], "attachments_added": ["gone.png"]},
        {"upserts": [again], "removes": ["alpha", "bulk/n0"], "attachments_removed": ["spec.pdf"]},
        {"upserts": [parse_note("# Alpha\n\n[[beta]]\n", "alpha.md")], "removes": ["beta"]},
    ]
    for changes in rounds:
        assert plain.apply(**changes) == frozen.apply(**changes)
        assert isinstance(frozen.build.graph, FrozenGraph)  # no networkx for a replay
        assert _dicts(frozen.build.graph) == _dicts(plain.build.graph)
        assert frozen.build.names == plain.build.names
        assert frozen.build.problems == plain.build.problems


def test_a_frozen_graph_hands_anything_else_to_networkx_over_the_same_dicts(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = _load(saved, False, monkeypatch).build.graph
    f = _load(saved, True, monkeypatch).build.graph
    assert sorted(f.edges(keys=True, data=True)) == sorted(g.edges(keys=True, data=True))
    full = f.thaw()
    assert full is f.thaw() and full._node is f._node and full._succ is f._succ
    full.add_edge("plan", "beta", key="links_to")
    assert "beta" in f.succ["plan"]


def test_a_code_map_change_thaws_the_graph_first(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _load(saved, False, monkeypatch)
    frozen = _load(saved, True, monkeypatch)
    dicts = frozen.build.graph._node
    plain.set_code_map(None)
    frozen.set_code_map(None)
    assert isinstance(frozen.build.graph, nx.MultiDiGraph)
    assert frozen.build.graph._node is dicts  # thawed in place: nothing copied
    assert _dicts(frozen.build.graph) == _dicts(plain.build.graph)


def test_a_frozen_graph_is_saved_as_the_same_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen = _load(saved, True, monkeypatch)
    again = saved.with_name("again.pickle")
    snapshot.save_snapshot(again, frozen, 7)
    assert _written(again) == _written(saved)


def test_has_edge_answers_as_networkx(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    g = _load(saved, False, monkeypatch).build.graph
    f = _load(saved, True, monkeypatch).build.graph
    pairs = [(u, v) for u in g for v in g.succ[u]][:20]
    asked = [(u, v, k) for u, v in pairs for k in (None, "links_to", "about_file", "nope")]
    asked += [("nowhere", "plan", None), ("plan", "nowhere", "links_to"), ("plan", "plan", None)]
    assert [f.has_edge(*a) for a in asked] == [g.has_edge(*a) for a in asked]
    assert any(f.has_edge(*a) for a in asked) and not all(f.has_edge(*a) for a in asked)
    assert isinstance(f, FrozenGraph) and f._full is None  # answered without networkx


def test_a_code_map_moved_on_a_frozen_graph_makes_the_same_dicts_without_thawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold ``rubi index`` reads the snapshot frozen; an import edit moves its code
    nodes in place (:mod:`rubi.graph.codediff`), as on the networkx graph, step for
    step, with networkx never asked."""
    from rubi.codemap import build_code_map
    from sync.test_code_graph_sync import EDITS, FILES

    from helpers import write

    root = tmp_path / "proj"
    for rel, text in FILES.items():
        write(root / rel, text)
    before = build_code_map(root)
    path = cache_home() / "indexes" / "vault-2" / "graph.pickle"
    live = LiveGraph.from_notes(graph_notes(), ["spec.pdf"], before)
    live.code_stamp = 1
    snapshot.save_snapshot(path, live, 7)
    plain = _load(path, False, monkeypatch)
    frozen = _load(path, True, monkeypatch)
    thawed: list[str] = []
    thaw = FrozenGraph.thaw
    monkeypatch.setattr(FrozenGraph, "thaw", lambda g: thawed.append("thaw") or thaw(g))
    previous = before
    for what, edit in EDITS:
        for rel, text in edit.items():
            if text is None:
                (root / rel).unlink()
            else:
                write(root / rel, text)
        code_map = build_code_map(root)
        plain.set_code_map(code_map, previous)
        frozen.set_code_map(code_map, previous)
        previous = code_map
        assert isinstance(frozen.build.graph, FrozenGraph), what
        assert _dicts(frozen.build.graph) == _dicts(plain.build.graph), what
        for table in ("names", "type_names", "defined_names"):
            assert getattr(frozen.build, table) == getattr(plain.build, table), (what, table)
    assert thawed == []
    again = path.with_name("again.pickle")
    snapshot.save_snapshot(again, frozen, 8)  # read frozen, written without networkx
    snapshot.save_snapshot(path, plain, 8)
    assert _written(again) == _written(path)


def test_a_thawed_graph_is_saved_as_the_same_file_by_a_process_reading_frozen(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A graph a frozen reader thawed (or built) is a ``networkx.MultiDiGraph``; saved
    while the process reads frozen, it is written as any graph is."""
    frozen = _load(saved, True, monkeypatch)
    frozen.build.graph = frozen.build.graph.thaw()
    again = saved.with_name("again.pickle")
    snapshot.save_snapshot(again, frozen, 7)
    assert _written(again) == _written(saved)
