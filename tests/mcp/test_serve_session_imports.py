"""A short session's ``rubi serve`` (the plugin's: the handshake, a prompt's recall, a
whole-file Read the guard denies with the file's outline, Stop) never imports
``typing``: 13 M instructions (3 ms of CPU) that no answer of such a session needs,
which the server used to pay at its start (``rubi.cli.servebare`` and the MCP front's
modules named ``Any`` at run time) and the first Read denial (the code map's
dataclasses). Nor does that denial read the code map itself once its outlines are
kept (:func:`rubi.sync.keptsymbols.outlines_file`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcp_project import small_project
from mcp_stdio import CLIENT, HANDSHAKE_ERA
from rubi import app

_SERVE = """
import atexit, json, sys
out = sys.argv[1]

def loaded():
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(sorted(sys.modules), fh)

atexit.register(loaded)
sys.argv = ["rubi", "serve"]
from rubi.entry import main
main()
"""


def _hook(rid: int, event: str, project: Path, session: str, **fields: object) -> dict[str, object]:
    arguments = {"event": event, "session_id": session, "cwd": str(project), **fields}
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": "hook", "arguments": arguments},
    }


def _session(project: Path, session: str, out: Path) -> dict[int, dict[str, object]]:
    big = project / "pkg" / "big.py"
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": HANDSHAKE_ERA, "capabilities": {}, "clientInfo": CLIENT},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        _hook(2, "UserPromptSubmit", project, session, prompt="how are routes matched"),
        _hook(
            3,
            "PreToolUse",
            project,
            session,
            tool_name="Read",
            tool_input=json.dumps({"file_path": str(big)}),
        ),
        _hook(
            4, "Stop", project, session, stop_hook_active="false", last_assistant_message="Done."
        ),
    ]
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, str(out)],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}


def test_a_short_session_s_server_imports_no_typing(tmp_path: Path) -> None:
    project = small_project(tmp_path / "proj")
    body = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(300))
    (project / "pkg" / "big.py").write_text(body, encoding="utf-8")
    app.index(app.locate(project / ".rubi"))
    for session in ("first", "second"):  # the map read, then its kept outlines
        out = tmp_path / f"{session}.json"
        replies = _session(project, session, out)  # a session of its own: a denial each
        assert {0, 1, 2, 3, 4} <= set(replies)
        denial = json.dumps(replies[3])
        assert "permissionDecision" in denial and "function step_0: lines 1-4" in denial
        modules = set(json.loads(out.read_text(encoding="utf-8")))
        assert "rubi.claude.hooks.recall" in modules  # the session was answered here
        assert "typing" not in modules, session
    assert "rubi.codemap.model" not in modules  # the second denial kept to the outlines
