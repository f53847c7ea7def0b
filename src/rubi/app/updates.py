"""Keeping the derived data current while files change: what the watcher calls.

:func:`catch_up` and :func:`apply_changes` are the incremental path of ``rubi index``
(:func:`rubi.sync.run.index_vault`); they take the index lock, and every index file is
replaced atomically, so readers never see a half-written index. :func:`remember_code`
and :func:`import_ahead` prepare a watching process for its first edits, in the
background, without the index lock.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    import logging
    import threading

    from rubi.core.paths import VaultPaths
    from rubi.sync.manifest import IndexReport

__all__ = [
    "PENDING_FOLDERS",
    "SEMANTIC_WARM_MODULES",
    "WARM_MODULES",
    "apply_changes",
    "catch_up",
    "catch_up_if_changed",
    "close_search_index",
    "import_ahead",
    "on_scans",
    "remember_code",
    "scans_cpu_s",
    "set_watched",
    "special_files",
]

WARM_MODULES = ("rubi.markdown.parse",)
"""Imported by :func:`import_ahead`: the first note (or map page) a batch indexes would
import them."""
SEMANTIC_WARM_MODULES = ("numpy", "rubi.semantic.encoder", "rubi.semantic.passages")
"""Imported too when the semantic channel is on (:func:`rubi.semantic.enabled`): the
first note a batch embeds would import them."""


PENDING_FOLDERS = ("sessions/",)
"""Vault folders whose new or extended notes alone make no catch-up run
(:func:`catch_up_if_changed`): the session records (:mod:`rubi.app.sessionrecord`),
which the recall hook never reads (:data:`rubi.app.recall.SKIPPED_FOLDERS`)."""


def catch_up(paths: VaultPaths) -> IndexReport:
    """One incremental run that checks every note (sizes, times, then hashes) and the
    project's code: what changed while nobody watched.

    Raises:
        OSError: the index folder cannot be written.
        filelock.Timeout: another index run held the lock too long.
    """
    from rubi.sync import index_vault

    return index_vault(paths, verify=True, code=True)


def scans_cpu_s() -> float:
    """CPU seconds this process's searches (and catch-ups) have spent so far checking
    whether a vault's files changed, as they do while no watcher listens
    (:func:`rubi.core.scancost.scans_cpu_s`; the check's module is not imported)."""
    from rubi.core.scancost import scans_cpu_s as spent

    return spent()


def on_scans(event: threading.Event) -> Callable[[], None]:
    """Set ``event`` each time :func:`scans_cpu_s` grows (a waiter looks at it then, not
    on a timer); returns what stops that (:func:`rubi.core.scancost.on_scans`)."""
    from rubi.core.scancost import on_scans as tell

    return tell(event)


def catch_up_if_changed(
    paths: VaultPaths, *, lock_timeout_s: float, pending: tuple[str, ...] = PENDING_FOLDERS
) -> bool:
    """One incremental run (notes by size and time, the code map by its fingerprint)
    only when something changed since the last index run
    (:func:`rubi.sync.freshness.caught_up`: a listing, one query and one ``git
    ls-files``); True when it ran. Waits at most ``lock_timeout_s`` for another run.
    The run leaves the flat graph current, as a cold process's run does (a long-lived
    process's runs leave it to the next cold reader, :mod:`rubi.sync.oneshot`).
    ``pending``: the folders whose new or edited notes alone make no run (a watcher's
    catch-up passes none: its searches never scan again).

    Session records written or extended since the last run (:data:`PENDING_FOLDERS`:
    every session's Stop appends to its record) make no run by themselves: no reader
    that skips refreshing reads them (the recall hook leaves ``sessions/`` out), and
    every reader that does refresh first (a search, the watcher's catch-up, ``rubi
    index``) indexes them then. So a short session's server does not load the index
    writer and the graph to index the last session's record.

    Raises:
        OSError: the index folder cannot be written.
        filelock.Timeout: another index run held the lock too long.
    """
    from rubi.sync.freshness import caught_up

    if caught_up(paths, pending=pending):
        return False  # the index run's modules (Whoosh among them) never imported
    from rubi.sync import index_vault, vault_sync_for

    index_vault(paths, verify=False, code=True, lock_timeout_s=lock_timeout_s)
    # The next session's first recall, answered before any vault sync of its server
    # loads, reads the flat graph when it is current (rubi.app.searching.searching_once).
    vault_sync_for(paths).keep_flat()
    return True


def apply_changes(
    paths: VaultPaths,
    notes: Collection[str],
    *,
    code: bool,
    code_paths: Collection[str] | None = None,
) -> IndexReport:
    """Apply one batch of changes.

    Args:
        paths: the vault.
        notes: vault-relative POSIX paths that changed inside the vault; only these are
            read again (a folder among them makes the run scan the vault).
        code: something outside the vault changed: the code map looks at the project.
        code_paths: what changed outside the vault, project-relative, when the caller
            saw every change (a watcher); the project is then not listed again for
            an edit of files it already lists. None: list it.

    Raises:
        OSError: the index folder cannot be written.
        filelock.Timeout: another index run held the lock too long.
    """
    from rubi.sync import index_vault

    return index_vault(paths, verify=False, code=code, changed_paths=notes, changed_code=code_paths)


def special_files(
    paths: VaultPaths, notes: Collection[str], code_paths: Collection[str]
) -> dict[str, str]:
    """The changed paths where rubi would read a file, a vault note (``.md``) or a code
    file the map reads (:func:`rubi.codemap.languages.language_of`), that are a FIFO,
    socket or device, or a symlink to one, each with the line that says what it is and
    what to do (:func:`rubi.core.safeio.refusal`, as the vault scan words it). The
    index run skips them without a word (it stats a changed path, never opens one:
    opening a FIFO waits for a writer); this says why. Only ``stat`` is called here.

    Args:
        paths: the vault.
        notes: changed paths inside the vault, vault-relative (the keys' form).
        code_paths: changed paths outside it, project-relative (the keys' form).
    """
    import os
    import stat

    from rubi.core.safeio import allowed_root, refusal

    allowed, where = allowed_root(paths.root, paths.project_root)
    places = [(paths.root, rel) for rel in notes if rel.lower().endswith(".md")]
    if paths.project_root is not None and code_paths:
        from rubi.codemap.languages import language_of

        places += [(paths.project_root, rel) for rel in code_paths if language_of(rel)]
    found: dict[str, str] = {}
    for root, rel in places:
        full = root / rel
        try:
            mode = os.stat(full).st_mode  # a stat opens nothing
        except OSError:
            continue  # gone, or a broken link
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
            continue
        reason = refusal(allowed, full, where=where)
        if reason is not None:
            found[rel] = reason
    return found


def set_watched(paths: VaultPaths, watched: bool) -> None:
    """Say whether a watcher in this process applies every change to ``paths`` as it
    happens; while it does, searches and reads skip their refreshing scan. A watcher
    that stops writes the graph snapshot it deferred (``VaultSync.flush_snapshot``) and
    closes the vault's kept search index (:func:`close_search_index`)."""
    from rubi.sync import vault_sync_for

    vault_sync = vault_sync_for(paths)
    vault_sync.watched = watched
    if not watched:
        vault_sync.flush_snapshot()
        close_search_index(paths)


def close_search_index(paths: VaultPaths) -> None:
    """Close the search index of ``paths`` this process keeps open
    (:func:`rubi.index.warm.close_index`), and its kept reader of the fingerprint
    store (:func:`rubi.search.printstore.close_kept_store`), when it keeps them: a
    watcher or an engine that stops leaves no file of the index open (the next search
    opens them again). Costs nothing in a process that never searched (the modules are
    not imported for it)."""
    import sys

    warm = sys.modules.get("rubi.index.warm")
    if warm is not None:
        warm.close_index(paths.whoosh_dir)
    prints = sys.modules.get("rubi.search.printstore")
    if prints is not None:
        prints.close_kept_store(paths.index_dir)


def remember_code(paths: VaultPaths) -> bool:
    """Make what the code map was resolved from, once, after a watcher's catch-up run
    (``VaultSync.remember_code``): the first edit that changes a file's imports, or
    adds or deletes a file, then updates the map instead of building it in full. Takes
    no index lock; slow (seconds on a large project), so call it in a background
    thread. True when the vault sync holds it; never raises."""
    from rubi.sync import vault_sync_for

    return vault_sync_for(paths).remember_code()


def import_ahead() -> None:
    """Import what a watcher's first batches would (:data:`WARM_MODULES`, and
    :data:`SEMANTIC_WARM_MODULES` when the semantic channel is on), after its catch-up
    run in a background thread. Never raises (a module that fails is imported, or
    fails, in the batch that needs it)."""
    import importlib

    names = list(WARM_MODULES)
    try:
        from rubi import semantic

        if semantic.enabled():
            names.extend(SEMANTIC_WARM_MODULES)
    except Exception:  # an optimisation: nothing is lost
        _log().debug("semantic channel not checked", exc_info=True)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            _log().debug("%s not imported ahead", name, exc_info=True)


def _log() -> logging.Logger:
    """This module's logger, loaded when something is logged (a hook that imports the
    facade never is)."""
    import logging

    return logging.getLogger(__name__)
