"""End to end with the real Claude Code CLI against the scripted fake Messages API:
hooks fire, the recall reaches the model, and an MCP tool call reaches ``rubi serve``.

The CLI (npm ``@anthropic-ai/claude-code``, pinned to :data:`CLAUDE_CODE_VERSION`,
the version the integration reference was verified with) is installed with npm into
the user's cache (``rubi-tests/claude-code``, outside the repository; read at import,
before the fixtures isolate HOME) on first run; ``RUBI_CLAUDE_BIN`` points to another one. The
test is skipped only where npm itself is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from platformdirs import user_cache_path

from e2e.fake_api import FakeMessagesAPI
from rubi import app
from rubi.claude.install import install

from helpers import rubi_project

CLAUDE_CODE_VERSION = "2.1.197"
CACHE = user_cache_path("rubi-tests", appauthor=False) / "claude-code"


def claude_bin() -> str | None:
    """The Claude Code CLI, installed on first use; None without npm."""
    env = os.environ.get("RUBI_CLAUDE_BIN")
    if env:
        return env
    local = CACHE / "node_modules" / ".bin" / "claude"
    if not local.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(CACHE),
                "--no-audit",
                "--no-fund",
                "--silent",
                f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}",
            ],
            check=True,
            timeout=600,
            capture_output=True,
        )
    return str(local)


@pytest.mark.slow
def test_a_real_claude_code_session(tmp_path: Path) -> None:
    claude = claude_bin()
    if claude is None:
        pytest.skip("Claude Code CLI not installed (.ci/run installs it)")
    project = rubi_project(tmp_path / "proj", {"src/auth.py": "def login():\n    pass\n"})
    app.register(
        app.locate(project / ".rubi"),
        [
            {
                "type": "gotcha",
                "title": "Login tokens expire at midnight UTC",
                "body": "Refresh the login token before midnight UTC.",
                "files": ["src/auth.py"],
            }
        ],
    )
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE"))},
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "ANTHROPIC_API_KEY": "sk-test-dummy",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        # Claude Code connects MCP servers in the background and may send the first
        # request before rubi serve is up; a falsy value makes it wait for them.
        "MCP_CONNECTION_NONBLOCKING": "0",
    }
    old_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        install(project, compact_window=None)
    finally:
        if old_home is not None:
            os.environ["HOME"] = old_home
    api = FakeMessagesAPI().start()
    try:
        env["ANTHROPIC_BASE_URL"] = api.url
        prompt = (
            "Why do login tokens expire at midnight? TOOL:mcp__rubi__search "
            "QUERY:login token expiry midnight"
        )
        proc = subprocess.run(
            [
                claude,
                "-p",
                prompt,
                "--output-format",
                "json",
                "--allowedTools",
                "mcp__rubi__search",
            ],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        api.stop()
    assert proc.returncode == 0, proc.stderr[-2000:]
    bodies = [json.dumps(b) for b in api.requests]
    everything = "\n".join(bodies)
    # SessionStart injected the map; UserPromptSubmit recalled the note.
    assert "Project memory (rubi" in everything
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in everything
    # The MCP tool call reached rubi serve and its answer went back to the model.
    results = [b for b in bodies if "tool_result" in b]
    assert results and "Login tokens expire at midnight UTC" in results[-1]
    # Stop captured the turn into the session record.
    sessions = list((project / ".rubi" / "sessions").glob("*.md"))
    assert sessions and "Why do login tokens expire" in sessions[0].read_text(encoding="utf-8")
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")
