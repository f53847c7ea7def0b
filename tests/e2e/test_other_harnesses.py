"""End to end with the real Gemini CLI and Codex CLI against scripted fakes of their
APIs (``e2e/fake_agent_apis.py``), wired by ``rubi install --harness``: the map reaches
the model at session start, the recall on the prompt, and a call of rubi's MCP
``search`` tool reaches ``rubi serve`` and its answer goes back to the model.

The CLIs (pinned) are installed with npm into the user's cache on first run
(``e2e/npm_cli.py``): skipped on a developer's machine without npm or registry access,
a failure in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from e2e.fake_agent_apis import FakeGeminiAPI, FakeResponsesAPI
from e2e.npm_cli import cli_env, npm_cli
from rubi import app
from rubi.claude.harness import install_harness

from helpers import rubi_project

GEMINI_CLI_VERSION = "0.61.0"
CODEX_CLI_VERSION = "0.171.0"
PROMPT = "Why do login tokens expire at midnight? TOOL:{tool} QUERY:login token expiry midnight"
NOTE = "Login tokens expire at midnight UTC"


def project_with_a_note(root: Path) -> Path:
    project = rubi_project(root, {"src/auth.py": "def login():\n    pass\n"})
    app.register(
        app.locate(project / ".rubi"),
        [
            {
                "type": "gotcha",
                "title": NOTE,
                "body": "Refresh the login token before midnight UTC.",
                "files": ["src/auth.py"],
            }
        ],
    )
    return project


def gemini_requests(gemini: str, project: Path, home: Path) -> list[str]:
    """One ``gemini -p`` session in ``project`` for the user ``home`` against a fake of
    the Gemini API, the search tool asked for: the JSON of its main requests."""
    api = FakeGeminiAPI().start()
    try:
        env = cli_env(
            home,
            GEMINI_API_KEY="dummy",
            GOOGLE_GEMINI_BASE_URL=api.url,
            GEMINI_CLI_TRUST_WORKSPACE="true",
        )
        proc = subprocess.run(
            [gemini, "-p", PROMPT.format(tool="mcp_rubi_search"), "--output-format", "json", "-y"],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        api.stop()
    assert proc.returncode == 0, proc.stderr[-3000:]
    main = [
        json.dumps(b)
        for b, path in zip(api.requests, api.paths, strict=True)
        if "streamGenerateContent" in path
    ]
    assert main, api.paths
    return main


def point_codex_at(codex_home: Path, url: str) -> None:
    """Codex's ``config.toml`` in ``codex_home``: one model from a provider at ``url``
    (the fake Responses API)."""
    (codex_home / "config.toml").write_text(
        'model = "gpt-5.5"\nmodel_provider = "fake"\n\n'
        "[model_providers.fake]\n"
        'name = "fake"\n'
        f'base_url = "{url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "FAKE_API_KEY"\n',
        encoding="utf-8",
    )


def install_as(home: Path, project: Path, harness: str, **env: str) -> None:
    """``rubi install --harness`` for the user ``home`` (as the CLI would read it)."""
    saved = {k: os.environ.get(k) for k in ("HOME", *env)}
    os.environ.update({"HOME": str(home), **env})
    try:
        install_harness(project, harness, user=True)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_real_gemini_cli_session(tmp_path: Path) -> None:
    gemini = npm_cli("gemini-cli", "@google/gemini-cli", GEMINI_CLI_VERSION, "gemini")
    project = project_with_a_note(tmp_path / "proj")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(
        json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}), encoding="utf-8"
    )
    install_as(home, project, "gemini")
    main = gemini_requests(gemini, project, home)
    first = main[0]
    assert "mcp_rubi_search" in first  # the MCP server's tools are in the request
    assert "Project memory (rubi" in first  # SessionStart gave the map
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in first  # recall
    answered = [b for b in main if "functionResponse" in b]
    assert answered and NOTE in answered[-1]  # rubi serve answered the tool call
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_real_codex_cli_session(tmp_path: Path) -> None:
    codex = npm_cli("codex", "@openai/codex", CODEX_CLI_VERSION, "codex")
    project = project_with_a_note(tmp_path / "proj")
    home = tmp_path / "home"
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    api = FakeResponsesAPI().start()
    try:
        point_codex_at(codex_home, api.url)
        install_as(home, project, "codex", CODEX_HOME=str(codex_home))
        env = cli_env(home, CODEX_HOME=str(codex_home), FAKE_API_KEY="dummy")
        proc = subprocess.run(
            [
                codex,
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                # a hook runs once the user trusts it in the TUI; a script cannot
                "--dangerously-bypass-hook-trust",
                PROMPT.format(tool="search"),
            ],
            cwd=project,
            env=env,
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
    first = bodies[0]
    assert "Project memory (rubi" in first  # SessionStart gave the map
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in first  # recall
    assert any("mcp__rubi" in b for b in bodies[1:])  # tool_search found rubi's tools
    answered = [b for b in bodies if "function_call_output" in b]
    assert answered and NOTE in answered[-1]  # rubi serve answered the tool call
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")
