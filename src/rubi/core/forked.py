"""Two halves of one job at once: the first in a forked child, the second here.

rubi's heavy steps (parsing a large repository's files, analysing its text for the
index) are pure Python, so one process uses one core. Where the input is already in
memory, ``fork`` hands it to a second process for free; the child sends its result
back through a pipe as a pickle, which is safe because the child is this very
process's copy writing to its own pipe (nothing from a tree is ever unpickled).

Only on Linux with two or more cores, and not when ``RUBI_PROCS=1``: elsewhere
``fork`` without ``exec`` is unsafe (macOS) or missing (Windows). Callers check
:func:`available` and keep their one-process path; a failed child is reported, never
raised, so the caller does the child's half itself and nothing is lost.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["PROCS_ENV", "ChildFailed", "available", "in_two"]

PROCS_ENV = "RUBI_PROCS"
"""Set to ``1`` to keep every job in one process."""

A = TypeVar("A")
B = TypeVar("B")


@dataclass(frozen=True, slots=True)
class ChildFailed:
    """The child's half did not come back: ``reason`` says why (one line)."""

    reason: str


def available() -> bool:
    """True when :func:`in_two` may run here (see the module docstring)."""
    if os.environ.get(PROCS_ENV, "").strip() == "1":
        return False
    return sys.platform == "linux" and hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def in_two(child: Callable[[], A], here: Callable[[], B]) -> tuple[A | ChildFailed, B]:
    """Run ``child()`` in a forked child and ``here()`` in this process, at once.

    Args:
        child: the first half; its result must pickle. It runs with the cyclic garbage
            collector off (the child lives for one job, and a collection would walk,
            so copy, the whole heap it shares with this process) and must not print.
        here: the second half.

    Returns:
        ``(child's result or ChildFailed, here's result)``.

    Raises:
        Whatever ``here`` raises (the child is killed first).
    """
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12+ warns that a forked child of a threaded process may deadlock:
        # the child runs only the job's own code (no imports, no locks another thread
        # could hold) and leaves with os._exit.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        _child(child, write_end)
    os.close(write_end)
    try:
        mine = here()
        theirs = _collect(read_end, pid)
    except BaseException:
        _stop(pid)
        raise
    finally:
        os.close(read_end)
    return theirs, mine


def _child(job: Callable[[], object], write_end: int) -> None:  # pragma: no cover
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the child at once
        gc.disable()
        payload = pickle.dumps((True, job()), protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException as exc:
        payload = pickle.dumps((False, f"{type(exc).__name__}: {exc}"))
    try:
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
    finally:
        os._exit(status)


def _collect(read_end: int, pid: int) -> ChildFailed | A:
    chunks = []
    while chunk := os.read(read_end, 1 << 20):
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if not chunks:
        return ChildFailed(f"the second process ended with status {code} and no answer")
    ok, value = pickle.loads(b"".join(chunks))  # our own child, our own pipe
    if not ok:
        return ChildFailed(str(value))
    return value  # type: ignore[no-any-return]


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
