"""The code moves a graph snapshot has not taken yet (``graph.codeback``), so a run
that only moved code nodes need not rewrite the whole snapshot.

An edit that changes imports moves a few files' edges and every file's rank; the
snapshot (:mod:`rubi.graph.snapshot`, 11 MB on spring-framework's 9,724 files) holds
the whole graph, so rewriting it for that cost 0.18–0.24 s of CPU in every such cold
``rubi index``. Instead, the run that moved the code nodes of a graph read back from
the snapshot writes this small file: what the snapshot's code map (the *base*, the map
whose :attr:`~rubi.codemap.CodeMap.shape_id` the snapshot recorded) holds where it
differs from the map the run moved to (the *head*): the base's entries of the files
that came, went or changed, the base's weights of the import edges that differ, and
the base's module names. The next process that reads the snapshot and holds the head
(the saved map, or the map before its own run) makes the base map again from it
(:meth:`CodeBack.base_map`) and moves the code nodes from there as before
(:meth:`rubi.graph.live.LiveGraph.set_code_map`): the same graph a full rebuild makes,
as a move from the snapshot's own map is. The flat graph is still written by the run;
the snapshot is written in full when the journal behind it grows long, when the file
here would grow past :data:`MAX_FILES` or :data:`MAX_EDGES`, or when the graph was not
moved from the snapshot's map.

Judged by shape ids only: the file is used when its base is the snapshot's shape and
its head a map's at hand; otherwise (an older snapshot, another process's run, a
damaged or hand-made file) it is ignored and the code nodes are rebuilt as without it.
The file is JSON read strictly (untrusted: a wrong type is a file ignored); a graph
moved from a wrong base would still be right in what a move redoes (every rank,
every file the base and head disagree on) but not elsewhere, so nothing in it is
taken on trust beyond its shape ids, which a run writes only with the entries they
name.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from rubi.core.lazylog import get_logger

if TYPE_CHECKING:
    from rubi.codemap import CodeFile, CodeMap

__all__ = [
    "BACK_FORMAT",
    "MAX_BYTES",
    "MAX_EDGES",
    "MAX_FILES",
    "CodeBack",
    "code_back",
    "read_back",
]

log = get_logger(__name__)

BACK_FORMAT = 1
"""The file's ``format``; another value is a file ignored."""

MAX_FILES = 2000
"""Files the base and the head may disagree on before the snapshot is written in full
instead (each makes the file and its reading longer)."""

MAX_EDGES = 20000
"""Import edges likewise."""

MAX_BYTES = 64 << 20
"""A longer file is ignored unread (the code nodes rebuilt): :data:`MAX_FILES` rows and
:data:`MAX_EDGES` edges are a few MB (a file's row holds its imports and symbols), so
only a hand-made file is longer, and reading and parsing it whole would hold several
times its size in memory in every run that reads the snapshot."""


@dataclass(frozen=True)
class CodeBack:
    """The snapshot's code map (``base``) as its differences from a later map (``head``).

    Attributes:
        base: the snapshot's map's shape id.
        head: the shape id of the map the differences lead to.
        files: ``{path: the base's entry, or None where the base has no such file}``
            for every file the two maps disagree on.
        modules: the base's module names.
        edges: ``{(importer, imported): the base's weight, or None}`` for every edge
            whose weight differs or that only one map has.
    """

    base: str
    head: str
    files: dict[str, CodeFile | None]
    modules: tuple[str, ...]
    edges: dict[tuple[str, str], float | None]

    def base_map(self, head: CodeMap) -> CodeMap:
        """The base map made again from ``head`` (a map of shape :attr:`head`): its
        files, edges and module names, under the base's shape id. What a move reads of
        an old map is exactly these (:func:`rubi.graph.codediff.apply_code_change`); a
        module the head no longer has stands in by its name only."""
        from rubi.codemap.model import Module

        files = dict(head.files)
        for path, entry in self.files.items():
            if entry is None:
                files.pop(path, None)
            else:
                files[path] = entry
        edges = dict(head.edges)
        for edge, weight in self.edges.items():
            if weight is None:
                edges.pop(edge, None)
            else:
                edges[edge] = weight
        modules = {
            name: head.modules.get(name) or Module(name, "", "", ()) for name in self.modules
        }
        return replace(head, files=files, edges=edges, modules=modules, shape_id=self.base)


def code_back(base: CodeMap, head: CodeMap) -> CodeBack | None:
    """``base`` as its differences from ``head``; None when they disagree on more than
    :data:`MAX_FILES` files or :data:`MAX_EDGES` edges."""
    from rubi.graph.codediff import code_change

    change = code_change(base, head)
    if change.size > MAX_FILES:
        return None
    before = base.files
    files = {p: before.get(p) for p in (*change.added, *change.removed, *change.changed)}
    get = base.edges.get
    edges: dict[tuple[str, str], float | None] = {
        edge: get(edge) for edge, weight in head.edges.items() if get(edge) != weight
    }
    if len(base.edges) != len(head.edges) - sum(1 for w in edges.values() if w is None):
        for edge in base.edges.keys() - head.edges.keys():
            edges[edge] = base.edges[edge]
    if len(edges) > MAX_EDGES:
        return None
    return CodeBack(base.shape_id, head.shape_id, files, tuple(base.modules), edges)


def write_back(path: Path, back: CodeBack) -> None:
    """Write ``back`` to ``path`` atomically (the user's own file, 0600).

    Raises:
        OSError: the folder is not writable or the disk is full.
    """
    from rubi.core.atomic import atomic_write_stream

    doc = {
        "format": BACK_FORMAT,
        "base": back.base,
        "head": back.head,
        "files": {p: None if f is None else _row(f) for p, f in back.files.items()},
        "modules": list(back.modules),
        "edges": [[a, b, w] for (a, b), w in back.edges.items()],
    }
    data = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )

    def write(fh: BinaryIO) -> None:
        fh.write(data)

    atomic_write_stream(path, write, mode=0o600)


def _row(f: CodeFile) -> list[Any]:
    return [
        f.language,
        f.size,
        f.sha256,
        f.module,
        list(f.imports),
        list(f.external),
        [[s.name, s.kind, s.line] for s in f.symbols],
    ]


def read_back(path: Path, base: str) -> CodeBack | None:
    """The file at ``path`` when it is of this format and its base is ``base``; None
    when it is missing, untrusted (:func:`rubi.core.picklefiles.open_trusted`), of
    another base, or not what :func:`write_back` writes (one line logged for a
    damaged or untrusted file)."""
    from rubi.core.errors import RubiError
    from rubi.core.picklefiles import open_trusted

    try:
        with open_trusted(path) as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except (OSError, RubiError) as exc:
        log.info("%s: not read (%s); the code nodes are rebuilt", path, exc)
        return None
    if len(data) > MAX_BYTES:
        log.info("%s: not read (over %d bytes); the code nodes are rebuilt", path, MAX_BYTES)
        return None
    try:
        doc = json.loads(data.decode("utf-8", "surrogatepass"))
        if not isinstance(doc, dict) or doc.get("format") != BACK_FORMAT:
            return None
        if doc.get("base") != base:
            return None
        return _parsed(doc)
    except (ValueError, TypeError, KeyError, RecursionError, OverflowError) as exc:
        # RecursionError: arrays nested past the parser's limit; OverflowError: a
        # weight too large for a float (neither is a ValueError)
        log.info("%s: not read (%s); the code nodes are rebuilt", path, exc)
        return None


def _str(value: object) -> str:
    if type(value) is not str:
        raise TypeError("a string expected")
    return value


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError("an integer expected")
    return value


def _strs(value: object) -> tuple[str, ...]:
    if type(value) is not list:
        raise TypeError("a list expected")
    return tuple(map(_str, value))


def _entry(path: str, row: object) -> CodeFile | None:
    from rubi.codemap.model import CodeFile, Symbol

    if row is None:
        return None
    if type(row) is not list or len(row) != 7:
        raise TypeError("a file row expected")
    language, size, sha, module, imports, external, symbols = row
    if type(symbols) is not list:
        raise TypeError("a list expected")
    syms = []
    for s in symbols:
        if type(s) is not list or len(s) != 3:
            raise TypeError("a symbol row expected")
        syms.append(Symbol(_str(s[0]), _str(s[1]), _int(s[2])))
    return CodeFile(
        path,
        _str(language),
        _int(size),
        _str(sha),
        _str(module),
        _strs(imports),
        _strs(external),
        tuple(syms),
    )


def _parsed(doc: dict[str, Any]) -> CodeBack:
    files = doc["files"]
    edges = doc["edges"]
    if type(files) is not dict or type(edges) is not list:
        raise TypeError("a table expected")
    moved: dict[tuple[str, str], float | None] = {}
    for row in edges:
        if type(row) is not list or len(row) != 3:
            raise TypeError("an edge row expected")
        weight = row[2]
        if weight is not None and (type(weight) not in (int, float) or not math.isfinite(weight)):
            raise TypeError("a finite weight expected")  # NaN, Infinity: json.loads takes them
        moved[(_str(row[0]), _str(row[1]))] = None if weight is None else float(weight)
    return CodeBack(
        _str(doc["base"]),
        _str(doc["head"]),
        {_str(p): _entry(p, row) for p, row in files.items()},
        _strs(doc["modules"]),
        moved,
    )
