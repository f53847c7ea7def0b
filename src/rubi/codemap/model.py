"""Values of the code map: files, symbols, modules, the ranked map and note references.

Paths are repository-relative POSIX strings (``src/flask/app.py``); nothing here holds
an absolute path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

from rubi.core.model import ScanWarning

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BuildStats",
    "CodeFile",
    "CodeMap",
    "ImportSpec",
    "Module",
    "NoteRef",
    "Parsed",
    "Symbol",
    "new_shape_id",
]


@dataclass(frozen=True, slots=True)
class Symbol:
    """A top-level definition in a file.

    Attributes:
        name: as written; methods of Go types are ``Type.Method``.
        kind: ``class``, ``function``, ``method``, ``type``, ``interface``, ``enum``,
            ``trait``, ``struct``, ``const``, ``variable``, ``module``, ``macro``,
            ``mixin`` (the language's own word where it has one).
        line: 1-based line of the definition.
    """

    name: str
    kind: str
    line: int

    def __reduce__(self) -> tuple[type[Symbol], tuple[str, str, int]]:
        # Pickled as a constructor call: a large map holds ~100,000 symbols, and the
        # dataclass state protocol (fields() per object) tripled its save and load.
        return (Symbol, (self.name, self.kind, self.line))


@dataclass(frozen=True, slots=True)
class ImportSpec:
    """One import as written, before resolution (so it can be cached by content).

    Attributes:
        kind: language-specific form (``import``/``from`` in Python, ``require``,
            ``dynamic``, ``use``, ``mod``, ``include``...).
        target: the specifier (``..pkg.mod``, ``./router``, ``crate::a::b``...).
        names: imported names where the language lists them (``from x import a, b``).
    """

    kind: str
    target: str
    names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Parsed:
    """What parsing one file yields; depends on the file's bytes only, never its path.

    Attributes:
        imports: import statements in source order.
        symbols: top-level definitions in source order.
        package: the declared package or namespace (Go, Java, Kotlin, PHP, Dart), or "".
        idents: sorted identifiers the file uses, kept only for languages whose files
            see their package's names without importing them (Go, Java, Kotlin, PHP).
        problems: why the parse was partial (syntax error...), reported as warnings
            on every run, also when the entry comes from the cache.
    """

    imports: tuple[ImportSpec, ...] = ()
    symbols: tuple[Symbol, ...] = ()
    package: str = ""
    idents: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CodeFile:
    """A mapped source file.

    Attributes:
        path: repository-relative POSIX path.
        language: ``python``, ``typescript``, ``javascript``, ``go``, ``rust``...
        size: bytes on disk.
        sha256: hex digest of the bytes.
        module: name of the :class:`Module` holding the file.
        imports: repository files it imports, sorted, without itself.
        external: imports that name no repository file (third-party packages, or a
            relative path that does not exist), sorted; standard libraries are left out.
        symbols: top-level definitions in source order.
    """

    path: str
    language: str
    size: int
    sha256: str
    module: str
    imports: tuple[str, ...]
    external: tuple[str, ...]
    symbols: tuple[Symbol, ...]

    def __reduce__(self) -> tuple[type[CodeFile], tuple[object, ...]]:
        # A constructor call, like :class:`Symbol`.
        return (
            CodeFile,
            (
                self.path,
                self.language,
                self.size,
                self.sha256,
                self.module,
                self.imports,
                self.external,
                self.symbols,
            ),
        )


@dataclass(frozen=True, slots=True)
class Module:
    """A group of files people talk about as one thing (a package, ``src/<x>``...).

    Attributes:
        name: display name (``flask``, ``router``, ``eslint-plugin/rules``, ``(root)``).
        folder: the repository folder it stands for ("" for the repository root).
        slug: file name stem of its page, ``modules/<slug>.md``.
        files: its files, sorted by path.
    """

    name: str
    folder: str
    slug: str
    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildStats:
    """What one :func:`rubi.codemap.build_code_map` run did.

    Attributes:
        listed: files the listing returned (before language and size filters).
        mapped: files in the map.
        parsed: files read and parsed in this run.
        reused: files whose parse came from the cache (unchanged content).
        hashed: files read to compute their hash (stat changed, or no cache).
        skipped: files left out with a warning (binary, too large, symlink...).
        elapsed_ms: wall time of the run.
        used_git: True when the listing came from ``git ls-files``.
        reused_shape: see the field.
        kept_graph: see the field.
    """

    listed: int = 0
    mapped: int = 0
    parsed: int = 0
    reused: int = 0
    hashed: int = 0
    skipped: int = 0
    elapsed_ms: float = 0.0
    used_git: bool = False
    reused_shape: bool = False
    """Every changed file kept its shape: the previous map's resolution, modules and
    ranks were kept (see ``previous`` in :func:`rubi.codemap.build_code_map`)."""
    kept_graph: bool = False
    """Some file changed shape, but not what a graph's code nodes are made of: the
    files, their languages, modules and symbol names, the modules and the edges are the
    previous map's, so its ranks, degrees and :attr:`CodeMap.shape_id` were kept (an
    import of a name outside the project; only the changed files' ``imports``,
    ``external`` and symbol lines differ). The map pages may still differ (a module
    page lists its external imports)."""

    def __setstate__(self, state: list[Any]) -> None:
        """Unpickled field by field; a state pickled before a later field existed (by
        an older rubi) gives that field its default."""
        names = fields(self)
        values = [*state, *(f.default for f in names[len(state) :])]
        for f, value in zip(names, values, strict=True):
            object.__setattr__(self, f.name, value)


@dataclass(frozen=True, slots=True)
class CodeMap:
    """The repository's code, its import graph and its ranking.

    Attributes:
        files: ``{path: CodeFile}`` in path order.
        modules: ``{name: Module}`` in name order.
        edges: weighted import edges ``{(importer, imported): weight}``; an import
            of a whole package (Go, a Java wildcard) spreads weight 1 over its files;
            same-package references (Go, Java, Kotlin, PHP) weigh less than imports.
        file_rank: PageRank of each file over ``edges`` (sums to 1).
        module_rank: PageRank of each module over the module graph (sums to 1).
        in_degree: files importing each file ("used by N").
        out_degree: repository files each file imports.
        warnings: files that were skipped or only partly understood.
        stats: what this run did.
        module_links: :meth:`module_edges`, computed once by the build (rendering a
            page per module asks for it each time).
        shape_id: names this map's shape (its files' paths, languages, modules and
            symbol names, its modules and edges: what the graph's code nodes are made
            of), so that a graph saved from the map can recognize it without a digest
            of 10,000 files (:meth:`rubi.graph.live.LiveGraph.set_code_map`). A map
            made by a build or a reshape gets a new one (:func:`new_shape_id`); a map
            made by ``dataclasses.replace`` keeps it, which is right only for a change
            that keeps the shape (hashes, sizes, symbol lines, ranks, stats,
            warnings): give a map of another shape ``shape_id=new_shape_id()``. Not
            compared: two builds of one tree are equal maps.
    """

    files: dict[str, CodeFile] = field(default_factory=dict)
    modules: dict[str, Module] = field(default_factory=dict)
    edges: dict[tuple[str, str], float] = field(default_factory=dict)
    file_rank: dict[str, float] = field(default_factory=dict)
    module_rank: dict[str, float] = field(default_factory=dict)
    in_degree: dict[str, int] = field(default_factory=dict)
    out_degree: dict[str, int] = field(default_factory=dict)
    warnings: list[ScanWarning] = field(default_factory=list)
    stats: BuildStats = field(default_factory=BuildStats)
    module_links: dict[tuple[str, str], int] = field(default_factory=dict)
    shape_id: str = field(default_factory=lambda: new_shape_id(), compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Files as rows of plain values and symbols as tuples: a 10,000-file map saves
        # and loads in half the time of one reduce call per file and per symbol.
        rows = [
            (
                f.path,
                f.language,
                f.size,
                f.sha256,
                f.module,
                f.imports,
                f.external,
                tuple((s.name, s.kind, s.line) for s in f.symbols),
            )
            for f in self.files.values()
        ]
        return (
            _code_map,
            (
                rows,
                self.modules,
                self.edges,
                self.file_rank,
                self.module_rank,
                self.in_degree,
                self.out_degree,
                self.warnings,
                self.stats,
                self.module_links,
                self.shape_id,
            ),
        )

    def ranked_files(self, module: str | None = None) -> list[str]:
        """Paths by descending rank (ties by path), optionally of one module only."""
        paths = self.files if module is None else self.modules[module].files
        return sorted(paths, key=lambda p: (-round(self.file_rank.get(p, 0.0), 12), p))

    def ranked_modules(self) -> list[str]:
        """Module names by descending rank (ties by name)."""
        return sorted(self.modules, key=lambda m: (-round(self.module_rank.get(m, 0.0), 12), m))

    def importers(self, path: str) -> list[str]:
        """Files that import ``path``, sorted by path."""
        return sorted(src for src, dst in self.edges if dst == path)

    def module_edges(self) -> dict[tuple[str, str], int]:
        """File import edges counted between modules: ``{(from, to): count}``, sorted."""
        if self.module_links:
            return self.module_links
        counts: dict[tuple[str, str], int] = {}
        for src, dst in self.edges:
            key = (self.files[src].module, self.files[dst].module)
            if key[0] != key[1]:
                counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items()))


def new_shape_id() -> str:
    """A fresh :attr:`CodeMap.shape_id`: 128 random bits as hex (never equal to
    another map's)."""
    return os.urandom(16).hex()


def _code_map(rows: list[tuple[Any, ...]], *rest: Any) -> CodeMap:
    """A :class:`CodeMap` from its pickled form (:meth:`CodeMap.__reduce__`; a map
    pickled before :attr:`CodeMap.shape_id` existed gets a new one)."""
    files = {
        r[0]: CodeFile(r[0], r[1], r[2], r[3], r[4], r[5], r[6], tuple(Symbol(*s) for s in r[7]))
        for r in rows
    }
    return CodeMap(files, *rest)


@dataclass(frozen=True, slots=True)
class NoteRef:
    """What the map needs to know about a note.

    Attributes:
        id: note id (vault-relative path without ``.md``), used as the wikilink target.
        title: display title.
        type: ``decision``, ``gotcha``...
        status: ``active`` or ``superseded``.
        files: the note's ``files:`` as written (repository paths; a path ending in
            ``/`` or naming a folder covers the files under it).

    Nothing that differs between two clones of one commit (a stale flag depends on
    the working tree): the pages made from it are committed.
    """

    id: str
    title: str
    type: str
    status: str
    files: tuple[str, ...] = ()
