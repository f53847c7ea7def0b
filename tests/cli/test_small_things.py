"""The smaller things a user hits (``rubi serve --vault``, a tiny
``--budget``, errors under ``--json``, ``rubi init`` and CLAUDE.md, handoff links,
re-registering over a broken note, renamed notes' ids)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.search.limits import MAX_QUERY_CHARS

from helpers import write

RUBI = str(Path(sys.executable).with_name("rubi"))


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "v"
    write(v / "trie.md", "# Route with a trie\n\nThe router matches paths with a radix trie.\n")
    write(v / "other.md", "# Other\n\nTrie again, and more text about routes.\n")
    return v


def test_serve_takes_a_vault(vault: Path) -> None:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "radix trie"}},
        },
    ]
    replies = []
    with subprocess.Popen(
        [RUBI, "serve", "--vault", str(vault)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                replies.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        proc.wait(timeout=30)
    assert [r.get("id") for r in replies] == [1, 2]
    assert "trie" in replies[1]["result"]["content"][0]["text"]
    code, _, err = _run("serve", "--vault", str(vault), "--project", str(vault))
    assert code == 2 and "not both" in err


def test_a_tiny_budget_shows_one_hit(vault: Path) -> None:
    code, out, _ = _run("search", "trie", "--vault", str(vault), "--budget", "50")
    assert code == 0
    assert out.startswith("1. [note] ")
    code, out, _ = _run("search", "trie", "--vault", str(vault), "--budget", "50", "--json")
    assert code == 0 and len(json.loads(out)["hits"]) >= 1


def test_errors_under_json_are_json(vault: Path) -> None:
    code, out, err = _run("read", "no-such-note", "--vault", str(vault), "--json")
    assert code == 1
    data = json.loads(out)
    assert set(data) == {"error"} and "no such note" in data["error"]
    too_long = "x" * (MAX_QUERY_CHARS + 1)
    code, out, _ = _run("search", too_long, "--vault", str(vault), "--json")
    assert code == 1 and "error" in json.loads(out)
    code, out, err = _run("read", "no-such-note", "--vault", str(vault))  # text: stderr
    assert code == 1 and out == "" and "no such note" in err


def test_init_says_what_it_added_to_claude_md(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / "CLAUDE.md", "# House rules\n\nTabs.\n")
    code, out, _ = _run("init", str(project))
    assert code == 0
    assert "Appended a short 'Project memory (rubi)' section to CLAUDE.md" in out
    assert (project / "CLAUDE.md").read_text().startswith("# House rules\n\nTabs.\n\n<!-- rubi")
    code, out, _ = _run("init", str(project))
    assert code == 0 and "CLAUDE.md" not in out  # already there: nothing said, nothing done
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    code, out, _ = _run("init", str(fresh))
    assert "Created CLAUDE.md with a short 'Project memory (rubi)' section." in out


def test_init_in_an_existing_vault_names_what_it_added(tmp_path: Path) -> None:
    """In a clone of rubi's own repository (its vault older than the template) `rubi
    init` said "Created .rubi (2 files)." of a vault that was there: it had added
    `handoffs/.gitignore` and `notes/.gitkeep`."""
    project = tmp_path / "proj"
    project.mkdir()
    code, out, _ = _run("init", str(project))
    assert code == 0 and "Created " in out
    gitignore = project / ".rubi" / "handoffs" / ".gitignore"
    gitignore.unlink()
    code, out, _ = _run("init", str(project))
    assert code == 0 and "Created " not in out
    assert "already exists; added what it lacked: handoffs/.gitignore." in out
    assert gitignore.is_file()
    code, out, _ = _run("init", str(project))
    assert code == 0 and "already exists; nothing changed there." in out


def test_handoff_links_are_file_names_obsidian_resolves(tmp_path: Path) -> None:
    v = tmp_path / "v"
    write(v / "notes" / "decision-use-jwt.md", "---\naliases: [JWT]\n---\n# Use JWT\n")
    write(v / "notes" / "a" / "plan.md", "# Plan A\n")
    write(v / "notes" / "b" / "plan.md", "# Plan B\n")
    paths = app.locate(v)
    handoff = app.save_handoff(
        paths, "Ship login", "tests red", notes=["Use JWT", "JWT", "Plan B", "Not a note"]
    )
    assert "[[decision-use-jwt]]" in handoff.text
    assert "[[notes/b/plan]]" in handoff.text  # two notes named plan: the path
    assert "[[Not a note]]" in handoff.text
    assert "[[Use JWT]]" not in handoff.text
    report = app.doctor(paths)
    assert report.obsidian == []


def _frontmatter(path: Path) -> dict[str, object]:
    import yaml

    text = path.read_text(encoding="utf-8")
    return dict(yaml.safe_load(text.split("---\n")[1]))


def test_registering_over_a_note_with_broken_frontmatter_is_refused(tmp_path: Path) -> None:
    v = tmp_path / "v"
    (v / "notes").mkdir(parents=True)
    paths = app.locate(v)
    item = {"type": "gotcha", "title": "Tokens expire at midnight", "body": "UTC."}
    [first] = app.register(paths, [item])
    note = v / first.path
    note.write_text(
        note.read_text(encoding="utf-8").replace("type: gotcha", "type: [gotcha"), encoding="utf-8"
    )
    with pytest.raises(app.RubiError, match=r"notes/gotcha-tokens-expire-at-midnight\.md holds"):
        app.register(paths, [item])
    assert sorted(p.name for p in (v / "notes").iterdir()) == [note.name]


def test_a_renamed_note_gets_its_id_back_in_step(tmp_path: Path) -> None:
    v = tmp_path / "v"
    (v / "notes").mkdir(parents=True)
    paths = app.locate(v)
    item = {"type": "gotcha", "title": "Tokens expire at midnight", "body": "UTC."}
    [first] = app.register(paths, [item])
    renamed = v / "notes" / "token-expiry.md"
    (v / first.path).rename(renamed)  # as Obsidian renames: the id: stays behind
    assert _frontmatter(renamed)["id"] == "gotcha-tokens-expire-at-midnight"
    [merged] = app.register(paths, [{**item, "body": "Also in tests."}])
    assert merged.path == "notes/token-expiry.md" and merged.action == "merged"
    assert _frontmatter(renamed)["id"] == "token-expiry"
    newer = {
        "type": "gotcha",
        "title": "Tokens expire hourly",
        "body": "Now.",
        "supersedes": "token-expiry",
    }
    [new] = app.register(paths, [newer])
    new_fm = _frontmatter(v / new.path)
    assert new_fm["supersedes"] == "token-expiry"
    assert "[[token-expiry]]" in (v / new.path).read_text(encoding="utf-8")
    assert _frontmatter(renamed)["superseded_by"] == new.path.removeprefix("notes/").removesuffix(
        ".md"
    )


def test_the_top_level_help_names_every_part_of_the_search() -> None:
    # It said plain "BM25": the ranking is BM25F, exact names, personalized PageRank
    # and an optional dense list, fused by RRF.
    out = " ".join(CliRunner().invoke(cli, ["--help"]).output.split())
    for part in ("BM25F", "exact names", "personalized PageRank", "dense", "RRF"):
        assert part in out, part


def test_note_add_without_a_body_is_refused_and_the_skill_gives_one(tmp_path: Path) -> None:
    # It wrote a note with an empty body (the register skill's fallback did exactly
    # that); the MCP register tool requires a body, and so does the CLI now.
    project = tmp_path / "proj"
    project.mkdir()
    runner = CliRunner()
    assert runner.invoke(cli, ["init", str(project)]).exit_code == 0
    vault = ["--vault", str(project / ".rubi")]
    add = ["note", "add", "--type", "gotcha", "--title", "Pager is off by one", *vault]
    refused = runner.invoke(cli, add)
    assert refused.exit_code == 2 and "--body" in refused.output
    assert not list((project / ".rubi" / "notes").rglob("*.md"))
    given = runner.invoke(cli, [*add, "--body", "-"], input="The last page is skipped.\n")
    assert given.exit_code == 0, given.output
    [note] = (project / ".rubi" / "notes").rglob("*.md")
    assert "The last page is skipped." in note.read_text(encoding="utf-8")
    skill = Path(__file__).parents[2] / "skills" / "register" / "SKILL.md"
    fallback = re.search(r"`(rubi note add [^`]*)`", skill.read_text(encoding="utf-8"))
    assert fallback is not None and "--body" in fallback.group(1).split()
