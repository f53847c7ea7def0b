"""The MCP server: a few cheap tools over :mod:`rubi.app` (:mod:`rubi.mcp.tools`), for
Claude Code and any MCP client, over stdio (default) or streamable HTTP.

This module imports neither the MCP SDK nor pydantic: over stdio the handshake is
answered before they are loaded (:mod:`rubi.mcp.startup`). Nothing but protocol goes
to stdout.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rubi import app
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["INSTRUCTIONS", "TOOLS_TOKEN_BUDGET", "build_server", "serve"]

log = logging.getLogger(__name__)

TOOLS_TOKEN_BUDGET = 1200
"""Schemas and descriptions of all tools together, in tokens (characters / 4)."""

INSTRUCTIONS = """\
rubi is this project's memory: notes (decisions, bugs, gotchas, how-tos) and a map of \
the code, searched together.
- Search before exploring the code: search(query, terms) with terms = synonyms, likely \
function, class and file names. Results are a compact index; read(ids) for full text.
- map() shows modules and central files; map(module) one module.
- After work that took exploration, register 1-5 durable notes (decisions, bugs, \
gotchas, how-tos) with the files they are about; supersede notes that became wrong.
- Before stopping or when context is large: handoff(action="save", ...)."""


def build_server(
    paths: VaultPaths,
    *,
    token: str | None = None,
    ready: Callable[[], None] | None = None,
) -> MCPServer:
    """The server for one project vault (opened once, kept for every call).

    Imports the MCP SDK (about 0.6 s of CPU the first time).

    Args:
        paths: the project vault.
        token: a bearer token every HTTP request must carry (checked by the MCP
            library's auth middleware, see :mod:`rubi.mcp.http_access`); None for none.
        ready: called first by every tool call, blocking until the server is warm
            (see :mod:`rubi.mcp.startup`); None for nothing to wait for.
    """
    from rubi.mcp.http_access import bearer_auth
    from rubi.mcp.stdio import RubiMCPServer
    from rubi.mcp.tools import add_tools

    verifier, auth = bearer_auth(token)
    from rubi import __version__

    server = RubiMCPServer(
        "rubi",
        version=__version__,  # serverInfo.version, which clients show and log
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        token_verifier=verifier,
        auth=auth,
    )
    add_tools(server, paths, ready)
    return server


def serve(
    project: Path | None = None,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_remote: bool = False,
) -> None:
    """Run the server until the client goes away (stdio) or the process is stopped.

    Over HTTP, a loopback ``host`` keeps the Host/Origin checks (and requires
    ``RUBI_HTTP_TOKEN`` when it is set); any other address needs ``allow_remote`` and
    a bearer token (see :mod:`rubi.mcp.http_access`).

    Raises:
        RubiError: no project vault at ``project`` (or above the current folder), a
            non-loopback ``host`` without ``allow_remote``, or ``allow_remote``
            without ``http``, or a bad ``RUBI_HTTP_TOKEN``.
    """
    if allow_remote and not http:
        raise RubiError("--allow-remote applies to --http only (stdio never leaves this machine)")
    access = None
    if http:
        from rubi.mcp.http_access import plan_http_access

        access = plan_http_access(host, port, allow_remote=allow_remote)
    paths = app.locate(project / ".rubi" if project and (project / ".rubi").is_dir() else project)
    if access is None:
        from rubi.mcp.startup import serve_stdio

        serve_stdio(paths, lambda ready: build_server(paths, ready=ready))
    else:
        from rubi.mcp.http_access import run_http

        run_http(build_server(paths, token=access.token), access)
