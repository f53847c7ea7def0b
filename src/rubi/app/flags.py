"""Flags a reader must see on a note: stale (its files changed) and superseded (and by
which note, following the chain to the newest)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from rubi.core.paths import PROJECT_VAULT_DIRNAME
from rubi.graph.build import GraphBuild
from rubi.knowledge.stale import NoteFiles, stale_files
from rubi.search.engine import Hit
from rubi.vault.resolve import normalize_name

__all__ = ["annotate_hits", "newest_successor", "note_stale"]

MAX_CHAIN = 50
"""Longest supersede chain followed (a longer one is a loop someone wrote by hand)."""


def newest_successor(build: GraphBuild, note_id: str) -> str | None:
    """The newest note of ``note_id``'s supersede chain, or None when it is not
    superseded (A ← B ← C: for A, C). A loop stops at the last note before it."""
    g = build.graph
    current, seen = note_id, {note_id}
    for _ in range(MAX_CHAIN):
        nxt = g.nodes[current].get("superseded_by") if current in g else None
        if not nxt:
            break
        ids = build.names.get(normalize_name(str(nxt)), [])
        target = ids[0] if ids else (nxt if nxt in g else None)
        if target is None or target in seen:
            break
        seen.add(target)
        current = target
    return None if current == note_id else current


def note_stale(
    build: GraphBuild,
    project_root: Path | None,
    ids: Sequence[str],
    cache_file: Path | None,
    vault_root: Path | None = None,
) -> dict[str, tuple[str, ...]]:
    """Stale files of the notes ``ids`` (only notes with ``files:`` can be stale) of
    the project vault at ``vault_root`` (default: the project's ``.rubi/``)."""
    if project_root is None:
        return {}
    root = vault_root or project_root / PROJECT_VAULT_DIRNAME
    g = build.graph
    wanted = [
        NoteFiles(
            i,
            tuple(g.nodes[i].get("files") or ()),
            root / str(g.nodes[i].get("path") or i + ".md"),
        )
        for i in ids
        if i in g and g.nodes[i].get("kind") == "note"
    ]
    return stale_files(project_root, wanted, cache_file)


def annotate_hits(
    hits: Sequence[Hit],
    build: GraphBuild,
    project_root: Path | None,
    cache_file: Path | None,
    prefix: str = "",
) -> list[Hit]:
    """Hits with ``stale`` and the newest ``superseded_by`` filled in, ids prefixed."""
    stale = note_stale(build, project_root, [h.id for h in hits], cache_file)
    out = []
    for h in hits:
        succ = newest_successor(build, h.id) if h.status == "superseded" else None
        out.append(
            dataclasses.replace(
                h,
                id=prefix + h.id,
                stale=stale.get(h.id, ()),
                superseded_by=(prefix + succ) if succ else h.superseded_by,
            )
        )
    return out
