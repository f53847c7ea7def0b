"""Notes an index of an older rubi parsed into a graph the flat graph cannot hold, and
that the next incremental run parses again.

Before rubi dropped a link target holding a NUL at parse (a wikilink around a code
span: ``[[the `run` command]]``), such a target became a dangling node whose id holds
a NUL, which the flat graph's NUL-terminated ids cannot carry
(:mod:`rubi.graph.flatwrite` refuses it). An incremental run keeps an unchanged note
as it was stored, so the node stayed until ``rubi index --full``, and every cold
reader, failing the same write, said so on stderr. Now the first refusal records the
notes linking to such a node in a small file beside the graph (:func:`mark`); the next
incremental run or watcher pass reads those notes again though their bytes did not
change (:func:`marked`), their links are parsed by today's rules, and the flat graph
written then removes the file (:meth:`rubi.sync.snapshots.Snapshots.save_flat`).
Later readers that meet the same refusal before that run find the file and stay
quiet (:func:`mark` returns False).

The file lives in the vault's private index folder (the user's cache, 0600); it is
still read bounded and checked, as every file rubi reads back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["MAX_MARK_BYTES", "REPARSE_NAME", "mark", "marked", "nul_linkers"]

REPARSE_NAME = "reparse.json"
"""The file's name, beside ``graph.flat`` in the vault's index folder."""

MAX_MARK_BYTES = 4_000_000
"""A larger file is not read (nor trusted): about 40,000 note ids."""


def nul_linkers(graph: Any) -> list[str]:
    """The notes (sorted) linking to a node whose id holds a NUL, in ``graph`` (a
    MultiDiGraph or :class:`~rubi.graph.frozen.FrozenGraph`: anything with ``pred``)."""
    found: set[str] = set()
    for node in graph:
        if "\x00" in node:
            found.update(u for u in graph.pred[node] if "\x00" not in u)
    return sorted(found)


def mark(path: Path, note_ids: Iterable[str]) -> bool:
    """Record ``note_ids`` in ``path`` for the next incremental run, unless it holds
    them already.

    Returns:
        True when the file was written (the first reader to meet this graph), False
        when it was there with these ids, or nothing was given, or the write failed
        (the caller's line says what to run, once per process either way).
    """
    ids = sorted(set(note_ids))
    if not ids or set(ids) <= marked(path):
        return False
    from rubi.core.atomic import atomic_write_text

    try:
        atomic_write_text(path, json.dumps(ids), durable=False)
    except OSError:
        return False
    return True


def marked(path: Path) -> frozenset[str]:
    """The note ids ``path`` records; empty when there is none, or it is not a
    regular file of at most :data:`MAX_MARK_BYTES` holding a JSON list of strings."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_MARK_BYTES:
            return frozenset()  # absent, or a FIFO an open would wait on
        with open(path, "rb") as fh:
            data = json.loads(fh.read(MAX_MARK_BYTES + 1))
    except (OSError, ValueError):
        return frozenset()
    if not isinstance(data, list) or not all(isinstance(i, str) for i in data):
        return frozenset()
    return frozenset(data)
