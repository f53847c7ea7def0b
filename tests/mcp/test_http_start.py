"""``rubi serve --http``'s start: nothing but the MCP SDK before the port listens; the
first tool call reads as a cold process reads, then the vault is warmed (a call waits
for it rather than loading beside it), and only then the engine and the background
watch begin. Both protocol eras over HTTP see the
same capabilities, tool list and answers."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.mcp import server as mcp_server
from rubi.mcp import startup
from rubi.mcp.httpwarm import ListenWarmup

from helpers import listening, rubi_project

WAIT_S = 10.0
TOKEN = "t0ken-for-tests-0123456789abcdef"
RUBI = str(Path(sys.executable).with_name("rubi"))


@pytest.fixture
def latches(monkeypatch: pytest.MonkeyPatch) -> dict[str, threading.Event]:
    """Fresh STARTED, QUIET and UNASKED (process-wide latches) for one test."""
    fresh = {name: threading.Event() for name in ("STARTED", "QUIET", "UNASKED")}
    for name, event in fresh.items():
        monkeypatch.setattr(startup, name, event)
    return fresh


def _paths(tmp_path: Path) -> VaultPaths:
    return VaultPaths(root=tmp_path, index_dir=tmp_path)


def test_the_first_call_reads_cold_and_the_warm_up_waits_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    from rubi.app import searching

    inside, release = threading.Event(), threading.Event()
    monkeypatch.setattr(startup, "warm_vault", lambda paths: (inside.set(), release.wait(WAIT_S)))
    warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=3600)
    warm.listening()
    warm.listening()  # once
    first = warm.ready()
    assert first is not None  # the first call runs in the cold readers
    with first:
        assert searching._ONCE.get()
        assert not inside.wait(0.2)  # nothing is warmed beside the first call
    assert inside.wait(WAIT_S)  # the warm-up begins once it is answered
    assert not latches["STARTED"].is_set()  # the engine and the watch wait for it too
    answered = threading.Event()
    threading.Thread(target=lambda: (warm.ready(), answered.set()), daemon=True).start()
    assert not answered.wait(0.2)  # a call meanwhile waits for the warm-up
    release.set()
    assert answered.wait(WAIT_S)
    assert warm.done.wait(WAIT_S)
    assert all(e.is_set() for e in latches.values())
    assert warm.ready() is None  # later calls read with the long-lived readers


def test_the_collector_paused_at_start_is_on_again_once_the_vault_is_warm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    from rubi.core.collector import pause_collector, resume_collector

    seen: list[bool] = []
    monkeypatch.setattr(startup, "warm_vault", lambda paths: seen.append(gc.isenabled()))
    assert pause_collector()
    try:
        warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=0)
        warm.listening()
        assert warm.done.wait(WAIT_S)
        assert seen == [False] and gc.isenabled()
    finally:
        resume_collector()


def test_without_a_call_the_warm_up_begins_a_while_after_listening(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warmed.append("warm"))
    warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=0.1)
    assert warm.ready() is not None  # not listening yet: a call reads cold, nothing waits
    warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=0.1)
    warm.listening()
    assert warm.done.wait(WAIT_S)
    assert warmed == ["warm"] and all(e.is_set() for e in latches.values())
    assert warm.ready() is None  # a call after the warm-up reads warm


def test_the_warm_up_waits_for_work_set_aside_and_its_delay_after_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    """The front building the SDK for a 2025-11-25 client holds the warm-up back, so
    the tool call after the handshake still reads cold rather than waiting for it."""
    warmed = threading.Event()
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warmed.set())
    warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=0.3)
    warm.listening()
    with warm.aside():
        assert not warmed.wait(0.6)  # past the delay: held back while the build runs
    assert not warmed.wait(0.1)  # and the delay begins again after it
    first = warm.ready()
    assert first is not None  # the call after the build reads cold
    with first:
        pass
    assert warmed.wait(WAIT_S) and warm.done.wait(WAIT_S)


def test_a_failed_warm_up_lets_the_calls_and_the_rest_go_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    def fail(paths: VaultPaths) -> None:
        raise OSError("the index cannot be read")

    monkeypatch.setattr(startup, "warm_vault", fail)
    warm = ListenWarmup(_paths(tmp_path), first_call_wait_s=0)
    warm.listening()
    assert warm.done.wait(WAIT_S)
    warm.ready()  # does not block: the call meets the failure itself
    assert all(e.is_set() for e in latches.values())


def test_serve_over_http_warms_the_vault_once_the_port_listens(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latches: dict[str, threading.Event]
) -> None:
    """``serve(http=True)`` hands uvicorn the front and the warm-up's ``listening``;
    the SDK's server (built by the front only when needed) gets the warm-up's
    ``ready``: before the port listens nothing is warmed and nothing else begins, and
    the SDK is not even imported."""
    import rubi.mcp.http_access as http_access
    import rubi.mcp.httpfront as httpfront

    root = rubi_project(tmp_path / "proj", {"pkg/a.py": "x = 1\n"})
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(http_access.TOKEN_ENV, TOKEN)
    warmed: list[Path] = []
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warmed.append(paths.root))
    seen: dict[str, Any] = {}

    def build(paths: VaultPaths, **kwargs: Any) -> object:
        seen["ready"] = kwargs["ready"]
        return object()

    def run_http(
        front: Any,
        access: object,
        sockets: Any = None,
        listening: Any = None,
        first_answered: Any = None,
    ) -> None:
        assert warmed == [] and not latches["STARTED"].is_set() and not gc.isenabled()
        # the port listens already (rubi.mcp.http_listen): uvicorn is handed its sockets
        assert sockets and all(
            s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1 for s in sockets
        )
        seen["listening"], seen["front"], seen["sockets"] = listening, front, sockets
        seen["first_answered"] = first_answered
        listening()

    monkeypatch.setattr(mcp_server, "build_server", build)
    monkeypatch.setattr(http_access, "http_app", lambda server, access: server)
    monkeypatch.setattr(httpfront, "run_http", run_http)
    mcp_server.serve(root, http=True, port=0)
    assert all(s.fileno() == -1 for s in seen["sockets"])  # closed once served
    warm = seen["listening"].__self__
    assert isinstance(warm, ListenWarmup) and isinstance(seen["front"], httpfront.HttpFront)
    assert warm.then == seen["front"].build_soon  # the SDK is built after the warm-up
    assert seen["first_answered"] == warm.when_begun  # uvicorn serves once it begins
    assert "ready" not in seen  # not built before a request needs it
    seen["front"]._build()
    assert seen["ready"] == warm.ready
    assert warm.done.wait(WAIT_S)
    assert warmed == [root / ".rubi"] and latches["STARTED"].is_set()


# ---------------------------------------------------------------- a real server


@contextmanager
def serving(project: Path) -> Iterator[int]:
    """``rubi serve --http`` for ``project`` on a free loopback port (its port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, RUBI_HTTP_TOKEN=TOKEN)
    argv = [RUBI, "serve", "--http", "--port", str(port), "--project", str(project)]
    with listening(argv, port, env):
        yield port


def _server_name(opened: Any) -> str:
    """The server's name: ``serverInfo`` of ``initialize``, or the ``_meta`` of a
    2026-07-28 ``server/discover`` result."""
    info = getattr(opened, "server_info", None)
    if info is not None:
        return str(info.name)
    return str((opened.meta or {})["io.modelcontextprotocol/serverInfo"]["name"])


async def _era(port: int, mode: str) -> dict[str, Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp import Client

    url = f"http://127.0.0.1:{port}/mcp"
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        session = client.session
        opened = session.initialize_result if mode == "legacy" else session.discover_result
        assert opened is not None
        tools = await client.list_tools()
        answer = await client.call_tool("search", {"query": "trie"})
        return {
            "capabilities": opened.capabilities.model_dump(mode="json", exclude_none=True),
            "instructions": opened.instructions,
            "server": _server_name(opened),
            "tools": [t.model_dump(mode="json", exclude_none=True) for t in tools.tools],
            "answer": [c.model_dump(mode="json", exclude_none=True) for c in answer.content],
            "structured": answer.structured_content,
        }


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_both_eras_over_http_see_the_same_capabilities_tools_and_answers(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "class SmartRouter:\n    pass\n"})
    paths = app.locate(root / ".rubi")
    app.register(paths, [{"type": "decision", "title": "Route with a trie", "body": "Prefix."}])
    app.index(paths)
    with serving(root) as port:
        legacy = asyncio.run(asyncio.wait_for(_era(port, "legacy"), 60))
        modern = asyncio.run(asyncio.wait_for(_era(port, "auto"), 60))
    assert legacy["server"] == "rubi" and len(legacy["tools"]) >= 8
    assert "decision-route-with-a-trie" in json.dumps(legacy["answer"])
    assert modern == legacy
