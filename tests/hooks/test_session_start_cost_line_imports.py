"""What SessionStart's cost line imports (the previous session's transcript read and
priced, in every session after the first): no ``inspect`` (a dataclass without a
docstring has ``dataclasses`` import it to write one, with ``ast`` and ``dis``), no
``logging`` and no ``statistics`` (with ``decimal``, ``fractions`` and ``random``) that
it never uses."""

from __future__ import annotations

import ast
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _printed(code: str) -> str:
    """What ``code`` prints in a fresh interpreter with this checkout's ``src``."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


def test_every_dataclass_of_rubi_has_a_docstring() -> None:
    missing = []
    for path in sorted((SRC / "rubi").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or ast.get_docstring(node):
                continue
            if any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                missing.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert missing == []


def test_the_cost_line_modules_import_no_inspect_logging_or_statistics() -> None:
    code = (
        "import sys\n"
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()\n"
        "import rubi.app.sessioncost, rubi.app.xray, rubi.transcripts.analyze\n"
        "print(sorted(m for m in ('inspect', 'logging', 'statistics') if m in sys.modules))\n"
    )
    assert _printed(code) == "[]"


def test_the_pointer_and_plugin_checks_import_no_json() -> None:
    """SessionStart and SessionEnd read and write the cost line's pointer, and
    SessionStart reads the plugin's ``.mcp.json``, with :mod:`rubi.core.jsonline`:
    ``json`` (its decoder's patterns) is imported by neither cold hook."""
    code = (
        "import sys\n"
        "import rubi.claude.hooks.costline, rubi.claude.hooks.pluginserver\n"
        "import rubi.claude.hooks.start, rubi.claude.hooks.end\n"
        "print('json' in sys.modules)\n"
    )
    assert _printed(code) == "False"


_LINE_OF = """
import sys
from rubi.claude.hooks.context import open_context
from rubi.claude.hooks.costline import _pointer, last_session_line
ctx = open_context(
    {{"session_id": "aaaaaaaa-2222-3333-4444-555555555555", "cwd": {cwd!r},
      "hook_event_name": "SessionStart", "source": "startup"}},
    "SessionStart",
)
pointer = _pointer(ctx)
pointer.parent.mkdir(parents=True, exist_ok=True)
pointer.write_text(
    '{{"session_id": "11111111-2222-3333-4444-555555555555", "transcript_path": '
    + {transcript!r} + '}}', encoding="utf-8"
)
line = last_session_line(ctx)
print(line, pointer.exists(), [m for m in {modules!r} if m in sys.modules])
"""


def _line_of(project: Path, transcript: Path, modules: tuple[str, ...]) -> str:
    """What :func:`last_session_line` answers in a fresh interpreter, for a pointer to
    ``transcript``: the line, whether the pointer is left, which of ``modules`` it
    imported."""
    quoted = '"' + str(transcript).replace("\\", "\\\\").replace('"', '\\"') + '"'
    return _printed(_LINE_OF.format(cwd=str(project), transcript=quoted, modules=modules))


def test_a_gone_transcript_gives_no_line_without_the_costs_imports_or_logging(
    project: Path,
) -> None:
    """The transcript is looked at before the cost's code is imported, and the INFO
    record that says why there is no line goes nowhere in a process that never
    imported ``logging`` (no handler, the root logger at WARNING): neither is loaded."""
    out = _line_of(project, project / "gone.jsonl", ("logging", "rubi.app.sessioncost"))
    assert out == "None False []"


def test_an_inactive_sessions_line_reads_no_timestamp(project: Path) -> None:
    """The line of a session rubi was not active in: ``datetime`` (imported by the
    timestamps' reader only) stays out."""
    transcript = project / "t.jsonl"
    record = {"type": "user", "message": {"role": "user", "content": "hi"}, "uuid": "u1"}
    transcript.write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = _line_of(project, transcript, ("datetime", "rubi.app.sessioncost"))
    assert out == (
        "rubi was not active in session 11111111 (0 API calls). False ['rubi.app.sessioncost']"
    )


def test_a_gone_transcript_is_logged_where_logging_is_configured(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from rubi.claude.hooks.context import open_context
    from rubi.claude.hooks.costline import _pointer, last_session_line

    ctx = open_context(
        {"session_id": "aaaaaaaa-2222-3333-4444-555555555555", "cwd": str(project)},
        "SessionStart",
    )
    pointer = _pointer(ctx)
    assert pointer is not None
    pointer.parent.mkdir(parents=True, exist_ok=True)
    gone = str(project / "gone.jsonl")
    pointer.write_text(
        json.dumps({"session_id": "11111111-2222-3333-4444-555555555555", "transcript_path": gone}),
        encoding="utf-8",
    )
    with caplog.at_level(logging.INFO, logger="rubi.claude.hooks.costline"):
        assert last_session_line(ctx) is None
    assert any("no cost line for the last session" in r.getMessage() for r in caplog.records)


def test_timestamps_are_still_read() -> None:
    from rubi.transcripts.records import parse_time

    assert parse_time("1970-01-01T00:00:10.500Z") == 10.5
    assert parse_time("not a time") is None
    assert parse_time(3) is None
