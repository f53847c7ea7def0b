"""The graph's code nodes moved from map to map equal the graph built from scratch.

A scripted (seeded) sequence of code-map changes (files added and deleted, imports
added, dropped and reweighted, symbols renamed, files moved between modules, modules
coming and going, every rank shifting) runs on a :class:`LiveGraph` holding notes whose
``files:`` name files, folders and paths that only exist later. After every step the
graph must equal :meth:`LiveGraph.from_notes` on the same notes and map: nodes with
their attributes, edges with keys and attributes, the name tables and PageRank.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from typing import Any

import pytest

from rubi.codemap import CodeFile, CodeMap, Module, Symbol
from rubi.core.model import Note
from rubi.core.pagerank import pagerank
from rubi.graph.codediff import code_change, shape_digest
from rubi.graph.live import LiveGraph
from rubi.markdown import parse_note

FOLDERS = ["", "src/app", "src/app/db", "src/lib", "tests", "src/new"]
NAMES = [
    "Router",
    "Session",
    "Session.close",
    "dispatch_request",
    "parseHeader",
    "Config",
    "Config.load",
    "HTTPServer",
    "run",
    "make_app",
    "Engine",
    "Engine.start",
]
KINDS = ["class", "function", "method", "interface", "const"]


def _module(folder: str) -> str:
    return folder or "(root)"


def _file(rng: random.Random, path: str, names: list[str] | None = None) -> CodeFile:
    language = "java" if path.endswith(".java") else "python"
    picked = names if names is not None else rng.sample(NAMES, rng.randint(0, 5))
    symbols = tuple(Symbol(n, rng.choice(KINDS), i + 1) for i, n in enumerate(picked))
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    return CodeFile(path, language, 10, "0" * 64, _module(folder), (), (), symbols)


def _draw_edges(
    rng: random.Random, paths: list[str], edges: dict[tuple[str, str], float], count: int
) -> None:
    """Add, reweight or drop ``count`` import edges between ``paths`` in place."""
    for _ in range(count):
        src, dst = rng.sample(paths, 2)
        if (src, dst) in edges and rng.random() < 0.5:
            del edges[(src, dst)]
        else:
            edges[(src, dst)] = rng.choice([1.0, 0.5, 0.25])


def _code_map(
    rng: random.Random, files: dict[str, CodeFile], edges: dict[tuple[str, str], float]
) -> CodeMap:
    """A consistent map of ``files`` and the ``edges`` between them (others are
    dropped): modules by the files' own, random ranks, degrees counted."""
    files = dict(sorted(files.items()))
    paths = list(files)
    for key in [k for k in edges if k[0] not in files or k[1] not in files]:
        del edges[key]
    edges = dict(sorted(edges.items()))
    by_module: dict[str, list[str]] = {}
    for path, file in files.items():
        by_module.setdefault(file.module, []).append(path)
    modules = {
        name: Module(name, "" if name == "(root)" else name, name.replace("/", "-"), tuple(ps))
        for name, ps in sorted(by_module.items())
    }
    imports: dict[str, list[str]] = {}
    in_degree: dict[str, int] = {}
    for src, dst in edges:
        imports.setdefault(src, []).append(dst)
        in_degree[dst] = in_degree.get(dst, 0) + 1
    files = {
        p: f if f.imports == (got := tuple(imports.get(p, ()))) else replace(f, imports=got)
        for p, f in files.items()
    }
    if rng.random() < 0.3:  # a map read back with a delta lists its new files last
        items = list(files.items())
        rng.shuffle(items)
        files = dict(items)
    return CodeMap(
        files=files,
        modules=modules,
        edges=edges,
        file_rank={p: rng.random() for p in paths},
        module_rank={m: rng.random() for m in modules},
        in_degree=in_degree,
        out_degree={p: len(v) for p, v in imports.items()},
    )


def _new_path(rng: random.Random, step: int) -> str:
    folder = rng.choice(FOLDERS)
    name = f"f{step}.{rng.choice(['py', 'java'])}"
    return f"{folder}/{name}" if folder else name


def _notes() -> dict[str, Note]:
    texts = {
        "notes/db": "---\nfiles: [src/app/db/]\n---\n# DB\n\nSee [[notes/app]].\n",
        "notes/app": "---\nfiles: [src/app, ./src/lib/f0.py]\n---\n# App\n",
        "notes/later": "---\nfiles: [src/new/, src/app/f7.py, f9.java]\n---\n# Later\n",
        "notes/none": "---\nfiles: [nowhere/]\n---\n# None\n\n[[Missing]]\n",
        "notes/plain": "# Plain\n\nSee [[notes/db]].\n",
    }
    return {k: parse_note(t, k + ".md") for k, t in texts.items()}


def _state(live: LiveGraph) -> dict[str, Any]:
    g = live.build.graph
    return {
        "nodes": dict(g.nodes(data=True)),
        "edges": {(u, v, k): dict(d) for u, v, k, d in g.edges(keys=True, data=True)},
        "names": live.build.names,
        "code_names": live._code_names,
        "type_names": live.build.type_names,
        "defined_names": live.build.defined_names,
        "problems": live.build.problems,
    }


def _assert_same(live: LiveGraph, notes: dict[str, Note], code_map: CodeMap) -> None:
    full = LiveGraph.from_notes(notes, (), code_map)
    got, want = _state(live), _state(full)
    for key in want:
        assert got[key] == want[key], key
    g, h = live.build.graph, full.build.graph
    ranks = pagerank(g.nodes, ((u, v, 1.0) for u, v in g.edges()))
    for node, rank in pagerank(h.nodes, ((u, v, 1.0) for u, v in h.edges())).items():
        assert ranks[node] == pytest.approx(rank, abs=1e-9)


def _step(
    rng: random.Random,
    files: dict[str, CodeFile],
    edges: dict[tuple[str, str], float],
    step: int,
) -> None:
    """Change ``files`` and ``edges`` in place by one scripted edit."""
    op = rng.random()
    paths = sorted(files)
    _draw_edges(rng, paths, edges, rng.randint(0, 2))
    if op < 0.25 or len(paths) < 4:  # a new file (maybe in a folder no module had)
        path = _new_path(rng, step)
        files[path] = _file(rng, path)
    elif op < 0.4:  # a file deleted
        del files[rng.choice(paths)]
    elif op < 0.6:  # symbols renamed, added or dropped
        path = rng.choice(paths)
        files[path] = _file(rng, path)
    elif op < 0.7:  # a whole folder goes (its module with it)
        folder = rng.choice(FOLDERS[1:])
        for path in paths:
            if path.rsplit("/", 1)[0] == folder and len(files) > 3:
                del files[path]
    elif op < 0.8:  # a file moves to another module (the grouping changed)
        path = rng.choice(paths)
        files[path] = replace(files[path], module=_module(rng.choice(FOLDERS)))
    elif op < 0.9:  # twins: a new file beside another with its symbols (and both with 4)
        a = rng.choice(paths)
        names = list(dict.fromkeys([s.name for s in files[a].symbols] + NAMES[:4]))
        files[a] = _file(rng, a, names)
        twin = a.rsplit(".", 1)[0] + f"_v{step}." + a.rsplit(".", 1)[1]
        files[twin] = _file(rng, twin, [*names, "Extra"] if rng.random() < 0.5 else names)
    else:  # imports only (every map draws new ranks)
        _draw_edges(rng, paths, edges, 3)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_scripted_code_changes_match_a_rebuild(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    files: dict[str, CodeFile] = {}
    for i in range(40):
        path = _new_path(rng, i)
        files[path] = _file(rng, path)
    files["src/lib/f0.py"] = _file(rng, "src/lib/f0.py", ["Router", "Config", "run"])
    edges: dict[tuple[str, str], float] = {}
    _draw_edges(rng, sorted(files), edges, 60)
    notes = _notes()
    code_map = _code_map(rng, files, edges)
    live = LiveGraph.from_notes(notes, (), code_map)
    _assert_same(live, notes, code_map)
    rebuilds: list[CodeMap | None] = []
    rebuild = LiveGraph._rebuild_code_map

    def counted(self: LiveGraph, code_map: CodeMap | None) -> None:
        if self is live:
            rebuilds.append(code_map)
        rebuild(self, code_map)

    monkeypatch.setattr(LiveGraph, "_rebuild_code_map", counted)
    for step in range(40):
        _step(rng, files, edges, step + 100)
        new = _code_map(rng, files, edges)
        live.set_code_map(new)
        _assert_same(live, notes, new)
        assert live._graph_map is new
    assert len(rebuilds) <= 8  # most steps move (a folder dropped may pass the share)


def test_a_small_change_moves_the_graph_instead_of_rebuilding_it() -> None:
    rng = random.Random(7)
    files = {p: _file(rng, p) for p in (f"src/app/m{i}.py" for i in range(40))}
    notes = _notes()
    old = _code_map(rng, files, {})
    live = LiveGraph.from_notes(notes, (), old)
    kept = live.build.graph._node["src/app/m3.py"]
    files["src/app/f7.py"] = _file(rng, "src/app/f7.py", ["dispatch_request"])
    new = replace(
        _code_map(rng, files, {}), files={**old.files, "src/app/f7.py": files["src/app/f7.py"]}
    )
    change = code_change(old, new)
    assert change.added == ("src/app/f7.py",)
    assert change.removed == change.changed == ()
    live.set_code_map(new)
    assert live.build.graph._node["src/app/m3.py"] is kept  # moved, not rebuilt
    assert ("notes/later", "src/app/f7.py", "about_file") in live.build.graph.edges(keys=True)
    assert "src/app/f7.py" in live.build.names["dispatch_request"]


def test_a_graph_read_back_moves_from_the_map_it_was_saved_with() -> None:
    """A snapshot holds no map: the session passes the previous one, used only when
    it has the shape the graph was saved with (its digest)."""
    rng = random.Random(3)
    files = {p: _file(rng, p) for p in (f"src/lib/m{i}.py" for i in range(10))}
    notes = _notes()
    old = _code_map(rng, files, {("src/lib/m1.py", "src/lib/m2.py"): 1.0})
    live = LiveGraph.from_notes(notes, (), old)
    live.__setstate__(live.__getstate__())  # as a snapshot reads it back
    assert live._graph_map is None
    files["src/new/f1.py"] = _file(rng, "src/new/f1.py")
    new = _code_map(rng, files, {("src/new/f1.py", "src/lib/m2.py"): 0.5})
    live.set_code_map(new, previous=old)
    _assert_same(live, notes, new)
    reordered = replace(new, files=dict(reversed(new.files.items())))
    assert shape_digest(reordered) == shape_digest(new)
    other = _code_map(rng, {p: _file(rng, p) for p in ("a.py", "b.py")}, {})
    live.__setstate__(live.__getstate__())
    live.set_code_map(other, previous=old)  # not the graph's map: built afresh
    _assert_same(live, notes, other)
    # The same files with another edge: not the graph's map either.
    same_files = _code_map(rng, dict(other.files), {("a.py", "b.py"): 1.0})
    live.__setstate__(live.__getstate__())
    live.set_code_map(other, previous=same_files)
    _assert_same(live, notes, other)
    assert live._map_digest is None and live._graph_map is other


def test_a_graph_read_back_knows_its_map_by_shape_id_without_a_digest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A snapshot names the shape of its map (the map's shape id): the next process
    moves the code nodes from the map saved beside it without hashing 10,000 files,
    and a map of another shape is never taken for it."""
    rng = random.Random(11)
    files = {p: _file(rng, p) for p in (f"src/lib/m{i}.py" for i in range(10))}
    notes = _notes()
    old = _code_map(rng, files, {("src/lib/m1.py", "src/lib/m2.py"): 1.0})
    live = LiveGraph.from_notes(notes, (), old)
    saved = pickle.dumps(live.__getstate__())

    def no_digest(_: CodeMap) -> bytes:
        raise AssertionError("shape digest taken")

    monkeypatch.setattr("rubi.graph.codediff.shape_digest", no_digest)
    read_back = pickle.loads(pickle.dumps(old))  # as the map file gives it
    assert read_back.shape_id == old.shape_id
    live.__setstate__(pickle.loads(saved))
    assert live.recognize_code_map(read_back)
    files["src/new/f1.py"] = _file(rng, "src/new/f1.py")
    new = _code_map(rng, files, {("src/new/f1.py", "src/lib/m2.py"): 0.5})
    assert new.shape_id != old.shape_id
    live.__setstate__(pickle.loads(saved))
    live.set_code_map(new, previous=read_back)
    assert live._graph_map is new
    _assert_same(live, notes, new)
    # The same files with another edge (a new map, a new id): built afresh.
    other = _code_map(rng, dict(old.files), {("src/lib/m2.py", "src/lib/m1.py"): 1.0})
    live.__setstate__(pickle.loads(saved))
    assert not live.recognize_code_map(other)
    live.set_code_map(new, previous=other)
    _assert_same(live, notes, new)


def test_a_snapshot_written_before_shape_ids_is_recognized_by_its_digest() -> None:
    rng = random.Random(13)
    files = {p: _file(rng, p) for p in (f"src/lib/m{i}.py" for i in range(6))}
    notes = _notes()
    old = _code_map(rng, files, {("src/lib/m1.py", "src/lib/m2.py"): 1.0})
    live = LiveGraph.from_notes(notes, (), old)
    state = live.__getstate__()
    del state["_map_shape"]  # an older rubi wrote the digest instead
    state["_map_digest"] = shape_digest(old)
    live.__setstate__(state)
    assert live.recognize_code_map(replace(old, shape_id="another"))
    live.__setstate__(state)
    assert not live.recognize_code_map(_code_map(rng, files, {}))


def test_no_map_removes_the_code_nodes() -> None:
    rng = random.Random(5)
    files = {p: _file(rng, p) for p in ("src/app/a.py", "src/app/b.py")}
    notes = _notes()
    live = LiveGraph.from_notes(notes, (), _code_map(rng, files, {}))
    live.set_code_map(None)
    want = LiveGraph.from_notes(notes)
    assert _state(live) == _state(want)
