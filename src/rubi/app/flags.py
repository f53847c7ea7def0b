"""Flags a reader must see on a note: stale (its files changed) and superseded (and by
which note, following the chain to the newest)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from rubi.core.paths import PROJECT_VAULT_DIRNAME
from rubi.graph.build import GraphBuild
from rubi.search.engine import Hit
from rubi.vault.names import normalize_name

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    # the stale check (git, the notes' files) is imported by the searches that ask for
    # it: the recall hook's does not
    from rubi.knowledge.stale import NoteFiles

__all__ = [
    "HitFlags",
    "annotate_hits",
    "hit_flags",
    "newest_successor",
    "note_stale",
    "stale_inputs",
]

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


def stale_inputs(
    build: GraphBuild,
    project_root: Path | None,
    ids: Sequence[str],
    vault_root: Path | None = None,
) -> list[NoteFiles]:
    """What the stale check of the notes ``ids`` needs from the graph (their ``files:``
    and paths) for the project vault at ``vault_root`` (default: the project's
    ``.rubi/``): taken while the graph is read, checked after (:func:`stale_files`
    runs git). Only notes with ``files:`` can be stale, so only they are listed: hits
    without any import neither the stale check nor git."""
    if project_root is None:
        return []
    g = build.graph
    found = [
        (i, tuple(files), g.nodes[i].get("path"))
        for i in ids
        if i in g and g.nodes[i].get("kind") == "note" and (files := g.nodes[i].get("files"))
    ]
    if not found:
        return []
    from rubi.knowledge.stale import NoteFiles

    root = vault_root or project_root / PROJECT_VAULT_DIRNAME
    return [NoteFiles(i, files, root / str(path or i + ".md")) for i, files, path in found]


def note_stale(
    project_root: Path | None, notes: Sequence[NoteFiles], cache_file: Path | None
) -> dict[str, tuple[str, ...]]:
    """Stale files of ``notes`` (:func:`stale_inputs`) by note id."""
    if project_root is None or not notes:
        return {}
    from rubi.knowledge.stale import stale_files

    return stale_files(project_root, notes, cache_file)


@dataclasses.dataclass(frozen=True, slots=True)
class HitFlags:
    """What flagging a search's hits needs from the graph (:func:`hit_flags`)."""

    stale_inputs: list[NoteFiles]
    successors: dict[str, str]
    """Superseded hit id → the newest note of its chain."""


def hit_flags(
    hits: Sequence[Hit], build: GraphBuild, project_root: Path | None, *, stale: bool = True
) -> HitFlags:
    """The graph's part of :func:`annotate_hits`, taken while the graph is read;
    without ``stale`` none of the hits is checked for staleness (no note read, no git)."""
    successors: dict[str, str] = {}
    for h in hits:
        succ = newest_successor(build, h.id) if h.status == "superseded" else None
        if succ:
            successors[h.id] = succ
    checked = stale_inputs(build, project_root, [h.id for h in hits]) if stale else []
    return HitFlags(checked, successors)


def annotate_hits(
    hits: Sequence[Hit],
    flags: HitFlags,
    project_root: Path | None,
    cache_file: Path | None,
    prefix: str = "",
) -> list[Hit]:
    """Hits with ``stale`` and the newest ``superseded_by`` filled in, ids prefixed
    (``flags``: :func:`hit_flags` of them)."""
    stale = note_stale(project_root, flags.stale_inputs, cache_file)
    out = []
    for h in hits:
        succ = flags.successors.get(h.id)
        out.append(
            dataclasses.replace(
                h,
                id=prefix + h.id,
                stale=stale.get(h.id, ()),
                superseded_by=(prefix + succ) if succ else h.superseded_by,
                also=tuple(prefix + a for a in h.also),
            )
        )
    return out
