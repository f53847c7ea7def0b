"""The Codex plugin and the Gemini CLI extension shipped from the repository say what
``rubi install --harness`` writes: the same hooks (in each harness's events and units)
and the same MCP server as the Claude Code plugin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rubi.claude.harness import harness_hook_groups

from helpers import REPO


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_codex_plugin_carries_the_installers_hooks_server_and_skills() -> None:
    plugin = read(REPO / ".codex-plugin" / "plugin.json")
    assert plugin["name"] == "rubi"
    assert (REPO / plugin["skills"] / "memory" / "SKILL.md").is_file()
    assert read(REPO / plugin["mcpServers"])["mcpServers"]["rubi"]["args"] == ["serve"]
    hooks = read(REPO / plugin["hooks"])["hooks"]
    assert hooks == {e: [g] for e, g in harness_hook_groups("codex", "rubi").items()}
    market = read(REPO / ".agents" / "plugins" / "marketplace.json")
    entry = market["plugins"][0]
    assert entry["name"] == "rubi" and (REPO / entry["source"]["path"] / ".codex-plugin").is_dir()


def test_the_gemini_extension_carries_the_installers_hooks_server_and_skills() -> None:
    folder = REPO / "gemini"
    manifest = read(folder / "gemini-extension.json")
    assert manifest["name"] == "rubi"
    assert manifest["mcpServers"]["rubi"] == {"command": "rubi", "args": ["serve"]}
    assert (folder / manifest["contextFileName"]).is_file()
    assert (folder / "skills").resolve() == (REPO / "skills").resolve()
    hooks = read(folder / "hooks" / "hooks.json")["hooks"]
    assert hooks == {e: [g] for e, g in harness_hook_groups("gemini", "rubi").items()}
    assert read(REPO / ".claude-plugin" / "plugin.json")["version"] == manifest["version"]
