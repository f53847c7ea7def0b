"""What a command does when the user presses Ctrl-C: it stops at once, with one line
on stderr (click's ``Aborted!``, after a line end that closes the terminal's ``^C``)
and no traceback, whether the interrupt came while the command's modules were still
being imported or while it ran. The process then ends by ``SIGINT``, as CPython ends
one whose ``KeyboardInterrupt`` nobody caught: a shell's status is 130, and a shell
loop running ``rubi`` stops with it (bash waits for a child that died by ``SIGINT``
before it stops a loop). Where the platform cannot end a process by ``SIGINT``
(Windows) the status is 130.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

__all__ = ["INDEX_INTERRUPTED", "INTERRUPTED_STATUS", "interrupted_line", "stop_for_interrupt"]

INTERRUPTED_STATUS = 130
"""128 + ``SIGINT``: the status a shell shows for a command ended by Ctrl-C."""

INDEX_INTERRUPTED = (
    "Aborted! Nothing is lost: what this run did not finish is redone by the next "
    "`rubi index` (or search)."
)
"""The line of ``rubi index`` or ``rubi reindex`` stopped by Ctrl-C. A run writes its
manifest and note rows last, in one SQLite transaction (``docs/architecture.md``, "How
a change reaches the index"), so whatever it had not committed is planned again by the
next run; a bare ``Aborted!`` left a new user asking whether the index was now
half-written."""


def interrupted_line(command: str | None) -> str:
    """The line :func:`stop_for_interrupt` prints for ``command`` (the subcommand's name,
    None before one was chosen): :data:`INDEX_INTERRUPTED` for ``index`` and
    ``reindex``, else click's ``Aborted!``."""
    return INDEX_INTERRUPTED if command in ("index", "reindex") else "Aborted!"


def stop_for_interrupt(line: str = "Aborted!") -> NoReturn:
    """End the process after a ``KeyboardInterrupt``: ``line`` on stderr (after a line
    end), what is buffered for stdout flushed, the ``atexit`` functions run (logging's
    flush among them), then the process ends by ``SIGINT``. A command that stops
    cleanly on Ctrl-C, as its normal way to end (``rubi watch``), says so in ``line``.

    Raises:
        SystemExit: status :data:`INTERRUPTED_STATUS`, where the process cannot end by
            ``SIGINT``, or when the standard streams are not the process's own (a
            test's capture, click's ``CliRunner``): the process running the command
            is not ended."""
    for stream, text in ((sys.stdout, ""), (sys.stderr, f"\n{line}\n")):
        try:
            stream.write(text)
            stream.flush()
        except (AttributeError, OSError, ValueError):  # closed, gone, or no file
            pass
    if os.name == "posix" and sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        import atexit
        import signal

        atexit._run_exitfuncs()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    raise SystemExit(INTERRUPTED_STATUS)
