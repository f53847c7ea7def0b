"""A vault's first index, which reads every note and code file once (rubi's own
repository: 314 notes and 931 code files, 8-11 s of CPU; obsidian-hub's 6,571
notes: 30 s of CPU, 166 s of wall time at load 12-15), built where nobody waits for it.

A fresh clone of a project whose ``.rubi/`` is committed has its notes and its map
page (``.rubi/map.md``) but no index: the index lives in the user's cache folder. A
SessionStart hook that built it there and then (up to the twenty-fifth pass) ran past
Claude Code's 30 s timeout, so the session's first request went without the map. Now
the hook answers with what needs no index (the committed map, handoffs) and starts
one detached ``rubi index`` (:func:`start_first_index`) that builds it under the index
lock (:func:`build_first_index`); a second start while the first holds the lock ends
at once, and one that starts after it finished finds the vault indexed. The detached
process outlives the hook, the session and the terminal (its own session on POSIX, a
detached process on Windows), so the index is built even when a ``claude -p`` session
ends in seconds; the plugin's ``rubi serve``, whose catch-up would build it in a
thread Claude Code stops with the session, finds the lock held and catches up after.

:func:`first_index_line` is what a command that indexes first (``rubi search``,
``rubi index``) says on a pipe, where no progress bar shows.
"""

from __future__ import annotations

import os
import sys

from rubi.core.paths import VaultPaths

__all__ = [
    "FIRST_INDEX_LOG",
    "FIRST_INDEX_LOG_MAX_BYTES",
    "FIRST_LOCK_WAIT_S",
    "INDEX_BUILDING_LINE",
    "NOTICE_AFTER_FILES",
    "build_first_index",
    "first_index_line",
    "first_index_size",
    "index_run_under_way",
    "never_indexed",
    "start_first_index",
]

FIRST_INDEX_LOG = "first-index.log"
"""The detached run's standard error, in the index folder (its warnings, a failure)."""
FIRST_INDEX_LOG_MAX_BYTES = 1 << 20
"""Bytes of :data:`FIRST_INDEX_LOG` above which the next start empties it first: a
first index that fails at every session start (its traceback appended each time) would
grow it without end; a megabyte keeps the last hundreds of runs."""
INDEX_BUILDING_LINE = (
    "rubi is building this project's search index for the first time, in the "
    "background (it reads every note and code file once); until it is ready, search and "
    "recall have nothing to answer from."
)
"""The line a session start adds while the first index is being built."""
NOTICE_AFTER_FILES = 200
"""Notes and code files a first index must read before :func:`first_index_line` says
anything: below that it takes a second or two (pallets/click, 16 notes and 80 code
files: 1.4 s of CPU), and a line would be noise before every small project's answer."""


FIRST_LOCK_WAIT_S = 1.0
"""How long a first-index run waits for the index lock before it leaves the index to
the run that holds it: long enough that a moment's probe of the lock
(:func:`index_run_under_way`) never sends it away, short enough that a second start
ends at once."""


def never_indexed(paths: VaultPaths) -> bool:
    """Whether ``paths`` has no index yet (no index store or no graph): two ``stat``
    calls, nothing imported."""
    return not (paths.store_file.exists() and paths.graph_file.exists())


def first_index_size(paths: VaultPaths) -> tuple[int, int]:
    """``(notes, code files)`` a first index of ``paths`` reads: the vault's notes as
    its scan lists them (:func:`rubi.sync.freshness.list_vault`; a count of ``.md``
    files when that listing declines) and the project's files in a language the code
    map parses (:func:`rubi.codemap.files.list_files`, ``git ls-files`` in a git
    checkout), those inside the vault left out. Costs a listing of each (tens of ms)."""
    from rubi.codemap.files import list_files
    from rubi.codemap.languages import language_of
    from rubi.sync.freshness import list_vault

    listed = list_vault(str(paths.root))
    if listed is not None:
        notes = len(listed[0])
    else:
        notes = sum(name.endswith(".md") for _, _, names in os.walk(paths.root) for name in names)
    code = 0
    if paths.project_root is not None:
        try:
            inside = paths.root.resolve().relative_to(paths.project_root.resolve()).as_posix()
        except ValueError:
            inside = ""
        prefix = inside + "/" if inside and inside != "." else None
        code = sum(
            1
            for rel in list_files(paths.project_root).paths
            if language_of(rel) is not None and not (prefix and rel.startswith(prefix))
        )
    return notes, code


def index_run_under_way(paths: VaultPaths) -> bool:
    """Whether another index run holds ``paths``'s index lock now (a detached first
    index, say): the lock taken without waiting and given back at once."""
    from filelock import FileLock, Timeout

    if not paths.lock_file.exists():
        return False
    lock = FileLock(str(paths.lock_file), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return True
    except OSError:
        return False  # an unwritable index folder: the run that follows says so
    lock.release()
    return False


def first_index_line(paths: VaultPaths) -> str | None:
    """One line for standard error before a first index of ``paths`` (``rubi: indexing
    931 code files and 314 notes for the first time…``: what it reads, and no duration,
    which a loaded machine breaks), or None when it was indexed before or holds fewer
    than :data:`NOTICE_AFTER_FILES` notes and code files."""
    if not never_indexed(paths):
        return None
    notes, code = first_index_size(paths)
    if notes + code < NOTICE_AFTER_FILES:
        return None
    what = _count(notes, "note")
    if code:
        what = f"{_count(code, 'code file')} and {what}"
    return (
        f"rubi: indexing {what} for the first time (this run reads every one; "
        "later runs read only what changed)…"
    )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def start_first_index(paths: VaultPaths) -> int | None:
    """Start one detached ``rubi index`` that builds the first index of ``paths``
    (:func:`build_first_index`), and return its process id; None when it could not
    be started (an ``OSError``, logged: the next session start tries again).

    The process runs ``python -m rubi`` of this interpreter in the project's folder
    (the vault's, outside a project), with this environment (so the same cache
    folder), standard input and output on the null device and standard error appended
    to :data:`FIRST_INDEX_LOG` in the index folder (emptied first once it is over
    :data:`FIRST_INDEX_LOG_MAX_BYTES`). On POSIX it starts a session of
    its own (``setsid``: the terminal's hangup and Ctrl-C never reach it); on Windows
    it is a detached process of a new process group. A thread of this process waits
    for it, so a long-lived caller leaves no zombie; a hook's process ends first and
    the system reaps it."""
    import subprocess
    import threading

    from rubi.core.paths import ensure_private_dir

    cwd = paths.project_root or paths.root
    command = [sys.executable, "-m", "rubi", "index", "--first-only"]
    if paths.project_root is None:
        command += ["--vault", str(paths.root)]
    options: dict[str, object] = {}
    if sys.platform == "win32":
        options["creationflags"] = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
    else:
        options["start_new_session"] = True
    try:
        ensure_private_dir(paths.index_dir)
        log_path = paths.index_dir / FIRST_INDEX_LOG
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
        try:
            if log_path.stat().st_size > FIRST_INDEX_LOG_MAX_BYTES:
                flags |= os.O_TRUNC  # a build failing at every start: the latest runs
        except FileNotFoundError:
            pass
        fd = os.open(log_path, flags, 0o600)
        with open(fd, "ab") as log:
            child = subprocess.Popen(
                command,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                close_fds=True,
                **options,  # type: ignore[call-overload]
            )
    except OSError as exc:
        import logging  # only here: a session start that spawns nothing never loads it

        logging.getLogger(__name__).warning(
            "%s: could not start the first index in the background (%s); run `rubi index`",
            paths.root,
            exc,
        )
        return None
    threading.Thread(target=child.wait, name="rubi-first-index", daemon=True).start()
    pid: int = child.pid
    return pid


def build_first_index(paths: VaultPaths) -> bool:
    """Build the first index of ``paths`` unless it has one or another index run holds
    the lock (that run builds it); True when this call built it. Waits at most
    :data:`FIRST_LOCK_WAIT_S` for the lock: two starts never build twice, and the loser
    ends within that.

    Raises:
        OSError: the index folder cannot be written.
    """
    if not never_indexed(paths):
        return False
    from rubi.sync import index_vault, vault_sync_for

    try:
        index_vault(paths, verify=False, code=True, lock_timeout_s=FIRST_LOCK_WAIT_S)
    except TimeoutError as exc:
        import filelock

        if isinstance(exc, filelock.Timeout):
            return False  # another run holds the lock: it builds the index
        raise
    vault_sync_for(paths).keep_flat()  # the next cold reader reads the flat graph
    return True
