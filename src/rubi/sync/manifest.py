"""The manifest of an index run: what the last run saw, and the parsed notes it kept.

One :class:`FileEntry` per note file (mtime, size, SHA-256, graph signature) and the
parsed notes, stored one row each in :mod:`rubi.sync.rows`. A sync run compares the
vault with them and commits its rows last, so an interrupted run is simply redone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from rubi.core.filestamp import RACY_WINDOW_NS
from rubi.core.indexformat import SCHEMA_VERSION
from rubi.core.model import Note, ScanWarning, note_files
from rubi.core.paths import VaultPaths
from rubi.graph.snapshot import GRAPH_FORMAT
from rubi.sync.rows import STORE_FORMAT, Store, open_store

__all__ = [
    "LISTED_KEY",
    "NOTES_BODY_KEPT",
    "RACY_MARGIN_NS",
    "STATE_FORMAT",
    "FileEntry",
    "IndexReport",
    "VaultState",
    "graph_signature",
    "load_state",
    "racy",
    "state_from_store",
    "state_meta",
]

log = logging.getLogger(__name__)

STATE_FORMAT = 4
"""Bump when :class:`VaultState` changes shape; an older state forces a full build."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """The manifest line of one note.

    ``note_id`` is None when the file could not be read at all (binary, unreadable);
    ``problem`` says what was wrong, for ``rubi doctor``.
    """

    mtime_ns: int
    size: int
    sha256: str
    note_id: str | None
    problem: str | None = None
    signature: str = ""
    """:func:`graph_signature` of the parsed note."""


def graph_signature(note: Note) -> str:
    """A digest of everything in a note that the graph, the name table, the map or
    the stale flags use (title, type, status, aliases, links, id, supersede fields,
    files, commit, day (``updated``/``created``), generated-page marker). Equal
    signatures: only the body changed, so a re-index updates the text index alone
    (an appended session record, an edited paragraph) instead of rebuilding the
    graph."""
    import hashlib

    from rubi.core.pagenames import GENERATED_COMMENT
    from rubi.dates.days import note_day

    meta = note.metadata
    parts = [
        note.id,
        note.title,
        note.type,
        note.status,
        repr(note.aliases),
        repr([(lk.target, lk.relation) for lk in note.links]),
        repr([meta.get(k) for k in ("id", "supersedes", "superseded_by", "commit")]),
        note_day(meta),
        repr(note_files(note)),
        str(GENERATED_COMMENT in note.body[:400]),
        str(note.frontmatter_error),
    ]
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:24]


LISTED_KEY = "listed_ns"
"""The store's meta key of :attr:`VaultState.listed_ns`."""

RACY_MARGIN_NS = RACY_WINDOW_NS
"""How close (ns) to a listing a file's mtime must be for a stat to miss an edit made
right after the listing (:data:`rubi.core.filestamp.RACY_WINDOW_NS`, 2 s: the coarsest
mtime granularity of a common file system is FAT's 2 s; ext4 and tmpfs tick with the
kernel's coarse clock, 1–10 ms)."""


def racy(mtime_ns: int, listed_ns: int | None) -> bool:
    """Whether a note recorded with ``mtime_ns`` by the listing of ``listed_ns``
    (:attr:`VaultState.listed_ns`) may have been edited since without its size or
    mtime showing it: saved within :data:`RACY_MARGIN_NS` before the listing, or
    after it (a clock set back). Such a note is read again and compared by content
    (Git's "racily clean" rule). False when the listing time is not recorded."""
    return listed_ns is not None and mtime_ns >= listed_ns - RACY_MARGIN_NS


NOTES_BODY_KEPT = 400
"""Characters of each body kept in the store (enough to tell a generated page); the
full text is in the Whoosh index and on disk, and the rows stay small."""


@dataclass(slots=True)
class VaultState:
    """The manifest of a vault as of the last index run (small: loaded on every run).

    The parsed notes live in a second file (``notes.pickle``), read only when
    something changed.
    """

    format: int = STATE_FORMAT
    schema: int = SCHEMA_VERSION
    graph: int = GRAPH_FORMAT
    files: dict[str, FileEntry] = field(default_factory=dict)
    attachments: list[str] = field(default_factory=list)
    indexed_at: float = 0.0
    code: dict[str, str] = field(default_factory=dict)
    """Indexed code files of the project: path → SHA-256."""
    code_fingerprint: str = ""
    """:func:`code_fingerprint` of the project when its code was last mapped."""
    gen: int = 0
    """The store's change counter as of this manifest (:mod:`rubi.sync.rows`)."""
    listed_ns: int | None = None
    """When (``time.time_ns()``) the listing began whose stats the entries hold: the
    last run that listed the whole vault, or an older one (a watcher's run lists no
    vault and keeps it); None when not recorded (a store of an earlier rubi). See
    :func:`racy`."""


@dataclass(slots=True)
class IndexReport:
    """What an index run did. Counts are notes; ``seconds`` is wall time."""

    added: int = 0
    updated: int = 0
    deleted: int = 0
    unchanged: int = 0
    full: bool = False
    graph_rebuilt: bool = False
    seconds: float = 0.0
    warnings: list[ScanWarning] = field(default_factory=list)
    code_files: int = 0
    code_changed: int = 0
    code_deleted: int = 0
    code_warnings: list[ScanWarning] = field(default_factory=list)
    pages_written: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Notes were added, updated or deleted."""
        return bool(self.added or self.updated or self.deleted)


def state_from_store(store: Store) -> VaultState | None:
    """The manifest saved in ``store``, or None when empty or of another version."""
    meta = store.meta()
    saved = (meta.get("state_format"), meta.get("schema"), meta.get("graph"))
    if saved != (STATE_FORMAT, SCHEMA_VERSION, GRAPH_FORMAT):
        if "schema" in meta:  # an index another rubi built, not an empty store
            log.warning(
                "this vault's index was built by another version of rubi (%s); "
                "rebuilding it once, which takes longer than a search",
                f"index format {saved[1]}, now {SCHEMA_VERSION}"
                if saved[1] != SCHEMA_VERSION
                else "another manifest or graph format",
            )
        return None
    files = {
        path: FileEntry(mtime, size, sha, note_id, problem, signature or "")
        for path, mtime, size, sha, note_id, problem, signature in store.files()
    }
    return VaultState(
        files=files,
        attachments=list(meta.get("attachments", [])),
        indexed_at=float(meta.get("indexed_at", 0.0)),
        code=dict(meta.get("code", {})),
        code_fingerprint=str(meta.get("code_fingerprint", "")),
        gen=int(meta.get("gen", 0)),
        listed_ns=_listed(meta.get(LISTED_KEY)),
    )


def _listed(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def state_meta(state: VaultState) -> dict[str, object]:
    """The meta values of ``state`` (what :func:`state_from_store` reads back)."""
    return {
        "store_format": STORE_FORMAT,
        "state_format": STATE_FORMAT,
        "schema": SCHEMA_VERSION,
        "graph": GRAPH_FORMAT,
        "attachments": state.attachments,
        "indexed_at": state.indexed_at,
        "code": state.code,
        "code_fingerprint": state.code_fingerprint,
        "gen": state.gen,
        LISTED_KEY: state.listed_ns,
    }


def load_state(paths: VaultPaths) -> VaultState | None:
    """The saved manifest, or None when absent, unreadable or of another version."""
    try:
        store = open_store(paths.store_file, create=False)
    except Exception as exc:
        log.warning("%s: unreadable (%s); rebuilding the index", paths.store_file, exc)
        return None
    if store is None:
        return None
    try:
        return state_from_store(store)
    except Exception as exc:
        log.warning("%s: unreadable (%s); rebuilding the index", paths.store_file, exc)
        return None
    finally:
        store.close()
