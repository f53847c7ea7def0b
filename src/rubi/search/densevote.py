"""Measure once per vault whether the dense list's votes are right, per script
(:mod:`rubi.semantic.separation` stores and reads the figure; the index run calls
:func:`measure_if_stale` after it commits the vectors).

A note's title is asked as a query, the note itself the answer: the list is scored
exactly as a search scores it (:func:`rubi.search.dense.dense_list`'s floor, median
and peers, :func:`rubi.search.dense.dense_weight`), over every document of the vault.
Up to :data:`SAMPLE_PER_SCRIPT` notes per script of their titles, spread evenly over
the notes in id order (the same sample for the same vault). At 6,334 notes: 400 title
queries in 0.6 s of CPU, after loading the vectors (``docs/benchmarks-history.md``,
"issue 29: cold hooks, tenth pass").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.core.picklefiles import UntrustedCacheError
from rubi.search.dense import DENSE_LIMIT, DENSE_MIN_SCORE, DENSE_PEERS, dense_weight
from rubi.semantic.separation import (
    Separation,
    Tally,
    needs_measuring,
    text_script,
    write_separation,
)

__all__ = ["SAMPLE_PER_SCRIPT", "measure_if_stale", "measure_separation", "title_of"]

log = get_logger(__name__)

SAMPLE_PER_SCRIPT = 100
"""Title queries asked per script at most."""


def title_of(doc_id: str) -> str:
    """The words of a note's file name (``notes/cold-hook-imports`` → ``cold hook
    imports``): its title in Obsidian, and what a user calls it."""
    name = doc_id.rsplit("/", 1)[-1]
    return " ".join(name.replace("-", " ").replace("_", " ").split())


def _sample(ids: Sequence[str]) -> dict[str, list[str]]:
    """Up to :data:`SAMPLE_PER_SCRIPT` ids per script of their titles, evenly spread
    over ``ids`` sorted."""
    by_script: dict[str, list[str]] = {}
    for doc_id in sorted(ids):
        script = text_script(title_of(doc_id))
        if script is not None:
            by_script.setdefault(script, []).append(doc_id)
    out = {}
    for script, found in by_script.items():
        step = max(1, len(found) // SAMPLE_PER_SCRIPT)
        out[script] = found[::step][:SAMPLE_PER_SCRIPT]
    return out


def measure_separation(vectors_path: Path, note_ids: Sequence[str]) -> dict[str, Tally]:
    """The dense list on title queries of ``note_ids``, per script
    (:class:`rubi.semantic.separation.Tally`), over the vectors file ``vectors_path``
    loaded whole (not this process's shared index).

    Raises:
        OSError, ValueError, sqlite3.Error, UntrustedCacheError: the vectors cannot
            be read.
    """
    from rubi.semantic.dense import DenseIndex, query_vector

    index = DenseIndex(vectors_path, on_demand=False)
    index.refresh()
    tallies = {}
    for script, ids in _sample(note_ids).items():
        voted = found = 0
        for doc_id in ids:
            ranking = index.ranked(query_vector(title_of(doc_id), ()), lambda _: True, DENSE_LIMIT)
            matches = [m for m in ranking.matches if m.score >= DENSE_MIN_SCORE]
            if not matches:
                continue
            nearest = [m.score for m in ranking.matches[:DENSE_PEERS]]
            if dense_weight(matches[0].score, ranking.median, nearest) > 0:
                voted += 1
                found += matches[0].id == doc_id
        tallies[script] = Tally(len(ids), voted, found)
    return tallies


def measure_if_stale(index_dir: Path, *, full: bool = False) -> bool:
    """Measure the vault's dense list and store the figure when the stored one is
    missing or stale (:func:`rubi.semantic.separation.needs_measuring`), or ``full``
    (a full index run). Fails open: a failure is logged in one line and nothing is
    stored (the list then decides per query, as when never measured).

    Returns:
        Whether a new figure was stored.
    """
    from rubi.semantic.sync import vectors_file
    from rubi.semantic.vectors import open_vectors

    path = vectors_file(index_dir)
    try:
        store = open_vectors(path, create=False)
        if store is None:
            return False
        try:
            model, token, notes = (
                store.meta("model") or "",
                store.token() or "",
                store.count(),
            )
            stale = notes > 0 and (
                full or needs_measuring(index_dir, model=model, token=token, documents=notes)
            )
            ids = [i for i, kind in store.kinds().items() if kind == "note"] if stale else []
        finally:
            store.close()
        if not ids:
            return False  # a save checks one count and one small file: no id read
        tallies = measure_separation(path, ids)
        write_separation(index_dir, Separation(model, token, len(ids), tallies))
    except (OSError, ValueError, ImportError, sqlite3.Error, UntrustedCacheError) as exc:
        log.warning("dense list not measured (%s); the next index run tries again", exc)
        return False
    return True
