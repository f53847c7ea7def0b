"""Check an evaluation set folder (``bench/sets/<name>/``) against the shared set format.

Usage::

    python bench/sets_check.py bench/sets/<name> [--checkout DIR]

A set folder holds ``set.json`` (name, kind ``notes``, ``issues`` or ``code``,
description, license, sources ``[{"repo", "commit", "folder"}]``, languages,
split_rule, made) and ``queries.jsonl`` (one question a line); a ``code`` set holds,
instead of ``queries.jsonl``, the public code-search benchmark's files:
``repos.json`` (``[{"name", "language", "url", "revision"}]``, each revision one of
the sources' commits) and ``annotations/<name>.json`` per repository (a list of
``{"id", "query", "relevant", "secondary", "category", "split"}``, ids unique in the
set, category one of semble's). The split of every line is fixed by its id
alone, before any system runs on the set: ``sha256(name + ":" + id)``, first hex digit
even -> ``dev``, odd -> ``test``. This script never runs a retrieval system; it checks
only what the format promises:

- ``set.json`` has every field, with the right types; each source commit is 40 hex;
- every line parses, has the fields of its kind, a unique id, a ``split`` equal to the
  rule's, a ``lang`` among the set's languages;
- both splits are non-empty;
- with ``--checkout DIR`` (a checkout of the single source at its recorded commit),
  every ``relevant`` path is a regular file inside ``DIR/<folder>`` (no symlink, no
  ``..``), and, when ``DIR`` is a git work tree, its ``HEAD`` is the recorded commit.

Exit status 0 when the set is well formed, 1 with one line per problem otherwise, 2 on
a usage error (a folder or checkout that does not exist).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

SPLIT_RULE = "sha256(name + ':' + id) first hex digit even -> dev, odd -> test"
KINDS = ("notes", "issues", "code")
CODE_CATEGORIES = ("architecture", "semantic", "symbol")
CODE_FIELDS: dict[str, type] = {
    "id": str,
    "query": str,
    "relevant": list,
    "secondary": list,
    "category": str,
    "split": str,
}
HEX40 = re.compile(r"^[0-9a-f]{40}$")
# the checkout is untrusted: no hook and no fsmonitor command from its .git/config run
GIT_SAFE = ("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SET_FIELDS: dict[str, type] = {
    "name": str,
    "kind": str,
    "description": str,
    "license": str,
    "sources": list,
    "languages": list,
    "split_rule": str,
    "made": str,
}
QUERY_FIELDS: dict[str, dict[str, type]] = {
    "notes": {"id": str, "query": str, "relevant": list, "split": str, "lang": str},
    "issues": {
        "id": str,
        "repo": str,
        "base_commit": str,
        "fix_commit": str,
        "title": str,
        "query": str,
        "relevant": list,
        "relevant_all": list,
        "split": str,
        "lang": str,
    },
}


def split_for(name: str, query_id: str) -> str:
    """The split a query belongs to, from the set name and the query id alone.

    Args:
        name: the set's name (``set.json`` ``name``).
        query_id: the query's ``id``.

    Returns:
        ``"dev"`` when the first hex digit of ``sha256(name + ":" + id)`` (UTF-8) is
        even, ``"test"`` when it is odd.
    """
    digest = hashlib.sha256(f"{name}:{query_id}".encode()).hexdigest()
    return "dev" if int(digest[0], 16) % 2 == 0 else "test"


def _typed(record: dict[str, Any], fields: dict[str, type], where: str) -> list[str]:
    problems = []
    for key, kind in fields.items():
        if key not in record:
            problems.append(f"{where}: missing field {key!r}")
        elif not isinstance(record[key], kind):
            problems.append(f"{where}: field {key!r} must be a {kind.__name__}")
    return problems


def check_meta(meta: Any, where: str) -> list[str]:
    """Problems with a parsed ``set.json``; an empty list when it is well formed."""
    if not isinstance(meta, dict):
        return [f"{where}: must hold one JSON object"]
    problems = _typed(meta, SET_FIELDS, where)
    if problems:
        return problems
    if meta["kind"] not in KINDS:
        problems.append(f"{where}: kind must be one of {', '.join(KINDS)}")
    if meta["split_rule"] != SPLIT_RULE:
        problems.append(f"{where}: split_rule must read {SPLIT_RULE!r}")
    if not DATE.match(meta["made"]):
        problems.append(f"{where}: made must be YYYY-MM-DD")
    if not meta["languages"] or not all(isinstance(x, str) for x in meta["languages"]):
        problems.append(f"{where}: languages must list at least one language code")
    if not meta["sources"]:
        problems.append(f"{where}: sources must name at least one repository")
    for i, source in enumerate(meta["sources"]):
        at = f"{where}: sources[{i}]"
        if not isinstance(source, dict):
            problems.append(f"{at} must be an object")
            continue
        problems += _typed(source, {"repo": str, "commit": str, "folder": str}, at)
        if not HEX40.match(str(source.get("commit", ""))):
            problems.append(f"{at}: commit must be 40 lowercase hex digits")
        if not _safe_relative(str(source.get("folder", "x")), allow_empty=True):
            problems.append(f"{at}: folder must be a relative path without '..'")
    return problems


def _safe_relative(path: str, *, allow_empty: bool = False) -> bool:
    if path == "":
        return allow_empty
    pure = PurePosixPath(path)
    return not pure.is_absolute() and ".." not in pure.parts and "\\" not in path


def check_queries(meta: dict[str, Any], lines: list[str], where: str) -> list[str]:
    """Problems with the lines of ``queries.jsonl`` given the set's parsed ``set.json``."""
    problems: list[str] = []
    fields = QUERY_FIELDS[meta["kind"]]
    seen: set[str] = set()
    splits = {"dev": 0, "test": 0}
    for number, line in enumerate(lines, start=1):
        at = f"{where}:{number}"
        if not line.strip():
            problems.append(f"{at}: empty line; remove it")
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{at}: not JSON ({exc.msg})")
            continue
        if not isinstance(record, dict):
            problems.append(f"{at}: must hold one JSON object")
            continue
        typed = _typed(record, fields, at)
        if typed:
            problems += typed
            continue
        query_id = record["id"]
        if query_id in seen:
            problems.append(f"{at}: id {query_id!r} appears more than once")
        seen.add(query_id)
        expected = split_for(meta["name"], query_id)
        if record["split"] != expected:
            problems.append(f"{at}: split is {record['split']!r}, the rule gives {expected!r}")
        else:
            splits[expected] += 1
        if record["lang"] not in meta["languages"]:
            problems.append(f"{at}: lang {record['lang']!r} is not among the set's languages")
        if not record["query"].strip():
            problems.append(f"{at}: empty query")
        for path in record["relevant"]:
            if not isinstance(path, str) or not _safe_relative(path):
                problems.append(f"{at}: relevant path {path!r} must be relative, without '..'")
    for split, count in splits.items():
        if count == 0:
            problems.append(f"{where}: the {split} split is empty")
    return problems


def check_paths(meta: dict[str, Any], lines: list[str], checkout: Path, where: str) -> list[str]:
    """Problems with ``relevant`` paths against a checkout of the set's source.

    Args:
        meta: the parsed ``set.json`` (notes sets: one source).
        lines: the lines of ``queries.jsonl``.
        checkout: the root of a checkout of ``sources[0]`` at its recorded commit.
        where: the name of the queries file, for the messages.

    Returns:
        One message per path that is not a regular file inside ``checkout/<folder>``
        (symlinks refused), plus one when the checkout's git ``HEAD`` differs from the
        recorded commit.
    """
    problems: list[str] = []
    source = meta["sources"][0]
    commit = _git_head(checkout)
    if commit is not None and commit != source["commit"]:
        problems.append(
            f"{checkout}: HEAD is {commit}, the set was made at {source['commit']};"
            " check out the recorded commit"
        )
    base = (checkout / source["folder"]).resolve()
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        for path in record.get("relevant", []):
            if not isinstance(path, str) or not _safe_relative(path):
                continue
            target = base / path
            if target.is_symlink() or not target.is_file():
                problems.append(f"{where}:{number}: relevant {path!r} is not a file in {base}")
            elif not target.resolve().is_relative_to(base):
                problems.append(f"{where}:{number}: relevant {path!r} leaves {base}")
    return problems


def _git_env() -> dict[str, str]:
    """The environment minus every ``GIT_*`` variable, with no system or global config."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    return env | {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def _git_head(checkout: Path) -> str | None:
    if not (checkout / ".git").exists():
        return None
    done = subprocess.run(
        [*GIT_SAFE, "rev-parse", "--verify", "HEAD"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
        env=_git_env(),
    )
    return done.stdout.strip() if done.returncode == 0 else None


def _json(path: Path) -> tuple[Any, str | None]:
    """A file's parsed JSON, or None and the problem."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        return None, f"{path}: not readable UTF-8 JSON ({exc}); fix the file"


def check_code(meta: dict[str, Any], folder: Path, checkout: Path | None) -> list[str]:
    """Problems with a ``code`` set's ``repos.json`` and ``annotations/`` (and, with
    ``checkout``, a folder of one checkout per repository ``name``, every ``relevant``
    and ``secondary`` path a regular file in it)."""
    repos_path = folder / "repos.json"
    repos, problem = _json(repos_path)
    if problem is not None:
        return [problem]
    if not isinstance(repos, list) or not repos:
        return [f"{repos_path}: must list at least one repository"]
    commits = {str(s.get("commit")) for s in meta["sources"] if isinstance(s, dict)}
    problems: list[str] = []
    seen: set[str] = set()
    splits = {"dev": 0, "test": 0}
    for i, repo in enumerate(repos):
        at = f"{repos_path}[{i}]"
        if not isinstance(repo, dict):
            problems.append(f"{at}: must be an object")
            continue
        typed = _typed(repo, {"name": str, "language": str, "url": str, "revision": str}, at)
        if typed:
            problems += typed
            continue
        name = repo["name"]
        if not _safe_relative(name) or "/" in name:
            problems.append(f"{at}: name {name!r} must be a plain file name")
            continue
        if repo["revision"] not in commits:
            problems.append(f"{at}: revision {repo['revision']} is not among set.json's sources")
        where = folder / "annotations" / f"{name}.json"
        entries, problem = _json(where)
        if problem is not None or not isinstance(entries, list):
            problems.append(problem or f"{where}: must hold a JSON list")
            continue
        root = None
        if checkout is not None:
            root = (checkout / name / str(repo.get("benchmark_root") or "")).resolve()
        for n, entry in enumerate(entries):
            problems += _check_code_entry(meta["name"], entry, f"{where}[{n}]", root, seen, splits)
    for split, count in splits.items():
        if count == 0:
            problems.append(f"{folder}: the {split} split is empty")
    return problems


def _check_code_entry(
    name: str, entry: Any, at: str, root: Path | None, seen: set[str], splits: dict[str, int]
) -> list[str]:
    """Problems with one annotation entry of a ``code`` set (``seen`` ids and ``splits``
    counts updated)."""
    if not isinstance(entry, dict):
        return [f"{at}: must be an object"]
    problems = _typed(entry, CODE_FIELDS, at)
    if problems:
        return problems
    if entry["id"] in seen:
        problems.append(f"{at}: id {entry['id']!r} appears more than once")
    seen.add(entry["id"])
    expected = split_for(name, entry["id"])
    if entry["split"] != expected:
        problems.append(f"{at}: split is {entry['split']!r}, the rule gives {expected!r}")
    else:
        splits[expected] += 1
    if entry["category"] not in CODE_CATEGORIES:
        problems.append(f"{at}: category must be one of {', '.join(CODE_CATEGORIES)}")
    if not entry["query"].strip() or not entry["relevant"]:
        problems.append(f"{at}: empty query or no relevant file")
    for path in [*entry["relevant"], *entry["secondary"]]:
        if not isinstance(path, str) or not _safe_relative(path):
            problems.append(f"{at}: path {path!r} must be relative, without '..'")
        elif root is not None and ((root / path).is_symlink() or not (root / path).is_file()):
            problems.append(f"{at}: {path!r} is not a file in {root}")
    return problems


def check_set(folder: Path, checkout: Path | None = None) -> list[str]:
    """Every problem with a set folder, one line each; an empty list when it is well formed."""
    meta_path = folder / "set.json"
    queries_path = folder / "queries.jsonl"
    problems = [
        f"{path}: missing; every set folder needs it"
        for path in (meta_path, folder / "README.md")
        if not path.is_file()
    ]
    if problems:
        return problems
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return [f"{meta_path}: not UTF-8 JSON ({exc}); fix the file"]
    problems = check_meta(meta, str(meta_path))
    if problems:
        return problems
    if meta["name"] != folder.name:
        problems.append(f"{meta_path}: name {meta['name']!r} differs from the folder's name")
    if meta["kind"] == "code":
        return problems + check_code(meta, folder, checkout)
    if not queries_path.is_file():
        return [*problems, f"{queries_path}: missing; every set folder needs it"]
    try:
        lines = queries_path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return [*problems, f"{queries_path}: not UTF-8; re-save it as UTF-8"]
    problems += check_queries(meta, lines, str(queries_path))
    if checkout is not None:
        problems += check_paths(meta, lines, checkout, str(queries_path))
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check one set folder; print one line per problem; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the set folder, bench/sets/<name>")
    parser.add_argument(
        "--checkout",
        type=Path,
        help="a checkout of the source at its commit (code sets: a folder of one per name)",
    )
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: not a folder; name a set folder such as bench/sets/<name>")
        return 2
    if args.checkout is not None and not args.checkout.is_dir():
        print(f"{args.checkout}: not a folder; clone the source and check out its commit")
        return 2
    problems = check_set(args.folder, args.checkout)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{args.folder}: well formed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
