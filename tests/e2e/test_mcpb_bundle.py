"""``rubi bundle``: the Claude Desktop extension (.mcpb) carries rubi's project
(pyproject, src, no tests, .git or venv) for the host's uv to run, its launcher runs
the bundled rubi whatever else is installed, its manifest lists every tool of the
server, and it passes the official ``mcpb`` tool's checks (npm ``@anthropic-ai/mcpb``,
pinned)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from e2e.npm_cli import npm_cli
from rubi.claude.bundle import ENTRY_POINT, bundle_files
from rubi.cli.main import cli
from rubi.mcp.front import load_handshake

from helpers import REPO, rubi_project

MCPB_VERSION = "2.1.2"


def build(tmp_path: Path) -> Path:
    out = tmp_path / "dist" / "rubi.mcpb"
    r = CliRunner().invoke(cli, ["bundle", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_the_bundle_carries_the_project_for_uv_and_nothing_else(tmp_path: Path) -> None:
    with zipfile.ZipFile(build(tmp_path)) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("manifest.json"))
        pyproject = tomllib.loads(z.read("pyproject.toml").decode())
    assert {"pyproject.toml", "README.md", "LICENSE", ENTRY_POINT} <= names
    assert {"src/rubi/__init__.py", "src/rubi/mcp/handshake.json"} <= names
    assert "vault-template/README.md" in names  # the wheel's force-include needs it
    assert any(n.startswith("src/rubi/semantic/weights/") for n in names)
    assert not [n for n in names if n.split("/")[0] in {"tests", ".git", ".venv", "bench"}]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert pyproject["project"]["name"] == "rubi-memory"
    assert manifest["manifest_version"] == "0.4"
    server = manifest["server"]
    assert server["type"] == "uv" and server["entry_point"] == ENTRY_POINT
    assert server["mcp_config"]["command"] == "uv"
    assert server["mcp_config"]["args"][-2:] == ["--project", "${user_config.project}"]
    assert manifest["user_config"]["project"]["type"] == "directory"


def test_the_manifest_lists_every_tool_the_server_lists(tmp_path: Path) -> None:
    with zipfile.ZipFile(build(tmp_path)) as z:
        manifest = json.loads(z.read("manifest.json"))
    handshake = load_handshake()
    assert handshake is not None
    listed = handshake.answer("tools/list", handshake.latest)["tools"]
    assert [(t["name"], t["description"]) for t in manifest["tools"]] == [
        (t["name"], t["description"]) for t in listed
    ]
    assert "timeline" in [t["name"] for t in manifest["tools"]]


def test_the_launcher_serves_the_bundled_rubi_for_the_chosen_project(tmp_path: Path) -> None:
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(build(tmp_path)) as z:
        z.extractall(unpacked)
    marker = unpacked / "src" / "rubi" / "__init__.py"
    marker.write_text(
        marker.read_text(encoding="utf-8") + "\nimport sys\nsys.stderr.write('bundled rubi\\n')\n",
        encoding="utf-8",
    )
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
        # -I: no PYTHONPATH, no user site; the venv's own rubi is still importable,
        # so only the launcher's path makes the bundled copy run
        [sys.executable, "-I", str(unpacked / ENTRY_POINT), "--project", str(project)],
        input=json.dumps(hello) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["id"] == 0 and first["result"]["serverInfo"]["name"] == "rubi", proc.stderr
    assert "bundled rubi" in proc.stderr


def test_an_installed_rubi_bundles_its_package_with_a_pyproject_from_its_metadata(
    tmp_path: Path,
) -> None:
    import shutil

    site = tmp_path / "site-packages" / "rubi"
    shutil.copytree(REPO / "src" / "rubi", site)
    files = bundle_files(site)
    pyproject = tomllib.loads(str(files["pyproject.toml"]))
    assert pyproject["project"]["name"] == "rubi-memory"
    assert any(d.startswith("mcp") for d in pyproject["project"]["dependencies"])
    assert not [d for d in pyproject["project"]["dependencies"] if "extra" in d]
    assert pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["src/rubi"]
    assert files["src/rubi/__init__.py"] == site / "__init__.py"
    assert not [n for n in files if n.startswith(("vault-template/", "tests/"))]


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
    # and the uv server type is a 0.4 manifest's: under 0.3 it is refused
    old = json.loads((unpacked / "manifest.json").read_text())
    old["manifest_version"] = "0.3"
    (tmp_path / "old.json").write_text(json.dumps(old))
    refused = subprocess.run(
        [mcpb, "validate", str(tmp_path / "old.json")], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode != 0
