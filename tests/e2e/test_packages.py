"""The packages shipped from the repository, installed from a local copy of it with
each harness's real CLI (HOME in tmp_path, offline): the Claude Code plugin (its
skills, agent, hooks and MCP server), the Codex plugin (marketplace, skills, MCP
server, hooks) and the Gemini CLI extension (context file, skills, MCP server, hooks).
A Codex session then shows the plugin's hooks and server at work against the scripted
fake of its API.

The CLIs (pinned) come from npm into the user's cache (``e2e/npm_cli.py``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from e2e.fake_agent_apis import FakeResponsesAPI
from e2e.fake_api import FakeMessagesAPI
from e2e.npm_cli import cli_env, npm_cli
from e2e.test_claude_code import (
    CLAUDE_CODE_VERSION,
    main_requests,
    request_tokens,
    run_claude,
    tool_names,
)
from e2e.test_other_harnesses import (
    CODEX_CLI_VERSION,
    GEMINI_CLI_VERSION,
    NOTE,
    PROMPT,
    gemini_requests,
    point_codex_at,
    project_with_a_note,
)
from rubi import app

from helpers import REPO, rubi_project

SKILLS = ["handoff", "memory", "organize", "register", "xray"]
PACKAGE = (".claude-plugin", ".codex-plugin", ".agents", ".mcp.json", "skills", "hooks",
           "agents", "gemini", "LICENSE", "README.md")  # fmt: skip
"""What the packages are made of (a copy of these stands for the repository)."""


def checkout(tmp_path: Path) -> Path:
    """A copy of the repository's package files (symlinks kept as links)."""
    root = tmp_path / "rubi-checkout"
    root.mkdir(parents=True)
    for name in PACKAGE:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, symlinks=True)
        else:
            shutil.copy2(src, root / name)
    return root


def run(args: list[str], home: Path, cwd: Path, **env: str) -> str:
    proc = subprocess.run(
        args,
        cwd=cwd,
        env=cli_env(home, **env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc.stdout + proc.stderr


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_claude_code_validates_and_installs_the_plugin_with_its_skills(tmp_path: Path) -> None:
    claude = npm_cli("claude-code", "@anthropic-ai/claude-code", CLAUDE_CODE_VERSION, "claude")
    repo, home = checkout(tmp_path), tmp_path / "home"
    home.mkdir()
    env = {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    out = run([claude, "plugin", "validate", str(repo / ".claude-plugin" / "plugin.json")],
              home, repo, **env)  # fmt: skip
    assert "Validation passed" in out and "skills/" not in out  # no skill has a warning
    run([claude, "plugin", "validate", "--strict", str(repo)], home, repo, **env)
    run([claude, "plugin", "marketplace", "add", str(repo)], home, repo, **env)
    run([claude, "plugin", "install", "rubi@rubi"], home, repo, **env)
    details = run([claude, "plugin", "details", "rubi@rubi"], home, repo, **env)
    assert f"Skills ({len(SKILLS)})  {', '.join(SKILLS)}" in details, details
    assert "MCP servers (1)  rubi" in details and "Agents (1)  researcher" in details
    assert "Commands" not in details  # skills replaced them


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_codex_installs_the_plugin_from_the_repository_marketplace(tmp_path: Path) -> None:
    codex = npm_cli("codex", "@openai/codex", CODEX_CLI_VERSION, "codex")
    repo, home = checkout(tmp_path), tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    env = {"CODEX_HOME": str(home / ".codex")}
    run([codex, "plugin", "marketplace", "add", str(repo)], home, tmp_path, **env)
    run([codex, "plugin", "add", "rubi@rubi"], home, tmp_path, **env)
    listed = run([codex, "plugin", "list"], home, tmp_path, **env)
    assert "rubi@rubi" in listed and "installed, enabled" in listed, listed
    servers = run([codex, "mcp", "list"], home, tmp_path, **env)
    row = next(line.split() for line in servers.splitlines() if line.startswith("rubi "))
    assert row[1:3] == ["rubi", "serve"], servers
    installed = next((home / ".codex" / "plugins" / "cache" / "rubi" / "rubi").iterdir())
    assert sorted(p.name for p in (installed / "skills").iterdir()) == SKILLS


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_gemini_installs_the_extension_with_server_context_skills_and_hooks(
    tmp_path: Path,
) -> None:
    gemini = npm_cli("gemini-cli", "@google/gemini-cli", GEMINI_CLI_VERSION, "gemini")
    repo, home = checkout(tmp_path), tmp_path / "home"
    home.mkdir()
    env = {"GEMINI_CLI_TRUST_WORKSPACE": "true"}
    extension = repo / "gemini"
    out = run([gemini, "extensions", "validate", str(extension)], home, tmp_path, **env)
    assert "successfully validated" in out, out
    run([gemini, "extensions", "install", str(extension), "--consent"], home, tmp_path, **env)
    listed = run([gemini, "extensions", "list"], home, tmp_path, **env)
    assert "✓ rubi" in listed, listed
    servers = listed.split("MCP servers:")[1].split("Agent skills:")
    assert servers[0].split() == ["rubi"], listed
    assert sorted(line.split(":")[0].strip() for line in servers[1].strip().splitlines()) == SKILLS
    assert "GEMINI.md" in listed.split("Context files:")[1].split("MCP servers:")[0]
    installed = home / ".gemini" / "extensions" / "rubi"
    hooks = json.loads((installed / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    assert set(hooks["hooks"]) == {"SessionStart", "BeforeAgent"}


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_codex_session_with_the_plugin_gets_the_map_the_recall_and_the_tools(
    tmp_path: Path,
) -> None:
    codex = npm_cli("codex", "@openai/codex", CODEX_CLI_VERSION, "codex")
    repo, home = checkout(tmp_path), tmp_path / "home"
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    project = project_with_a_note(tmp_path / "proj")
    api = FakeResponsesAPI().start()
    try:
        point_codex_at(codex_home, api.url)
        env = {"CODEX_HOME": str(codex_home)}
        run([codex, "plugin", "marketplace", "add", str(repo)], home, tmp_path, **env)
        run([codex, "plugin", "add", "rubi@rubi"], home, tmp_path, **env)
        proc = subprocess.run(
            [
                codex,
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "--dangerously-bypass-hook-trust",
                PROMPT.format(tool="search"),
            ],
            cwd=project,
            env=cli_env(home, FAKE_API_KEY="dummy", **env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        api.stop()
    assert proc.returncode == 0, proc.stderr[-3000:]
    bodies = [json.dumps(b) for b in api.requests if b.get("input")]
    assert bodies, api.paths
    # the plugin's own SessionStart hook, once: Claude Code's hooks/hooks.json is not run
    assert bodies[0].count("Project memory (rubi, .rubi/map.md)") == 1
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in bodies[0]  # its recall
    assert "Search rubi's project memory before exploring code" in bodies[0]  # its skills
    answered = [b for b in bodies if "function_call_output" in b]
    assert answered and NOTE in answered[-1]  # the plugin's server answered
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_gemini_session_with_the_extension_gets_the_map_the_recall_and_the_tools(
    tmp_path: Path,
) -> None:
    gemini = npm_cli("gemini-cli", "@google/gemini-cli", GEMINI_CLI_VERSION, "gemini")
    repo, home = checkout(tmp_path), tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}), encoding="utf-8"
    )
    project = project_with_a_note(tmp_path / "proj")
    trust = {"GEMINI_CLI_TRUST_WORKSPACE": "true"}
    run([gemini, "extensions", "install", str(repo / "gemini"), "--consent"], home, tmp_path,
        **trust)  # fmt: skip
    main = gemini_requests(gemini, project, home)
    first = main[0]
    assert "mcp_rubi_search" in first  # the extension's server
    assert first.count("Project memory (rubi, .rubi/map.md)") == 1  # its SessionStart hook
    assert "Search it before exploring" in first  # its context file
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in first  # its recall
    assert "Search rubi's project memory before exploring code" in first  # its skills
    answered = [b for b in main if "functionResponse" in b]
    assert answered and NOTE in answered[-1]
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


def first_request_with_plugin(tmp_path: Path, name: str, skills: bool) -> dict[str, Any]:
    """The first main request of ``claude -p`` with the plugin installed from a copy of
    the repository (without its skills when ``skills`` is false)."""
    claude = npm_cli("claude-code", "@anthropic-ai/claude-code", CLAUDE_CODE_VERSION, "claude")
    repo = checkout(tmp_path / name)
    if not skills:
        shutil.rmtree(repo / "skills")
    home = tmp_path / name / "home"
    home.mkdir()
    env = {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run([claude, "plugin", "marketplace", "add", str(repo)], home, repo, **env)
    run([claude, "plugin", "install", "rubi@rubi"], home, repo, **env)
    project = rubi_project(tmp_path / name / "proj", {"src/auth.py": "def login():\n    pass\n"})
    api = FakeMessagesAPI().start()
    try:
        run_claude(claude, project, home, api, ["hello"])
    finally:
        api.stop()
    return main_requests(api)[0]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_plugin_skills_reach_claude_code_and_what_they_cost(tmp_path: Path) -> None:
    """Prints the tokens the skills add to the first request (run with ``-s``)."""
    body = first_request_with_plugin(tmp_path, "with", skills=True)
    text = json.dumps(body)
    for name in SKILLS:
        assert f"rubi:{name}" in text, name
    assert "Search rubi's project memory before exploring code" in text
    assert any(n.startswith("mcp__plugin_rubi_rubi__") for n in tool_names(body))
    without = first_request_with_plugin(tmp_path, "without", skills=False)
    assert "rubi:memory" not in json.dumps(without)
    cost = request_tokens(body)["total"] - request_tokens(without)["total"]
    print(f"\nthe plugin's {len(SKILLS)} skills add {cost} tokens to the first request")
    assert 0 < cost <= 60 * len(SKILLS)
