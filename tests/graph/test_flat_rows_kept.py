"""A flat graph written from a graph read back from a snapshot takes the adjacency rows
of the nodes unchanged since that snapshot from the file it replaces, when that file
names the same snapshot and the same node ids; the graph read back is the same as one
written afresh. A frozen graph records the nodes whose rows its changes touch; another
snapshot, other node ids or a thawed graph encode every row."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from graph.test_flat_graph import live, path
from rubi import app
from rubi.core.paths import VaultPaths
from rubi.graph import flatwrite, readmode
from rubi.graph.codediff import _move_imports
from rubi.graph.flat import read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.frozen import FrozenGraph
from rubi.graph.live import LiveGraph
from rubi.sync import forget_vault_syncs, oneshot

from helpers import login_project, write

__all__ = ["live", "path"]  # the fixtures, shared


def _frozen(live: LiveGraph) -> FrozenGraph:
    """``live``'s graph as a snapshot read frozen gives it (the same dicts)."""
    g: Any = live.build.graph
    frozen = FrozenGraph(g.graph, g._node, g._succ, g._pred)
    live.build.graph = frozen
    return frozen


def _content(path: Path) -> bytes:
    """What a reader reads of the flat graph at ``path``: node ids in order, their
    attributes, each node's successors and predecessors in order with their edge keys
    and attributes, the name tables and link problems."""
    build, gen, stamp = read_flat(path)
    g: Any = build.graph
    ids = list(g)
    tables = {
        name: sorted((k, repr(getattr(build, name)[k])) for k in getattr(build, name))
        for name in ("names", "type_names", "defined_names", "problems_by_note")
    }
    rows = [
        (
            n,
            g.nodes[n],
            [(v, list(kd.items())) for v, kd in g.succ[n].items()],
            [(v, list(kd.items())) for v, kd in g.pred[n].items()],
        )
        for n in ids
    ]
    return pickle.dumps((gen, stamp, g.graph, rows, tables))


def _fresh(live: LiveGraph, path: Path) -> bytes:
    """The content of a write with no file to replace (every row encoded)."""
    other = path.with_name("fresh.flat")
    other.unlink(missing_ok=True)
    write_flat(other, live.build, 7, 3)
    return _content(other)


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The directions whose every row was encoded (not copied), as writes go."""
    directions: list[str] = []
    adjacency = flatwrite._Writer._adjacency

    def recorded(self: object, direction: str, *args: Any) -> None:
        if args[-1] is None:  # no rows to encode again named: every row encoded
            directions.append(direction)
        adjacency(self, direction, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(flatwrite._Writer, "_adjacency", recorded)
    return directions


def test_rows_unchanged_since_the_snapshot_are_copied_and_read_as_a_fresh_write(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    g = _frozen(live)
    write_flat(path, live.build, 7, 3, ("snap-1", frozenset()))  # written with the snapshot
    assert encoded == ["succ", "pred"]
    g.add_edge("src/app.py", "plan", key="imports", relation="imports", weight=2.0)  # a new pair
    g.add_edge("src/app.py", "alpha", key="imports", relation="imports", weight=0.75)  # updated
    _move_imports(g, {("plan", "src/app.py"): 1.0}, {("plan", "src/app.py"): 3.0})  # in place
    g.nodes["src/app.py"]["rank"] = 0.5  # every rank moves
    assert g.touched() == {"src/app.py", "plan", "alpha"}
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))
    assert encoded == []  # every other row copied from the file replaced
    assert _content(path) == _fresh(live, path)
    g.remove_edge("src/app.py", "plan", key="imports")  # a second run from the same snapshot
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))
    assert encoded == []
    assert _content(path) == _fresh(live, path)


def test_a_node_added_or_removed_at_the_end_keeps_the_other_rows(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    g = _frozen(live)
    write_flat(path, live.build, 7, 3, ("snap-1", frozenset()))
    g.add_edge("src/new.py", "src/app.py", key="imports", relation="imports", weight=1.0)
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))  # a new file's node, last
    assert encoded == []
    assert _content(path) == _fresh(live, path)
    g.remove_node("src/new.py")  # and gone again: the ids end earlier
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))
    assert encoded == []
    assert _content(path) == _fresh(live, path)


def test_a_change_in_place_the_graph_did_not_record_shows_the_rows_are_copied(
    live: LiveGraph, path: Path
) -> None:
    g = _frozen(live)
    write_flat(path, live.build, 7, 3, ("snap-1", frozenset()))
    g._succ["src/app.py"]["alpha"]["imports"]["weight"] = 9.0  # not through the graph
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))
    assert _content(path) != _fresh(live, path)  # the old row was taken: touch() is needed
    g.touch("src/app.py", "alpha")
    write_flat(path, live.build, 7, 3, ("snap-1", g.touched()))
    assert _content(path) == _fresh(live, path)


def test_another_snapshot_other_ids_or_no_origin_encode_every_row(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    g = _frozen(live)
    write_flat(path, live.build, 7, 3, ("snap-1", frozenset()))
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-2", frozenset()))  # another snapshot's
    assert encoded == ["succ", "pred"]
    g.remove_node("alpha")  # the node ids differ (not at the end)
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-2", g.touched()))
    assert encoded == ["succ", "pred"]
    assert _content(path) == _fresh(live, path)
    encoded.clear()
    write_flat(path, live.build, 7, 3)  # no origin: none recorded either
    write_flat(path, live.build, 7, 3, ("snap-2", frozenset()))
    assert encoded == ["succ", "pred"] * 2


def test_a_thawed_graph_records_nothing(live: LiveGraph) -> None:
    g = _frozen(live)
    g.add_edge("plan", "alpha", key="x", relation="x")
    assert g.touched() == {"plan", "alpha"}
    g.thaw()
    assert g.touched() is None  # a change through networkx would not be seen
    g.retrack()
    assert g.touched() is None


def _project(root: Path) -> VaultPaths:
    """A project of 23 Python files (an edit of one moves the graph's code nodes, not
    builds them again), indexed in full."""
    login_project(root)
    write(root / "src" / "util.py", "def helper():\n    return 1\n")
    for i in range(20):
        write(root / "src" / f"part{i}.py", f"import util\n\n\ndef part{i}():\n    return {i}\n")
    write(root / "src" / "app.py", "import os\n\n\ndef main():\n    return os.name\n")
    paths = app.locate(root / ".rubi")
    app.index(paths, full=True)
    return paths


def _cold_index(paths: VaultPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rubi index`` as a new process runs it: one-shot, the snapshot read frozen."""
    forget_vault_syncs()
    with monkeypatch.context() as patch:
        patch.setattr(readmode, "_frozen", True)
        patch.setattr(oneshot, "_ONE_SHOT", [True])
        app.index(paths)
    forget_vault_syncs()


@pytest.mark.parametrize(
    "edits",
    [
        ["import util\n", "", "import util\nimport auth\n"],  # an import added, removed, two
    ],
)
def test_cold_import_edits_give_the_flat_graph_a_fresh_write_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edits: list[str], encoded: list[str]
) -> None:
    kept = _project(tmp_path / "kept")
    twin = _project(tmp_path / "twin")
    for head in edits:
        for paths in (kept, twin):
            root = paths.project_root
            assert root is not None
            text = f"{head}import os\n\n\ndef main():\n    return os.name\n"
            write(root / "src" / "app.py", text)
        twin_flat = twin.graph_file.with_name("graph.flat")
        twin_flat.unlink()  # the twin's run has no file to copy from
        encoded.clear()
        _cold_index(kept, monkeypatch)
        assert encoded == []  # the kept project's rows were copied
        _cold_index(twin, monkeypatch)
        assert encoded == ["succ", "pred"]
        assert _content(kept.graph_file.with_name("graph.flat")) == _content(twin_flat)


def test_a_snapshot_written_names_its_graph_until_forgotten(live: LiveGraph, path: Path) -> None:
    from rubi.sync.snapshots import Snapshots

    snapshots = Snapshots(path.with_name("graph.pickle"))
    g = _frozen(live)
    snapshots.save(live, 7)  # the snapshot and the flat graph, written together
    origin = snapshots._origin_of(live, None)
    assert origin is not None and origin[1] == frozenset()
    assert read_flat(path)[0].graph.graph == g.graph
    g.add_edge("plan", "alpha", key="x", relation="x")
    assert snapshots._origin_of(live, None) == (origin[0], {"plan", "alpha"})
    other = LiveGraph.from_notes({}, [])
    assert snapshots._origin_of(other, None) is None  # another graph: no origin
    snapshots.forget_origin()  # a full build dropped the graph: not kept for it either
    assert snapshots._origin_of(live, None) is None


def test_an_origin_with_most_rows_changed_is_not_recorded(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    g = _frozen(live)
    everything = frozenset(g)  # every row changed since the snapshot
    write_flat(path, live.build, 7, 3, ("snap-1", everything))
    encoded.clear()
    write_flat(path, live.build, 7, 3, ("snap-1", frozenset()))  # nothing named to copy from
    assert encoded == ["succ", "pred"]
    assert _content(path) == _fresh(live, path)


def test_a_snapshot_header_without_an_id_is_read_as_before(live: LiveGraph, path: Path) -> None:
    from rubi.graph.snapshot import GRAPH_FORMAT, load_snapshot_ident, save_snapshot

    saved = path.with_name("graph.pickle")
    ident = save_snapshot(saved, live, 7)
    assert len(ident) == 32 and load_snapshot_ident(saved)[1:] == (7, ident)
    with saved.open("rb") as fh:  # an older rubi's header: (format, generation)
        pickle.load(fh)
        rest = fh.read()
    saved.write_bytes(pickle.dumps((GRAPH_FORMAT, 7), protocol=pickle.HIGHEST_PROTOCOL) + rest)
    read, gen, none = load_snapshot_ident(saved)
    assert (gen, none) == (7, None)
    assert list(read.build.graph) == list(live.build.graph)
