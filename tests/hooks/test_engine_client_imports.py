"""A hook the resident engine answers: what its process imports, and the same bytes as
cold. The client decodes and encodes its JSON lines through :mod:`rubi.core.jsonline`
and checks the hook's ``cwd`` without a pattern, and the console script keeps the
dataclasses' and patterns' code only for a hook that runs cold: such a process imports
neither ``json``, ``re`` nor ``dataclasses`` (with ``enum``, ``functools`` and
``collections``, 6-7 ms of its 18 ms of CPU)."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.claude.hooks.entry import main as cold_main
from rubi.claude.hooks.payload import SESSION_ID_RE, session_id, working_dir
from rubi.engine.server import Engine

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("runtime")]

AVOIDED = {"json", "re", "dataclasses", "enum", "functools", "collections", "inspect"}

_SCRIPT = """
import io, sys
before = set(sys.modules)
from rubi.entry import _run_hook, _save_kept_code
out = io.StringIO()
status, short = _run_hook([sys.argv[1]], sys.stdin, out)
_save_kept_code()
new = sorted({m.split('.')[0] for m in set(sys.modules) - before} & AVOIDED)
sys.stdout.write(repr((status, short, new)) + "\\x00" + out.getvalue())
""".replace("AVOIDED", repr(AVOIDED))


@pytest.fixture
def engine(project: Path, runtime: Path) -> Iterator[Engine]:
    """After ``runtime`` (its socket in the folder the hook's client looks in)."""
    running = Engine(app.locate(project / ".rubi")).start()
    assert running.serving.wait(10) and running.ready.wait(30)
    yield running
    running.stop()


def _hook(event: str, raw: str, cwd: Path) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, event],
        input=raw,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=True,
    )
    head, _, output = done.stdout.partition("\x00")
    return head, output


def _cold(event: str, raw: str) -> str:
    out = io.StringIO()
    assert cold_main([event], io.StringIO(raw), out) == 0
    return out.getvalue()


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize(
    ("event", "extra"),
    [
        ("UserPromptSubmit", {"prompt": "when do login tokens expire at midnight"}),
        ("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        ("Stop", {"stop_hook_active": False}),
    ],
)
def test_an_engine_hook_imports_no_json_re_or_dataclasses(
    project: Path, event: str, extra: dict[str, object]
) -> None:
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": event, **extra}
    raw = json.dumps(payload, ensure_ascii=False)
    head, output = _hook(event, raw, project)
    assert head == repr((0, True, []))
    assert output == _cold(event, raw)
    if event == "UserPromptSubmit":
        assert "Login tokens expire" in output


def test_a_cold_hook_still_keeps_its_code(project: Path) -> None:
    """No engine: the hook runs cold, with ``dataclasses`` imported by the console
    script (``inspect`` deferred) and its own output."""
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens expire"})
    head, output = _hook("UserPromptSubmit", raw, project)
    status, short, new = ast.literal_eval(head)
    assert (status, short) == (0, True)
    assert {"json", "re", "dataclasses"} <= set(new)
    assert output == _cold("UserPromptSubmit", raw)


def test_payload_checks_without_patterns() -> None:
    """The ``cwd`` check's control characters as the pattern it replaced found them,
    and the session id pattern still there, compiled when asked for."""
    for code in [*range(0x300), 0x2028, 0xFEFF, 0x10FFFF]:
        path = "/tmp/a" + chr(code) + "b"
        bad = code < 0x20 or code == 0x7F
        assert (working_dir(path) is None) or not bad
        if bad:
            assert working_dir(path) is None
    assert working_dir("/") == "/"
    assert SESSION_ID_RE.fullmatch("abc-1_2") is not None
    assert session_id("abc-1_2") == "abc-1_2" and session_id("a/b") == ""
