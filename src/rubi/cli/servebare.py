"""``rubi serve`` run without click: the command Claude Code's plugin, a project's
``.mcp.json``, Codex and Gemini start for every session (:mod:`rubi.claude.install`,
:mod:`rubi.claude.harness`: a bare ``rubi serve``), and the same with the options a
server is started with (``--project`` as the README's ``claude mcp add`` gives it,
``--http``, ``--port``, ``--host``, ``--vault``, ``--allow-remote``, ``--no-token``).
Importing click and building the command group cost such a server about 30 ms of CPU
before its first answer, for options it could read itself; and the click command
started without the bare start's setup (the collector paused, ``dataclasses``
without ``inspect``, ``pathlib`` without ``urllib.parse``): 50-60 ms of CPU in all
before the first search (:func:`bare_options`).

The run is the click command's (:func:`rubi.cli.serverun.run_serve` with the
options' defaults, :data:`rubi.cli.serverun.DEFAULTS`, and the options given, read
as click reads them; logging set up as ``rubi`` without ``-v`` sets it), and so is
every way it ends: an error is shown by click itself, loaded only then, in the
command's context (the same ``Error:`` line, usage lines and exit status), Ctrl-C and
a closed output stop as the group stops them. Any other command line, ``--help`` and
``--show-token`` among them, and any value click might read otherwise than this module
(or reject), goes to click (:func:`bare_options`)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from rubi.core.errors import RubiError

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from rubi.cli.serverun import ServeOptions

__all__ = ["bare_options", "is_bare", "serve_bare"]

_COMPLETION = "_RUBI_COMPLETE"
"""The variable click's shell completion of ``rubi`` answers to (click's
``_{PROG}_COMPLETE``): when set, the command line is click's to read."""

_FLAGS = {"--http": "http", "--allow-remote": "allow_remote", "--no-token": "no_token"}
"""The flags read here, by their :class:`rubi.cli.serverun.ServeOptions` field."""

_VALUED = {"--host": "host", "--port": "port", "--project": "project", "--vault": "vault"}
"""The options with a value read here (``--opt VALUE`` or ``--opt=VALUE``)."""

BareOptions = dict[str, "str | int | bool"]
"""Options read from a command line, by field name; paths still strings (``pathlib``
is imported later, as a cold hook imports it)."""


def is_bare(args: Sequence[str]) -> bool:
    """Whether ``args`` (the command line after ``rubi``) is exactly ``serve`` and
    no shell completion is asked for."""
    return list(args) == ["serve"] and _COMPLETION not in os.environ


def bare_options(args: Sequence[str]) -> BareOptions | None:
    """The options of ``args`` (the command line after ``rubi``) when it is ``serve``
    with only the options this module reads, each given once with a value click would
    read the same way (:func:`_value`); None when click must read it: any other
    command, option or spelling, a repeated option, ``--project`` with ``--vault``
    (a usage error), a value click would reject or might read otherwise, shell
    completion asked for. ``{}`` for a bare ``rubi serve``."""
    if list(args[:1]) != ["serve"] or _COMPLETION in os.environ:
        return None
    found: BareOptions = {}
    rest = list(args[1:])
    while rest:
        arg = rest.pop(0)
        value: str | int | bool
        name, given, text = arg.partition("=")
        if name in _FLAGS and not given:
            field, value = _FLAGS[name], True
        elif name in _VALUED:
            if not given:
                if not rest:
                    return None
                text = rest.pop(0)
            field = _VALUED[name]
            read = _value(field, text)
            if read is None:
                return None
            value = read
        else:
            return None
        if field in found:
            return None
        found[field] = value
    if "project" in found and "vault" in found:
        return None
    return found


def _value(field: str, text: str) -> str | int | None:
    """``text`` as click's option ``field`` reads it, or None when it might read it
    otherwise or reject it: an empty value or one that looks like an option; a port
    other than plain decimal digits without a leading zero in 1-65535
    (``click.IntRange(1, 65535)``); a project that is not a readable folder
    (``click.Path(file_okay=False, exists=True)``, whose checks follow ``os.stat``);
    a vault that exists but cannot be read (``click.Path`` checks only what exists)."""
    if not text or text.startswith("-"):
        return None
    if field == "port":
        if not (text.isascii() and text.isdigit()) or text[0] == "0" or int(text) > 65535:
            return None
        return int(text)
    if field == "project":
        return text if os.path.isdir(text) and os.access(text, os.R_OK) else None
    if field == "vault":
        try:
            os.stat(text)
        except OSError:
            return text
        return text if os.access(text, os.R_OK) else None
    return text


def serve_bare(given: BareOptions | None = None) -> NoReturn:
    """Run ``rubi serve`` with its defaults and the options ``given``
    (:func:`bare_options`; None: none), as click would run it, then exit.

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

        run_serve(_options(DEFAULTS, given or {}))
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


def _options(defaults: ServeOptions, given: BareOptions) -> ServeOptions:
    """``defaults`` with the options ``given``, paths made :class:`~pathlib.Path`
    as click's path types make them."""
    import dataclasses
    from pathlib import Path

    made: dict[str, Any] = {
        k: Path(str(v)) if k in ("project", "vault") else v for k, v in given.items()
    }
    return dataclasses.replace(defaults, **made)


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
    (:func:`rubi.cli.main.set_up_logging` with 0), ``logging`` imported without
    ``traceback`` (:func:`rubi.core.loggingimport.import_logging`: a server that writes
    no traceback never imports it, nor ``linecache`` and ``tokenize``)."""
    from rubi.core.lazylog import log_to_stderr
    from rubi.core.loggingimport import import_logging

    import_logging()
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
