"""``rubi.core.githardening``: a repository whose ``.git/config`` (or environment) names
a program never has it run by rubi's git calls.

Each case plants one program-valued setting (with what it needs to fire: a signed
commit, a ``.gitattributes`` line, files the index must hash again) pointing at a
script that leaves a canary file, then runs every path of rubi's that asks git: the
listing of code files, HEAD and the stale check, the history of notes, the work tree's
changes, code-file dates, the user's identity and the work trees. The canary never
appears. The last test runs ``rubi index``, ``rubi search`` and the UserPromptSubmit
hook as processes on a repository that plants all of them at once.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from codemap.codemap_helpers import git
from rubi.codemap.files import list_files
from rubi.core.gitrepo import changes_since, head, user_identity, worktrees
from rubi.dates.hitdays import _COMMIT_DAYS, commit_days
from rubi.knowledge.githistory import changed_in_worktree, history

from helpers import write

RUBI = str(Path(sys.executable).with_name("rubi"))

ARMORS = {
    "openpgp": "PGP SIGNATURE",
    "ssh": "SSH SIGNATURE",
    "x509": "SIGNED MESSAGE",
}
"""The armor line git reads a signature's format from, per ``gpg.<format>.program``."""


def _script(path: Path, body: str) -> Path:
    write(path, f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _signed_commit(root: Path, armor: str, message: str) -> str:
    """A commit on HEAD with a ``gpgsig`` header of ``armor`` (a signature that does not
    verify: git runs the program before it can tell), made by hand."""
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    parent = git(root, "rev-parse", "HEAD").strip()
    body = (
        f"tree {tree}\nparent {parent}\n"
        "author A <a@example.org> 1700000000 +0000\n"
        "committer A <a@example.org> 1700000000 +0000\n"
        f"gpgsig -----BEGIN {armor}-----\n \n AAAA\n -----END {armor}-----\n"
        f"\n{message}\n"
    )
    proc = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=root,
        input=body,
        capture_output=True,
        text=True,
        check=True,
    )
    sha = proc.stdout.strip()
    git(root, "update-ref", "HEAD", sha)
    return sha


def _repository(tmp_path: Path) -> tuple[Path, str]:
    """A project with a note about a code file, a commit signed in each format on top,
    and every tracked file touched since (the index must hash them again)."""
    root = tmp_path / "repo"
    write(root / "src" / "app.py", "def serve_requests():\n    return 'ok'\n")
    write(
        root / ".rubi" / "notes" / "decision-serve.md",
        "---\ntype: decision\nfiles: [src/app.py]\n---\n"
        "# Serve requests with a thread pool\n\nThreadpoolword keeps latency flat.\n",
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    first = git(root, "rev-parse", "HEAD").strip()
    for name, armor in ARMORS.items():
        _signed_commit(root, armor, f"signed with {name}")
    git(root, "reset", "-q", "--hard")
    later = os.stat(root / "src" / "app.py").st_mtime + 120
    for rel in ("src/app.py", ".rubi/notes/decision-serve.md"):
        os.utime(root / rel, (later, later))
    return root, first


def _plant(root: Path, canary: Path, name: str) -> dict[str, str]:
    """Write the setting ``name`` (and what makes git reach it) into ``root``'s config,
    the program leaving ``canary``; the environment to add for an ``env:`` case."""
    tell = _script(canary.parent / f"run-{name.replace(':', '_')}", f"touch {canary}; cat")
    signed = {"log.showSignature": "true"}
    attributes = "* filter=x diff=x\n"
    cases: dict[str, tuple[dict[str, str], str]] = {
        "gpg.program": ({**signed, "gpg.program": str(tell)}, ""),
        "gpg.openpgp.program": ({**signed, "gpg.openpgp.program": str(tell)}, ""),
        "gpg.ssh.program": (
            {
                **signed,
                "gpg.ssh.program": str(tell),
                "gpg.ssh.allowedSignersFile": str(write(canary.parent / "signers", "")),
            },
            "",
        ),
        "gpg.x509.program": ({**signed, "gpg.x509.program": str(tell)}, ""),
        "gpg.ssh.defaultKeyCommand": ({"gpg.ssh.defaultKeyCommand": str(tell)}, ""),
        "core.fsmonitor": ({"core.fsmonitor": str(tell)}, ""),
        "core.hooksPath": ({"core.hooksPath": str(tell.parent / "hooks")}, ""),
        "hooks": ({}, ""),
        "filter.clean": ({"filter.x.clean": str(tell)}, attributes),
        "filter.clean.required": (
            {"filter.x.clean": str(tell), "filter.x.required": "true"},
            attributes,
        ),
        "filter.process": ({"filter.x.process": str(tell)}, attributes),
        "filter.smudge": ({"filter.x.smudge": str(tell)}, attributes),
        "diff.driver.command": ({"diff.x.command": str(tell)}, attributes),
        "diff.driver.textconv": ({"diff.x.textconv": str(tell)}, attributes),
        "diff.external": ({"diff.external": str(tell)}, ""),
        "core.pager": ({"core.pager": str(tell), "pager.log": str(tell)}, ""),
        "core.editor": ({"core.editor": str(tell), "sequence.editor": str(tell)}, ""),
        "core.sshCommand": ({"core.sshCommand": str(tell)}, ""),
        "core.askPass": ({"core.askPass": str(tell)}, ""),
        "credential.helper": ({"credential.helper": f"!{tell}"}, ""),
        "core.alternateRefsCommand": ({"core.alternateRefsCommand": str(tell)}, ""),
        "uploadpack.packObjectsHook": ({"uploadpack.packObjectsHook": str(tell)}, ""),
    }
    if name.startswith("env:"):
        return {name[4:]: str(tell)}
    settings, attrs = cases[name]
    for key, value in settings.items():
        git(root, "config", key, value)
    if attrs:
        write(root / ".git" / "info" / "attributes", attrs)
    hooks = {"core.hooksPath": tell.parent / "hooks", "hooks": root / ".git" / "hooks"}
    if name in hooks:
        for hook in ("post-index-change", "post-checkout", "pre-commit", "reference-transaction"):
            _script(hooks[name] / hook, f"touch {canary}")
    return {}


SETTINGS = (
    "gpg.program",
    "gpg.openpgp.program",
    "gpg.ssh.program",
    "gpg.x509.program",
    "gpg.ssh.defaultKeyCommand",
    "core.fsmonitor",
    "core.hooksPath",
    "hooks",
    "filter.clean",
    "filter.clean.required",
    "filter.process",
    "filter.smudge",
    "diff.driver.command",
    "diff.driver.textconv",
    "diff.external",
    "core.pager",
    "core.editor",
    "core.sshCommand",
    "core.askPass",
    "credential.helper",
    "core.alternateRefsCommand",
    "uploadpack.packObjectsHook",
    "env:GIT_PAGER",
    "env:PAGER",
    "env:GIT_EXTERNAL_DIFF",
    "env:GIT_ASKPASS",
    "env:GIT_SSH_COMMAND",
    "env:GIT_EDITOR",
)


def _day(root: Path, commit: str) -> str:
    return git(root, "show", "-s", "--format=%cs", commit).strip()


def _every_git_path(root: Path, first: str) -> list[object]:
    """Run each path of rubi's that asks git in ``root``; what each answered."""
    _COMMIT_DAYS.clear()
    calls: list[Callable[[], object]] = [
        lambda: list_files(root).used_git,
        lambda: head(root),
        lambda: changes_since(root, [first]),
        lambda: history(root, [root / ".rubi" / "notes"]),
        lambda: changed_in_worktree(root, ["src/app.py", ".rubi/notes/decision-serve.md"]),
        lambda: commit_days(root, ["src/app.py"]),
        lambda: user_identity(root),
        lambda: worktrees(root),
    ]
    return [call() for call in calls]


@pytest.mark.parametrize("setting", SETTINGS)
def test_a_planted_program_setting_never_runs(
    setting: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, first = _repository(tmp_path)
    canary = tmp_path / "canary"
    for key, value in _plant(root, canary, setting).items():
        monkeypatch.setenv(key, value)
    answers = _every_git_path(root, first)
    assert not canary.exists(), f"{setting} ran"
    assert answers[0] is True  # git still lists the files
    assert answers[1] == git(root, "rev-parse", "HEAD").strip()
    assert answers[2] == {first: set()}  # the signed commits changed no file
    assert answers[5] == {"src/app.py": _day(root, first)}  # the commit that changed it


def test_answers_are_unchanged_by_the_hardening(tmp_path: Path) -> None:
    root, first = _repository(tmp_path)
    git(root, "config", "user.email", "dev@example.org")
    write(root / "src" / "app.py", "def serve_requests():\n    return 'changed'\n")
    listed, _, since, story, changed, days, who, trees = _every_git_path(root, first)
    assert listed is True
    assert since == {first: set()}
    assert story is not None and set(story.blobs) == {".rubi/notes/decision-serve.md"}
    assert changed == {"src/app.py"}
    assert days == {"src/app.py": _day(root, first)}
    assert who == "dev@example.org"
    assert [t.path for t in trees] == [root]


def test_a_filter_the_repository_requires_is_turned_off_not_failed(tmp_path: Path) -> None:
    root, _ = _repository(tmp_path)
    git(root, "config", "filter.x.clean", "false")
    git(root, "config", "filter.x.required", "true")
    write(root / ".git" / "info" / "attributes", "*.py filter=x\n")
    assert changed_in_worktree(root, ["src/app.py"]) == set()


def test_a_nested_repositorys_filter_never_runs_when_the_work_tree_is_checked(
    tmp_path: Path,
) -> None:
    """A repository inside the project (a submodule as an archive carries it) has its
    own ``.git/config``, which the project's filter overrides never read: the work-tree
    check must not look into it at all."""
    root, _ = _repository(tmp_path)
    sub = root / "vendor" / "lib"
    write(sub / "lib.py", "def helper():\n    return 1\n")
    write(sub / ".gitattributes", "*.py filter=inner\n")
    git(sub, "init", "-q", "-b", "main")
    git(sub, "add", "-A")
    git(sub, "commit", "-qm", "inner")
    git(root, "add", "vendor/lib")
    git(root, "commit", "-qm", "with a submodule")
    canary = tmp_path / "canary"
    tell = _script(tmp_path / "tell", f"touch {canary}; cat")
    git(sub, "config", "filter.inner.clean", str(tell))
    git(sub, "config", "filter.inner.process", str(tell))
    git(sub, "config", "filter.inner.required", "true")
    later = os.stat(sub / "lib.py").st_mtime + 120  # same bytes, newer: git must hash it
    os.utime(sub / "lib.py", (later, later))
    changed = changed_in_worktree(root, ["vendor/lib", "src/app.py"])
    assert not canary.exists(), "the nested repository's filter ran"
    assert changed == set()


def test_a_folder_laid_out_as_a_bare_repository_is_not_a_repository(tmp_path: Path) -> None:
    root, _ = _repository(tmp_path)
    bare = tmp_path / "unpacked"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    git(bare, "config", "log.showSignature", "true")
    git(bare, "config", "gpg.program", str(_script(tmp_path / "tell", f"touch {tmp_path}/c")))
    assert head(bare) is None
    assert commit_days(bare, ["src/app.py"]) == {}
    assert not (tmp_path / "c").exists()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_index_search_and_recall_on_a_repository_planting_every_setting(tmp_path: Path) -> None:
    root, _ = _repository(tmp_path)
    canary = tmp_path / "canary"
    env = dict(os.environ)
    for setting in SETTINGS:
        if setting.startswith("env:"):
            env.update(_plant(root, canary, setting))
        elif setting not in ("filter.clean.required", "filter.process", "filter.smudge"):
            _plant(root, canary, setting)  # one filter.x.clean at a time: the last wins

    def rubi(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [RUBI, *args],
            cwd=root,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=env,
        )

    indexed = rubi("index")
    assert indexed.returncode == 0, indexed.stderr
    found = rubi("search", "serve requests thread pool", "--json")
    assert found.returncode == 0, found.stderr
    assert "decision-serve" in found.stdout and "src/app.py" in found.stdout
    payload = {
        "session_id": "s1",
        "transcript_path": str(root / "none.jsonl"),
        "cwd": str(root),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "how do we serve requests with the thread pool?",
    }
    recalled = rubi("hook", "UserPromptSubmit", stdin=json.dumps(payload))
    assert recalled.returncode == 0, recalled.stderr
    assert not canary.exists()


def test_the_users_global_config_answers(tmp_path: Path, isolated_home: Path) -> None:
    root, _ = _repository(tmp_path)
    write(isolated_home / ".gitconfig", "[user]\n\temail = me@example.org\n")
    assert user_identity(root) == "me@example.org"
