"""Stale is measured against the note's own history, with real git: a note committed
with the fix it describes is fresh; a file changed after the note (in a later commit,
or saved in the work tree) makes it stale."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from codemap.codemap_helpers import git
from rubi import app
from rubi.cli.main import cli
from rubi.core.paths import VaultPaths

from helpers import rubi_project, write

CTX = "src/flask/ctx.py"


@pytest.fixture
def flask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A committed project with its vault committed too (the team's shape), as the
    working folder (``--file`` is typed relative to it)."""
    root = rubi_project(
        tmp_path / "flask",
        {CTX: "class AppContext:\n    pass\n", "src/flask/app.py": "from flask.ctx import x\n"},
    )
    commit_all(root, "rubi init")
    monkeypatch.chdir(root)
    return root


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def add_bug_note(root: Path, title: str = "Teardown runs twice") -> str:
    result = CliRunner().invoke(
        cli,
        ["note", "add", "--type", "bug", "--title", title, "--body", "Pop the context once.",
         "--file", CTX, "--vault", str(root / ".rubi"), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return str(json.loads(result.output)[0]["id"])


def stale(vault: VaultPaths, note_id: str) -> tuple[str, ...]:
    return app.read_note(vault, note_id).stale


def search_output(root: Path) -> str:
    result = CliRunner().invoke(cli, ["search", "teardown", "--vault", str(root / ".rubi")])
    assert result.exit_code == 0, result.output
    return result.output


def save_later(path: Path, text: str, than: Path) -> None:
    """Write ``path`` and date ``than`` a second earlier (the order a person's edits
    have; a test's writes can share one clock tick)."""
    write(path, text)
    earlier = os.stat(path).st_mtime_ns - 1_000_000_000
    os.utime(than, ns=(earlier, earlier))


def test_a_note_committed_with_its_fix_is_fresh(flask: Path) -> None:
    write(flask / CTX, "class AppContext:\n    def pop(self): ...\n")  # the fix
    note_id = add_bug_note(flask)
    vault = app.locate(flask / ".rubi")
    assert stale(vault, note_id) == ()  # before the commit: the note is the newer
    commit_all(flask, "Fix double teardown, with a rubi note")
    assert stale(vault, note_id) == ()
    assert "teardown" in search_output(flask).lower()
    assert "⚠ stale" not in search_output(flask)


def test_a_file_changed_after_the_note_is_stale(flask: Path) -> None:
    write(flask / CTX, "class AppContext:\n    def pop(self): ...\n")
    note_id = add_bug_note(flask)
    commit_all(flask, "fix and note")
    vault = app.locate(flask / ".rubi")
    note = flask / ".rubi" / "notes" / "bug-teardown-runs-twice.md"
    save_later(flask / CTX, "class AppContext:\n    def pop(self, exc): ...\n", than=note)
    assert stale(vault, note_id) == (CTX,)  # saved after the note, not committed yet
    assert "⚠ stale" in search_output(flask)
    commit_all(flask, "change ctx again")
    assert stale(vault, note_id) == (CTX,)  # a commit after the note's
    add_bug_note(flask)  # registered again (merged): the note is brought up to date
    assert stale(vault, note_id) == ()
    commit_all(flask, "note updated")
    assert stale(vault, note_id) == ()


def test_a_file_saved_before_the_note_is_not_stale(flask: Path) -> None:
    """Uncommitted work that predates the note, committed later on its own."""
    note = flask / ".rubi" / "notes" / "bug-teardown-runs-twice.md"
    write(flask / CTX, "class AppContext:\n    def pop(self): ...\n")
    note_id = add_bug_note(flask)
    os.utime(flask / CTX, ns=(1, os.stat(note).st_mtime_ns - 1_000_000_000))
    vault = app.locate(flask / ".rubi")
    git(flask, "add", ".rubi")
    git(flask, "commit", "-qm", "the note first")
    assert stale(vault, note_id) == ()
    git(flask, "commit", "-qam", "then the fix it describes")
    assert stale(vault, note_id) == (CTX,)  # committed after the note: cannot tell


def test_a_note_and_its_fix_merged_from_a_branch_are_fresh(flask: Path) -> None:
    git(flask, "checkout", "-q", "-b", "fix")
    write(flask / CTX, "class AppContext:\n    def pop(self): ...\n")
    commit_all(flask, "the fix")
    note_id = add_bug_note(flask)
    commit_all(flask, "the note")
    git(flask, "checkout", "-q", "-")
    write(flask / "src/flask/app.py", "from flask.ctx import y\n")
    commit_all(flask, "meanwhile on main")
    git(flask, "merge", "-q", "--no-ff", "-m", "merge fix", "fix")
    vault = app.locate(flask / ".rubi")
    assert stale(vault, note_id) == ()


def test_the_answer_is_cached_per_head(flask: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(flask / CTX, "class AppContext:\n    def pop(self): ...\n")
    note_id = add_bug_note(flask)
    commit_all(flask, "fix and note")
    vault = app.locate(flask / ".rubi")
    assert stale(vault, note_id) == ()
    from rubi.knowledge import stale as stale_module

    def no_git(*args: object) -> None:
        raise AssertionError("history read again at the same HEAD")

    with monkeypatch.context() as patched:
        patched.setattr(stale_module, "history", no_git)
        assert stale(vault, note_id) == ()
    write(flask / "src/flask/app.py", "x = 1\n")
    commit_all(flask, "HEAD moves")
    assert stale(vault, note_id) == ()


def test_file_names_reach_git_as_literal_paths(flask: Path, tmp_path: Path) -> None:
    """``files:`` come from notes anyone can commit: a name shaped like an option or
    a pathspec magic is only ever a path."""
    names = ["--output=pwned", ":(glob)*", "*"]
    for name in names:
        write(flask / name, "x\n")
    commit_all(flask, "odd names")
    vault = app.locate(flask / ".rubi")
    [r] = app.register(vault, [{"type": "note", "title": "Odd", "body": "b", "files": names}])
    commit_all(flask, "note")
    note = flask / ".rubi" / r.path
    save_later(flask / "*", "changed\n", than=note)
    assert stale(vault, r.id) == ("*",)
    assert not (flask / "pwned").exists() and not (tmp_path / "pwned").exists()
