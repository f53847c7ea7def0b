"""Whether a vault's files are as the last index run recorded them, asked without the
index lock, Whoosh or the manifest's objects: the check a cold search makes before it
reads the index (:func:`rubi.app.searching.ensure_index`), so that an unchanged vault
costs a listing of its folders and one ``SELECT`` instead of an index run.

The listing is :func:`os.scandir`'s, by the rules of :func:`rubi.vault.scan.scan_vault`
(hidden and skipped folders not entered, hidden files left out), and each note's
``(mtime_ns, size)`` is compared with the store's ``files`` rows, the other files with
the recorded attachments. Anything the scan would treat with care (a symlink, a file
that is not regular, a name that is not UTF-8, a folder that cannot be listed) answers
"maybe changed": the caller then runs the index as before, which decides.

An edit can keep a file's size and, on a file system whose clock ticks coarsely, its
mtime: a note saved in the same tick as the listing that recorded it looks unchanged
to a stat. Such notes (``mtime_ns`` within :data:`RACY_MARGIN_NS` of the run's
listing, :func:`rubi.sync.manifest.racy`) are read and compared by content with the
digest the run recorded (the same rule as Git's "racily clean" index entries); one that
differs, or cannot be told, answers "maybe changed" and the run reads it again. The
pages a project's first run writes itself after its listing (the code map's) are such
notes: before this comparison, a ``rubi serve`` started after a first ``rubi index``
ran the index again at its first answers (issue 29, eighteenth pass).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable

from rubi.core import scancost
from rubi.core.errors import RubiError
from rubi.core.indexformat import SCHEMA_VERSION
from rubi.core.paths import VaultPaths
from rubi.core.safeio import MAX_NOTE_BYTES, has_control_chars, has_surrogates, read_bytes
from rubi.core.treerules import vault_file_skipped, vault_folder_skipped
from rubi.graph.snapshot import GRAPH_FORMAT
from rubi.sync.manifest import LISTED_KEY, STATE_FORMAT, racy
from rubi.sync.rows import open_store

__all__ = [
    "caught_up",
    "code_map_current",
    "files_unchanged",
    "formats_differ",
    "list_vault",
    "on_scans",
    "scans_cpu_s",
]

_FORMATS = {"state_format": STATE_FORMAT, "schema": SCHEMA_VERSION, "graph": GRAPH_FORMAT}


def scans_cpu_s() -> float:
    """CPU seconds this process has spent so far checking whether a vault's files
    changed (:func:`files_unchanged`: the listing of every folder and the store's
    stamps), in every thread (:func:`rubi.core.scancost.scans_cpu_s`); a server
    compares it with what starting its watcher costs (:mod:`rubi.cli.servewatch`)."""
    return scancost.scans_cpu_s()


def on_scans(event: threading.Event) -> Callable[[], None]:
    """Set ``event`` each time a check adds to :func:`scans_cpu_s` (a waiter then looks
    at the total when it grew, not on a timer); returns what stops that."""
    return scancost.on_scans(event)


def _odd(name: str) -> tuple[bool, bool]:
    """Whether a file name holds a control character, and whether it is not UTF-8
    (:func:`has_control_chars`, :func:`has_surrogates`). A printable ASCII name has
    neither: most names are asked two ``str`` questions, not a pattern and an encode."""
    if name.isascii() and name.isprintable():
        return False, False
    return has_control_chars(name), has_surrogates(name)


def list_vault(root: str) -> tuple[dict[str, tuple[int, int]], set[str]] | None:
    """The notes of the vault at ``root`` as ``{vault-relative POSIX path: (mtime_ns,
    size)}`` and its other files (attachments) as paths, listed as
    :func:`rubi.vault.scan.scan_vault` would list them; None when the listing met
    something the scan treats with care (a symlink, a ``.md`` that is not a regular
    file, a name that is not UTF-8, a folder that cannot be listed)."""
    notes: dict[str, tuple[int, int]] = {}
    attachments: set[str] = set()
    if os.path.islink(root):
        return None
    folders = [(root, "")]
    while folders:
        folder, prefix = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    control, undecodable = _odd(name)
                    if entry.is_dir(follow_symlinks=False):
                        if not vault_folder_skipped(name) and not control:
                            if undecodable:
                                return None
                            folders.append((entry.path, prefix + name + "/"))
                        continue
                    if vault_file_skipped(name):
                        continue
                    note = name.lower().endswith(".md")
                    if control and note:
                        continue  # skipped by the scan, with a warning the run recorded
                    if undecodable or entry.is_symlink():
                        return None  # refused or followed by the scan: it decides
                    if not note:
                        attachments.add(prefix + name)
                        continue
                    info = entry.stat(follow_symlinks=False)
                    if not stat.S_ISREG(info.st_mode):
                        return None
                    notes[prefix + name] = (info.st_mtime_ns, info.st_size)
        except OSError:
            return None  # unreadable, or gone while listed
    return notes, attachments


def files_unchanged(paths: VaultPaths, *, pending: tuple[str, ...] = ()) -> bool:
    """True when the vault's note files and attachments are exactly those the store
    records, each note with its recorded ``(mtime_ns, size)``, and each one saved so
    close to the recording listing that a stat cannot tell an edit
    (:func:`rubi.sync.manifest.racy`) holding the bytes recorded
    (:func:`_same_bytes`). False when anything differs or cannot be told:
    no store, no search index (a run rebuilds it), another format, no listing time
    recorded, a listing the scan must make (:func:`list_vault`). Takes no lock: a run
    that commits meanwhile recorded files at least as new as the ones it read. Never
    raises for a damaged store (False).

    ``pending``: vault-relative folder prefixes (``"sessions/"``) whose notes may be
    new or edited since the last run and still count as unchanged (a deleted one
    does not): notes the caller leaves to the next run that refreshes.

    Its CPU time is added to :func:`scans_cpu_s`."""
    started = time.thread_time()
    try:
        return _files_unchanged(paths, pending)
    finally:
        scancost.add(time.thread_time() - started)


def formats_differ(paths: VaultPaths) -> bool:
    """True when the vault's store was written by another version of rubi (its
    ``state_format``, ``schema`` or ``graph`` is not this one's): the next index run
    rebuilds it. False when they match or when there is no readable store (a first
    run, or one that says what is wrong). Logs nothing (:func:`rubi.sync.load_state`
    logs the one line the rebuild is announced by). Never raises for a damaged store."""
    meta = _stored_meta(paths, tuple(_FORMATS))
    return (
        meta is not None and "schema" in meta and any(meta.get(k) != v for k, v in _FORMATS.items())
    )


def _stored_meta(paths: VaultPaths, keys: tuple[str, ...]) -> dict[str, object] | None:
    """The store's meta values of ``keys``, read without creating a store; None when
    there is no readable store (missing, damaged, another program's file)."""
    try:
        store = open_store(paths.store_file, create=False)
    except (OSError, sqlite3.Error, RubiError):
        return None
    if store is None:
        return None
    try:
        return store.meta_values(keys)
    except (sqlite3.Error, ValueError):
        return None
    finally:
        store.close()


def _search_index_present(paths: VaultPaths) -> bool:
    """Whether the vault's Whoosh index has a table of contents (``_MAIN_<n>.toc``,
    what ``whoosh.index.exists_in`` looks for): a run finding none rebuilds the index
    (:meth:`rubi.sync.vaultsync.VaultSync.run`), so the files alone cannot say that
    nothing is to be done. One listing, Whoosh not imported."""
    try:
        with os.scandir(paths.whoosh_dir) as entries:
            return any(_is_toc(entry.name) for entry in entries)
    except OSError:
        return False


def _is_toc(name: str) -> bool:
    return name.startswith("_MAIN_") and name.endswith(".toc") and name[6:-4].isdigit()


def _files_unchanged(paths: VaultPaths, pending: tuple[str, ...]) -> bool:
    if not _search_index_present(paths):
        return False  # deleted or emptied: the run rebuilds it
    try:
        store = open_store(paths.store_file, create=False)
    except (OSError, sqlite3.Error, RubiError):
        return False  # the run says what is wrong
    if store is None:
        return False
    try:
        meta = store.meta_values((*_FORMATS, "attachments", LISTED_KEY))
        recorded = store.file_stamps()
        if any(meta.get(k) != v for k, v in _FORMATS.items()):
            return False
        listed, attachments = meta.get(LISTED_KEY), meta.get("attachments")
        if not isinstance(listed, int) or not isinstance(attachments, list):
            return False
        listing = list_vault(str(paths.root))
        if listing is None:
            return False
        notes, found = listing
        if found != set(attachments):
            return False
        if pending:
            if any(path not in notes for path in recorded if path.startswith(pending)):
                return False  # a deleted note would stay findable
            notes, recorded = _outside(notes, pending), _outside(recorded, pending)
        if notes != recorded:
            return False
        racy_notes = {p: stamp for p, stamp in notes.items() if racy(stamp[0], listed)}
        return not racy_notes or _same_bytes(paths, racy_notes, store.file_digests(racy_notes))
    except (sqlite3.Error, ValueError):
        return False
    finally:
        store.close()


def _same_bytes(
    paths: VaultPaths, stamps: dict[str, tuple[int, int]], digests: dict[str, str]
) -> bool:
    """Whether each note of ``stamps`` (saved too near the recording listing for its
    stat to tell: :func:`rubi.sync.manifest.racy`) still holds the bytes the store
    recorded, read through the same guarded read as the index run's, with the stat of
    the descriptor read equal to the recorded one. A page the run wrote itself after
    its listing (the code map's, on a project's first run) or a note saved just
    before it is then trusted without a run; an edit, a file too large to hash whole
    or one that cannot be read answers "maybe changed" (the run reads it again)."""
    import hashlib  # here: a check with no such note loads no hash library

    for rel, stamp in stamps.items():
        digest = digests.get(rel)
        if not digest:
            return False  # not read by the run (a problem recorded): it decides
        try:
            got = read_bytes(paths.root, rel, limit=MAX_NOTE_BYTES)
        except (OSError, RubiError):
            return False
        if got.truncated or (got.mtime_ns, got.size) != stamp:
            return False
        if hashlib.sha256(got.data).hexdigest() != digest:
            return False
    return True


def _outside(
    stamps: dict[str, tuple[int, int]], folders: tuple[str, ...]
) -> dict[str, tuple[int, int]]:
    """``stamps`` without the notes under ``folders`` (vault-relative prefixes)."""
    return {path: stamp for path, stamp in stamps.items() if not path.startswith(folders)}


def caught_up(paths: VaultPaths, *, pending: tuple[str, ...] = ()) -> bool:
    """True when an index run would find nothing to do: the notes are as recorded
    (:func:`files_unchanged`, ``pending`` as there) and, in a project, the code's
    fingerprint (one ``git ls-files`` and an ``lstat`` per file:
    :func:`rubi.sync.code.code_fingerprint`) is the one its map was last made from,
    and the map is there. False when anything differs or cannot be told. Never raises
    for a damaged store (False)."""
    if not files_unchanged(paths, pending=pending):
        return False
    return paths.project_root is None or code_map_current(paths) is True


def code_map_current(paths: VaultPaths) -> bool | None:
    """Whether the project's code is as its map was last made from (the fingerprint
    :func:`caught_up` compares: one ``git ls-files`` and an ``lstat`` per file); None
    outside a project, before the first map, or when the store cannot tell. A search
    brings the notes up to date but maps the code only on its first run, so after a
    pull this is how ``rubi doctor`` tells that files are not searched yet."""
    root = paths.project_root
    if root is None:
        return None
    from rubi.sync.code import code_fingerprint

    meta = _stored_meta(paths, ("code_fingerprint",))
    if meta is None:
        return None
    recorded = meta.get("code_fingerprint")
    if not isinstance(recorded, str) or not recorded or not paths.codemap_file.exists():
        return None
    return code_fingerprint(root) == recorded
