"""The manifest of an index run: what the last run saw, and the parsed notes it kept.

``state.pickle`` holds one :class:`FileEntry` per note (mtime, size, SHA-256, graph
signature), small enough to load on every run; ``notes.pickle`` holds the parsed
notes, read only when something changed. :mod:`rubi.sync.run` compares the vault with
them and saves them last, so an interrupted run is simply redone.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from pathlib import Path

from rubi.core.model import Note, ScanWarning, note_files
from rubi.core.paths import VaultPaths
from rubi.core.storage import load_pickle, save_pickle
from rubi.graph.store import GRAPH_FORMAT
from rubi.index.version import SCHEMA_VERSION

__all__ = [
    "NOTES_BODY_KEPT",
    "STATE_FORMAT",
    "FileEntry",
    "IndexReport",
    "VaultState",
    "graph_signature",
    "load_notes",
    "load_state",
    "save_notes",
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
    files, commit, generated-page marker). Equal signatures: only the body changed, so
    a re-index updates the text index alone (an appended session record, an edited
    paragraph) instead of rebuilding the graph."""
    import hashlib

    from rubi.core.config import GENERATED_COMMENT

    meta = note.metadata
    parts = [
        note.id,
        note.title,
        note.type,
        note.status,
        repr(note.aliases),
        repr([(lk.target, lk.relation) for lk in note.links]),
        repr([meta.get(k) for k in ("id", "supersedes", "superseded_by", "commit")]),
        repr(note_files(note)),
        str(GENERATED_COMMENT in note.body[:400]),
        str(note.frontmatter_error),
    ]
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "replace")).hexdigest()[:24]


NOTES_BODY_KEPT = 400
"""Characters of each body kept in ``notes.pickle`` (enough to tell a generated page);
the full text is in the Whoosh index and on disk, and the pickle stays small."""


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


def load_state(paths: VaultPaths) -> VaultState | None:
    """The saved state, or None when absent, unreadable or of another version."""
    try:
        state = load_pickle(paths.state_file)
    except FileNotFoundError:
        return None
    except (ModuleNotFoundError, AttributeError) as exc:
        # written by another version of rubi (its classes moved): an upgrade, not damage
        log.info("%s: from another rubi version (%s); rebuilding the index", paths.state_file, exc)
        return None
    except Exception as exc:
        log.warning("%s: unreadable (%s); rebuilding the index", paths.state_file, exc)
        return None
    if (
        not isinstance(state, VaultState)
        or state.format != STATE_FORMAT
        or state.schema != SCHEMA_VERSION
        or getattr(state, "graph", None) != GRAPH_FORMAT
    ):
        return None
    return state


_NOTES_CACHE: dict[Path, tuple[int, int, dict[str, Note]]] = {}
"""The notes cache as last read or written by this process, by file and its stat: the
watcher and the MCP server re-index often and need not re-read it each time."""


def load_notes(paths: VaultPaths) -> dict[str, Note]:
    """The parsed notes saved by the last index run, by id (empty when absent). The
    caller gets its own dict (the notes themselves are immutable)."""
    path = paths.notes_file
    try:
        st = path.stat()
        cached = _NOTES_CACHE.get(path)
        if cached is not None and cached[:2] == (st.st_mtime_ns, st.st_size):
            return dict(cached[2])
        notes = load_pickle(path)
    except FileNotFoundError:
        return {}
    except Exception as exc:
        log.warning("%s: unreadable (%s); notes will be re-read", path, exc)
        return {}
    if not isinstance(notes, dict):
        return {}
    _NOTES_CACHE.clear()
    _NOTES_CACHE[path] = (st.st_mtime_ns, st.st_size, notes)
    return dict(notes)


def save_notes(paths: VaultPaths, notes: dict[str, Note]) -> None:
    """Save ``notes`` (bodies cut to :data:`NOTES_BODY_KEPT`) and remember them."""
    trimmed = {k: dataclasses.replace(n, body=n.body[:NOTES_BODY_KEPT]) for k, n in notes.items()}
    save_pickle(paths.notes_file, trimmed)
    st = paths.notes_file.stat()
    _NOTES_CACHE.clear()
    _NOTES_CACHE[paths.notes_file] = (st.st_mtime_ns, st.st_size, trimmed)
