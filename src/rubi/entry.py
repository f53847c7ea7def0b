"""The ``rubi`` console script. ``rubi hook <event>`` goes straight to the hook
handlers without loading the CLI (click, rich): hooks run on every prompt and tool
call, and pay every import. When a resident engine serves the project's vault
(``rubi serve`` or ``rubi watch`` runs; ``docs/engine.md``), the hook is answered by
it over a local socket and imports nothing of the search stack; otherwise it runs
cold, in this process, with the same output. ``rubi search`` and ``rubi read`` are
tried through the engine the same way (the same output and exit status), before click
is imported; without an engine they run cold."""

from __future__ import annotations

import io
import sys

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["main"]


class _Replay(io.StringIO):
    """Stdin as already read (or the error reading it raised), for the cold path."""

    def __init__(self, text: str | None, error: BaseException | None) -> None:
        super().__init__(text or "")
        self._error = error

    def read(self, size: int | None = -1) -> str:
        if self._error is not None:
            raise self._error
        return super().read(size)


def _run_hook(argv: list[str], stdin: TextIO, stdout: TextIO) -> tuple[int, bool]:
    """``rubi hook``, through the engine when one answers, else cold: its status, and
    whether it ran cold as a short hook (one an engine answers, :func:`_one_shot`),
    whose process may leave at once (:func:`_leave`). The payload is decoded once and
    the vault walked once (by the client), for both ways."""
    event = argv[0] if argv else ""
    raw: str | None = None
    payload: object = None
    try:
        raw = stdin.read()
        import json

        payload = json.loads(raw) if raw.strip() else {}
    except KeyboardInterrupt:
        return 0, False  # as the cold path
    except Exception as exc:  # the cold path logs what stdin or its JSON did
        short = _one_shot(event)
        from rubi.claude.hooks.entry import main as hook_main

        return hook_main(argv, _Replay(None, exc), stdout), short
    walk = None
    try:
        from rubi.engine.client import try_engine

        output, walk = try_engine(event, raw, payload)
    except KeyboardInterrupt:
        return 0, False  # as the cold path
    except Exception:  # the client failed: cold
        output = None
    if output is not None:
        if output:
            stdout.write(output)
            stdout.flush()
        return 0, False
    short = _one_shot(event)
    from rubi.claude.hooks.entry import respond

    decoded = payload if isinstance(payload, dict) else {}
    return respond(event, decoded, stdout, walk=walk), short


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Read by numpy's BLAS when numpy is imported (OpenBLAS, or MKL and OpenMP builds)."""


_LONG = frozenset({"sessionstart"})
"""Events an engine answers that may still index at length when cold: a usual process."""


def _one_shot(event: str) -> bool:
    """Settings for a hook process that runs cold, once, then exits.

    - No BLAS thread pool, unless the user set one: OpenBLAS starts a thread per core
      when numpy is imported (about 30 ms of CPU on 2 cores, a third of numpy's
      import), and rubi's vector arithmetic calls no BLAS routine (einsum and
      reductions, :func:`rubi.semantic.dense._dot`), so every answer is the same. The
      hook's child processes (git) inherit the setting.
    - No cyclic garbage collector for the events an engine answers (the prompt and
      tool hooks: short, they never index): the collector walked every object the
      imports and the graph snapshot had made, again and again, for garbage a process
      that exits within a second need not free (a third of the recall hook's CPU at
      6,400 notes). SessionStart and PreCompact, which may index or summarise at
      length, keep it.
    - The recall's vectors read on demand (:func:`rubi.app.searching.one_search`):
      the documents' rows, then the passages of the one search's candidates only.

    Returns:
        Whether ``event`` is one of those short hooks."""
    import os

    for name in _BLAS_THREADS:
        os.environ.setdefault(name, "1")
    from rubi.engine.protocol import engine_event, event_key

    if not engine_event(event, None) or event_key(event, None) in _LONG:
        return False
    import gc

    gc.disable()
    if event_key(event, None) == "userpromptsubmit":
        from rubi.app.searching import one_search

        one_search()
    return True


def _leave(code: int) -> None:
    """End a short cold hook's process now, with ``code``, without tearing the
    interpreter down: freeing every module, the graph and the index one object at a
    time cost a third of the recall hook's CPU at 6,400 notes (300 ms), after its
    answer was printed. What an exit does that matters still happens: the standard
    streams are flushed and the ``atexit`` functions run (logging's flush among them).
    The handlers of these events run inside the resident engine too, where no exit
    follows a hook, so none depends on one to finish its work. Returns without doing
    anything, for the usual exit, when a stream cannot be flushed (the interpreter
    reports it as always) or a thread that is not a daemon is still running."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        return
    threading = sys.modules.get("threading")
    if threading is not None:
        main_thread = threading.main_thread()
        for thread in threading.enumerate():
            if thread is not main_thread and not thread.daemon and thread.is_alive():
                return
    import atexit

    atexit._run_exitfuncs()
    os._exit(code)


def _utf8(stream: TextIO) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def _command(argv: list[str], stdout: TextIO | None, stderr: TextIO | None) -> int | None:
    """``rubi search`` / ``rubi read`` answered by the engine: its output written here,
    its exit status returned; None when the command must run cold (through click)."""
    if stdout is None or stderr is None or not (_utf8(stdout) and _utf8(stderr)):
        return None
    try:
        from rubi.engine.client import cli_via_engine

        result = cli_via_engine(
            argv,
            tty=(stdout.isatty(), stderr.isatty()),
            errors=(str(stdout.errors), str(stderr.errors)),
        )
    except KeyboardInterrupt:  # Ctrl-C while the engine works: as click says it
        return _aborted(stderr)
    except Exception:  # the client failed: cold, which shows any real problem
        return None
    if result is None:
        return None
    out, err, code = result
    try:
        if err:
            stderr.write(err)
            stderr.flush()
        if out:
            stdout.write(out)
            stdout.flush()
    except KeyboardInterrupt:
        return _aborted(stderr)
    except OSError as exc:  # a closed pipe (`| head`), a full disk: as cold
        return _unwritable(exc, stdout, stderr)
    return code


def _aborted(stderr: TextIO) -> int:
    """Ctrl-C during a command the engine answers: click's ``Aborted!``, status 1."""
    try:
        stderr.write("\nAborted!\n")
        stderr.flush()
    except (OSError, ValueError):
        pass
    return 1


def _unwritable(exc: OSError, stdout: TextIO, stderr: TextIO) -> int:
    """The engine's answer could not be written: one line as the cold command's error
    handler prints it (``Error: Broken pipe``), status 1. Stdout is pointed at the null
    device so that the interpreter's final flush of what is left stays quiet."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    where = f"{exc.filename}: " if exc.filename else ""
    try:
        stderr.write(f"Error: {where}{exc.strerror or exc}\n")
        stderr.flush()
    except (OSError, ValueError):
        pass
    return 1


_ENGINE_COMMANDS = ("search", "read")
"""Commands tried through the engine first (:data:`rubi.engine.protocol.CLI_COMMANDS`)."""


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:2] == ["hook"] and not {"-h", "--help"} & set(sys.argv[2:]):
        status, short = _run_hook(sys.argv[2:], sys.stdin, sys.stdout)
        if short:
            _leave(status)
        raise SystemExit(status)
    if sys.argv[1:2] and sys.argv[1] in _ENGINE_COMMANDS:
        code = _command(sys.argv[1:], sys.stdout, sys.stderr)
        if code is not None:
            raise SystemExit(code)
        if sys.argv[1] == "search":  # one search in this process: its candidates' vectors
            from rubi.app.searching import one_search

            one_search()
    from rubi.cli.main import main as cli_main

    cli_main()
