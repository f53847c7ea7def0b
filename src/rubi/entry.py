"""The ``rubi`` console script. ``rubi hook <event>`` goes straight to the hook
handlers without loading the CLI (click, rich): hooks run on every prompt and tool
call, and pay every import. When a resident engine serves the project's vault
(``rubi serve`` or ``rubi watch`` runs; ``docs/engine.md``), the hook is answered by
it over a local socket and imports nothing of the search stack; otherwise it runs
cold, in this process, with the same output. A ``rubi serve`` (how every agent starts
the server, bare or with the options a server is started with) runs without click too
(:mod:`rubi.cli.servebare`). Every other command is click's (:mod:`rubi.cli.main`);
``rubi search`` and ``rubi read`` ask the engine for their answer there
(:mod:`rubi.cli.engineroute`)."""

from __future__ import annotations

import io
import sys


def _quiet_interrupt(
    kind: type[BaseException], value: BaseException, tb: TracebackType | None
) -> None:
    """``sys.excepthook`` of the ``rubi`` process: a ``KeyboardInterrupt`` that nothing
    caught (Ctrl-C while a module was still being imported, before the command's own
    handling applies: the first 10-60 ms of any command) ends the process as a
    command's Ctrl-C does (:func:`_stop`), not with a traceback of the import under
    way. Any other exception goes to the hook it replaced (Python's: shown as Python
    shows it). Set first thing by :func:`main` (:func:`_quiet_interrupts`)."""
    if not issubclass(kind, KeyboardInterrupt):
        _earlier_excepthook(kind, value, tb)
        return
    _stop()


def _quiet_unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """``sys.unraisablehook`` of the ``rubi`` process: a ``KeyboardInterrupt`` raised
    where Python cannot raise it (a callback of the import system's locks, a
    finalizer) was printed as "Exception ignored in: …" with a traceback, and the
    command went on as if Ctrl-C had not been pressed (status 0). Now it stops there
    (:func:`_stop`). Raised again in the main thread it would meet this hook still
    running; stopping here skips the ``finally`` blocks under way, as a kill would:
    every write is atomic (a temporary file renamed into place), locks are the
    kernel's, and an engine's socket left behind is one a client finds dead."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        _stop()
    _earlier_unraisablehook(unraisable)


def _stop() -> None:
    """End the process as a command's Ctrl-C does
    (:func:`rubi.cli.interrupted.stop_for_interrupt`: one line, then ended by
    ``SIGINT``, status 130)."""
    import os

    try:
        from rubi.cli.interrupted import stop_for_interrupt

        stop_for_interrupt()
    except SystemExit as stop:  # the platform cannot end a process by SIGINT
        os._exit(stop.code if isinstance(stop.code, int) else 130)
    except BaseException:  # interrupted again on the way out: still no traceback
        os._exit(130)


_earlier_excepthook = sys.excepthook
_earlier_unraisablehook = sys.unraisablehook


def _quiet_interrupts() -> None:
    """Make this process's hooks :func:`_quiet_interrupt` and :func:`_quiet_unraisable`,
    keeping the ones they replace for any other exception."""
    global _earlier_excepthook, _earlier_unraisablehook
    if sys.excepthook is not _quiet_interrupt:
        _earlier_excepthook, sys.excepthook = sys.excepthook, _quiet_interrupt
    if sys.unraisablehook is not _quiet_unraisable:
        _earlier_unraisablehook, sys.unraisablehook = sys.unraisablehook, _quiet_unraisable


TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from types import TracebackType
    from typing import TextIO

    from rubi.core.vaultwalk import VaultWalk

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
    whether the process may leave at once (:func:`_leave`): a hook the engine answered
    (this process loaded the client alone), one with nothing to do outside a project,
    or one that ran cold. The payload is decoded once and the vault walked once, for
    all three ways."""
    event = argv[0] if argv else ""
    if _short(event):  # no collector from here: the client's and the imports' objects too
        import gc

        gc.disable()
    raw: str | None = None
    payload: object = None
    try:
        raw = stdin.read()
        from rubi.core.jsonline import loads  # json's values, without json's imports

        payload = loads(raw) if raw.strip() else {}
    except KeyboardInterrupt:
        return 0, False  # as the cold path
    except Exception as exc:  # the cold path logs what stdin or its JSON did
        _keep_code(event)
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
        return 0, True
    _keep_code(event)
    from rubi.core.pathlibimport import import_pathlib

    import_pathlib()  # cold from here, before anything imports it: ``urllib.parse`` deferred
    walk, outside = _outside_a_project(event, payload, walk)
    if outside:
        return 0, True  # nothing to do, as cold
    short = _one_shot(event)
    if not short:  # SessionStart, PreCompact, SessionEnd: may index, then exit
        from rubi.app.oneshot import runs_once

        runs_once()
    from rubi.claude.hooks.entry import respond

    decoded = payload if isinstance(payload, dict) else {}
    status = respond(event, decoded, stdout, walk=walk)
    # SessionStart and PreCompact have finished their work here too (an index run, a
    # record written: synchronous, their files closed): they leave at once as the
    # short hooks do (the teardown cost PreCompact 5 ms of CPU, 12%, and SessionStart
    # 7-20 ms of its 50).
    return status, True


def _keep_code(event: str) -> None:
    """Before a hook runs cold: the modules it imports from here are found and loaded
    from those kept for its event (:mod:`rubi.core.modulecode`), the dataclasses'
    methods and the patterns it makes run from the code kept for it
    (:mod:`rubi.core.dataclasscode`, :mod:`rubi.core.regexcode`), and ``dataclasses``
    is imported without ``inspect``,
    before any module defines a dataclass or compiles a pattern. Not for a hook the
    engine answers: its client defines no dataclass and compiles no pattern, and this
    would import ``dataclasses`` and ``re`` for nothing (6-7 ms of its 18 ms of CPU)."""
    from rubi.core.regexcode import role_of

    role = role_of(event)  # each event's own kept code: what it makes, not every command's
    from rubi.core.modulecode import install as keep_module_code

    keep_module_code(role)  # first: the modules imported from here found and loaded kept
    from rubi.core.dataclassimport import import_dataclasses
    from rubi.core.regexcode import install as keep_regex_code

    import_dataclasses(role)  # before any module defines a dataclass: ``inspect`` deferred
    keep_regex_code(role=role)  # and before any compiles a pattern: the patterns' code kept


def _save_kept_code() -> None:
    """Keep the code a cold hook compiled anew for the next hooks (nothing when it ran
    through the engine: :func:`_keep_code` was not called)."""
    regexcode = sys.modules.get("rubi.core.regexcode")
    dataclasscode = sys.modules.get("rubi.core.dataclasscode")
    modulecode = sys.modules.get("rubi.core.modulecode")
    if dataclasscode is not None:
        dataclasscode.save()  # the methods of the dataclasses it compiled
    if regexcode is not None:
        regexcode.save()  # and the patterns
    if modulecode is not None:
        modulecode.save()  # and the modules it imported from source


def _outside_a_project(
    event: str, payload: object, walk: VaultWalk | None
) -> tuple[VaultWalk | None, bool]:
    """Whether the hook has nothing to do: its event's handler answers nothing outside
    a project vault (:data:`rubi.claude.hookevents.PROJECT_EVENTS`) and the walk up
    from the payload's ``cwd``, as the handlers check it
    (:func:`rubi.claude.hooks.payload.working_dir`), found no ``.rubi/``. Such a hook
    prints nothing, as it would cold, without the 30–40 ms of CPU the handlers' imports
    cost. With it, the walk for the handler: the client's (``walk``), else the one
    taken here (None: no usable ``cwd``, or an event that does not need one)."""
    from rubi.claude.hookevents import PROJECT_EVENTS
    from rubi.engine.protocol import event_key

    if not isinstance(payload, dict) or event_key(event, payload) not in PROJECT_EVENTS:
        return walk, False
    if walk is None:
        from rubi.claude.hooks.payload import working_dir
        from rubi.core.vaultwalk import VaultWalk

        cwd = working_dir(payload.get("cwd"))
        if cwd is None:
            return None, False
        try:
            walk = VaultWalk.from_folder(cwd)
        except (OSError, ValueError):
            return None, False
    return walk, walk.found is None


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Read by numpy's BLAS when numpy is imported (OpenBLAS, or MKL and OpenMP builds)."""


_LONG = frozenset({"sessionstart"})
"""Events an engine answers that may still index at length when cold: they keep the
cyclic garbage collector (:func:`_one_shot`)."""


def _short(event: str) -> bool:
    """Whether ``event`` (a hook's argument) names one of the short hooks: one an engine
    answers that never indexes at length (not :data:`_LONG`). Such a process collects
    nothing from the start of :func:`_run_hook` (see :func:`_one_shot`): before the
    collector was turned off with the search's settings, its young collections walked
    the objects of the engine client's, ``dataclasses``' and ``re``'s imports, 3.1 M
    instructions (0.8%) of a cold recall at 6,700 notes (``docs/benchmarks-history.md``,
    "issue 29: a cold UserPromptSubmit at 6.7k notes, importing less, twenty-fourth pass")."""
    from rubi.engine.protocol import engine_event, event_key

    return engine_event(event, None) and event_key(event, None) not in _LONG


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
    - The recall answers with the lists that are ready, as a starting server's does
      (:func:`rubi.app.searching.one_search` with ``ready_only``): the dense list is
      left out, never NumPy imported nor a vector read for one prompt; were NumPy
      loaded, the vectors would be read on demand (the documents' rows, then the
      passages of the one search's candidates only).

    Returns:
        Whether ``event`` is one of those short hooks."""
    import os

    for name in _BLAS_THREADS:
        os.environ.setdefault(name, "1")
    if not _short(event):
        return False
    import gc

    gc.disable()  # as :func:`_run_hook` did already, for a caller that did not
    from rubi.engine.protocol import event_key

    if event_key(event, None) == "userpromptsubmit":
        from rubi.app.searching import one_search

        one_search(ready_only=True)
    return True


def _leave(code: int) -> None:
    """End a short cold hook's process now, with ``code``, without tearing the
    interpreter down: freeing every module, the graph and the index one object at a
    time cost a third of the recall hook's CPU at 6,400 notes (300 ms), after its
    answer was printed (a hook the engine answered saves 3 ms of CPU of its 25). What
    an exit does that matters still happens: the standard streams are flushed and the
    ``atexit`` functions run (logging's flush among them).
    The handlers of these events run inside the resident engine too, where no exit
    follows a hook, so none depends on one to finish its work. Returns without doing
    anything, for the usual exit, when a stream cannot be flushed (the interpreter
    reports it as always) or a thread that is not a daemon is still running
    (:func:`rubi.core.quickexit.leave`)."""
    from rubi.core.quickexit import leave

    leave(code)


def _keep_dataclass_code() -> None:
    """For a command: the methods of the dataclasses it makes (rubi's, click's and
    rich's) and the regular expressions it compiles run from the code kept in the cache
    folder, and what it compiled anew is kept when it exits
    (:mod:`rubi.core.dataclasscode`, :mod:`rubi.core.regexcode`; a hook sets this up
    in :func:`_run_hook`)."""
    import atexit
    import dataclasses

    from rubi.core import regexcode
    from rubi.core.dataclasscode import install, save

    install(dataclasses)
    atexit.register(save)
    regexcode.install()
    atexit.register(regexcode.save)


def _hook_args_known(args: list[str]) -> bool:
    """Whether ``rubi hook ARGS`` is for the hook path: no argument (the payload's
    ``hook_event_name``) or one event rubi answers, in any case, with or without
    ``-``/``_`` (:func:`rubi.engine.protocol.event_key`, as the hook path reads it).
    Anything else (``--help``, a misspelt event, more arguments) is click's to show or
    refuse: a usage error in one line, status 2, where the hook path logged a
    ``KeyError`` and said nothing."""
    if not args:
        return True
    from rubi.claude.hookevents import HOOK_EVENTS
    from rubi.engine.protocol import event_key

    known = {event_key(name, None) for name in HOOK_EVENTS}
    return len(args) == 1 and event_key(args[0], None) in known


def main() -> None:
    """Console-script entry point."""
    _quiet_interrupts()  # first: a Ctrl-C from here on ends in one line, never a traceback
    if sys.argv[1:2] == ["hook"] and _hook_args_known(sys.argv[2:]):
        status, short = _run_hook(sys.argv[2:], sys.stdin, sys.stdout)
        _save_kept_code()
        if short:
            _leave(status)
        raise SystemExit(status)
    from rubi.cli.servebare import bare_options

    given = bare_options(sys.argv[1:])
    if given is not None:  # how agents and the README start the server: without click
        from rubi.cli.servebare import serve_bare

        serve_bare(given)
    _keep_dataclass_code()
    try:
        from rubi.cli.main import main as cli_main
    except KeyboardInterrupt:  # Ctrl-C while click and the CLI load: as once they ran
        from rubi.cli.interrupted import stop_for_interrupt

        stop_for_interrupt()
    cli_main()


if __name__ == "__main__":  # python -m rubi.entry: the same as the rubi command
    main()
