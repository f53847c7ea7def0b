"""Who may reach ``rubi serve --http``: real HTTP requests against a real server.

Every server runs in a subprocess on a free port; requests go to 127.0.0.1 only
(the remote case binds 0.0.0.0 but is still reached through loopback).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.mcp.http_access import (
    TOKEN_ENV,
    StaticTokenVerifier,
    _same_origin,
    is_loopback,
    plan_http_access,
)
from rubi.mcp.http_token import default_token_file

from helpers import listening, rubi_project

RUBI = str(Path(sys.executable).with_name("rubi"))
TOKEN = "t0ken-for-tests-0123456789abcdef"
EVIL = "http://evil.example.com"


@pytest.fixture(autouse=True)
def _no_token_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "class SmartRouter:\n    pass\n"})
    paths = app.locate(root / ".rubi")
    app.register(paths, [{"type": "decision", "title": "Route with a trie", "body": "Prefix."}])
    app.index(paths)
    return root


# ---------------------------------------------------------------- the policy, no server


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("myhost.lan", False),
        ("localhost.evil.example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_remote_bind_needs_allow_remote() -> None:
    with pytest.raises(RubiError, match=r"--host 0\.0\.0\.0 is not a loopback.*--allow-remote"):
        plan_http_access("0.0.0.0", 8765, environ={})
    loopback = plan_http_access("127.0.0.1", 8765, environ={})
    assert not loopback.remote
    assert loopback.transport_security.enable_dns_rebinding_protection


def test_every_bind_requires_a_token_kept_in_a_private_file(tmp_path: Path) -> None:
    kept = tmp_path / "state" / "http-token"
    first = plan_http_access("127.0.0.1", 8765, environ={}, token_file=kept)
    assert first.token and len(first.token) >= 40
    assert first.token_file == kept and first.token_created
    assert kept.read_text() == f"{first.token}\n" and kept.stat().st_mode & 0o777 == 0o600
    remote = plan_http_access("0.0.0.0", 8765, allow_remote=True, environ={}, token_file=kept)
    assert remote.remote and remote.token == first.token and not remote.token_created
    chosen = plan_http_access("0.0.0.0", 8765, allow_remote=True, environ={TOKEN_ENV: TOKEN})
    assert chosen.token == TOKEN and chosen.token_file is None
    on_loopback = plan_http_access("localhost", 8765, environ={TOKEN_ENV: TOKEN})
    assert on_loopback.token == TOKEN


def test_no_token_is_for_loopback_alone(tmp_path: Path) -> None:
    kept = tmp_path / "http-token"
    bare = plan_http_access("127.0.0.1", 8765, no_token=True, environ={}, token_file=kept)
    assert bare.token is None and not kept.exists()
    with pytest.raises(RubiError, match="--no-token is for a loopback --host only"):
        plan_http_access("0.0.0.0", 8765, allow_remote=True, no_token=True, environ={})
    with pytest.raises(RubiError, match="contradict"):
        plan_http_access("127.0.0.1", 8765, no_token=True, environ={TOKEN_ENV: TOKEN})


@pytest.mark.parametrize(
    ("value", "message"),
    [("short", "5 characters long"), ("has spaces in the token", "cannot carry")],
)
def test_a_bad_token_is_one_clear_line(value: str, message: str) -> None:
    with pytest.raises(RubiError, match=message) as info:
        plan_http_access("127.0.0.1", 8765, environ={TOKEN_ENV: value})
    assert TOKEN_ENV in str(info.value) and "\n" not in str(info.value)


def test_the_cli_refuses_a_remote_bind_in_one_line(project: Path) -> None:
    r = CliRunner().invoke(cli, ["serve", "--http", "--host", "0.0.0.0", "--project", str(project)])
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "--allow-remote" in lines[0]
    r = CliRunner().invoke(cli, ["serve", "--allow-remote", "--project", str(project)])
    assert r.exit_code == 1 and "--http only" in r.output
    r = CliRunner().invoke(cli, ["serve", "--no-token", "--project", str(project)])
    assert r.exit_code == 1 and "--http only" in r.output
    remote_bare = ["--host", "0.0.0.0", "--allow-remote", "--no-token"]
    r = CliRunner().invoke(cli, ["serve", "--http", *remote_bare, "--project", str(project)])
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "loopback --host only" in r.output


def test_the_token_is_compared_whole() -> None:
    verifier = StaticTokenVerifier(TOKEN)

    def check(given: str) -> bool:
        return asyncio.run(verifier.verify_token(given)) is not None

    assert check(TOKEN)
    wrong = ("", TOKEN[:-1], TOKEN + "x", TOKEN + " ", " " + TOKEN, TOKEN.upper(), "é" * 10)
    for given in (*wrong, "\udcff"):
        assert not check(given), given


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://127.0.0.1:8765", "127.0.0.1:8765", True),
        ("https://rubi.example.com", "rubi.example.com", True),
        ("http://rubi.example.com", "rubi.example.com:80", True),
        ("http://Rubi.Example.com:8765", "rubi.example.com:8765", True),
        (EVIL, "127.0.0.1:8765", False),
        ("http://127.0.0.1:9999", "127.0.0.1:8765", False),
        ("http://127.0.0.1", "127.0.0.1:8765", False),
        ("null", "127.0.0.1:8765", False),
        ("file://", "127.0.0.1:8765", False),
        ("http://user@127.0.0.1:8765", "127.0.0.1:8765", False),
        ("http://127.0.0.1:notaport", "127.0.0.1:8765", False),
        ("http://127.0.0.1:8765", "", False),
    ],
)
def test_same_origin(origin: str, host: str, same: bool) -> None:
    assert _same_origin(origin, host) is same


# ---------------------------------------------------------------- real servers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    stderr: Path

    def post(
        self, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        """POST one JSON-RPC message to /mcp: (status, lower-cased headers, body)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(
                "POST",
                "/mcp",
                json.dumps(body),
                {
                    "Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream",
                    **(headers or {}),
                },
            )
            response = conn.getresponse()
            text = response.read().decode("utf-8")
            return response.status, {k.lower(): v for k, v in response.getheaders()}, text
        finally:
            conn.close()


@contextmanager
def serving(
    project: Path, tmp_path: Path, *args: str, token: str | None = None
) -> Iterator[Server]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
    if token is not None:
        env[TOKEN_ENV] = token
    stderr = tmp_path / f"serve-{port}.err"
    argv = [RUBI, "serve", "--http", "--port", str(port), "--project", str(project), *args]
    with listening(argv, port, env, stderr, seconds=30):
        yield Server(port, stderr)


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


def _register(title: str) -> dict[str, Any]:
    note = {"type": "gotcha", "title": title, "body": "Planted by a request."}
    return {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "register", "arguments": {"notes": [note]}},
    }


def _message(body: str) -> dict[str, Any]:
    """The JSON-RPC reply in a JSON or server-sent-events body."""
    for line in body.splitlines():
        if line.startswith("data:"):
            return dict(json.loads(line[5:]))
    return dict(json.loads(body))


def _session(server: Server, headers: dict[str, str]) -> dict[str, str]:
    """Initialize a session; the headers later requests of it carry."""
    status, reply_headers, body = server.post(INIT, headers)
    assert status == 200, body
    assert _message(body)["result"]["serverInfo"]["name"] == "rubi"
    session = {**headers, "mcp-session-id": reply_headers["mcp-session-id"]}
    status, _, _ = server.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    assert status == 202
    return session


def _notes(project: Path) -> set[str]:
    return {p.name for p in (project / ".rubi").rglob("*.md")}


def _strip(headers: dict[str, str], *names: str) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k not in names}


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_loopback_with_a_token(project: Path, tmp_path: Path) -> None:
    with serving(project, tmp_path, token=TOKEN) as server:
        good = {"Authorization": f"Bearer {TOKEN}"}
        session = _session(server, good)
        before = _notes(project)

        refused = {
            "no token": (_strip(session, "Authorization"), 401),
            "wrong token": ({**session, "Authorization": f"Bearer {TOKEN[:-1]}x"}, 401),
            "not bearer": ({**session, "Authorization": f"Basic {TOKEN}"}, 401),
            "foreign Origin": ({**session, "Origin": EVIL}, 403),
            "foreign Host": ({**session, "Host": f"evil.example.com:{server.port}"}, 421),
        }
        for why, (headers, expected) in refused.items():
            status, reply_headers, body = server.post(_register(f"planted {why}"), headers)
            assert status == expected, (why, status, body)
            if expected == 401:
                assert reply_headers["www-authenticate"].startswith("Bearer ")
        assert _notes(project) == before  # nothing was written by a refused request

        status, _, body = server.post(_register("Allowed note"), session)
        assert status == 200 and _message(body)["result"]["isError"] is False, body
        assert _notes(project) - before == {"gotcha-allowed-note.md"}
        search = {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "trie"}},
        }
        status, _, body = server.post(search, session)
        assert status == 200 and "decision-route-with-a-trie" in body
    assert TOKEN not in server.stderr.read_text()  # a chosen token is never printed


def _search(query: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 4,
        "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": query}},
    }


def _sdk_search(port: int, headers: dict[str, str]) -> str:
    """The text of a ``search`` tool call made by the MCP library's own HTTP client."""

    async def call() -> str:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        from mcp import Client

        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            result = await client.call_tool("search", {"query": "trie"})
            return str(result.content[0].text)

    return asyncio.run(asyncio.wait_for(call(), timeout=30))


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_loopback_requires_the_kept_token_by_default(project: Path, tmp_path: Path) -> None:
    with serving(project, tmp_path) as server:
        kept = default_token_file()
        token = kept.read_text().strip()
        assert kept.stat().st_mode & 0o777 == 0o600
        before = _notes(project)
        for headers in (
            {},
            {"Authorization": "Bearer "},
            {"Authorization": f"Bearer {token[:-1]}"},
            {"Authorization": f"Bearer {token}x"},
            {"Authorization": f"Bearer {token.swapcase()}"},
            {"Authorization": f"Bearer  {token}"},
            {"Authorization": f"Basic {token}"},
        ):
            status, reply_headers, body = server.post(INIT, headers)
            assert status == 401, (headers, status, body)
            assert reply_headers["www-authenticate"].startswith("Bearer ")
            status, _, _ = server.post(_register("planted"), headers)
            assert status == 401
        assert _notes(project) == before
        # the scheme name is case-insensitive (RFC 9110 section 11.1); the token is not
        _session(server, {"Authorization": f"bearer {token}"})
        assert "decision-route-with-a-trie" in _sdk_search(
            server.port, {"Authorization": f"Bearer {token}"}
        )
    announced = server.stderr.read_text()
    assert token not in announced  # shown on demand (--show-token), never logged
    assert str(kept) in announced and "rubi serve --show-token" in announced
    shown = CliRunner().invoke(cli, ["serve", "--show-token"])
    assert shown.exit_code == 0 and shown.output == f"{token}\n"


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_loopback_with_no_token_warns_and_keeps_the_host_and_origin_checks(
    project: Path, tmp_path: Path
) -> None:
    with serving(project, tmp_path, "--no-token") as server:
        session = _session(server, {})
        status, _, body = server.post(_register("planted"), {**session, "Origin": EVIL})
        assert status == 403, body
        status, _, body = server.post(
            _register("planted"), {**session, "Host": f"evil.example.com:{server.port}"}
        )
        assert status == 421, body
        local = {**session, "Origin": f"http://localhost:{server.port}"}
        status, _, body = server.post(_register("Local page"), local)
        assert status == 200 and _message(body)["result"]["isError"] is False, body
        assert "decision-route-with-a-trie" in _sdk_search(server.port, {})
    assert "gotcha-planted.md" not in _notes(project)
    said = [line for line in server.stderr.read_text().splitlines() if line.startswith("rubi:")]
    assert len(said) == 1 and "warning: --no-token: every user" in said[0]
    assert not default_token_file().exists()


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_remote_bind_needs_the_kept_token_and_keeps_the_origin_check(
    project: Path, tmp_path: Path
) -> None:
    with serving(project, tmp_path, "--host", "0.0.0.0", "--allow-remote") as server:
        token = default_token_file().read_text().strip()
        assert len(token) >= 40
        deadline = time.monotonic() + 10
        while "plain HTTP" not in server.stderr.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        announced = server.stderr.read_text()
        assert "plain HTTP" in announced and token not in announced  # the warning

        before = _notes(project)
        for headers, expected in [
            ({}, 401),
            ({"Authorization": "Bearer " + "x" * len(token)}, 401),
            ({"Authorization": f"Bearer {token}", "Origin": EVIL}, 403),
            ({"Origin": EVIL}, 403),
            (
                {
                    "Authorization": f"Bearer {token}",
                    "Origin": f"http://localhost:{server.port}",  # not the Host it was sent to
                },
                403,
            ),
        ]:
            status, _, body = server.post(INIT, headers)
            assert status == expected, (headers, status, body)
            status, _, body = server.post(_register("planted"), headers)
            assert status == expected, (headers, status, body)
        assert _notes(project) == before

        good = {"Authorization": f"Bearer {token}"}
        session = _session(server, good)
        status, _, body = server.post(_register("From afar"), session)
        assert status == 200 and _message(body)["result"]["isError"] is False, body
        own = {**session, "Origin": f"http://127.0.0.1:{server.port}"}
        status, _, body = server.post(_register("From its own page"), own)
        assert status == 200, body
        # the Host check is off for a remote bind (its names are not known in advance)
        by_name = _session(server, {**good, "Host": f"rubi.example.com:{server.port}"})
        assert by_name["mcp-session-id"]
    assert _notes(project) - before == {"gotcha-from-afar.md", "gotcha-from-its-own-page.md"}


# ------------------------------------------------------- another user of this machine

NOBODY = 65534
OTHER_USER = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]

OTHER_USER_CLIENT = r"""
import http.client, json, sys

port, token_file = int(sys.argv[1]), sys.argv[2]
seen = {}
try:
    with open(token_file) as fh:
        seen["token_file"] = fh.read()
except OSError as exc:
    seen["token_file"] = type(exc).__name__

def post(body, headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("POST", "/mcp", json.dumps(body), {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        **headers,
    })
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status

init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "other-user", "version": "1"}}}
note = {"type": "gotcha", "title": "Planted by another user", "body": "x"}
register = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "register", "arguments": {"notes": [note]}}}
search = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
          "params": {"name": "search", "arguments": {"query": "trie"}}}
seen["initialize"] = post(init, {})
seen["register"] = post(register, {})
seen["search"] = post(search, {"Authorization": "Bearer " + "A" * 43})
print(json.dumps(seen))
"""


def _can_switch_user() -> str | None:
    """Why a process of another uid cannot be started here, or None when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "switching to another uid needs root"
    if shutil.which("setpriv") is None:
        return "setpriv (util-linux) is not installed"
    probe = subprocess.run(
        [*OTHER_USER, sys.executable, "-I", "-c", "pass"],
        capture_output=True,
        cwd="/",
        timeout=30,
        check=False,
    )
    if probe.returncode != 0:
        return f"uid {NOBODY} cannot run {sys.executable}: {probe.stderr.decode()[-200:]}"
    return None


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_another_local_user_cannot_use_the_server_or_read_its_token(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    why = _can_switch_user()
    if why is not None:
        pytest.skip(why)
    # A state folder other users may walk into (as ~/.local/state often is, and as an
    # existing rubi folder made by an older rubi may be): only the file's own mode
    # keeps the token private.
    state = Path(tempfile.mkdtemp(prefix="rubi-state-"))
    try:
        (state / "rubi").mkdir()
        for folder in (state, state / "rubi"):
            folder.chmod(0o755)
        monkeypatch.setenv("XDG_STATE_HOME", str(state))
        with serving(project, tmp_path) as server:
            kept = default_token_file()
            assert kept.parent == state / "rubi" and kept.stat().st_mode & 0o777 == 0o600
            client = [*OTHER_USER, sys.executable, "-I", "-c", OTHER_USER_CLIENT]
            other = subprocess.run(
                [*client, str(server.port), str(kept)],
                capture_output=True,
                text=True,
                cwd="/",
                timeout=60,
                check=False,
            )
            assert other.returncode == 0, other.stderr
            seen = json.loads(other.stdout)
            assert seen == {
                "token_file": "PermissionError",
                "initialize": 401,
                "register": 401,
                "search": 401,
            }
            assert "gotcha-planted-by-another-user.md" not in _notes(project)
            owner = {"Authorization": f"Bearer {kept.read_text().strip()}"}
            session = _session(server, owner)
            status, _, body = server.post(_search("trie"), session)
            assert status == 200 and "decision-route-with-a-trie" in body, body
    finally:
        shutil.rmtree(state, ignore_errors=True)
