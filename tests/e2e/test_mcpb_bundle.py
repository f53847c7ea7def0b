"""``rubi bundle``: the Claude Desktop extension (.mcpb) passes the official ``mcpb``
tool's checks (npm ``@anthropic-ai/mcpb``, pinned), and its launcher starts this rubi's
MCP server for the chosen project (an ``initialize`` answered over stdio)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from e2e.npm_cli import npm_cli
from rubi.claude.bundle import LAUNCHER
from rubi.cli.main import cli

from helpers import rubi_project

MCPB_VERSION = "2.1.2"
RUBI = str(Path(sys.executable).with_name("rubi"))


def build(tmp_path: Path) -> Path:
    out = tmp_path / "dist" / "rubi.mcpb"
    r = CliRunner().invoke(cli, ["bundle", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_the_bundle_launches_this_rubi_for_the_chosen_project(tmp_path: Path) -> None:
    bundle = build(tmp_path)
    with zipfile.ZipFile(bundle) as z:
        assert sorted(z.namelist()) == ["manifest.json", LAUNCHER]
        manifest = json.loads(z.read("manifest.json"))
        assert (z.getinfo(LAUNCHER).external_attr >> 16) & 0o111  # executable
        z.extractall(tmp_path / "unpacked")
    assert manifest["server"]["mcp_config"]["args"] == ["${user_config.project}"]
    assert manifest["user_config"]["project"]["type"] == "directory"
    win = manifest["server"]["mcp_config"]["platform_overrides"]["win32"]
    assert win["args"][:2] == ["serve", "--project"]
    if shutil.which("sh") is None:
        pytest.skip("no POSIX shell to run the launcher")
    project = rubi_project(tmp_path / "proj", {"a.py": "x = 1\n"})
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    proc = subprocess.run(
        ["sh", str(tmp_path / "unpacked" / LAUNCHER), str(project)],
        input=json.dumps(hello) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["id"] == 0 and first["result"]["serverInfo"]["name"] == "rubi", proc.stderr


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_official_mcpb_tool_accepts_the_bundle(tmp_path: Path) -> None:
    mcpb = npm_cli("mcpb", "@anthropic-ai/mcpb", MCPB_VERSION, "mcpb")
    bundle = build(tmp_path)
    info = subprocess.run([mcpb, "info", str(bundle)], capture_output=True, text=True, timeout=120)
    assert info.returncode == 0, info.stderr
    unpacked = tmp_path / "unpacked"
    unpack = subprocess.run(
        [mcpb, "unpack", str(bundle), str(unpacked)], capture_output=True, text=True, timeout=120
    )
    assert unpack.returncode == 0, unpack.stderr
    ok = subprocess.run(
        [mcpb, "validate", str(unpacked / "manifest.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0 and "passes" in ok.stdout, ok.stdout + ok.stderr
    # the check is real: a manifest without its server is refused
    broken = json.loads((unpacked / "manifest.json").read_text())
    del broken["server"]
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    bad = subprocess.run(
        [mcpb, "validate", str(tmp_path / "broken.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0
