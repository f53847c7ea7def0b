"""Two halves of one job at once: the first in a forked child, the second here.

rubi's heavy steps (parsing a large repository's files, analysing its text for the
index) are pure Python, so one process uses one core. Where the input is already in
memory, ``fork`` hands it to a second process for free; the child sends its result
back through a pipe as a pickle, which is safe because the child is this very
process's copy writing to its own pipe (nothing from a tree is ever unpickled).

Only on Linux with two or more cores, and not when ``RUBI_PROCS=1``: elsewhere
``fork`` without ``exec`` is unsafe (macOS) or missing (Windows). Callers check
:func:`available` and keep their one-process path; a failed child is reported, never
raised, so the caller does the child's half itself and nothing is lost. The child never
outlives this process (killed with it, ``prctl(PR_SET_PDEATHSIG)``): an orphan would go
on holding the locks, sockets and folders it shares with it.
"""

from __future__ import annotations

import functools
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
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return False
    try:  # the cores this process may run on (``taskset``, a container's cpuset)
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return cores >= 2


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
    parent = os.getpid()
    prctl = _prctl()
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12+ warns that a forked child of a threaded process may deadlock:
        # the child runs only the job's own code (no imports, no locks another thread
        # could hold) and leaves with os._exit.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        _child(child, write_end, lambda: _die_with(parent, prctl))
    os.close(write_end)
    reaped = False
    try:
        mine = here()
        payload = _read_all(read_end)
        code = _wait(pid)
        reaped = True  # from here on the pid may be another process's: never kill it
        theirs: A | ChildFailed = _answer(payload, code)
    except BaseException:
        if not reaped:
            _stop(pid)
        raise
    finally:
        os.close(read_end)
    return theirs, mine


_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal a child gets when the thread that forked it ends."""


@functools.cache
def _prctl() -> Callable[[int, int], int] | None:
    """libc's ``prctl``, looked up here before a fork (the child imports nothing), or
    None where it cannot be had."""
    try:
        import ctypes

        func: Callable[[int, int], int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError, ImportError):
        return None
    return func


def _die_with(parent: int, prctl: Callable[[int, int], int] | None) -> None:  # pragma: no cover
    """In the child: be killed when ``parent`` dies (SIGKILL, SIGTERM, a crash) rather
    than go on alone, holding the locks, sockets and folders it shares with it; leave at
    once when it is already gone."""
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _child(
    job: Callable[[], object], write_end: int, setup: Callable[[], None]
) -> None:  # pragma: no cover
    status = 1
    try:
        setup()  # in here: whatever happens, the child leaves by os._exit below
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # as the parent does
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


def _wait(pid: int) -> int:
    """The child's exit code, once it has ended. Where SIGCHLD is ignored (a disposition
    inherited from whatever started rubi) the kernel reaps the child itself, and
    ``waitpid`` waits for it, then says there is no child: its code is unknown (-1)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status)


def _read_all(read_end: int) -> bytes:
    chunks = []
    while chunk := os.read(read_end, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _answer(payload: bytes, code: int) -> ChildFailed | A:
    if not payload:
        return ChildFailed(f"the second process ended with status {code} and no answer")
    ok, value = pickle.loads(payload)  # our own child, our own pipe
    if not ok:
        return ChildFailed(str(value))
    return value  # type: ignore[no-any-return]


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
