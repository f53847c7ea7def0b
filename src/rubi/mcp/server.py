"""The MCP server: a few cheap tools over :mod:`rubi.app` (:mod:`rubi.mcp.tools`), for
Claude Code and any MCP client, over stdio (default) or streamable HTTP.

This module imports neither the MCP SDK nor pydantic: over stdio the handshake is
answered before they are loaded (:mod:`rubi.mcp.startup`). Nothing but protocol goes
to stdout.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from rubi import app
from rubi.core.collector import pause_collector, resident_collector, resume_collector
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    import socket
    from typing import Any

    from mcp.server.mcpserver import MCPServer

    from rubi.mcp.hooktool import HookAnswerer
    from rubi.mcp.http_admit import HttpAccess

__all__ = [
    "INSTRUCTIONS",
    "MAX_REFUSAL_CHARS",
    "NO_PROJECT_INSTRUCTIONS",
    "OUTPUT_SCHEMAS_TOKEN_BUDGET",
    "REFUSED_INSTRUCTIONS",
    "TOOLS_TOKEN_BUDGET",
    "VAULT_INSTRUCTIONS",
    "build_server",
    "open_vault",
    "refused_instructions",
    "serve",
]

log = logging.getLogger(__name__)

TOOLS_TOKEN_BUDGET = 1200
"""Input schemas and descriptions of all tools together, in tokens (characters / 4):
what a client puts in every request to the model."""

OUTPUT_SCHEMAS_TOKEN_BUDGET = 600
"""The ``outputSchema`` of all tools together, in tokens: listed by ``tools/list`` for
the client to validate ``structuredContent``, never sent to the model (a client's
request to the model carries each tool's name, description and input schema)."""

INSTRUCTIONS = """\
rubi is this project's memory: notes (decisions, bugs, gotchas, how-tos) and a code map.
- Before exploring code: search(query, terms=[synonyms, likely names]); read(ids) for \
full text; map(module) for structure.
- After exploring: register 1-5 durable notes with their files. Before stopping: \
handoff(action="save")."""
"""Told to the client once per session (Claude Code puts it in every request): what
the tool descriptions do not already say, in as few words."""

VAULT_INSTRUCTIONS = """\
rubi is the memory of a notes vault (markdown notes and their [[links]]; no code map).
- Before answering from general knowledge: search(query, terms=[synonyms, names]); \
read(ids) for full text and links.
- Save what the session learned: register 1-5 durable notes."""
"""The instructions for a vault served with ``--vault`` that is no project's (an
Obsidian vault): it has no code map, so ``map`` is not offered as a first step."""

NO_PROJECT_INSTRUCTIONS = """\
rubi is a project memory, but this project has none yet (no .rubi/ folder): offer the \
user `rubi init` (then `rubi index`) in the project folder; the next session gets the \
code map and notes. Until then the tools use the user's personal vault: search and \
read its notes, register saves there."""
"""The instructions outside a project (:func:`open_vault`)."""

REFUSED_INSTRUCTIONS = """\
rubi refused a project memory at or above this folder: {why} Tell the user this \
before relying on rubi here; whichever fix they choose takes effect when the MCP server \
restarts. Until then the tools use the user's personal vault: search and read its notes, \
register saves there."""
"""The instructions below a vault the walk refused (another user's, at the root,
linked out of its project): ``{why}`` is the refusal, which names the vault, the
reason and the one way to use it (:func:`rubi.core.paths.walked_vault`)."""

MAX_REFUSAL_CHARS = 600
"""The refusal's share of the instructions, in characters: it holds folder names,
which whoever made those folders chose."""


def refused_instructions(refusal: str) -> str:
    """:data:`REFUSED_INSTRUCTIONS` for ``refusal`` (a
    :class:`~rubi.core.errors.VaultRefusedError`'s message), its folder names made
    one line of visible text (control characters escaped, every run of whitespace
    one space, at most :data:`MAX_REFUSAL_CHARS`): a folder name cannot add lines or
    terminal sequences to what the client shows the model."""
    from rubi.core.safetext import terminal_text

    why = " ".join(terminal_text(refusal).split())
    if len(why) > MAX_REFUSAL_CHARS:
        why = why[: MAX_REFUSAL_CHARS - 1] + "…"
    return REFUSED_INSTRUCTIONS.format(why=why if why.endswith(".") else why + ".")


def build_server(
    paths: VaultPaths,
    *,
    token: str | None = None,
    ready: Callable[[], AbstractContextManager[None] | None] | None = None,
    instructions: str = INSTRUCTIONS,
    hook: HookAnswerer | None = None,
) -> MCPServer:
    """The server for one project vault (opened once, kept for every call).

    Imports the MCP SDK (about 0.6 s of CPU the first time).

    Args:
        paths: the project vault.
        token: a bearer token every HTTP request must carry (checked by the MCP
            library's auth middleware, see :mod:`rubi.mcp.http_access`); None for none.
        ready: called first by every tool call, blocking until the server is warm
            (see :mod:`rubi.mcp.startup`); what it returns, when not None, is entered
            around the tool's body (:mod:`rubi.mcp.httpwarm`); None for nothing to
            wait for.
        instructions: what the client is told about the server
            (:data:`NO_PROJECT_INSTRUCTIONS` outside a project).
        hook: answers the unlisted ``hook`` tool, Claude Code's ``mcp_tool`` hooks
            (:mod:`rubi.mcp.hooktool`); None: no such tool.
    """
    from rubi.mcp.http_access import bearer_auth
    from rubi.mcp.stdio import RubiMCPServer
    from rubi.mcp.tools import add_tools

    verifier, auth = bearer_auth(token)
    from rubi import __version__

    server = RubiMCPServer(
        "rubi",
        version=__version__,  # serverInfo.version, which clients show and log
        instructions=instructions,
        log_level="WARNING",
        token_verifier=verifier,
        auth=auth,
    )
    server.hook_answerer = hook
    add_tools(server, paths, ready)
    return server


def serve(
    project: Path | None = None,
    *,
    vault: Path | None = None,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_remote: bool = False,
    no_token: bool = False,
    hook: HookAnswerer | None = None,
) -> None:
    """Run the server until the client goes away (stdio) or the process is stopped.

    Over HTTP every request needs a bearer token (``RUBI_HTTP_TOKEN``, or the one kept
    in the user's state folder), unless ``no_token`` on loopback; a loopback ``host``
    keeps the Host/Origin checks; any other address needs ``allow_remote`` (see
    :mod:`rubi.mcp.http_access`).

    ``project`` is a project folder (its ``.rubi/`` is looked for there and above);
    ``vault`` a vault folder served as it is. Outside a project (no ``.rubi/``) it
    serves the personal vault and says so in its instructions (:func:`open_vault`).
    ``hook`` answers Claude Code's ``mcp_tool`` hooks (:mod:`rubi.mcp.hooktool`) over
    stdio, where the client is the local process that started the server (a hook may
    name any folder and transcript of the user's, as a command hook may); never over
    HTTP.

    Raises:
        RubiError: ``project`` is not a folder, a
            non-loopback ``host`` without ``allow_remote``, ``allow_remote`` or
            ``no_token`` without ``http``, ``no_token`` off loopback, a bad
            ``RUBI_HTTP_TOKEN`` or token file, or a port that cannot be listened on
            (:func:`rubi.mcp.http_listen.listen_early`).
    """
    if allow_remote and not http:
        raise RubiError("--allow-remote applies to --http only (stdio never leaves this machine)")
    if no_token and not http:
        raise RubiError("--no-token applies to --http only (stdio needs no token)")
    access = None
    if http:
        from rubi.mcp.http_admit import plan_http_access

        access = plan_http_access(host, port, allow_remote=allow_remote, no_token=no_token)
    paths, instructions = open_vault(project, vault=vault)
    resident_collector()  # a process that serves many searches (rubi.core.collector)
    if access is None:
        from rubi.mcp.startup import serve_stdio

        serve_stdio(
            paths,
            lambda ready: build_server(paths, ready=ready, instructions=instructions, hook=hook),
            instructions=None if instructions == INSTRUCTIONS else instructions,
            hook=hook,
        )
    else:
        from rubi.mcp.http_listen import close_all, listen_early

        # the port accepts from here on, while the HTTP stack is imported
        sockets = listen_early(access.host, access.port)
        try:
            _serve_http(paths, access, instructions, sockets)
        finally:
            close_all(sockets)  # uvicorn closed them at its shutdown: a no-op then


def _serve_http(
    paths: VaultPaths, access: HttpAccess, instructions: str, sockets: list[socket.socket]
) -> None:
    """Serve ``paths`` over HTTP under ``access`` on ``sockets`` (listening already:
    :mod:`rubi.mcp.http_listen`): the front answers what it can before
    the SDK is imported (:mod:`rubi.mcp.httpfront`), served before uvicorn is imported
    until the first answers are out (:mod:`rubi.mcp.http_early`); the vault is warmed
    once the first call is answered, the engine and the watch after it, then the SDK's
    app is built (:mod:`rubi.mcp.httpwarm`). No hook tool over HTTP: a hook runs for the vault
    above its cwd and reads the transcript it names, which only the local client that
    started us may ask."""
    from contextlib import nullcontext

    from rubi.mcp.early import EarlyCalls
    from rubi.mcp.front import load_handshake
    from rubi.mcp.httpfront import HttpFront, run_http
    from rubi.mcp.httpwarm import ListenWarmup
    from rubi.mcp.startup import one_blas_thread

    one_blas_thread()  # as over stdio: a BLAS thread per core cost the first search CPU
    # No cyclic collection until the warm-up after the first answer has ended
    # (ListenWarmup turns it on), as a bare stdio server starts (rubi.core.collector).
    pause_collector()
    warm = ListenWarmup(paths)

    def build() -> Any:
        from rubi.mcp.http_access import http_app

        token = access.token
        server = build_server(paths, token=token, ready=warm.ready, instructions=instructions)
        return http_app(server, access)

    handshake = load_handshake()
    answerer = None
    if handshake is not None:
        if instructions != INSTRUCTIONS:
            handshake = handshake.with_instructions(instructions)
        answerer = EarlyCalls(
            paths,
            handshake,
            ready=lambda: None,  # the warm-up's order is serving's (ListenWarmup.ready)
            serving=lambda: warm.ready() or nullcontext(),
            cold_first=False,
        )
    front = HttpFront(access, build, handshake, answerer, building=warm.aside)
    warm.then = front.build_soon
    try:
        run_http(
            front,
            access,
            sockets=sockets,
            listening=warm.listening,
            first_answered=warm.when_begun,
        )
    finally:
        resume_collector()  # a server that stopped before its warm-up


def open_vault(project: Path | None, *, vault: Path | None = None) -> tuple[VaultPaths, str]:
    """The vault to serve and the instructions that go with it.

    ``vault`` (``--vault``) is served as it is (with :data:`VAULT_INSTRUCTIONS` when it
    is no project's). Otherwise the project's ``.rubi/`` is
    looked for in ``project`` (``--project``; default: the current folder) and the
    folders above it, exactly as every other command looks for it; a project folder
    is never served as a vault itself. In a folder with none: the personal vault
    (created when missing) and :data:`NO_PROJECT_INSTRUCTIONS`, so the server starts
    anywhere and offers ``rubi init``. Below a ``.rubi/`` the walk refused (another
    user's, at the root, linked out): the personal vault too, with
    :func:`refused_instructions` saying which vault, why, and how to opt in.

    Raises:
        RubiError: ``project`` or ``vault`` is not an existing folder; the personal
            vault cannot be opened or created.
    """
    from rubi.core.errors import VaultNotFoundError, VaultRefusedError

    if vault is not None:
        paths = app.locate(vault)
        return paths, INSTRUCTIONS if paths.project_root is not None else VAULT_INSTRUCTIONS
    if project is not None and not project.is_dir():
        raise RubiError(f"{project}: no such folder; pass an existing project folder")
    instructions = NO_PROJECT_INSTRUCTIONS
    try:
        return app.locate(None, cwd=project), INSTRUCTIONS
    except VaultRefusedError as exc:
        instructions = refused_instructions(str(exc))
        log.warning("%s", exc)  # stderr: Claude Code keeps it in the server's log
    except VaultNotFoundError:
        pass
    from rubi.app.personalvault import open_personal_vault

    try:
        personal = open_personal_vault()
    except RubiError as exc:
        raise RubiError(f"no project vault here, and {exc}") from exc
    return personal, instructions
