"""``rubi serve`` with no further argument, run without click: the command Claude
Code's plugin, a project's ``.mcp.json``, Codex and Gemini start for every session
(:mod:`rubi.claude.install`, :mod:`rubi.claude.harness`). Importing click and
building the command group cost such a server about 30 ms of CPU before its first
answer, for options it was not given.

The run is the click command's (:func:`rubi.cli.serverun.run_serve` with the
options' defaults, :data:`rubi.cli.serverun.DEFAULTS`, logging set up as ``rubi``
without ``-v`` sets it), and so is every way it ends: an error is shown by click
itself, loaded only then, in the command's context (the same ``Error:`` line, usage
lines and exit status), Ctrl-C and a closed output stop as the group stops them. Any
other argument, ``--help`` among them, goes to click (:func:`is_bare`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import NoReturn

from rubi.core.errors import RubiError

__all__ = ["is_bare", "serve_bare"]

_COMPLETION = "_RUBI_COMPLETE"
"""The variable click's shell completion of ``rubi`` answers to (click's
``_{PROG}_COMPLETE``): when set, the command line is click's to read."""


def is_bare(args: Sequence[str]) -> bool:
    """Whether ``args`` (the command line after ``rubi``) is exactly ``serve`` and
    no shell completion is asked for."""
    return list(args) == ["serve"] and _COMPLETION not in os.environ


def serve_bare() -> NoReturn:
    """Run ``rubi serve`` with its defaults, as click would run it, then exit.

    A server that stopped (its client closed stdin) ends without the interpreter's
    teardown (:func:`rubi.core.quickexit.leave`): its engine, watcher and locks are
    given up by then, and freeing the search stack a session's hooks loaded object by
    object cost 50-70 ms of CPU after the last answer.

    Raises:
        SystemExit: 0 when the server stopped (if it cannot end at once), 1 for an
            error the user can act on (one line on stderr), 2 for a usage error.
    """
    from rubi.core.collector import pause_collector

    # No cyclic collection while the server starts and answers its session's first
    # calls: its first idle spell turns the collector on (rubi.mcp.startup); a server
    # that never had one exits without it (rubi.core.collector).
    pause_collector()
    _keep_dataclass_code()
    _log_warnings()
    from rubi.core.pathlibimport import import_pathlib

    # As a cold hook imports it: without ``urllib.parse`` and ``ipaddress`` (about
    # 2 ms of CPU), which a session's server never needs (``Path.as_uri`` imports it).
    import_pathlib()
    try:
        from rubi.cli.serverun import DEFAULTS, run_serve

        run_serve(DEFAULTS)
    except BrokenPipeError:
        from rubi.cli.closedoutput import stop_for_closed_output

        stop_for_closed_output()
    except KeyboardInterrupt:
        from rubi.cli.interrupted import stop_for_interrupt

        stop_for_interrupt()
    except (RubiError, OSError, ValueError) as exc:
        _fail(exc)
    from rubi.core.quickexit import leave

    leave(0)
    raise SystemExit(0)


def _keep_dataclass_code() -> None:
    """``dataclasses`` imported as a hook imports it
    (:func:`rubi.core.dataclassimport.import_dataclasses`: ``inspect`` only when a class
    needs it, about 10 ms of CPU that a server answering from its fast path never
    needs; the methods' compiled code kept in the cache folder), the regular
    expressions made from the code kept for them (:mod:`rubi.core.regexcode`: 5-7 ms of
    a session's server, its start and first recall), and what was compiled anew saved
    at exit, as for every command (:func:`rubi.entry._keep_dataclass_code`)."""
    import atexit

    from rubi.core import regexcode
    from rubi.core.dataclasscode import save
    from rubi.core.dataclassimport import import_dataclasses

    import_dataclasses()
    atexit.register(save)
    regexcode.install()
    atexit.register(regexcode.save)


def _log_warnings() -> None:
    """Logging as ``rubi`` without ``-v`` sets it up
    (:func:`rubi.cli.main.set_up_logging` with 0)."""
    from rubi.core.lazylog import log_to_stderr

    log_to_stderr(0)


def _fail(exc: RubiError | OSError | ValueError) -> NoReturn:
    """Show ``exc`` as the click command shows it (:func:`rubi.cli.common.click_error`),
    in the context of ``rubi serve``, and exit with its status."""
    import click

    from rubi.cli.common import click_error
    from rubi.cli.main import ONE_COMMAND, cli
    from rubi.cli.servecmds import serve

    error = click_error(exc)
    with cli.make_context("rubi", ["serve"], obj=ONE_COMMAND) as group:
        context = serve.make_context("serve", [], parent=group)
        if isinstance(error, click.UsageError) and error.ctx is None:  # its usage lines
            error.ctx = context
        error.show()
    raise SystemExit(error.exit_code) from exc
