from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli

from helpers import write

SPINE_COMMANDS = [
    "init",
    "index",
    "reindex",
    "search",
    "read",
    "links",
    "backlinks",
    "status",
    "doctor",
]


def run(*args: str, cwd: Path | None = None) -> tuple[int, str]:
    runner = CliRunner()
    if cwd is None:
        result = runner.invoke(cli, list(args))
    else:
        with runner.isolated_filesystem(temp_dir=cwd):
            result = runner.invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("command", SPINE_COMMANDS)
def test_every_command_has_help(command: str) -> None:
    code, out = run(command, "--help")
    assert code == 0 and "Usage:" in out and len(out.splitlines()) > 3


def test_init_then_search_in_a_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    code, out = run("init")
    assert code == 0 and "Created" in out
    assert (project / ".rubi" / ".gitignore").read_text().count(".index/") == 1
    assert (project / ".rubi" / ".obsidian" / "graph.json").is_file()
    code, out = run("init")
    assert code == 0 and "nothing changed" in out
    write(
        project / ".rubi" / "notes" / "decision-use-whoosh.md",
        "---\ntype: decision\n---\n# Use Whoosh for BM25\n\nPure Python, no server.\n",
    )
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")  # found from a subfolder, indexed on first use
    code, out = run("search", "which full-text engine?", "-t", "bm25")
    assert code == 0, out
    assert out.startswith("1. [decision] Use Whoosh for BM25 — notes/decision-use-whoosh.md")


def test_search_json_shape(help_vault: Path) -> None:
    code, out = run("search", "embed", "--json", "--vault", str(help_vault), "--top-k", "3")
    assert code == 0, out
    data = json.loads(out)
    assert set(data) >= {"query", "hits", "tokens", "omitted"}
    assert data["query"] == "embed"
    hit = data["hits"][0]
    assert set(hit) >= {"id", "path", "title", "type", "score", "why", "snippet"}
    assert set(hit) >= {"kind", "status", "date", "passages"}  # as the README lists them
    assert hit["path"] == "Linking notes and files/Embed files.md"
    assert isinstance(hit["why"], list) and hit["why"]


def test_read_links_backlinks(help_vault: Path) -> None:
    v = str(help_vault)
    code, out = run("read", "Aliases", "--vault", v)
    assert code == 0 and out.startswith("# Linking notes and files/Aliases.md")
    assert "Linked from:" in out
    code, out = run("links", "Home", "--vault", v)
    assert code == 0 and "Getting started/Create a vault" in out
    code, out = run("backlinks", "Linking notes and files/Embed files", "--vault", v, "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "Linking notes and files/Embed files"
    assert len(data["backlinks"]) > 5 and data["other_matches"] == []
    code, out = run("read", "No such note anywhere", "--vault", v)
    assert code == 1 and "no such note" in out


def test_index_status_doctor(kepano_vault: Path) -> None:
    v = str(kepano_vault)
    code, out = run("index", "--vault", v)
    assert code == 0 and "Indexed (full)" in out
    assert "warning:" not in out  # {{date}} placeholders in templates are read as text
    code, out = run("index", "--vault", v)
    assert "0 added, 0 updated, 0 deleted" in out
    code, out = run("status", "--vault", v, "--json")
    data = json.loads(out)
    assert code == 0 and data["notes"] == 103 and data["dangling"] > 0
    code, out = run("doctor", "--vault", v)
    assert code == 1  # the template vault has unresolved links on purpose
    assert "unresolved" in out


def test_bad_arguments_exit_non_zero(help_vault: Path) -> None:
    code, _ = run("search", "x", "--top-k", "0", "--vault", str(help_vault))
    assert code == 2
    code, _ = run("search", "x", "--scope", "nope", "--vault", str(help_vault))
    assert code == 2
