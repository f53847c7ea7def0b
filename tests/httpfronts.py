"""What the HTTP front's tests share (``tests/mcp/test_http_*``): a project with one
decision note, the front as ``rubi serve --http`` makes it (or the SDK's path alone,
to compare with), an in-process client, and Claude Code's ``initialize``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.mcp.early import EarlyCalls
from rubi.mcp.front import load_handshake
from rubi.mcp.http_admit import HttpAccess
from rubi.mcp.httpfront import HttpFront

from helpers import rubi_project

TOKEN = "t0ken-for-tests-0123456789abcdef"
LOOPBACK = HttpAccess("127.0.0.1", 8765, False, TOKEN)
"""A loopback bind on port 8765 with :data:`TOKEN`."""

CLAUDE_CODE_INIT: dict[str, Any] = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"roots": {}, "elicitation": {}},
    "clientInfo": {
        "name": "claude-code",
        "title": "Claude Code",
        "version": "2.1.197",
        "description": "Anthropic's agentic coding tool",
        "websiteUrl": "https://claude.com/claude-code",
    },
}
"""The ``initialize`` parameters of Claude Code 2.1.197 (its client's capabilities and
info, read from its build and from its wire)."""


def trie_project(tmp_path: Path) -> VaultPaths:
    """An indexed project under ``tmp_path/proj``: ``pkg/router.py`` and the decision
    note ``decision-route-with-a-trie``."""
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "class SmartRouter:\n    pass\n"})
    paths = app.locate(root / ".rubi")
    app.register(paths, [{"type": "decision", "title": "Route with a trie", "body": "Prefix."}])
    app.index(paths)
    return paths


def sdk_build(paths: VaultPaths, access: HttpAccess) -> Any:
    """Builds the SDK's app for ``paths`` as ``rubi serve --http`` does."""

    def build() -> Any:
        from rubi.mcp.http_access import http_app
        from rubi.mcp.server import build_server

        return http_app(build_server(paths, token=access.token), access)

    return build


def make_front(
    paths: VaultPaths,
    access: HttpAccess = LOOPBACK,
    *,
    answer: bool = True,
    build: Any = None,
    **kw: Any,
) -> HttpFront:
    """The front as ``rubi serve --http`` makes it; ``answer=False``: it answers
    nothing (the SDK's path alone, for comparison); ``kw`` to :class:`HttpFront`."""
    handshake = load_handshake()
    assert handshake is not None
    answerer = EarlyCalls(paths, handshake, lambda: None)
    return HttpFront(
        access,
        build or sdk_build(paths, access),
        handshake if answer else None,
        answerer if answer else None,
        **kw,
    )


@asynccontextmanager
async def asgi_client(
    front: HttpFront, host: str = "127.0.0.1:8765"
) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client talking to ``front`` in process; the front's SDK lifespan is
    ended after the block."""
    transport = httpx.ASGITransport(app=front)
    try:
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as client:
            yield client
    finally:
        await front.aclose()
