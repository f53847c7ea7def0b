"""Search, the facade's own use case: the project's vault and the personal vault
searched and merged (:func:`search`), and the index check every reader runs first
(:func:`ensure_index`). A module of its own so the recall hook (:mod:`rubi.app.recall`)
runs the same search without importing the facade package."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from functools import partial
from importlib import import_module

from rubi.app.oneshot import runs_once
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths
from rubi.core.searchdefaults import DEFAULT_TOP_K

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.dates.window import DateWindow
    from rubi.graph.build import GraphBuild
    from rubi.index.queryanalysis import QueryAnalysis
    from rubi.search.engine import SearchResult
    from rubi.semantic.dense import DenseIndex
    from rubi.sync import IndexReport

__all__ = [
    "ensure_index",
    "indexed",
    "keep_vectors",
    "one_search",
    "runs_once",
    "search",
    "searching_once",
    "watched_here",
]

Progress = Callable[[int, int, str], None]

_ONCE: ContextVar[bool] = ContextVar("rubi_searching_once", default=False)
"""Set while this thread's searches read as a one-shot reader (:func:`searching_once`)."""

_READY_ONLY: ContextVar[bool] = ContextVar("rubi_ready_lists_only", default=False)
"""Set while this thread's searches leave out a list whose reader this process has not
loaded (:func:`searching_once` with ``ready_only``)."""

_READY_PROCESS = False
"""Set by :func:`one_search` with ``ready_only`` (a cold recall hook's process): every
search of this process leaves out a list whose reader it has not loaded, as
:data:`_READY_ONLY` does for one block."""

LEFT_OUT: dict[str, int] = {}
"""How many searches of this process left each list out because it was not loaded yet
(``"dense"``: :func:`searching_once` with ``ready_only``, where the channel is on and
the vault's measurement lets the list vote, or a process set up by :func:`one_search`
with ``ready_only``, every search of notes: there neither is asked, the list is left
out either way); read by the server's log and the tests."""

UNEMBEDDED_SCOPES = frozenset({"code"})
"""Scopes whose searches never load the dense index: only notes are embedded
(:mod:`rubi.semantic.sync`), so a search of code files alone got an empty dense list,
after loading NumPy and the vectors, scoring every note and reading the passages of
the closest (about 40 ms of CPU at 5,200 notes in the recall of a prompt that names
files, whose code search comes first)."""


def one_search(*, ready_only: bool = False) -> None:
    """Set this process up to search once and exit (a cold recall hook, a cold ``rubi
    search``): the dense channel's vectors are read on demand, the documents' rows and
    then the candidates' passages only (:func:`rubi.semantic.demand.load_on_demand`),
    and the graph snapshot is read without networkx
    (:func:`rubi.graph.readmode.load_frozen`), and the index's segments through a
    memory map (:func:`rubi.core.segmentreads.map_segments`); the rankings are the
    same. An index run in it leaves the flat graph current (:func:`runs_once`).

    With ``ready_only`` (a cold recall hook: ``rubi.entry``), its searches answer
    with the lists that are ready, as a starting server's recall does
    (:func:`searching_once` with ``ready_only``): the dense list is left out unless
    NumPy is already imported, so the hook never imports NumPy and reads the vectors
    for one prompt (about 120 ms of the 260-340 ms of CPU of a cold recall at 6,800
    notes with the ``semantic`` extra). The same ranking rules, one list fewer: on the
    development halves of the evaluation sets the list's weight is above 0 on about 1
    question in 100, and no recall there lost or gained an answer without it
    (``docs/benchmarks-history.md``, issue 29, twenty-first pass). A cold ``rubi
    search`` does not set it: a search asked for by name answers as the engine
    does, every list."""
    from rubi.core.segmentreads import map_segments
    from rubi.graph.readmode import load_frozen
    from rubi.semantic.demand import load_on_demand

    global _READY_PROCESS
    _READY_PROCESS = ready_only
    load_on_demand()
    load_frozen()
    map_segments()
    runs_once()


@contextmanager
def searching_once(*, ready_only: bool = False) -> Iterator[None]:
    """Within the block, this thread's searches read what no other reader of this
    process has loaded yet as a cold process reads it (:func:`one_search`), for one
    call instead of the whole process: a long-lived process (``rubi serve``) answering a
    hook cold, whose engine, watcher and later searches must keep their usual readers.

    - The graph: the flat graph when it is current and no vault sync of this process
      holds the vault's graph (:func:`rubi.sync.oneshot.current_flat`), opened once
      for the block's searches (:func:`rubi.sync.oneshot.sharing_flat`), instead of
      the vault sync's load of the snapshot with networkx (the first caller of the
      vault sync pays for that, as before).
    - The index: an index this process has not opened yet is read without Whoosh's
      reading stack (:func:`rubi.core.segmentreads.reading_once`), and reopened
      through Whoosh by the first search outside such a block.
    - The vectors: a dense index this search makes first reads its documents' rows
      and its candidates' passages only, and so do the next searches in this block
      (:func:`rubi.semantic.dense.staying_on_demand`); the first search outside one
      (a search tool call, the engine's warm-up) loads everything
      (:class:`rubi.semantic.dense.DenseIndex`, ``on_demand``). An index already
      loaded is used as it is.

    With ``ready_only`` (a starting server's recall hook; a cold recall hook's process
    does the same for all its searches, :func:`one_search`), a search leaves out the
    dense list while this process has not imported NumPy (45-50 ms of CPU of the
    session's first recall, about a third of it; :data:`LEFT_OUT` says so): the
    other lists as ready, the same ranking rules; the server's warm-up search (or a
    ``search`` tool call) loads the vectors, and from then on every recall has the
    list. Its weight is above 0 on about 1 in 100 questions, so few answers change.

    Otherwise the rankings are the same either way. Nothing process-wide is changed (no
    :func:`rubi.graph.readmode.load_frozen`, :func:`rubi.semantic.demand.load_on_demand`
    or :func:`runs_once`): the setting is a context variable, so other threads never
    see it."""
    from rubi.core.segmentreads import reading_once
    from rubi.sync.oneshot import sharing_flat

    token = _ONCE.set(True)
    ready = _READY_ONLY.set(ready_only)
    try:
        # the call's searches (a recall's code, then notes) share the flat graph
        with sharing_flat(), reading_once():
            yield
    finally:
        _READY_ONLY.reset(ready)
        _ONCE.reset(token)


def indexed(paths: VaultPaths) -> bool:
    """Whether ``paths`` was ever indexed (its index store and graph exist)."""
    return paths.store_file.exists() and paths.graph_file.exists()


def ensure_index(
    paths: VaultPaths,
    refresh: bool,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
    on_warning: Callable[[object], None] | None = None,
) -> IndexReport | None:
    """Index ``paths`` first when it never was, and when ``refresh`` asks (skipped
    while a watcher in this process applies every change, and when the files are as
    the last run recorded them: :func:`rubi.sync.freshness.files_unchanged`); the
    run's report (``on_warning`` gets each of its ``warnings``), or None."""
    first = not indexed(paths)
    if not first and not refresh:
        return None  # nothing to ask the vault sync (a cold recall does not load it)
    if not first:
        if watched_here(paths):
            return None  # a watcher in this process learns every change from file events
        from rubi.sync.freshness import files_unchanged

        if files_unchanged(paths):  # a listing and one query: no lock, no Whoosh
            return None
        if not os.access(paths.index_dir, os.W_OK):
            import logging  # only here: a cold recall never imports logging

            logging.getLogger(__name__).warning(
                "%s is read-only: answering from the index as it was last built (changes "
                "since then are not seen); make the folder writable, or set XDG_CACHE_HOME "
                "to a writable folder and run `rubi index`",
                paths.index_dir,
            )
            return None
    from rubi.sync import index_vault

    # Notes are cheap to check on every call; the code map is refreshed by `rubi
    # index`, the session-start hook and the watcher (a large repository takes
    # seconds), and on first use.
    report = index_vault(paths, progress=progress, on_wait=on_wait, verify=False, code=first)
    if on_warning is not None:
        for warning in report.warnings:
            on_warning(warning)
    return report


def watched_here(paths: VaultPaths) -> bool:
    """Whether a watcher of this process applies every change to ``paths``, asked
    without making a vault sync (one made here would hold the graph a one-shot reader
    opens without it: :func:`rubi.sync.oneshot.current_flat`)."""
    if "rubi.sync.run" not in sys.modules:
        return False  # no vault sync in this process, so no watcher
    # Imported by name, not read from sys.modules: another thread may still be
    # importing it (a half-made module); the import waits for it.
    run = import_module("rubi.sync.run")
    return bool(run.has_vault_sync(paths) and run.vault_sync_for(paths).watched)


def search(
    paths: VaultPaths,
    query: str,
    *,
    terms: Sequence[str] = (),
    top_k: int = DEFAULT_TOP_K,
    scope: str = "all",
    include_superseded: bool = False,
    refresh: bool = True,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
    personal: bool | None = None,
    since: str | None = None,
    until: str | None = None,
    analysis: QueryAnalysis | None = None,
    stale: bool = True,
    why: bool = True,
    needs: str = "",
    on_warning: Callable[[object], None] | None = None,
) -> SearchResult:
    """Hybrid search of the vault (see :func:`rubi.search.engine.search_index`).

    Args:
        paths: the vault.
        query: the question in words (non-empty).
        terms: related words and identifiers (query expansion by the caller).
        top_k: hits at most.
        scope: ``all`` (project notes and code, and the personal vault), ``notes``
            (notes of both vaults), ``code``, or ``personal`` (the personal vault only).
        include_superseded: keep superseded notes (each points to its newest successor).
        refresh: first bring the index up to date with the files (an unchanged vault
            costs one scan of file sizes and times); a never-indexed vault is always
            indexed first.
        progress: passed to the indexer (a first index of a big vault takes a while).
        on_wait: called if another index run holds the lock.
        personal: include the personal vault (scopes ``all`` and ``notes``); None: as
            the configs say (:func:`rubi.knowledge.personal.personal_searched`). Its
            hits rank below project hits of similar strength and take a share of
            ``top_k`` (:mod:`rubi.search.merge`). Scope ``personal`` ignores it.
        since, until: keep only hits of these days or later / earlier
            (``YYYY-MM-DD``, both included; each hit's day as :attr:`Hit.date`).
        analysis: ``query``'s analysis when the caller made one
            (:class:`~rubi.index.queryanalysis.QueryAnalysis`: the recall hook's, which
            it searches notes and code with); the search makes its own otherwise.
        stale: find which hits are stale (:attr:`Hit.stale`: their notes' ``files:``
            changed, asked of git); False leaves every ``stale`` empty, for a caller
            that shows no stale flag (the recall hook).
        why: False leaves every hit's ``why`` and ``reasons`` empty (the same
            ranking), for a caller that shows no why-line (the recall hook).
        needs: ``relevant`` or ``named``: the caller shows nothing of a result that is
            not :attr:`~rubi.search.hits.SearchResult.relevant` (or did not name a note
            or file), so such a search ends there, its result with no hit
            (:func:`rubi.search.engine.search_index`); "" (the default): always hits.
        on_warning: each problem note the project's catch-up read (:func:`ensure_index`).

    Raises:
        RubiError: empty query, or ``since``/``until`` not a day (or since after
            until); QueryTooLargeError over
            :data:`~rubi.search.limits.MAX_QUERY_CHARS` characters (query and terms
            together) or terms of over :data:`~rubi.search.limits.MAX_QUERY_WORDS`
            distinct words (a query of many words is reduced to its discriminative
            ones, :mod:`rubi.search.longquery`, and its headline searched too,
            :mod:`rubi.search.headline`); ValueError for a bad ``scope`` or ``top_k``.
    """
    from rubi.search.engine import SearchResult
    from rubi.search.limits import check_query

    check_query(query, terms)
    if not query.strip() and not any(t.strip() for t in terms):
        raise RubiError("empty query; say what to look for")
    window: DateWindow | None = None  # no end given: every day, as an open window keeps
    if since or until:
        from rubi.dates.window import DateWindow

        try:
            window = DateWindow.of(since, until)
        except ValueError as exc:
            raise RubiError(str(exc)) from exc
    project: SearchResult | None = None
    if scope != "personal":
        ensure_index(paths, refresh, progress, on_wait, on_warning)
        project = _search_one(
            paths,
            query,
            terms,
            top_k,
            scope,
            include_superseded,
            prefix="",
            window=window,
            analysis=analysis,
            stale=stale,
            why=why,
            needs=needs,
        )
    if scope != "personal" and (scope not in ("all", "notes") or personal is False):
        # the personal vault's module (and the user config's TOML reader) is not imported
        # for a search that leaves it out: the recall hook's, a code search
        return project or SearchResult(query, tuple(terms), [], 0, coverage=0.0, relevant=False)
    from rubi.knowledge.personal import PERSONAL_PREFIX, personal_paths, personal_searched
    from rubi.search.merge import merge_personal

    wanted = scope == "personal" or (personal if personal is not None else personal_searched(paths))
    vault = personal_paths(paths) if wanted else None
    if vault is None:
        return project or SearchResult(query, tuple(terms), [], 0, coverage=0.0, relevant=False)
    ensure_index(vault, refresh)
    mine = _search_one(
        vault,
        query,
        terms,
        top_k,
        "notes",
        include_superseded,
        PERSONAL_PREFIX,
        window=window,
        analysis=analysis,
        stale=stale,
        why=why,
        needs=needs,
    )
    return mine if project is None else merge_personal(project, mine, top_k)


def _search_one(
    paths: VaultPaths,
    query: str,
    terms: Sequence[str],
    top_k: int,
    scope: str,
    include_superseded: bool,
    prefix: str,
    window: DateWindow | None = None,
    analysis: QueryAnalysis | None = None,
    stale: bool = True,
    why: bool = True,
    needs: str = "",
) -> SearchResult:
    from rubi.app.flags import annotate_hits, hit_flags
    from rubi.dates.days import day_keys
    from rubi.index.warm import index_at
    from rubi.search.engine import search_index
    from rubi.search.longquery import reduce_query
    from rubi.semantic.demand import staying_on_demand

    once = _ONCE.get()
    index = index_at(paths.whoosh_dir)
    # Once: an on-demand dense index stays on demand through this search too.
    with staying_on_demand() if once else nullcontext():
        dense: DenseIndex | Callable[[], DenseIndex | None] | None
        if needs:  # a search that may end before its dense list opens it only there
            dense = partial(_dense, paths, query, scope, once)
        else:
            dense = _dense(paths, query, scope, once)
        reduced = reduce_query(query, index)  # a long one: its discriminative words here
        head = ""
        if reduced != query:  # a reduced one's headline is searched too (its module)
            from rubi.search.headline import headline

            head = headline(query)
        # One version of the graph for the whole search: a save the watcher applies
        # meanwhile waits for it (the hits keep what they show of the graph; their days,
        # snippets and passages are read later without it).
        with _graph(paths, once) as build, _prints(paths):
            searched = partial(
                search_index,
                index,  # kept open in a long-lived process
                build,
                paths.root,
                project_root=paths.project_root,
                top_k=top_k,
                scope=scope,
                include_superseded=include_superseded,
                dense=dense,
                window=window,
                symbols=partial(_code_symbols, paths),
                why=why,
                needs=needs,
            )
            # "on 7 May 2023" finds that day's records (its day keys as terms)
            # A reduced query asks for tests in its headline, not in its pasted body
            result = searched(
                reduced,
                terms=(*terms, *day_keys(reduced)),
                analysis=analysis,
                asks=head or None,
            )
            if head:
                from rubi.search.headline import fuse_headline

                also = searched(head, terms=(*terms, *day_keys(head)))
                result = fuse_headline(result, also, top_k)
            flags = hit_flags(result.hits, build, paths.project_root, stale=stale)
    hits = annotate_hits(result.hits, flags, paths.project_root, paths.stale_cache, prefix)
    return dataclasses.replace(result, hits=hits, terms=tuple(terms))


def _prints(paths: VaultPaths) -> AbstractContextManager[None]:
    """A search takes its candidates' near-duplicate fingerprints from the store the
    index run wrote (:mod:`rubi.search.printstore`) when its memo does not hold them: a
    one-shot reader (a process marked to search once, or a :func:`searching_once`
    block) opens the store for this search, a long-lived process keeps its reader
    open across searches."""
    from rubi.core.segmentreads import reads_without_whoosh
    from rubi.search.printstore import reading_kept_prints, reading_prints

    if not reads_without_whoosh():
        return reading_kept_prints(paths.index_dir)
    return reading_prints(paths.index_dir)


def keep_vectors(paths: VaultPaths) -> None:
    """Convert the vault's vectors to float32 now, as a resident process's second search
    would (:meth:`rubi.semantic.dense.DenseIndex.stay`): the server's warm-up does, so
    its first client search does not. Nothing when no search has loaded them (nor read:
    a vault whose list did not vote on the warm-up's query loaded none, and never may)."""
    if "rubi.semantic.dense" in sys.modules:
        from rubi.semantic.dense import dense_index_for

        dense = dense_index_for(paths.index_dir, make=False)
        if dense is not None:
            dense.stay()


def _dense(paths: VaultPaths, query: str, scope: str, once: bool) -> DenseIndex | None:
    """The dense index a search of ``query`` reads, None when its list will not vote:
    the channel off (then nothing of the vault's measurement is read or imported), a
    scope never embedded, or a script its measurement says the list misjudges (no
    NumPy then). In a cold recall hook's process (:func:`one_search` with
    ``ready_only``) without NumPy loaded, the list is left out whatever the channel's
    state or the measurement says, so neither is asked: asking imported eight modules
    (``importlib.util`` for the packages, ``json`` and the measurement's module) for an
    answer that changed nothing (``docs/benchmarks-history.md``, "issue 29: a cold
    UserPromptSubmit at 6.7k notes, importing less, twenty-fourth pass")."""
    from rubi import semantic

    if scope in UNEMBEDDED_SCOPES:
        return None
    if _READY_PROCESS and "numpy" not in sys.modules:
        LEFT_OUT["dense"] = LEFT_OUT.get("dense", 0) + 1
        return None
    if not semantic.enabled():
        return None  # as dense_index_for answers for the channel off
    from rubi.semantic.separation import list_may_vote

    if not list_may_vote(paths.index_dir, query):
        return None
    if (_READY_PROCESS or _READY_ONLY.get()) and "numpy" not in sys.modules:
        LEFT_OUT["dense"] = LEFT_OUT.get("dense", 0) + 1  # the lists that are ready answer
        return None  # nor the dense reader's modules imported (the encoder, typing: 5 ms)
    from rubi.semantic.dense import dense_index_for

    return dense_index_for(paths.index_dir, on_demand=True if once else None)


def _graph(paths: VaultPaths, once: bool = False) -> AbstractContextManager[GraphBuild]:
    """The graph a search reads (:func:`rubi.sync.reading_graph`); in a one-shot reader
    (or a search ``once``, :func:`searching_once`), the flat graph when it is current,
    opened without the vault sync (:func:`rubi.sync.oneshot.current_flat`): the same
    graph."""
    from rubi.sync.oneshot import current_flat

    flat = current_flat(paths, once=once)
    if flat is not None:
        return nullcontext(flat)
    from rubi.sync import reading_graph

    return reading_graph(paths)


def code_names(paths: VaultPaths, text: str) -> tuple[str, ...]:
    """The words of ``text`` that name code of this project: its identifiers that are a
    file, symbol or module of the code map, and its main package written as a word
    (:func:`rubi.search.codenames.project_names`), read from the graph a search reads.
    Of the whole text: a search keeps a long prompt's rarest words only, and a
    project's own name, in all its files, is not one of them."""
    from rubi.search.codenames import project_names

    with _graph(paths, _ONCE.get()) as build:
        return project_names(text, build)


def _code_symbols(paths: VaultPaths, file_id: str) -> list[tuple[str, int]]:
    """:func:`rubi.app.codesymbols.code_symbols`, its module imported on the first call
    only (the code map's reader, which a search that shows no code passage never
    needs); not through :mod:`rubi.app.passageread`, whose note reader (markdown-it,
    YAML: 40–50 ms) only opening a passage needs."""
    from rubi.app.codesymbols import code_symbols

    return code_symbols(paths, file_id)
