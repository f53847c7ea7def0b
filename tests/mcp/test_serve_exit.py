"""A ``rubi serve`` whose client closes stdin after its session: every answer out,
exit status 0, the ``atexit`` functions run and the engine's socket removed, but no
interpreter teardown (freeing the search stack the session's hooks loaded, object by
object, cost 50-70 ms of CPU after the last answer). The bare command (how the plugin,
``.mcp.json``, Codex and Gemini start it) and click's ``--project`` and ``--vault``
routes alike: the click route tore the interpreter down around the watcher's thread,
0.2-0.9 s after EOF. A note registered just before EOF is on disk whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_project import small_project
from mcp_stdio import CLIENT, HANDSHAKE_ERA
from rubi.engine.address import address_for

_SERVE = """
import atexit, sys
marks = sys.argv[1]

def mark(text):
    with open(marks, "a", encoding="utf-8") as fh:
        fh.write(text + "\\n")

class TornDown:
    def __init__(self):  # what __del__ needs, kept here: the globals may be gone by then
        self.write = open(marks, "a", encoding="utf-8").write

    def __del__(self):  # runs when the interpreter frees this module's globals
        self.write("teardown\\n")

kept = TornDown()
atexit.register(mark, "atexit")
sys.argv = ["rubi", *sys.argv[2:]]
from rubi.entry import main
main()
"""


@pytest.mark.parametrize("route", ["bare", "project", "vault"])
def test_a_served_session_ends_with_its_answers_and_atexit_but_no_teardown(
    tmp_path: Path, route: str
) -> None:
    project = small_project(tmp_path / "proj")
    args = {
        "bare": ["serve"],
        "project": ["serve", "--project", str(project)],
        "vault": ["serve", "--vault", str(project / ".rubi")],
    }[route]
    marks = tmp_path / "marks.txt"
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": HANDSHAKE_ERA, "capabilities": {}, "clientInfo": CLIENT},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "hook",
                "arguments": {
                    "event": "UserPromptSubmit",
                    "session_id": "s1",
                    "cwd": str(project),
                    "prompt": "how are routes matched",
                },
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {
                "name": "register",
                "arguments": {
                    "notes": [{"type": "gotcha", "title": "Written at EOF", "body": "kept"}]
                },
            },
        },
    ]
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, str(marks), *args],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    replies = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert {0, 1, 2} <= set(replies) and "result" in replies[2]
    written = project / ".rubi" / "notes" / "gotcha-written-at-eof.md"
    assert "# Written at EOF" in written.read_text(encoding="utf-8")
    assert marks.read_text(encoding="utf-8").split() == ["atexit"]
    address = address_for(str(project / ".rubi"))
    assert address is None or not Path(address.socket).exists()
