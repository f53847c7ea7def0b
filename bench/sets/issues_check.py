"""Check an issue → files evaluation set against the repository it names.

Usage::

    python bench/sets/issues_check.py bench/sets/issues-click PATH [PATH ...]

``PATH`` is a clone (a folder with ``.git``) or a bare git directory of the set's
repository. A set that spans several repositories takes one ``owner/name=PATH`` per
repository; a single bare ``PATH`` serves every task.

What is checked, and nothing else (the set's answers are never looked at by a
retrieval system here):

- ``set.json`` has the shared format's fields, and ``queries.jsonl`` parses, one
  object a line, with unique ids of the form ``owner/name#123``;
- each line's ``split`` is the one the rule gives: the first hex digit of
  ``sha256(set name + ":" + id)`` even → ``dev``, odd → ``test``;
- ``fix_commit`` and ``base_commit`` exist, and ``base_commit`` is the fix's first
  parent;
- every ``relevant`` file is in ``relevant_all`` and exists at ``fix_commit``;
- the query starts with the title;
- the optional ``truncated`` field, when present, is ``true`` or ``false`` (``true``
  marks an issue whose opening post was kept only up to a cut in a trailing log,
  traceback or template checklist).

Prints one line per problem (``<set>/queries.jsonl:<line>: <id>: <what is wrong>``),
then a count line on stderr. Exit status: 0 when nothing is wrong, 1 when a problem
was found, 2 when the arguments cannot be used.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

SHA_RE = re.compile(r"[0-9a-f]{40}")
REPO_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")
ID_RE = re.compile(r"(?P<repo>[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)#[0-9]+")
SET_FIELDS = ("name", "kind", "description", "license", "sources", "languages", "split_rule")
TASK_FIELDS = ("id", "repo", "base_commit", "fix_commit", "title", "query", "relevant")
GIT_TIMEOUT_S = 60


def split_of(set_name: str, task_id: str) -> str:
    """The split the shared rule gives a task: ``"dev"`` or ``"test"``.

    The first hex digit of ``sha256(set_name + ":" + task_id)`` (UTF-8) even → dev.
    """
    digit = hashlib.sha256(f"{set_name}:{task_id}".encode()).hexdigest()[0]
    return "dev" if int(digit, 16) % 2 == 0 else "test"


class Repo:
    """Read-only questions to one git repository (a clone or a bare git directory)."""

    def __init__(self, path: Path) -> None:
        self.git_dir = path / ".git" if (path / ".git").exists() else path

    def _git(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", f"--git-dir={self.git_dir}", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=GIT_TIMEOUT_S,
            check=False,
        )

    def is_repository(self) -> bool:
        return self._git("rev-parse", "--git-dir").returncode == 0

    def has_commit(self, sha: str) -> bool:
        return self._git("cat-file", "-e", f"{sha}^{{commit}}").returncode == 0

    def first_parent(self, sha: str) -> str | None:
        out = self._git("rev-parse", "--verify", "--quiet", f"{sha}^1")
        return out.stdout.strip() if out.returncode == 0 else None

    def has_file(self, sha: str, path: str) -> bool:
        out = self._git("cat-file", "-t", f"{sha}:{path}")
        return out.returncode == 0 and out.stdout.strip() == "blob"


def safe_repo_path(path: object) -> str | None:
    """``path`` when it is a plain relative POSIX path inside a repository, else None."""
    if not isinstance(path, str) or not path or "\\" in path or "\x00" in path:
        return None
    pure = PurePosixPath(path)
    if pure.is_absolute() or any(part in ("", ".", "..") for part in path.split("/")):
        return None
    if path.startswith("-"):
        return None
    return path


def check_set_json(folder: Path) -> tuple[str | None, list[str]]:
    """The set's name (None when unusable) and the problems found in ``set.json``."""
    where = folder / "set.json"
    try:
        meta = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [f"{where}: cannot be read as JSON ({exc}); write the set's metadata"]
    if not isinstance(meta, dict):
        return None, [f"{where}: is not a JSON object; write the set's metadata as one"]
    problems = [f"{where}: field {f!r} is missing" for f in SET_FIELDS if f not in meta]
    if meta.get("kind") != "issues":
        problems.append(f"{where}: kind is {meta.get('kind')!r}, this checker reads 'issues' sets")
    for source in meta.get("sources") or []:
        if not isinstance(source, dict) or not REPO_RE.fullmatch(str(source.get("repo", ""))):
            problems.append(f"{where}: source {source!r} has no owner/name 'repo'")
        elif not SHA_RE.fullmatch(str(source.get("commit", ""))):
            problems.append(f"{where}: source {source['repo']} has no 40-hex 'commit'")
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        problems.append(f"{where}: 'name' is not a non-empty string")
        return None, problems
    return name, problems


def read_tasks(where: Path) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """Each line of ``queries.jsonl`` as (line number, task or None, problem text)."""
    with where.open(encoding="utf-8", errors="strict") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                yield number, None, "blank line"
                continue
            try:
                task = json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, None, f"not JSON ({exc.msg})"
                continue
            if not isinstance(task, dict):
                yield number, None, "not a JSON object"
                continue
            yield number, task, ""


def as_list(value: object) -> list[Any]:
    """``value`` when it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def check_task(task: dict[str, Any], set_name: str, repo: Repo | None) -> list[str]:
    """The problems of one task (an empty list when it is sound)."""
    problems = [f"field {f!r} is missing" for f in TASK_FIELDS if f not in task]
    task_id = str(task.get("id", ""))
    match = ID_RE.fullmatch(task_id)
    if not match:
        problems.append(f"id {task_id!r} is not of the form owner/name#123")
    elif match["repo"] != task.get("repo"):
        problems.append(f"id names {match['repo']} but repo is {task.get('repo')!r}")
    expected = split_of(set_name, task_id)
    if task.get("split") != expected:
        problems.append(f"split is {task.get('split')!r}, the rule gives {expected!r}")
    title, query = task.get("title"), task.get("query")
    if not isinstance(title, str) or not isinstance(query, str) or not query.startswith(title):
        problems.append("query does not start with the title")
    if "truncated" in task and not isinstance(task["truncated"], bool):
        problems.append(f"truncated is {task['truncated']!r}, give true or false")
    relevant = as_list(task.get("relevant"))
    relevant_all = as_list(task.get("relevant_all"))
    if not relevant:
        problems.append("relevant is empty: a task needs a source file the fix changed")
    bad_paths = [p for p in relevant + relevant_all if safe_repo_path(p) is None]
    problems += [f"path {p!r} is not a relative path inside the repository" for p in bad_paths]
    problems += [
        f"relevant file {p} is not in relevant_all" for p in relevant if p not in relevant_all
    ]
    fix, base = str(task.get("fix_commit", "")), str(task.get("base_commit", ""))
    shas_ok = True
    for field, sha in (("fix_commit", fix), ("base_commit", base)):
        if not SHA_RE.fullmatch(sha):
            problems.append(f"{field} {sha!r} is not 40 lower-case hex digits")
            shas_ok = False
    if repo is None or not shas_ok:
        return problems
    return problems + check_commits(repo, fix, base, [p for p in relevant if p not in bad_paths])


def check_commits(repo: Repo, fix: str, base: str, relevant: list[str]) -> list[str]:
    """The problems of a task's commits and files in ``repo``."""
    problems = []
    for field, sha in (("fix_commit", fix), ("base_commit", base)):
        if not repo.has_commit(sha):
            problems.append(f"{field} {sha} is not in the repository (fetch it, or fix the id)")
    if problems:
        return problems
    parent = repo.first_parent(fix)
    if parent != base:
        problems.append(f"base_commit {base} is not the fix's first parent ({parent})")
    problems += [
        f"relevant file {p} does not exist at fix_commit {fix[:12]}"
        for p in relevant
        if not repo.has_file(fix, p)
    ]
    return problems


def parse_repos(values: list[str]) -> dict[str, Path] | Path:
    """One path for every task, or a mapping ``owner/name`` → path."""
    if len(values) == 1 and "=" not in values[0]:
        return Path(values[0])
    mapping = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not REPO_RE.fullmatch(name):
            raise ValueError(f"{value!r}: give owner/name=PATH for each repository")
        mapping[name] = Path(path)
    return mapping


def check(folder: Path, repos: dict[str, Path] | Path) -> list[str]:
    """Every problem of the set in ``folder``, one line each, in file order."""
    set_name, problems = check_set_json(folder)
    where = folder / "queries.jsonl"
    if set_name is None:
        return problems
    opened: dict[str, Repo] = {}

    def repo_for(name: str) -> Repo | None:
        path = repos if isinstance(repos, Path) else repos.get(name)
        if path is None:
            return None
        if name not in opened:
            opened[name] = Repo(path)
            if not opened[name].is_repository():
                problems.append(f"{path}: is not a git repository (give a clone or a git dir)")
        return opened[name] if opened[name].is_repository() else None

    seen: set[str] = set()
    try:
        for number, task, problem in read_tasks(where):
            prefix = f"{where}:{number}"
            if task is None:
                problems.append(f"{prefix}: {problem}")
                continue
            task_id = str(task.get("id", ""))
            if task_id in seen:
                problems.append(f"{prefix}: {task_id}: id appears twice")
            seen.add(task_id)
            repo = repo_for(str(task.get("repo", "")))
            if repo is None and not isinstance(repos, Path):
                problems.append(f"{prefix}: {task_id}: no PATH given for {task.get('repo')}")
            problems += [f"{prefix}: {task_id}: {p}" for p in check_task(task, set_name, repo)]
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{where}: cannot be read as UTF-8 text ({exc})")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_folder", type=Path, help="bench/sets/<set-name>")
    parser.add_argument("repos", nargs="+", help="PATH, or owner/name=PATH per repository")
    args = parser.parse_args(argv)
    try:
        repos = parse_repos(args.repos)
    except ValueError as exc:
        print(f"issues_check: {exc}", file=sys.stderr)
        return 2
    if not args.set_folder.is_dir():
        print(f"issues_check: {args.set_folder}: no such set folder", file=sys.stderr)
        return 2
    problems = check(args.set_folder, repos)
    for line in problems:
        print(line)
    print(f"{args.set_folder}: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
