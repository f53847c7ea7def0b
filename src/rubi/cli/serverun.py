"""What ``rubi serve`` runs once its options are read, without click: the click
command (:mod:`rubi.cli.servecmds`) passes the options it parsed, the bare command's
fast path (:mod:`rubi.cli.servebare`) the defaults, both as one :class:`ServeOptions`
to :func:`run_serve`. The defaults are written once, here: the click options take
theirs from :data:`DEFAULTS`."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

TYPE_CHECKING = False  # typing's names only for mypy
if TYPE_CHECKING:
    from rubi.engine.sessionend import SessionEnds
    from rubi.mcp.hooktool import HookAnswerer

__all__ = ["DEFAULTS", "HTTP_HOST", "HTTP_PORT", "ServeOptions", "run_serve"]

HTTP_HOST = "127.0.0.1"
"""The address ``--http`` listens on when ``--host`` is not given."""

HTTP_PORT = 8765
"""The port ``--http`` listens on when ``--port`` is not given."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """The options of ``rubi serve``, one field per click option (same name).

    Attributes:
        http: serve streamable HTTP at ``host:port`` instead of stdio.
        host: the HTTP address; anything but loopback needs ``allow_remote``
            (None: not given, :data:`HTTP_HOST`).
        port: the HTTP port, 1-65535 (None: not given, :data:`HTTP_PORT`).
        allow_remote: allow a non-loopback ``host``.
        no_token: serve loopback HTTP without a bearer token.
        show_token: print the bearer token and return.
        project: the project folder (None: the current folder).
        vault: a vault folder to serve instead of the project's.
    """

    http: bool = False
    host: str | None = None
    port: int | None = None
    allow_remote: bool = False
    no_token: bool = False
    show_token: bool = False
    project: Path | None = None
    vault: Path | None = None


DEFAULTS = ServeOptions()
"""A bare ``rubi serve``: what its fast path runs, and each click option's default."""


def run_serve(options: ServeOptions) -> None:
    """Serve MCP for ``options.project`` (None: the current folder) or
    ``options.vault`` over stdio, or streamable HTTP at ``host:port`` with ``http``;
    with ``show_token``, print the bearer token and return. Returns when the client
    closes stdio or the server stops.

    Raises:
        ValueError: both ``project`` and ``vault`` given (a usage error).
        RubiError: ``host`` or ``port`` given without ``http`` (a stdio server would
            start and ignore them), ``vault`` is no folder, or the server cannot serve
            (one line).
        OSError: a file or socket the server needs cannot be used.
    """
    if options.show_token:
        from rubi.cli.common import echo
        from rubi.mcp.http_token import resolve_token

        echo(resolve_token()[0])
        return
    given = [f"--{name}" for name in ("host", "port") if getattr(options, name) is not None]
    if given and not options.http:
        raise RubiError(
            f"{' and '.join(given)} applies to --http only (stdio opens no port); add --http"
        )
    from rubi.cli.servewatch import in_background
    from rubi.cli.terminated import Terminated, end_by_signal, stopped_by_signals
    from rubi.mcp.server import serve as run
    from rubi.mcp.startup import STARTED, WATCH_WANTED

    http, project, vault = options.http, options.project, options.vault
    if vault is not None:
        if project is not None:
            raise ValueError("give --project or --vault, not both")
        if not vault.is_dir():
            raise RubiError(f"{vault}: no such folder; pass an existing vault folder")
    logging.getLogger().setLevel(logging.WARNING)  # logs go to stderr; stdout is protocol
    located = _vault(project, vault)
    # the plugin's mcp_tool hooks, answered by a stdio server itself (docs/engine.md);
    # the sessions they name get SessionEnd's work from this server
    # (rubi.engine.sessionend); an HTTP server answers none, so it never imports them
    hooks = None if http else _hooks(located)
    # The engine answers other processes' hooks and commands for this project
    # (docs/engine.md); the background watch keeps the index current from file events,
    # so no answer waits for a scan. The watcher starts once the server's first answers
    # are out (over stdio, then once a tool that may write ran, the server was idle or
    # servewatch.SOON_S passed) and, once it listens, catches the index up if anything
    # changed (a search's own scan sees notes only, not code: an edit made before the
    # watcher listened is in that catch-up, one made after in a batch); over stdio the engine
    # starts when the watcher does (a short session never imports it) and loads only when
    # a request needs it (refused until then: its client answers cold at once); the
    # server answers its own session's hooks itself. Over HTTP the first answers are the
    # warm-up's end, once the port listens (rubi.mcp.httpwarm sets STARTED), not beside
    # the MCP SDK's import.
    try:
        # SIGTERM and SIGHUP (a process group killed, a terminal closed) unwind the
        # blocks below as Ctrl-C does: the engine's socket is removed, its lock freed
        with (
            stopped_by_signals(),
            _engine(located, http),
            in_background(located, STARTED, soon=None if http else WATCH_WANTED),
        ):
            try:
                run(
                    project,
                    vault=vault,
                    http=http,
                    host=HTTP_HOST if options.host is None else options.host,
                    port=HTTP_PORT if options.port is None else options.port,
                    allow_remote=options.allow_remote,
                    no_token=options.no_token,
                    hook=None if hooks is None else _watching(hooks),
                )
            finally:  # stdin closed, Ctrl-C (Claude Code's SIGINT), SIGTERM or SIGHUP
                if hooks is not None:
                    hooks.close()
    except Terminated as stop:
        end_by_signal(stop.signum)


def _hooks(located: VaultPaths | None) -> SessionEnds:
    """The plugin's ``mcp_tool`` hooks, answered by a stdio server itself
    (docs/engine.md), with SessionEnd's work for the sessions they name
    (:mod:`rubi.engine.sessionend`); an HTTP server answers none
    (:func:`rubi.mcp.server.serve`), so it never imports the answerer."""
    from rubi.engine.hooktool import hook_answerer
    from rubi.engine.sessionend import SessionEnds

    return SessionEnds(hook_answerer(located.root if located is not None else None))


def _watching(hooks: SessionEnds) -> HookAnswerer:
    """``hooks`` telling the background watch when a tool that may write ran."""
    from rubi.mcp.startup import watching_writes

    return watching_writes(hooks)


def _engine(located: VaultPaths | None, http: bool) -> AbstractContextManager[object]:
    """The engine for the ``with`` block of :func:`run_serve`, started by
    :mod:`rubi.engine.later` (its modules imported, its socket bound, only then): over
    HTTP once the warm-up after the port's first answers is done (``STARTED``), loading
    at once then; before, nothing of it delays the port's listening (its imports and
    start, 5-10 ms of CPU) and a hook or command answers cold, as the engine refusing
    it until ``STARTED`` had it answer. Over stdio once the session is past its first
    seconds (``WATCH_WANTED`` or ``SOON_S``, as the background watch), loading on
    demand: a short session that sends it nothing never imports it. ``SOON_S`` bounds
    the wait in both."""
    from rubi.cli.servewatch import SOON_S
    from rubi.engine.later import running_later
    from rubi.mcp.startup import STARTED, WATCH_WANTED

    if http:
        return running_later(located, STARTED, STARTED, SOON_S, on_demand=False)
    return running_later(located, STARTED, WATCH_WANTED, SOON_S)


def _vault(project: Path | None, vault: Path | None) -> VaultPaths | None:
    """The project vault ``rubi.mcp.server.serve`` opens, or None (it then serves the
    personal vault, or reports why)."""
    from rubi import app

    try:
        return app.locate(vault) if vault is not None else app.locate(None, cwd=project)
    except RubiError:
        return None
