"""The issue recall bench on a tiny real git repository: each task checked out at its
base commit, made a project, the hooks run as hooks.json runs them, and what they
injected counted against the files the fix changed; off-topic prompts counted silent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO, write

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import issue_recall

    return issue_recall


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "PATH": "/usr/bin:/bin", "HOME": str(repo.parent)}  # fmt: skip
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def ids_in(split: str, name: str, rule: Any, count: int) -> list[str]:
    """The first ``count`` ids ``someone/repo#N`` the split rule puts in ``split``."""
    found: list[str] = []
    number = 1
    while len(found) < count:
        qid = f"someone/repo#{number}"
        if rule(name, qid) == split:
            found.append(qid)
        number += 1
    return found


def write_set(folder: Path, name: str, kind: str, rows: list[dict[str, Any]], rule: Any) -> Path:
    meta = {"name": name, "kind": kind, "description": "handmade", "license": "CC0",
            "sources": [{"repo": "someone/repo", "commit": "a" * 40, "folder": ""}],
            "languages": ["en"],
            "split_rule": "sha256(name + ':' + id) first hex digit even -> dev, odd -> test",
            "made": "2026-01-01"}  # fmt: skip
    write(folder / "set.json", json.dumps(meta))
    lines = "".join(json.dumps({**r, "split": rule(name, r["id"])}) + "\n" for r in rows)
    write(folder / "queries.jsonl", lines)
    return folder


def test_names_file_takes_whole_paths_only(bench: ModuleType) -> None:
    context = "Files:\n- src/cli/parser.py#L3-9 (parse_quoted)\n- `lib/src/a.py` and src/a.pyi"
    assert bench.names_file(context, ["src/cli/parser.py"])
    assert not bench.names_file(context, ["cli/parser.py"])  # part of a longer path
    assert not bench.names_file(context, ["src/a.py"])  # only in lib/src/a.py, src/a.pyi
    assert not bench.names_file(context, [])
    assert bench.names_file("see docs/My Notes.md here", ["docs/My Notes.md"])


def test_the_hooks_config_is_read_from_the_plugin(bench: ModuleType) -> None:
    hooks = bench.load_hooks()
    assert "rubi hook UserPromptSubmit" in hooks["UserPromptSubmit"].command
    assert hooks["UserPromptSubmit"].timeout_s == 10
    assert "rubi hook SessionStart" in hooks["SessionStart"].command


def test_bench_counts_what_the_hooks_injected_at_each_base_commit(
    tmp_path: Path, bench: ModuleType
) -> None:
    import evalset

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "src/quoting.py", "def parse_quoted_string(text):\n"
          "    \"\"\"Split a shell line on quotes; escaped quotes stay inside.\"\"\"\n"
          "    return text.split('\"')\n")  # fmt: skip
    write(repo / "src/settings.py", "def load_toml_settings(path):\n    return {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD")
    name = "issues-handmade"
    dev = ids_in("dev", name, evalset.split_of, 2)
    test = ids_in("test", name, evalset.split_of, 1)
    prompt = ("parse_quoted_string splits escaped quotes\n\nCalling `parse_quoted_string` "
              "on a shell line with an escaped quote splits the quoted text in two; "
              "escaped quotes should stay inside the string.")  # fmt: skip

    def task(qid: str, relevant: str) -> dict[str, Any]:
        return {"id": qid, "repo": "someone/repo", "base_commit": base, "fix_commit": base,
                "title": prompt.split("\n")[0], "query": prompt, "relevant": [relevant],
                "relevant_all": [relevant], "lang": "en"}  # fmt: skip

    issues = write_set(
        tmp_path / "sets" / name, name, "issues",
        [task(dev[0], "src/quoting.py"), task(dev[1], "src/settings.py"),
         task(test[0], "src/quoting.py")],
        evalset.split_of,
    )  # fmt: skip
    kb_name = "kb-handmade"
    off_id = next(f"off{n}" for n in range(100) if evalset.split_of(kb_name, f"off{n}") == "dev")
    kb = write_set(
        tmp_path / "sets" / kb_name, kb_name, "notes",
        [{"id": off_id, "query": "How often should I change the engine oil in my car?",
          "relevant": [], "lang": "en"}],
        evalset.split_of,
    )  # fmt: skip
    out = tmp_path / "out.json"
    code = bench.main(["--set", f"{issues}={repo}", "--off-topic", str(kb), "--json", str(out)])
    assert code == 0
    report = json.loads(out.read_text())
    by_id = {t["id"]: t for t in report["tasks"]}
    assert set(by_id) == set(dev)  # the test half is not run without --final
    named = by_id[dev[0]]
    assert named["recall_named"] and named["recall_injected"] and not named["late"]
    # the same prompt, a changed file recall did not name: injected, not named
    assert by_id[dev[1]]["recall_injected"] and not by_id[dev[1]]["recall_named"]
    assert [o["id"] for o in report["off_topic"]] == [off_id]
    assert report["off_topic"][0] == {**report["off_topic"][0], "injected": False,
                                      "names_file": False, "asked_in": name}  # fmt: skip
    listed = git(repo, "worktree", "list", "--porcelain")
    assert listed.count("worktree ") == 1  # every checkout removed
    assert git(repo, "status", "--porcelain") == ""


def test_the_test_half_needs_final(bench: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--set", f"{tmp_path}={tmp_path}", "--split", "test"])
