"""The hooks Claude Code runs around every tool call and turn, run cold in a process of their own
(no engine): the answer the handlers give in process, and none of the modules they have
no use for (each a few ms of a process that lives for tens): the ``filelock`` package
(the session state's lock is one ``flock``), ``logging`` (only when something is
logged), ``typing``, ``tomllib`` (only when a ``config.toml`` exists), ``hashlib``
(OpenSSL), ``socket``, ``urllib.parse`` and ``ipaddress`` (``pathlib``'s import), nor anything
of the search stack."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import base, hook
from rubi.claude.hooks.context import open_context

_COLD = """
import io, json, sys
before = set(sys.modules)
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook([sys.argv[1]], sys.stdin, out)
loaded = sorted({m.split(".")[0] for m in set(sys.modules) - before})
print(json.dumps([out.getvalue(), loaded]))
"""
UNNEEDED = {
    "filelock",
    "logging",
    "typing",
    "tomllib",
    "hashlib",
    "_hashlib",
    "socket",
    "whoosh",
    "networkx",
    "numpy",
    "click",
    "rich",
    "urllib",  # pathlib's import brings it in: rubi.core.pathlibimport leaves it out,
    "ipaddress",  # and the patterns' code cache names its file without pathlib
}


def _cold(project: Path, event: str, payload: dict[str, Any]) -> tuple[str, set[str]]:
    run = subprocess.run(
        [sys.executable, "-c", _COLD, event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "RUBI_ENGINE": "0"},
        cwd=project,
    )
    output, loaded = json.loads(run.stdout)
    return output, set(loaded)


def _payloads(project: Path, big: Path) -> dict[str, dict[str, Any]]:
    read = {"tool_name": "Read", "tool_input": {"file_path": str(big)}}
    return {
        "PreToolUse": base(project, "PreToolUse", **read),
        "PostToolUse": base(project, "PostToolUse", **read, tool_response={}),
    }


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_a_cold_tool_hook_answers_as_in_process_without_modules_it_does_not_need(
    project: Path, tmp_path: Path, event: str
) -> None:
    small = project / "README.md"
    small.write_text("# readme\n", encoding="utf-8")
    payload = _payloads(project, small)[event]
    output, loaded = _cold(project, event, payload)
    assert loaded & UNNEEDED == set()
    assert output == ""  # a small file: the read goes ahead
    # the read is counted once, under the session's lock, by the hook before it
    counted = 1 if event == "PreToolUse" else 0
    assert open_context(payload, event).load_state().explorations == counted


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_a_cold_stop_or_session_end_loads_no_lock_package_logging_or_openssl(
    project: Path, event: str
) -> None:
    payload = base(
        project, event, stop_hook_active=False, last_assistant_message="Done.", reason="other"
    )
    output, loaded = _cold(project, event, payload)
    assert loaded & UNNEEDED == set()
    assert output == ""
    if event == "Stop":  # the answer was captured, under the session's lock
        assert open_context(payload, event).load_state().captured


@pytest.mark.parametrize("event", ["PreToolUse", "PreCompact"])
def test_a_cold_hook_that_reads_the_transcript_loads_no_typing_or_search_stack(
    project: Path, event: str
) -> None:
    transcript = project / "t.jsonl"
    usage = {"input_tokens": 1200, "cache_read_input_tokens": 30_000, "output_tokens": 80}
    lines = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "read it"}},
        {
            "type": "assistant",
            "uuid": "a1",
            "message": {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "usage": usage,
                "content": [{"type": "text", "text": "Done."}],
            },
        },
    ]
    transcript.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    (project / "README.md").write_text("# readme\n", encoding="utf-8")
    read = {"tool_name": "Read", "tool_input": {"file_path": str(project / "README.md")}}
    payload = base(project, event, trigger="auto", **(read if event == "PreToolUse" else {}))
    output, loaded = _cold(project, event, payload)
    assert loaded & UNNEEDED == set()
    assert "math" not in loaded  # the facade's recall rounds up without it
    assert output == ""


def test_a_cold_guard_denies_a_huge_read_once(project: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    payload = _payloads(project, big)["PreToolUse"]
    output, _ = _cold(project, "PreToolUse", payload)
    assert json.loads(output)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert hook("PreToolUse", payload) is None  # asked again: the kept denial lets it pass


def test_a_config_file_is_still_read_by_a_cold_hook(project: Path, tmp_path: Path) -> None:
    (project / ".rubi" / "config.toml").write_text(
        "[hooks]\nguard_max_lines = 100000\nguard_max_bytes = 100000000\n", encoding="utf-8"
    )
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    output, loaded = _cold(project, "PreToolUse", _payloads(project, big)["PreToolUse"])
    assert output == ""  # the file's limits let the read through
    assert "tomllib" in loaded
