"""``rubi.core.gitrepo``: the answers with git, and how they degrade without it (no git
on PATH, a hung or failing git, no repository, a shallow clone, commits git does not
know, commits off the first-parent line)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from codemap.codemap_helpers import git
from rubi.core import gitrepo
from rubi.core.gitrepo import changes_since, head

from helpers import write

UNKNOWN = "0123456789abcdef0123456789abcdef01234567"


def commit(root: Path, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        write(root / rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, list[str]]:
    """A repository of three commits: a.py, then b.py, then a.py again."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    shas = [
        commit(root, {"a.py": "1\n"}, "one"),
        commit(root, {"b.py": "2\n"}, "two"),
        commit(root, {"a.py": "3\n"}, "three"),
    ]
    return root, shas


def fake_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    """Put a ``git`` that runs ``script`` (sh) first on PATH, and nothing else."""
    bin_dir = tmp_path / "fakebin"
    exe = write(bin_dir / "git", f"#!/bin/sh\n{script}\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bin_dir))


def test_with_git(repo: tuple[Path, list[str]]) -> None:
    root, (one, two, three) = repo
    assert head(root) == three
    assert changes_since(root, [one, two[:10], three]) == {
        one: {"a.py", "b.py"},
        two[:10]: {"a.py"},  # as the note wrote it, abbreviated
        three: set(),
    }


def test_values_that_are_not_commit_ids_never_reach_git(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = repo
    fake_git(tmp_path, monkeypatch, f'echo "$@" >> {tmp_path}/calls; exit 1')
    assert changes_since(root, ["--output=x", "HEAD", "main", "", "zz12345"]) == {}
    assert not (tmp_path / "calls").exists()


def test_no_git_on_path(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, (one, _, _) = repo
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert head(root) is None
    assert changes_since(root, [one]) is None


def test_a_failing_git_is_unknown(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, (one, _, _) = repo
    fake_git(tmp_path, monkeypatch, "echo 'fatal: broken' >&2; exit 128")
    assert head(root) is None
    assert changes_since(root, [one]) is None


@pytest.mark.timeout(30)
def test_a_hung_git_is_abandoned(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, (one, _, _) = repo
    fake_git(tmp_path, monkeypatch, "exec sleep 20")
    monkeypatch.setattr(gitrepo, "GIT_TIMEOUT_S", 0.3)
    assert head(root) is None
    assert changes_since(root, [one]) is None


def test_not_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert head(plain) is None
    assert changes_since(plain, [UNKNOWN]) is None
    assert changes_since(plain, []) == {}


def test_a_repository_without_commits(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    assert head(root) is None
    assert changes_since(root, [UNKNOWN]) is None


def test_a_commit_not_in_history_is_left_out(repo: tuple[Path, list[str]]) -> None:
    root, (one, _, three) = repo
    assert changes_since(root, [UNKNOWN]) == {}
    assert changes_since(root, [UNKNOWN, one]) == {one: {"a.py", "b.py"}}
    assert changes_since(root, [three, UNKNOWN]) == {three: set()}


def test_a_shallow_clone_knows_only_what_it_fetched(
    repo: tuple[Path, list[str]], tmp_path: Path
) -> None:
    origin, (one, two, three) = repo
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    assert head(clone) == three
    assert changes_since(clone, [one, two]) == {}  # not fetched: unknown, not "unchanged"
    assert changes_since(clone, [one, three]) == {three: set()}


def test_a_commit_off_the_first_parent_line_is_compared_by_tree(tmp_path: Path) -> None:
    root = tmp_path / "branches"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, {"a.py": "1\n"}, "base")
    git(root, "checkout", "-qb", "side")
    side = commit(root, {"s.py": "side\n"}, "on the side")
    git(root, "checkout", "-q", "main")
    commit(root, {"m.py": "main\n"}, "on main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    result = changes_since(root, [side])
    assert result == {side: {"m.py"}}  # what HEAD has that the side commit had not


def test_git_is_called_with_hardening_and_no_prompt(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = repo
    log = tmp_path / "argv"
    real = os.environ["PATH"]
    fake_git(tmp_path, monkeypatch, f'echo "$@" >> {log}; read -r line; exit 1')
    monkeypatch.setenv("PATH", str(tmp_path / "fakebin") + os.pathsep + real)
    assert head(root) is None  # stdin is closed: `read` fails at once instead of hanging
    argv = log.read_text(encoding="utf-8").split()
    assert argv[-6:] == [
        "rev-parse",
        "--absolute-git-dir",
        "--git-common-dir",
        "--verify",
        "-q",
        "HEAD",
    ]
    assert argv[argv.index("-C") + 1] == str(root)


def _age(root: Path) -> None:
    """Date every file under .git an hour back, as they are unless just written."""
    past = os.stat(root).st_mtime - 3600
    for folder, _, names in os.walk(root / ".git"):
        for name in names:
            os.utime(os.path.join(folder, name), (past, past))


def _git_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The arguments of every git call from here on (git still runs)."""
    calls: list[tuple[str, ...]] = []
    real = gitrepo.git_output

    def counting(where: Path, *args: str) -> str | None:
        calls.append(args)
        return real(where, *args)

    monkeypatch.setattr(gitrepo, "git_output", counting)
    return calls


def test_head_asks_git_again_only_when_head_may_have_moved(
    repo: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, (one, _, three) = repo
    _age(root)
    calls = _git_calls(monkeypatch)
    assert head(root) == three  # a process's first question also asks where HEAD lives
    assert head(root) == three  # remembered from here
    asked = len(calls)
    assert head(root) == three and len(calls) == asked  # nothing moved: git not asked
    four = commit(root, {"c.py": "4\n"}, "four")  # the branch file is replaced
    assert head(root) == four
    git(root, "checkout", "-q", one)  # a detached HEAD: HEAD itself is rewritten
    assert head(root) == one
    _age(root)
    assert head(root) == one
    asked = len(calls)
    assert head(root) == one and len(calls) == asked
    git(root, "checkout", "-q", "main")
    git(root, "pack-refs", "--all")  # the branch moves into packed-refs
    _age(root)
    assert head(root) == four and len(calls) > asked


def test_a_first_answer_is_remembered_when_heads_files_were_quiet_through_it(
    repo: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A one-shot process (a cold search: stale flags, then the hits' days) asks git
    once; HEAD written a moment ago cannot vouch for itself, so git is asked again."""
    root, (one, _, three) = repo
    _age(root)
    calls = _git_calls(monkeypatch)
    assert head(root) == three and head(root) == three and len(calls) == 1
    git(root, "checkout", "-q", one)  # HEAD rewritten a moment ago
    monkeypatch.setattr(gitrepo, "_git_dirs", {})  # another fresh process
    monkeypatch.setattr(gitrepo, "_heads", {})
    asked = len(calls)
    assert head(root) == one and head(root) == one and len(calls) == asked + 2


def test_a_folder_outside_git_asks_git_once_until_a_repository_appears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most Obsidian vaults are in no repository: their searches must not spawn git
    each time, and a ``git init`` later (here, or in a folder above) is still seen."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above
    root = tmp_path / "outer" / "vault"
    root.mkdir(parents=True)
    calls = _git_calls(monkeypatch)
    assert head(root) is None and len(calls) == 1
    assert head(root) is None and head(root) is None and len(calls) == 1
    git(tmp_path / "outer", "init", "-q", "-b", "main")  # a repository above the vault
    sha = commit(tmp_path / "outer", {"vault/a.md": "a\n"}, "one")
    assert head(root) == sha


def test_a_folder_reached_through_a_symlink_sees_a_repository_made_above_its_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git looks for a repository above the folder's real path: a vault opened through
    a symlink (``~/notes`` → a project's folder) is in the repository made above its
    target, though no ``.git`` is above the link."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above
    project = tmp_path / "project"
    (project / "notes").mkdir(parents=True)
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "notes"
    link.symlink_to(project / "notes", target_is_directory=True)
    assert head(link) is None
    git(project, "init", "-q", "-b", "main")
    sha = commit(project, {"notes/a.md": "a\n"}, "one")
    assert head(link) == sha


def test_a_failing_git_command_logs_its_exit_status_not_an_empty_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``git config --get`` of an unset key exits 1 with nothing on stderr: the debug
    line said "git config: " and nothing more, which read like a missing value."""
    git(tmp_path, "init", "-q")
    with caplog.at_level("DEBUG", logger="rubi.core.gitrepo"):
        assert gitrepo._run(tmp_path, ("config", "--get", "rubi.no-such-key"), 10.0) == (1, b"")
    assert "git config: exit 1" in caplog.text
    assert not any(r.getMessage().endswith(": ") for r in caplog.records)
