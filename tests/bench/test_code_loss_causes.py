"""The code-search loss causes: the first cause that applies to a lost question."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def clc() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import code_loss_causes

    return code_loss_causes


@pytest.fixture
def repo(tmp_path: Path, clc: ModuleType) -> Any:
    files = {
        "retry.go": "package x\n// Retry runs the call again after a failure with backoff\n",
        "client.go": "package x\n// Client sends requests and retries them after a failure\n",
        "pool.go": "package x\n// Pool keeps idle connections\n",
        "pool_test.go": "package x\n// tests of the pool: retries, failure, backoff, connections\n",
        "README.md": "retry failure backoff\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    return clc.Repository.of(tmp_path)


def row(results: list[str], bm25: int | None, query: str = "retry after a failure") -> dict:
    return {
        "query": query,
        "targets": ["retry.go"],
        "results": results,
        "ranks": {"bm25": bm25, "names": None, "graph": None, "fused": None},
    }


def test_only_code_files_are_read(repo: Any) -> None:
    assert sorted(repo.files) == ["client.go", "pool.go", "pool_test.go", "retry.go"]


def test_causes_in_the_order_of_the_search(clc: ModuleType, repo: Any) -> None:
    assert clc.cause(row(["client.go"], None), repo)[0] == "not in the text list"
    assert clc.cause(row(["pool_test.go", "retry.go"], 2), repo)[0] == "tests or examples first"
    assert clc.cause(row(["client.go", "retry.go"], 1), repo)[0] == "fusion"


def test_a_vocabulary_gap_is_the_answer_holding_less_of_the_question(
    clc: ModuleType, repo: Any
) -> None:
    asked = row(["client.go", "retry.go"], 2, "send requests again after a failure")
    why, answer, above = clc.cause(asked, repo)
    assert why == "vocabulary gap" and answer < above - clc.GAP


def test_a_file_named_by_a_question_word_else_ranking(clc: ModuleType, repo: Any) -> None:
    named = row(["pool.go", "retry.go"], 2, "retry after a failure in the pool")
    assert clc.cause(named, repo)[0] == "file named by a question word"
    assert clc.cause(row(["client.go", "retry.go"], 2), repo)[0] == "ranking"


def test_languages_of_a_set_and_the_table_by_language(clc: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "repos.json").write_text(
        '[{"name": "a", "language": "Go"}, {"name": "b", "language": "Rust"}, {"name": "c"}]',
        encoding="utf-8",
    )
    assert clc.languages_of(tmp_path) == {"a": "go", "b": "rust", "c": "?"}
    counts = {
        "rust": clc.Counter({"ranking": 1}),
        "go": clc.Counter({"vocabulary gap": 2, "fusion": 1}),
    }
    lines = clc.table("language", counts)
    assert lines[0].startswith("language | lost | not in the text list")
    assert lines[1] == "go | 3 | 0 | 0 | 1 | 2 | 0 | 0"
    assert lines[2] == "rust | 1 | 0 | 0 | 0 | 0 | 0 | 1"
    assert lines[3] == "all | 4 | 0 | 0 | 1 | 2 | 0 | 1"
