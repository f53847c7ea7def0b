"""``rubi audit``: memory files, imports, rules, MCP servers, hooks, measured startup."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from rubi.claude.audit import audit
from rubi.claude.claudeconfig import McpServer
from rubi.claude.mcp_probe import probe_server
from rubi.transcripts.locate import project_slug
from transcripts.xray_builder import SAMPLES

from helpers import require_data

FAKE_SERVER = """
import json, sys
print("a log line on stdout", flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "fake", "version": "1"}}
    elif msg.get("method") == "tools/list":
        tools = [{"name": f"tool{i}", "description": "d" * 396,
                  "inputSchema": {"type": "object"}} for i in range(2)]
        result = {"tools": tools}
    else:
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""


def _tokens(path: Path) -> int:
    return -(-len(path.read_text(encoding="utf-8")) // 4)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, projects: Path) -> Path:
    home = projects.parent.parent
    root = tmp_path / "work"
    proj = root / "app"
    _write(root / "CLAUDE.md", "p" * 80)  # a parent folder's memory: 20 tokens
    _write(
        proj / "CLAUDE.md",
        "c" * 400 + "\nSee @docs/extra.md and `@docs/inline.md`.\n```\n@docs/fenced.md\n```\n",
    )
    _write(proj / "docs" / "extra.md", "e" * 800 + "\n@../CLAUDE.md\n")  # cycle: read once
    _write(proj / "docs" / "inline.md", "i" * 4000)
    _write(proj / "docs" / "fenced.md", "f" * 4000)
    _write(proj / ".claude" / "rules" / "always.md", "a" * 40)
    _write(proj / ".claude" / "rules" / "cond.md", "---\npaths: src/**\n---\n" + "r" * 4000)
    _write(proj / "CLAUDE.local.md", "l" * 12)
    _write(home / ".claude" / "CLAUDE.md", "u" * 2000)
    server = proj / "fake_server.py"
    _write(server, FAKE_SERVER)
    _write(
        proj / ".mcp.json",
        json.dumps(
            {
                "mcpServers": {
                    "fake": {"command": sys.executable, "args": [str(server)]},
                    "web": {"type": "http", "url": "http://localhost:1/mcp"},
                }
            }
        ),
    )
    _write(
        proj / ".claude" / "settings.json",
        json.dumps(
            {
                "hooks": {
                    "SessionStart": [
                        {"hooks": [{"type": "command", "command": "python3 start.py"}]}
                    ]
                }
            }
        ),
    )
    return proj


def test_memory_files_and_imports(project: Path) -> None:
    report = audit(project)
    by_source = {Path(i.source).name if "/" in i.source else i.source: i for i in report.items}
    kinds = [(i.kind, i.tokens) for i in report.items if i.tokens is not None]
    assert kinds[0] == ("user CLAUDE.md", 500)  # largest first
    extra = by_source["extra.md"]
    assert extra.tokens == _tokens(project / "docs" / "extra.md") == 204
    assert extra.kind == "import (from CLAUDE.md)"
    assert "inline.md" not in by_source and "fenced.md" not in by_source  # code is no import
    assert by_source["cond.md"].counted is False
    assert by_source["always.md"].tokens == 10
    assert by_source["CLAUDE.local.md"].tokens == 3
    # CLAUDE.md (4 files of that name: user, parent, project) all present.
    assert sum(1 for i in report.items if i.kind.endswith("CLAUDE.md")) == 4
    counted = 500 + 20 + _tokens(project / "CLAUDE.md") + 204 + 10 + 3
    assert report.counted_tokens == counted
    assert report.measured_startup is None and report.unattributed is None
    unmeasured = [i for i in report.items if i.tokens is None]
    assert [i.kind for i in unmeasured] == ["MCP server", "MCP server", "SessionStart hook"]
    assert report.items[-3:] == tuple(unmeasured)  # unmeasured last


def _approve(project: Path, names: list[str]) -> None:
    """Record Claude Code's approval of project servers in the user's ~/.claude.json."""
    user = Path.home() / ".claude.json"
    data = json.loads(user.read_text(encoding="utf-8")) if user.is_file() else {}
    entry = data.setdefault("projects", {}).setdefault(str(project.absolute()), {})
    entry["enabledMcpjsonServers"] = names
    user.write_text(json.dumps(data), encoding="utf-8")


def test_probe_measures_tool_descriptions(project: Path) -> None:
    _approve(project, ["fake"])
    report = audit(project, probe_mcp=True)
    fake = next(i for i in report.items if i.source.startswith("fake"))
    web = next(i for i in report.items if i.source.startswith("web"))
    assert fake.note == "2 tools"
    assert fake.tokens is not None and 200 <= fake.tokens <= 260
    assert web.tokens is None and "not probed" in web.note


def test_probe_never_starts_an_unapproved_project_server(project: Path) -> None:
    marker = project / "ran.txt"
    evil = f"open({str(marker)!r}, 'w').write('x')"
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"evil": {"command": sys.executable, "args": ["-c", evil]}}}),
        encoding="utf-8",
    )
    # Approvals a repository could ship itself do not count.
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"enableAllProjectMcpServers": True}), encoding="utf-8"
    )
    report = audit(project, probe_mcp=True)
    item = next(i for i in report.items if i.source.startswith("evil"))
    assert item.tokens is None and "not approved" in item.note
    assert not marker.exists()
    _approve(project, ["evil"])
    audit(project, probe_mcp=True)
    assert marker.exists()  # once the user approved it in Claude Code, it is probed


def test_probe_reports_a_dead_server(tmp_path: Path) -> None:
    gone = McpServer("gone", "project", "stdio", str(tmp_path / "missing"), (), {})
    assert "cannot start" in (probe_server(gone).error or "")
    quiet = McpServer("quiet", "project", "stdio", sys.executable, ("-c", "pass"), {})
    assert "exited" in (probe_server(quiet, timeout_s=5).error or "")


def test_probe_names_a_server_gone_before_its_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that is gone (or shut its input) before the request reaches it: the
    write's broken pipe says so, not "[Errno 32] Broken pipe" (a quick exit races the
    write; here the probe writes only once the server has closed its input)."""
    import subprocess

    from rubi.claude import mcp_probe

    started = subprocess.Popen

    def once_deaf(*args: object, **kwargs: object) -> subprocess.Popen[str]:
        process: subprocess.Popen[str] = started(*args, **kwargs)  # type: ignore[call-overload]
        deadline = time.monotonic() + 10
        while Path(f"/proc/{process.pid}/fd/0").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return process

    monkeypatch.setattr(mcp_probe.subprocess, "Popen", once_deaf)
    code = "import os, time; os.close(0); time.sleep(3)"
    deaf = McpServer("deaf", "project", "stdio", sys.executable, ("-c", code), {})
    assert "exited or closed its input" in (probe_server(deaf, timeout_s=5).error or "")


def test_transcripts_measure_startup_and_hooks(project: Path, projects: Path) -> None:
    sample = SAMPLES / "GENERATED-cc2.1.197-mockapi.jsonl"
    require_data(sample)
    folder = projects / project_slug(project)
    folder.mkdir()
    shutil.copyfile(sample, folder / sample.name)
    report = audit(project)
    assert report.measured_startup == 12012 - 5
    assert report.sessions == 1
    kinds = {i.kind for i in report.items}
    assert {"skill listing", "agent listing", "hook output"} <= kinds
    assert "SessionStart hook" not in kinds  # its output was seen in the transcript
    assert report.unattributed == 12007 - report.counted_tokens


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs: POSIX")
@pytest.mark.timeout(30)
def test_fifos_named_as_claude_code_settings_are_reported_not_read(tmp_path: Path) -> None:
    import os
    import subprocess

    project = tmp_path / "unpacked"
    (project / ".claude").mkdir(parents=True)
    fifos = [project / ".mcp.json", project / ".claude" / "settings.json"]
    for fifo in fifos:
        os.mkfifo(fifo)
    report = audit(project)
    unreadable = [i for i in report.items if i.kind == "unreadable file"]
    assert [i.source for i in unreadable] == [str(f) for f in fifos]
    assert all("FIFO" in i.note and "\n" not in i.note for i in unreadable)
    rubi = str(Path(sys.executable).with_name("rubi"))
    done = subprocess.run(
        [rubi, "audit", "--json"], cwd=project, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("FIFO") == 2


def test_an_import_out_of_the_project_is_listed_not_read_until_approved(
    tmp_path: Path, projects: Path
) -> None:
    home = projects.parent.parent
    proj = tmp_path / "clone"
    secret = _write(home / ".ssh" / "id_rsa", "k" * 4000)
    _write(proj / "CLAUDE.md", "c" * 40 + f"\n@{secret}\n@~/notes.md\n@docs/ok.md\n")
    _write(proj / "docs" / "ok.md", "o" * 400)
    _write(home / "notes.md", "n" * 800)
    mine = _write(home / ".claude" / "CLAUDE.md", f"u\n@{home / 'notes.md'}\n")  # the user's
    report = audit(proj)
    by_source = {i.source: i for i in report.items}
    outside = by_source[str(secret)]
    assert outside.tokens is None and outside.counted is False
    assert outside.kind == "import outside the project (from CLAUDE.md)"
    assert outside.note.startswith("outside the project: Claude Code asks")
    assert by_source[str(proj / "docs" / "ok.md")].tokens == 100
    assert by_source[str(home / "notes.md")].kind == "import (from CLAUDE.md)"  # user's import
    assert report.counted_tokens == _tokens(mine) + 200 + _tokens(proj / "CLAUDE.md") + 100

    user = home / ".claude.json"
    user.write_text(
        json.dumps({"projects": {str(proj): {"hasClaudeMdExternalIncludesApproved": True}}}),
        encoding="utf-8",
    )
    approved = {i.source: i for i in audit(proj).items}
    assert approved[str(secret)].tokens == 1000
    assert approved[str(secret)].kind == "import (from CLAUDE.md)"
