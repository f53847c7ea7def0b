"""Measure an MCP server's tool descriptions by asking it (``rubi audit --probe-mcp``).

Claude Code sends every tool's name, description and input schema with every request,
so their size is paid on each call. Only stdio servers are probed: the server is
started with its configured command and environment, sent ``initialize`` and
``tools/list`` (JSON-RPC 2.0, one message per line, as the MCP stdio transport
specifies), and stopped. Probing runs the user's configured commands, which is why
the audit does it only when asked.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any

from rubi import __version__
from rubi.claude.claudeconfig import McpServer
from rubi.core.tokens import tokens_for_chars

__all__ = ["PROBE_TIMEOUT_SECONDS", "ProbeResult", "probe_server"]

log = logging.getLogger(__name__)

PROBE_TIMEOUT_SECONDS = 15.0
"""Time a server gets to answer ``initialize`` and ``tools/list``: servers run with
``npx``/``uvx`` may install themselves on first start."""

PROTOCOL_VERSION = "2025-06-18"
"""MCP protocol revision the probe announces; servers answer with the one they speak."""

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """What a probe found: tool count and estimated tokens, or the reason it failed."""

    tools: int = 0
    tokens: int = 0
    error: str | None = None


def _expand(text: str, env: dict[str, str]) -> str:
    """``${VAR}`` and ``${VAR:-default}`` expansion, as ``.mcp.json`` allows."""
    return _VAR.sub(lambda m: env.get(m.group(1), m.group(2) or ""), text)


def _reader(stream: Any, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _answer(lines: queue.Queue[str | None], wanted: int, deadline: float) -> dict[str, Any]:
    """The JSON-RPC response with id ``wanted``; other stdout lines are skipped."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        try:
            line = lines.get(timeout=left)
        except queue.Empty as err:
            raise TimeoutError("no answer in time") from err
        if line is None:
            raise EOFError("the server exited")
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("id") == wanted:
            if "error" in message:
                raise RuntimeError(str(message["error"]))
            result = message.get("result")
            return result if isinstance(result, dict) else {}


def probe_server(server: McpServer, *, timeout_s: float = PROBE_TIMEOUT_SECONDS) -> ProbeResult:
    """Start a stdio MCP server, list its tools and size their descriptions.

    Args:
        server: the configured server.
        timeout_s: seconds allowed for the whole exchange.

    Returns:
        Tools found and their estimated tokens (characters / 4 of each tool's JSON:
        name, description, input schema), or an ``error`` saying why not.
    """
    if server.transport != "stdio" or not server.command:
        return ProbeResult(error=f"{server.transport} server: not probed")
    env = {**os.environ, **server.env}
    argv = [_expand(server.command, env), *(_expand(a, env) for a in server.args)]
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={k: _expand(v, env) for k, v in env.items()},
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as err:
        return ProbeResult(error=f"cannot start {argv[0]}: {err.strerror or err}")
    assert process.stdin is not None and process.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_reader, args=(process.stdout, lines), daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout_s

    def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()

    try:
        send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "rubi-audit", "version": __version__},
                },
            }
        )
        _answer(lines, 1, deadline)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools: list[Any] = []
        cursor: str | None = None
        request = 2
        while True:
            params = {"cursor": cursor} if cursor else {}
            send({"jsonrpc": "2.0", "id": request, "method": "tools/list", "params": params})
            page = _answer(lines, request, deadline)
            found = page.get("tools")
            tools.extend(found if isinstance(found, list) else [])
            cursor = page.get("nextCursor") if isinstance(page.get("nextCursor"), str) else None
            request += 1
            if not cursor:
                break
    except BrokenPipeError:  # it ended (or shut its input) before our request reached it
        return ProbeResult(error="probe failed: the server exited or closed its input")
    except (OSError, TimeoutError, EOFError, RuntimeError) as err:
        return ProbeResult(error=f"probe failed: {err}")
    finally:
        process.kill()
        process.wait()
        reader.join(timeout=2)
        with contextlib.suppress(OSError):
            process.stdin.close()
        if not reader.is_alive():
            process.stdout.close()
    chars = sum(len(json.dumps(tool, ensure_ascii=False)) for tool in tools)
    return ProbeResult(len(tools), tokens_for_chars(chars))
