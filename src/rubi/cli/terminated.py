"""What a command that runs until stopped does on ``SIGTERM`` or ``SIGHUP``: it stops
as on Ctrl-C (its ``finally`` blocks run: an engine closes and removes its socket,
releases its lock, a background index run is stopped), then ends by that same signal,
so its parent sees the status it asked for (``kill``, ``timeout``, a closed terminal,
a cancelled CI job).

Python's default for both signals ends the process at once, without unwinding, so
``rubi serve`` killed with its process group (``kill -- -PGID``, a terminal closed
under a running ``claude``) left its engine's socket file behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["Terminated", "end_by_signal", "stopped_by_signals"]


class Terminated(SystemExit):
    """Raised in the main thread by the handler :func:`stopped_by_signals` installs.

    A :class:`SystemExit` (status 128 + the signal's number), so that nothing that
    handles errors catches it on its way out, and the process ends with that status
    even where nobody calls :func:`end_by_signal`."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Inside the block, ``SIGTERM`` and ``SIGHUP`` raise :class:`Terminated` in the
    main thread (elsewhere, or where the platform lacks the signals, the block runs
    as it is); the previous handlers come back after it."""
    wanted = [getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP")]
    signums = [s for s in wanted if s is not None]
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in signums}
    for s in signums:
        signal.signal(s, _raise)
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def end_by_signal(signum: int) -> NoReturn:
    """End the process by ``signum`` (its default action) once the block has unwound:
    stdout flushed, the ``atexit`` functions run, then the signal sent to itself.

    Raises:
        SystemExit: status 128 + ``signum``, where the process cannot end by a signal
            or its standard streams are not its own (a test's capture, click's
            ``CliRunner``): the process running the command is not ended."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stdout.flush()
    if os.name == "posix" and sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        import atexit

        atexit._run_exitfuncs()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    raise SystemExit(128 + signum)
