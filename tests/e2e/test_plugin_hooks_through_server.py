"""End to end with the real Claude Code CLI and the plugin (``--plugin-dir`` of this
checkout, as a user who installed it has it): the hooks of every prompt and tool call
reach the plugin's own ``rubi serve`` as ``mcp_tool`` calls, not as processes. The
recall of a note arrives with the prompt and a whole read of a huge file is denied
with its outline, both answered by the server's ``hook`` tool (Claude Code's debug
log names the hook ``plugin:rubi:rubi/hook``), and the tool is not in the model's
tool list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from e2e.fake_api import FakeMessagesAPI
from e2e.test_claude_code import claude, main_requests, tool_names, tool_results  # noqa: F401
from e2e.test_other_harnesses import project_with_a_note
from rubi import app

REPO = Path(__file__).resolve().parents[2]
SERVER_HOOK = "plugin:rubi:rubi/hook"


def plugin_session(cli: str, project: Path, home: Path, prompt: str) -> FakeMessagesAPI:
    """One ``claude -p`` session in ``project`` with this checkout as a plugin; the
    fake API with the requests it received."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE"))},
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "ANTHROPIC_API_KEY": "sk-test-dummy",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        # wait for rubi serve before the first prompt (a loaded machine starts it late;
        # without the wait Claude Code skips an mcp_tool hook of a server not connected)
        "MCP_CONNECTION_NONBLOCKING": "0",
        "MCP_TIMEOUT": "60000",
    }
    api = FakeMessagesAPI().start()
    env["ANTHROPIC_BASE_URL"] = api.url
    args = [cli, "-p", prompt, "--output-format", "json", "--debug"]
    args += ["--plugin-dir", str(REPO), "--allowedTools", "Read"]
    try:
        proc = subprocess.run(
            args, cwd=project, env=env, capture_output=True, text=True, timeout=420
        )
    finally:
        api.stop()
    assert proc.returncode == 0, proc.stderr[-2000:]
    return api


def debug_log(home: Path) -> str:
    logs = sorted((home / ".claude" / "debug").glob("*.txt"))
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in logs)


@pytest.mark.slow
def test_recall_and_a_read_denial_come_from_the_plugins_server(
    tmp_path: Path,
    claude: str,  # noqa: F811
) -> None:
    project = project_with_a_note(tmp_path / "proj")
    big = "".join(f"def handler_{i}(request):\n    return {i}\n\n\n" for i in range(1500))
    (project / "src" / "big.py").write_text(big, encoding="utf-8")
    app.index(app.locate(project / ".rubi"))
    home = tmp_path / "home"
    home.mkdir()
    prompt = f"Why do login tokens expire at midnight? READ:{project / 'src' / 'big.py'}"
    api = plugin_session(claude, project, home, prompt)
    bodies = main_requests(api)
    assert bodies, "no request reached the API"
    names = tool_names(bodies[0])
    assert any(n.startswith("mcp__plugin_rubi_rubi__") for n in names), sorted(names)
    assert not any(n.endswith("__hook") for n in names), sorted(names)  # never the model's
    # the recall arrived with the prompt...
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in json.dumps(bodies[0])
    # ...and the whole read of the huge file was denied with its outline
    results = [json.dumps(r.get("content")) for b in bodies for r in tool_results(b)]
    assert results and "is large" in results[0] and "function handler_0" in results[0]
    log = debug_log(home)
    assert f"Hook UserPromptSubmit ({SERVER_HOOK}) provided additionalContext" in log
    assert f"Hook PreToolUse ({SERVER_HOOK}) returned permissionDecision: deny" in log
    assert "rubi hook UserPromptSubmit" not in log and "rubi hook PreToolUse" not in log
    # Stop went through the server too: the turn is in the session record
    sessions = list((project / ".rubi" / "sessions").glob("*.md"))
    assert sessions and "Why do login tokens expire" in sessions[0].read_text(encoding="utf-8")
    hooks_log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not hooks_log.exists(), hooks_log.read_text(encoding="utf-8")
    # SessionEnd ran as no process (its matcher is /clear's and /resume's): the server
    # did its work as Claude Code stopped it, the pointer the next SessionStart follows
    # to the session's cost line names this session and its transcript
    assert "rubi hook SessionEnd" not in log
    ended = app.locate(project / ".rubi").index_dir / "hooks" / "ended.json"
    pointer = json.loads(ended.read_text(encoding="utf-8"))
    (transcript,) = (home / ".claude" / "projects").glob(f"*/{pointer['session_id']}.jsonl")
    assert pointer["transcript_path"] == str(transcript)


def validate(cli: str, plugin: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "DISABLE_AUTOUPDATER": "1"}
    args = [cli, "plugin", "validate", "--strict", str(plugin)]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_claude_code_validates_the_plugins_hooks(
    tmp_path: Path,
    claude: str,  # noqa: F811
) -> None:
    """``claude plugin validate --strict`` accepts the plugin's manifest, server and hooks
    (its mcp_tool hooks included), and refuses the same hooks with a bad field, so the
    hooks file is what it checks."""
    plugin = tmp_path / "plugin"
    for rel in (".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json"):
        (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
        (plugin / rel).write_bytes((REPO / rel).read_bytes())
    home = tmp_path / "home"
    home.mkdir()
    accepted = validate(claude, plugin, home)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    hooks["hooks"]["Stop"][0]["hooks"][0]["server"] = 3
    (plugin / "hooks" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    refused = validate(claude, plugin, home)
    assert refused.returncode == 1 and "hooks.Stop.0.hooks.0.server" in refused.stdout
