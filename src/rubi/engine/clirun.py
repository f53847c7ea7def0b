"""Run a ``rubi`` command in the engine's process for a client, its output captured.

The command runs as the cold path runs it (:func:`rubi.cli.main.run_for_engine`, handed
to the engine by ``rubi serve`` and ``rubi watch``): the same click group in standalone
mode, so errors are shown and exit statuses set by click itself, the same arguments,
with one difference: the ``--vault`` option's default is the engine's vault (a
``default_map``), which is what the cold path finds from the client's folder
(:mod:`rubi.engine.client` checks that before asking).

Output goes where ``sys.stdout`` and ``sys.stderr`` lead, and a host process has other
threads writing there (the MCP server's answers, the watcher's lines). So the engine
puts a router in their place once (:func:`install`): a thread that runs a command sees
its own capture buffers, every other thread the original streams, unchanged. The
buffers say ``isatty()`` as the client's streams do and encode as they do (UTF-8 with
the client's error handler), so click strips or keeps styles as it would there.
"""

from __future__ import annotations

import io
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["Captured", "CliResult", "Command", "install", "run_cli"]

_LOCAL = threading.local()
"""The streams a command run by :func:`run_cli` writes to, for its own thread only:
set for the run and removed after it; other threads write to the real streams."""
_INSTALL = threading.Lock()


class Captured(io.TextIOWrapper):
    """A UTF-8 text buffer that reports ``isatty()`` as told."""

    def __init__(self, tty: bool, errors: str) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n")
        self._tty = tty
        self._errors = errors

    def isatty(self) -> bool:
        return self._tty

    def fileno(self) -> int:
        raise io.UnsupportedOperation("a captured stream has no file descriptor")

    def text(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue().decode("utf-8", self._errors)


class _Router:
    """Stands in for ``sys.stdout`` or ``sys.stderr``: the calling thread's capture
    when it has one, else the original stream (every attribute passed through)."""

    def __init__(self, original: Any, slot: str) -> None:
        self._original = original
        self._slot = slot

    def _target(self) -> Any:
        captured = getattr(_LOCAL, self._slot, None)
        return captured if captured is not None else self._original

    def write(self, text: Any) -> int:
        written: int = self._target().write(text)
        return written

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return bool(self._target().isatty())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


def _utf8(stream: Any) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def install() -> bool:
    """Put the routers in place of ``sys.stdout`` and ``sys.stderr`` (once); False when
    they cannot stand in (a stream missing or not UTF-8: click would rewrap it, and
    the wrapper would bypass the router), then no command runs here."""
    with _INSTALL:
        if isinstance(sys.stdout, _Router) and isinstance(sys.stderr, _Router):
            return True
        if not (_utf8(sys.stdout) and _utf8(sys.stderr)):
            return False
        if not isinstance(sys.stdout, _Router):
            sys.stdout = _Router(sys.stdout, "stdout")
        if not isinstance(sys.stderr, _Router):
            sys.stderr = _Router(sys.stderr, "stderr")
        return True


class CliResult:
    """What a command printed and its exit status."""

    __slots__ = ("code", "stderr", "stdout")

    def __init__(self, stdout: str, stderr: str, code: int) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code


def _exit_code(value: Any) -> int:
    """``sys.exit``'s value as the interpreter turns it into a status (a message is
    printed by the interpreter, so it is written to stderr here)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


Command = Callable[[list[str], str], None]
"""Runs ``rubi ARGV`` with ``--vault`` defaulting to the given vault, as the console
script would (it raises ``SystemExit`` with the status):
:func:`rubi.cli.main.run_for_engine`, handed to the engine by the command that hosts
it (the engine sits below the CLI and does not import it)."""


def run_cli(
    command: Command,
    argv: list[str],
    vault: str,
    *,
    tty: tuple[bool, bool],
    errors: tuple[str, str],
) -> CliResult:
    """Run ``command`` on ``argv`` and ``vault``, capturing its output (``tty`` and
    ``errors``: the client's stdout and stderr, in that order).

    Call :func:`install` first (and only when it said True). One command per thread
    at a time; the engine runs one at all.

    Raises:
        Whatever the command raises that is not a ``SystemExit`` (the engine then
        refuses, and the client runs the command cold).
    """
    out, err = Captured(tty[0], errors[0]), Captured(tty[1], errors[1])
    _LOCAL.stdout, _LOCAL.stderr = out, err
    try:
        code = 0
        try:
            command(list(argv), vault)
        except SystemExit as done:
            code = _exit_code(done.code)
        return CliResult(out.text(), err.text(), code)
    finally:
        _LOCAL.stdout = _LOCAL.stderr = None
