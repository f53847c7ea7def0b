"""Handoffs are each person's own: git leaves them out, a teammate's committed one is
never "the last handoff", and the CLI, the MCP tool and SessionStart pick the same one.
Real git, two people (two clones with their own ``user.email``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from codemap.codemap_helpers import git
from rubi import app
from rubi.cli.main import cli
from rubi.knowledge.handoff import HANDOFFS_GITIGNORE, author_of

from helpers import REPO, rubi_project, write

MINUTE = 60.0
T0 = 1_800_000_000.0


def as_person(clone: Path, email: str) -> Path:
    """Give ``clone`` its own git identity (repository config, as a person's clone has)."""
    git(clone, "config", "user.email", email)
    return clone


def save(clone: Path, goal: str, when: float) -> str:
    from rubi.knowledge.handoff import save_handoff

    return save_handoff(app.locate(clone / ".rubi"), goal, "state", now=when).path


def test_the_template_and_a_first_save_keep_handoffs_out_of_git(tmp_path: Path) -> None:
    assert (REPO / "vault-template" / "handoffs" / ".gitignore").read_text() == HANDOFFS_GITIGNORE
    project = as_person(rubi_project(tmp_path / "p", {"a.py": "x = 1\n"}), "me@example.com")
    gitignore = project / ".rubi" / "handoffs" / ".gitignore"
    assert gitignore.read_text() == HANDOFFS_GITIGNORE  # rubi init
    gitignore.unlink()  # a vault from before the rule: the first save writes it
    rel = save(project, "Ship login", T0)
    assert gitignore.read_text() == HANDOFFS_GITIGNORE
    assert author_of((project / ".rubi" / rel).read_text()) == "me@example.com"
    git(project, "add", "-A")
    staged = git(project, "diff", "--cached", "--name-only").split()
    assert ".rubi/handoffs/.gitignore" in staged
    assert f".rubi/{rel}" not in staged  # ignored
    git(project, "add", "-f", f".rubi/{rel}")  # committed on purpose: git takes it
    assert f".rubi/{rel}" in git(project, "diff", "--cached", "--name-only").split()


def test_a_kept_gitignore_is_not_rewritten(tmp_path: Path) -> None:
    project = rubi_project(tmp_path / "p", {"a.py": "x = 1\n"})
    gitignore = write(project / ".rubi" / "handoffs" / ".gitignore", "# shared on purpose\n")
    save(project, "g", T0)
    assert gitignore.read_text() == "# shared on purpose\n"


def test_a_teammates_committed_handoff_is_not_mine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    origin = rubi_project(tmp_path / "origin", {"a.py": "x = 1\n"})
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "rubi init")  # the vault is committed, as a team's is
    git(origin, "config", "receive.denyCurrentBranch", "ignore")
    mine = tmp_path / "mine"
    subprocess.run(["git", "clone", "-q", str(origin), str(mine)], check=True)
    as_person(mine, "me@example.com")
    theirs = tmp_path / "theirs"
    subprocess.run(["git", "clone", "-q", str(origin), str(theirs)], check=True)
    as_person(theirs, "teammate@example.com")

    my_rel = save(mine, "My goal", T0)
    their_rel = save(theirs, "Their goal", T0 + 10 * MINUTE)  # newer
    git(theirs, "add", "-f", f".rubi/{their_rel}")
    git(theirs, "commit", "-qm", "share a handoff")
    git(theirs, "push", "-q", "origin", "HEAD")
    git(mine, "pull", "-q", "--no-rebase", "origin", "HEAD")
    assert (mine / ".rubi" / their_rel).is_file()  # it arrived with the pull

    vault = app.locate(mine / ".rubi")
    last = app.last_handoff(vault)
    assert last is not None and last.path == my_rel
    context = app.session_start_context(vault, source="compact", session_id="s", max_chars=9000)
    assert context is not None and f".rubi/{my_rel}" in context and "My goal" in context
    assert "Their goal" not in context
    monkeypatch.chdir(mine)
    shown = CliRunner().invoke(cli, ["handoff", "show", "--json"])
    assert shown.exit_code == 0 and f'"{my_rel}"' in shown.output

    # the teammate sees their own
    theirs_last = app.last_handoff(app.locate(theirs / ".rubi"))
    assert theirs_last is not None and theirs_last.path == their_rel


def test_a_pulled_handoff_is_named_where_i_have_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's way to pass one on (``git add -f``): the receiver had no handoff of
    their own, and `handoff show` said "no handoff yet" with the teammate's in the folder."""
    import asyncio

    from mcp import Client
    from rubi.mcp.server import build_server

    project = as_person(rubi_project(tmp_path / "p", {"a.py": "x = 1\n"}), "me@example.com")
    write(
        project / ".rubi" / "handoffs" / "2099-01-01-0000.md",
        "---\ntype: note\nauthor: teammate@example.com\ntags: [handoff]\n---\n"
        "# Handoff\n\n## Goal\nTheirs\n",
    )
    vault = app.locate(project / ".rubi")
    assert app.last_handoff(vault) is None  # still not mine to resume
    monkeypatch.chdir(project)
    shown = CliRunner().invoke(cli, ["handoff", "show"])
    assert shown.exit_code == 1
    assert "no handoff of yours yet; handoffs/2099-01-01-0000 is teammate@example.com's" in (
        shown.output
    )

    async def last() -> str:
        async with Client(build_server(vault)) as client:
            result = await client.call_tool("handoff", {"action": "last"})
        return "".join(c.text for c in result.content if hasattr(c, "text"))

    told = asyncio.run(last())
    assert told.startswith("No handoff of yours yet; handoffs/2099-01-01-0000 is teammate@")
    assert "Theirs" not in told


def test_a_handoff_without_an_author_counts(tmp_path: Path) -> None:
    """Written before handoffs named their author: it counts, as before."""
    project = as_person(rubi_project(tmp_path / "p", {"a.py": "x = 1\n"}), "me@example.com")
    save(project, "Mine", T0)
    old = write(
        project / ".rubi" / "handoffs" / "2099-01-01-0000.md",
        "---\ntype: note\ntags: [handoff]\n---\n# Handoff\n\n## Goal\nOld\n",
    )
    last = app.last_handoff(app.locate(project / ".rubi"))
    assert last is not None and last.path == f"handoffs/{old.name}"


def test_newest_by_name_everywhere_not_by_file_time(tmp_path: Path) -> None:
    """One rule for "the latest": the file name, whatever the files' times say."""
    import os

    project = as_person(rubi_project(tmp_path / "p", {"a.py": "x = 1\n"}), "me@example.com")
    older = save(project, "Older", T0)
    newer = save(project, "Newer", T0 + MINUTE)
    os.utime(project / ".rubi" / newer, (1, 1))  # touched long ago
    vault = app.locate(project / ".rubi")
    last = app.last_handoff(vault)
    assert last is not None and last.path == newer != older
    context = app.session_start_context(vault, source="clear", session_id="s", max_chars=9000)
    assert context is not None and "Newer" in context and "Older" not in context


def test_a_pulled_handoff_s_author_runs_no_escape_and_is_held_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The author of a pulled handoff came with the clone: `handoff show` names it as
    every line of human output shows such text (an escape as ``\\x1b``, never sent to
    the terminal), and a name of thousands of characters is cut."""
    project = as_person(rubi_project(tmp_path / "p", {"a.py": "x = 1\n"}), "me@example.com")
    author = "\x1b]0;pwned\x07\x1b[2JEve" + "A" * 5_000
    write(
        project / ".rubi" / "handoffs" / "2099-01-01-0000.md",
        f"---\ntype: note\nauthor: {author}\n---\n# Handoff\n\n## Goal\nTheirs\n",
    )
    named = app.teammate_handoff(app.locate(project / ".rubi"))
    assert named is not None and len(named[1]) <= app.MAX_AUTHOR_CHARS + 1
    monkeypatch.chdir(project)
    shown = CliRunner().invoke(cli, ["handoff", "show"])
    assert shown.exit_code == 1
    assert "\x1b" not in shown.output and "\x07" not in shown.output
    assert "\\x1b]0;pwned\\x07" in shown.output
    assert len(shown.output) < 1_000


def test_a_teammate_s_handoff_in_another_worktree_is_not_named_as_readable_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The id named comes with ``rubi read <id>``: one in another worktree's vault is
    no note of this vault (`rubi read` said "no such note")."""
    project = as_person(rubi_project(tmp_path / "main", {"a.py": "x = 1\n"}), "me@example.com")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "vault")
    other = tmp_path / "feature"
    git(project, "worktree", "add", "-q", "-b", "feature", str(other))
    write(
        other / ".rubi" / "handoffs" / "2099-01-01-0000.md",
        "---\ntype: note\nauthor: teammate@example.com\n---\n# Handoff\n\n## Goal\nTheirs\n",
    )
    vault = app.locate(project / ".rubi")
    assert app.last_handoff(vault) is None
    assert app.teammate_handoff(vault) is None
    monkeypatch.chdir(project)
    shown = CliRunner().invoke(cli, ["handoff", "show"])
    assert shown.exit_code == 1 and "no handoff yet" in shown.output
    # in the worktree that holds it, it is named (and read there)
    assert app.teammate_handoff(app.locate(other / ".rubi")) == (
        "handoffs/2099-01-01-0000",
        "teammate@example.com",
    )
