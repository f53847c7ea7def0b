from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from codemap.codemap_helpers import git
from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

from helpers import write


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def test_exactly_the_notes_whose_files_changed_turn_stale(vault: VaultPaths, repo: Path) -> None:
    auth, db, folder, none = app.register(
        vault,
        [
            {
                "type": "gotcha",
                "title": "Login needs a CSRF token",
                "body": "stalecheck",
                "files": ["src/auth.py"],
            },
            {
                "type": "gotcha",
                "title": "Connections leak",
                "body": "stalecheck",
                "files": ["src/db.py"],
            },
            {"type": "concept", "title": "The src folder", "body": "stalecheck", "files": ["src/"]},
            {"type": "concept", "title": "No files at all", "body": "stalecheck"},
        ],
    )
    commit_all(repo, "notes")
    assert not any(h.stale for h in app.search(vault, "stalecheck", top_k=20).hits)
    write(repo / "src" / "auth.py", "def login(token):\n    pass\n")
    commit_all(repo, "change auth")
    flags = {h.id: h.stale for h in app.search(vault, "stalecheck", top_k=20).hits}
    assert flags[auth.id] == ("src/auth.py",)
    assert flags[folder.id] == ("src/",)
    assert flags[db.id] == () and flags[none.id] == ()
    assert app.read_note(vault, auth.id).stale == ("src/auth.py",)
    (repo / "src" / "db.py").unlink()  # gone from disk: stale even before a commit
    assert app.read_note(vault, db.id).stale == ("src/db.py",)
    # Registering again brings the note up to date with HEAD.
    app.register(vault, [{"type": "gotcha", "title": "Login needs a CSRF token", "body": "y"}])
    assert app.read_note(vault, auth.id).stale == ()


def test_stale_outside_git_counts_missing_files_only(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write(project / "a.py", "x = 1\n")
    app.init_project(project)
    vault = app.locate(project / ".rubi")
    [r] = app.register(
        vault, [{"type": "note", "title": "About a", "body": "z", "files": ["a.py", "gone.py"]}]
    )
    assert app.read_note(vault, r.id).stale == ("gone.py",)


def test_handoffs(vault: VaultPaths) -> None:
    assert app.last_handoff(vault) is None
    first = app.save_handoff(
        vault, "Ship login", "Tokens done, tests red", ["Fix test_login"], ["src/auth.py"]
    )
    second = app.save_handoff(vault, "Ship login", "Tests green", ["Open the PR"])
    assert first.path != second.path
    last = app.last_handoff(vault)
    assert last is not None and last.path == second.path and "Open the PR" in last.text
    assert app.search(vault, "Tests green").hits[0].path == second.path
    with pytest.raises(RubiError, match="goal"):
        app.save_handoff(vault, " ", "x")


def test_personal_vault(vault: VaultPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUBI_VAULT", str(tmp_path / "me"))
    [r] = app.register(
        vault,
        [
            {
                "type": "preference",
                "title": "Answer tersely",
                "body": "brevityword",
                "scope": "personal",
            }
        ],
    )
    assert r.id == "personal:notes/preference-answer-tersely"
    assert (tmp_path / "me" / "notes" / "preference-answer-tersely.md").is_file()
    app.register(vault, [{"type": "note", "title": "Project thing", "body": "brevityword too"}])
    ids = [h.id for h in app.search(vault, "brevityword").hits]
    assert set(ids) == {r.id, "notes/note-project-thing"}
    assert [h.id for h in app.search(vault, "brevityword", scope="personal").hits] == [r.id]
    assert app.read_note(vault, r.id).note.title == "Answer tersely"


def test_default_personal_vault_is_in_home(vault: VaultPaths, isolated_home: Path) -> None:
    app.register(vault, [{"type": "preference", "title": "Tabs", "body": "x", "scope": "personal"}])
    assert (isolated_home / "rubi-vault" / "personal" / "notes" / "preference-tabs.md").is_file()


def test_cli_note_and_handoff(
    vault: VaultPaths, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    run = CliRunner().invoke
    r = run(
        cli,
        [
            "note",
            "add",
            "--type",
            "decision",
            "--title",
            "Use uv",
            "--body",
            "-",
            "--file",
            "src/db.py",
            "--link",
            "about:Connections",
            "--json",
        ],
        input="Fast.\n",
    )
    assert r.exit_code == 0, r.output
    [data] = json.loads(r.output)
    assert data["action"] == "created" and data["dangling"] == ["Connections"]
    r = run(
        cli,
        [
            "note",
            "add",
            "--type",
            "decision",
            "--title",
            "Use pip",
            "--body",
            "Simpler.",
            "--supersedes",
            "Use uv",
        ],
    )
    assert r.exit_code == 0 and "supersedes notes/decision-use-uv" in r.output
    r = run(
        cli,
        ["note", "add", "--from-json", "-"],
        input=json.dumps([{"type": "bug", "title": "Off by one", "body": "In the pager."}]),
    )
    assert r.exit_code == 0 and r.output.startswith("created")
    r = run(cli, ["note", "add", "--type", "bug"])
    assert r.exit_code == 2
    r = run(
        cli, ["note", "add", "--type", "bug", "--title", "x", "--body", "b", "--link", "nocolon"]
    )
    assert r.exit_code == 2
    r = run(cli, ["handoff", "show"])
    assert r.exit_code == 1 and "no handoff yet" in r.output
    r = run(
        cli, ["handoff", "save", "--goal", "G", "--state", "S", "--next", "one", "--next", "two"]
    )
    assert r.exit_code == 0 and r.output.startswith("Saved handoffs/")
    r = run(cli, ["handoff", "show"])
    assert "1. one" in r.output and "2. two" in r.output
    r = run(cli, ["read", "Use uv"])
    assert r.output.startswith("(superseded: read notes/decision-use-pip instead)")


def test_a_merged_branch_older_than_the_note_makes_it_stale(vault: VaultPaths, repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / "src" / "db.py", "def connect(url):\n    pass\n")
    commit_all(repo, "feature work, before the note")
    git(repo, "checkout", "-q", "-")
    [r] = app.register(
        vault, [{"type": "gotcha", "title": "Connect lazily", "body": "b", "files": ["src/db.py"]}]
    )
    commit_all(repo, "note")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    assert app.read_note(vault, r.id).stale == ("src/db.py",)


def test_parallel_handoffs_in_the_same_minute_all_land(vault: VaultPaths) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from rubi.knowledge.handoff import save_handoff

    with ThreadPoolExecutor(6) as pool:
        saved = list(
            pool.map(lambda i: save_handoff(vault, f"g{i}", "s", now=1_800_000_000), range(6))
        )
    assert len({h.path for h in saved}) == 6
    assert len(list((vault.root / "handoffs").glob("*.md"))) == 6


def test_personal_note_read_by_title(
    vault: VaultPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUBI_VAULT", str(tmp_path / "me"))
    app.register(
        vault, [{"type": "preference", "title": "Short answers", "body": "x", "scope": "personal"}]
    )
    assert app.read_note(vault, "Short answers").id == "personal:notes/preference-short-answers"
    r = CliRunner().invoke(cli, ["search", "Short answers", "--vault", str(vault.root)])
    assert "personal:notes/preference-short-answers.md" in r.output
