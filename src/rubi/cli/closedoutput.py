"""What a command does when the reader of its output goes away: ``rubi search … |
head -1`` closes the pipe after one line, and the next write raises
``BrokenPipeError`` (CPython ignores ``SIGPIPE``, so a write fails instead of
ending the process).

A command then stops quietly, as ``git log | head`` does: nothing on stderr, and the
process ends by ``SIGPIPE`` (a shell's ``$?`` is 141, ``set -o pipefail`` sees the
same as for any Unix tool whose reader left). Click's own handling would end with
status 1 (as the ``signal`` module's documentation suggests), which a script cannot
tell from a failed search; status 0 would hide an output cut short from
``pipefail``. Where the platform has no ``SIGPIPE`` (Windows) the status is 1.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import NoReturn

__all__ = ["stop_for_closed_output"]


def stop_for_closed_output() -> NoReturn:
    """End the process after its output's reader went away: the standard output and
    error are pointed at the null device first (nothing buffered in them can fail
    again, or be reported, as the interpreter exits), the ``atexit`` functions run
    (logging's flush among them), then the process ends by ``SIGPIPE``.

    Raises:
        SystemExit: status 1, where there is no ``SIGPIPE`` to end by, or when the
            standard output is not the process's own (a test's capture, click's
            ``CliRunner``): the process running the command is not ended."""
    if sys.stdout is not sys.__stdout__ or sys.stderr is not sys.__stderr__:
        raise SystemExit(1)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        null = -1
    if null >= 0:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):  # no file at all
                os.dup2(null, stream.fileno())  # type: ignore[union-attr]
        os.close(null)
    sigpipe = getattr(signal, "SIGPIPE", None)
    if sigpipe is not None:
        import atexit

        atexit._run_exitfuncs()
        signal.signal(sigpipe, signal.SIG_DFL)
        os.kill(os.getpid(), sigpipe)
    raise SystemExit(1)
