"""What an agent is given when a session starts: the index brought up to date, then the
level-0 map; after a compaction or ``/clear``, the last handoff and the latest session
record instead."""

from __future__ import annotations

import os

from rubi.core.paths import VaultPaths

__all__ = ["HANDOFF_CHARS", "RECORD_CHARS", "refresh_index", "session_start_context"]

HANDOFF_CHARS = 4_000
RECORD_CHARS = 3_000
RESUMED = ("compact", "clear")
"""SessionStart sources after which the conversation so far is gone."""


def refresh_index(paths: VaultPaths, *, lock_timeout_s: float) -> bool:
    """Bring notes and code map up to date without a full verify, the way a server's
    catch-up does (:func:`rubi.app.updates.catch_up_if_changed`: nothing changed since
    the last index run, told by a listing, one query and one ``git ls-files``, and no
    index run is made, Whoosh and the lock never imported; session records alone make
    none); waits at most ``lock_timeout_s`` for another run. Nothing to do in a process
    whose watcher applies every change to ``paths`` (the engine's host, ``rubi serve``
    and ``rubi watch``): it caught up when it started.

    Returns:
        False when another run held the lock (the index is answered from as it is).
    """
    from rubi.app.updates import catch_up_if_changed

    if _watched(paths):
        return True
    try:
        catch_up_if_changed(paths, lock_timeout_s=lock_timeout_s)
    except TimeoutError as exc:
        if _lock_held(exc):
            return False
        raise  # an OSError of its own (ETIMEDOUT on a network file system): it is told
    return True


def _lock_held(exc: TimeoutError) -> bool:
    """Whether ``exc`` is the index lock's :class:`filelock.Timeout` (a subclass of
    TimeoutError), asked without importing filelock for its name (tens of ms): a run
    that waited for the lock has imported it."""
    import sys

    filelock = sys.modules.get("filelock")
    return filelock is not None and isinstance(exc, filelock.Timeout)


def _watched(paths: VaultPaths) -> bool:
    """Whether a watcher of this process applies every change to ``paths``; a process
    that never loaded the vault syncs' module (a cold hook) holds none."""
    import sys

    if "rubi.sync.run" not in sys.modules:
        return False
    from rubi.sync.run import has_vault_sync, vault_sync_for

    return has_vault_sync(paths) and vault_sync_for(paths).watched


def _no_handoff(paths: VaultPaths) -> bool:
    """True when no handoff can exist: no page in this vault's handoffs folder and no
    other worktree whose vault may hold one. Answered with a folder listing, so a
    session start in a project without handoffs never loads the handoff module (its
    git and author helpers: ``subprocess``, ``logging``; 15-30 ms of a hook)."""
    from rubi.core.pagenames import HANDOFFS_DIR

    try:
        with os.scandir(paths.root / HANDOFFS_DIR) as entries:
            if any(entry.name.endswith(".md") for entry in entries):
                return False
    except OSError:
        pass  # no folder (or no listing): the other worktrees decide
    if paths.project_root is None:
        return True
    from rubi.knowledge.worktreeshape import may_have_worktrees

    return not may_have_worktrees(paths.project_root)


def _handoff(paths: VaultPaths) -> tuple[str, str] | None:
    """Where the newest handoff is (``.rubi/handoffs/…``, or under another worktree's
    folder) and its body (the rule of
    :func:`rubi.knowledge.handoff.last_handoff`: by name), or None; a handoff that is
    refused or unreadable is passed over quietly."""
    if _no_handoff(paths):
        return None
    from rubi.app.pagetext import note_body
    from rubi.core.errors import RubiError
    from rubi.core.safeio import UnsafeFileError
    from rubi.knowledge.handoff import last_handoff

    try:
        found = last_handoff(paths)
    except (RubiError, UnsafeFileError, OSError) as exc:
        import logging  # only now: a hook that reads the handoff never loads it

        logging.getLogger(__name__).debug("last handoff not read for the context (%s)", exc)
        return None
    if found is None:
        return None
    where = f"{found.worktree}/.rubi/{found.path}" if found.worktree else f".rubi/{found.path}"
    return where, note_body(found.text)


def session_start_context(
    paths: VaultPaths, *, source: str, session_id: str, max_chars: int
) -> str | None:
    """The context for a starting session, at most ``max_chars`` characters, or None.

    ``source`` ``compact`` or ``clear``: the last handoff and the end of the session's
    latest pre-compaction record; otherwise (or when neither exists) the map
    (``map.md``), with a pointer to the last handoff if there is one.
    """
    from rubi.app.pagetext import cut, page_text, without_page_markers
    from rubi.core.pagenames import MAP_PAGE

    handoff = _handoff(paths)
    parts: list[str] = []
    if source in RESUMED:  # the records' module only here: a new session never reads one
        from rubi.app.sessionrecord import SESSIONS_DIR, latest_record

        if handoff is not None:
            parts.append(f"Last handoff ({handoff[0]}):\n" + cut(handoff[1], HANDOFF_CHARS))
        record = latest_record(paths, session_id, RECORD_CHARS)
        if record is not None:
            parts.append(f"Latest session record (.rubi/{SESSIONS_DIR}/{record[0]}):\n{record[1]}")
    if not parts:
        body = without_page_markers(page_text(paths, paths.root / MAP_PAGE, max_chars))
        if body:
            parts.append("Project memory (rubi, .rubi/map.md):\n" + body)
        if handoff is not None:
            parts.append(
                f"A handoff from an earlier session is in {handoff[0]} "
                "(the rubi handoff tool with action=last shows it)."
            )
    return "\n\n".join(parts)[:max_chars] if parts else None
