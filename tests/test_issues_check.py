"""The issue → files set checker on a real git repository made in tmp_path: a sound set
passes, and each broken fact is named on its own line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script


@pytest.fixture(scope="module")
def checker() -> ModuleType:
    return load_script("bench/sets/issues_check.py")


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "PATH": "/usr/bin:/bin:/usr/local/bin",
    }
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A clone with a base commit and a fix touching a source file and a test."""
    path = tmp_path / "clone"
    (path / "pkg").mkdir(parents=True)
    (path / "tests").mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "pkg" / "core.py").write_text("x = 1\n", encoding="utf-8")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "base")
    base = git(path, "rev-parse", "HEAD")
    (path / "pkg" / "core.py").write_text("x = 2\n", encoding="utf-8")
    (path / "tests" / "test_core.py").write_text("def test(): pass\n", encoding="utf-8")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "Fix #7")
    return path, base, git(path, "rev-parse", "HEAD")


def write_set(folder: Path, checker: ModuleType, tasks: list[dict[str, object]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    meta = {
        "name": folder.name,
        "kind": "issues",
        "description": "d",
        "license": "MIT",
        "sources": [{"repo": "o/r", "commit": "0" * 40, "folder": ""}],
        "languages": ["en"],
        "split_rule": "sha256(name + ':' + id) first hex digit even -> dev, odd -> test",
    }
    (folder / "set.json").write_text(json.dumps(meta), encoding="utf-8")
    lines = [json.dumps(t) for t in tasks]
    (folder / "queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def task(
    checker: ModuleType, set_name: str, base: str, fix: str, **over: object
) -> dict[str, object]:
    row: dict[str, object] = {
        "id": "o/r#7",
        "repo": "o/r",
        "base_commit": base,
        "fix_commit": fix,
        "title": "Crash",
        "query": "Crash\n\nIt crashes.",
        "relevant": ["pkg/core.py"],
        "relevant_all": ["pkg/core.py", "tests/test_core.py"],
        "split": checker.split_of(set_name, "o/r#7"),
        "lang": "en",
    }
    row.update(over)
    return row


def test_split_follows_the_first_hex_digit_of_the_sha256(checker: ModuleType) -> None:
    import hashlib

    for task_id in ("a/b#1", "a/b#2", "a/b#3", "a/b#40"):
        digit = int(hashlib.sha256(f"issues-x:{task_id}".encode()).hexdigest()[0], 16)
        assert checker.split_of("issues-x", task_id) == ("dev" if digit % 2 == 0 else "test")


def test_a_sound_set_has_no_problem_with_a_clone_or_a_bare_git_dir(
    checker: ModuleType, repo: tuple[Path, str, str], tmp_path: Path
) -> None:
    path, base, fix = repo
    folder = tmp_path / "issues-r"
    write_set(folder, checker, [task(checker, folder.name, base, fix)])
    assert checker.check(folder, path) == []
    assert checker.check(folder, path / ".git") == []
    assert checker.main([str(folder), str(path)]) == 0


def test_each_broken_fact_is_one_line_naming_the_task(
    checker: ModuleType, repo: tuple[Path, str, str], tmp_path: Path
) -> None:
    path, base, fix = repo
    folder = tmp_path / "issues-r"
    wrong_split = "test" if checker.split_of(folder.name, "o/r#7") == "dev" else "dev"
    tasks = [
        task(checker, folder.name, base, fix, split=wrong_split),
        task(
            checker, folder.name, fix, fix, id="o/r#8", split=checker.split_of(folder.name, "o/r#8")
        ),
        task(
            checker,
            folder.name,
            base,
            fix,
            id="o/r#9",
            split=checker.split_of(folder.name, "o/r#9"),
            relevant=["pkg/gone.py", "../etc/passwd"],
            relevant_all=["pkg/gone.py"],
        ),
        task(
            checker,
            folder.name,
            "f" * 40,
            fix,
            id="o/r#10",
            split=checker.split_of(folder.name, "o/r#10"),
        ),
    ]
    write_set(folder, checker, tasks)
    problems = checker.check(folder, path)
    text = "\n".join(problems)
    assert f"o/r#7: split is '{wrong_split}'" in text
    assert "o/r#8: base_commit" in text and "is not the fix's first parent" in text
    assert "o/r#9: relevant file pkg/gone.py does not exist at fix_commit" in text
    assert "o/r#9: path '../etc/passwd' is not a relative path inside the repository" in text
    assert f"o/r#10: base_commit {'f' * 40} is not in the repository" in text
    assert all(line.startswith(f"{folder / 'queries.jsonl'}:") for line in problems)
    assert checker.main([str(folder), str(path)]) == 1


def test_unusable_input_is_named_not_raised(
    checker: ModuleType, repo: tuple[Path, str, str], tmp_path: Path
) -> None:
    path, base, fix = repo
    folder = tmp_path / "issues-r"
    write_set(folder, checker, [task(checker, folder.name, base, fix)])
    with (folder / "queries.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    problems = checker.check(folder, path)
    where = folder / "queries.jsonl"
    assert problems == [f"{where}:2: not JSON (Expecting property name enclosed in double quotes)"]
    not_git = tmp_path / "plain"
    not_git.mkdir()
    assert any("is not a git repository" in p for p in checker.check(folder, not_git))
    assert checker.main([str(folder), "bad=name=x", "o/r=y"]) == 2
