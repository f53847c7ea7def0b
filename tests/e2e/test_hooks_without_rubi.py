"""The real Claude Code CLI with rubi's hooks and no ``rubi`` on PATH (a venv that is
not activated): the plugin's hook commands stay silent, where the bare ``rubi hook X``
printed ``/bin/sh: 1: rubi: not found`` on every event.

Driven like ``test_claude_code.py`` (the scripted fake Messages API, a throwaway HOME);
the hooks are ``rubi install``'s (``hook_groups()``: the plugin's command hooks, and commands
where the plugin calls its server), written to the project's ``.claude/settings.local.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from e2e.fake_api import FakeMessagesAPI
from e2e.test_claude_code import claude_bin
from rubi.claude.install import hook_groups

from helpers import REPO, rubi_project


def _session(claude: str, project: Path, home: Path, groups: dict[str, Any]) -> str:
    """One ``claude -p`` turn with ``groups`` as the project's hooks and a PATH that
    holds node and the shell but no rubi; its stream-json output plus stderr."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    path = os.pathsep.join(dict.fromkeys([str(Path(node).parent), "/usr/bin", "/bin"]))
    if shutil.which("rubi", path=path):
        pytest.skip(f"rubi is installed system-wide ({shutil.which('rubi', path=path)})")
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": {e: [g] for e, g in groups.items()}}))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE"))},
        "HOME": str(home),
        "PATH": path,
        "ANTHROPIC_API_KEY": "sk-test-dummy",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    api = FakeMessagesAPI().start()
    try:
        env["ANTHROPIC_BASE_URL"] = api.url
        proc = subprocess.run(
            [claude, "-p", "hello", "--output-format", "stream-json", "--verbose"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        api.stop()
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout + proc.stderr


def _hook_outcomes(output: str) -> list[tuple[str, int, str]]:
    events = [json.loads(line) for line in output.splitlines() if '"hook_response"' in line]
    return [(e["hook_event"], e["exit_code"], e["outcome"]) for e in events]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_plugin_hooks_are_silent_in_claude_code_without_rubi(tmp_path: Path) -> None:
    claude = claude_bin()
    if claude is None:
        pytest.skip("Claude Code CLI not installed (.ci/run installs it)")
    project = rubi_project(tmp_path / "proj", {"src/auth.py": "def login():\n    pass\n"})
    home = tmp_path / "home"
    home.mkdir()
    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    commands = {event: [group] for event, group in hook_groups().items()}
    # the plugin's per-prompt and per-tool hooks call its server (skipped without it)
    # (SessionEnd only after /clear and /resume: the server does its work at other ends)
    assert {e: g for e, g in plugin.items() if "command" in g[0]["hooks"][0]} == {
        e: commands[e] for e in ("SessionStart", "PreCompact")
    } | {"SessionEnd": [{**commands["SessionEnd"][0], "matcher": "clear|resume"}]}

    bare = {
        event: {**group, "hooks": [{**group["hooks"][0], "command": f"rubi hook {event}"}]}
        for event, group in hook_groups().items()
    }
    before = _session(claude, project, home, bare)  # what the issue saw
    assert "rubi: not found" in before
    assert ("SessionStart", 127, "error") in _hook_outcomes(before)

    after = _session(claude, project, home, hook_groups())
    assert "not found" not in after
    outcomes = _hook_outcomes(after)
    assert outcomes and all(outcome == "success" for _, _, outcome in outcomes), outcomes
