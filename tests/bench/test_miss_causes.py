"""The miss-cause bench: each miss's step, what ranked above it, and the report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def mc() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import miss_causes

    return miss_causes


def test_first_absent_and_dense_only(mc: ModuleType) -> None:
    assert mc.cause(mc.Steps(1, 3, 2, 1)) == "first"
    assert mc.cause(mc.Steps(None, None, None, None)) == "absent"
    assert mc.cause(mc.Steps(None, None, None, 30, dense=4)) == "dense only"
    # a name or the graph found it: not absent, and the steps say where it was lost
    assert mc.cause(mc.Steps(6, None, None, 6, names=1)) == "text list (BM25F)"


def test_the_step_that_moved_it_furthest_down(mc: ModuleType) -> None:
    assert mc.cause(mc.Steps(4, 4, 4, 4)) == "text list (BM25F)"
    assert mc.cause(mc.Steps(7, 1, 7, 7)) == "note window"
    assert mc.cause(mc.Steps(9, 2, 2, 9)) == "fusion (names, graph, dense)"
    assert mc.cause(mc.Steps(5, 1, 1, 1)) == "collapse"
    assert mc.cause(mc.Steps(3, 2, 3, 3)) == "text list (BM25F)"  # a tie: the earlier
    assert mc.cause(mc.Steps(None, 40, 12, 30)) == "text list (BM25F)"  # capped at 11


def test_what_ranked_above_the_answer(mc: ModuleType) -> None:
    words = {f"a/p{i}.md": 100 for i in range(20)} | {"b/x.md": 400, "b/y.md": 90}
    assert mc.above("b/y.md", "b/x.md", 4.0, 4.2, words) == [
        "same folder",
        "longer page",
        "near tie",
    ]
    # a folder holding most of the vault makes no siblings; a shorter page, clearly ahead
    assert mc.above("a/p1.md", "a/p2.md", 2.0, 9.0, words | {"a/p2.md": 30}) == [
        "shorter page",
        "clear",
    ]
    assert mc.above("b/y.md", "a/p1.md", 1.0, 1.0, {}) == ["near tie"]  # no lengths known


def test_question_share_counts_content_word_stems(mc: ModuleType) -> None:
    page = "Resizing a volume: the disks are enlarged while mounted."
    assert mc.question_share("How do I resize my disk?", page) == 1.0
    assert mc.question_share("How do I resize my backup?", page) == 0.5
    assert mc.question_share("how do I", page) == 0.0


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_report_matches_lines_by_query_and_channel(mc: ModuleType, tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "d").mkdir(parents=True)
    (root / "d" / "a.md").write_text("disk resize steps", encoding="utf-8")
    (root / "d" / "b.md").write_text("other words " * 50, encoding="utf-8")

    dump = []
    for system in ("rubi", "rubi-semantic", "bm25s"):
        dump.append(
            {
                "set": "s",
                "id": "q1",
                "system": system,
                "query": "resize disk",
                "results": ["d/b.md", "d/a.md"],
                "relevant": ["d/a.md"],
            }
        )
        dump.append(
            {
                "set": "s",
                "id": "q2",
                "system": system,
                "query": "off topic",
                "results": ["d/b.md"],
                "relevant": [],
            }
        )
    missed = {
        "raw": [["d/b.md", 5.0], ["d/a.md", 4.9]],
        "window": [["d/a.md", 3.0]],
        "fused": [["d/b.md", 0.1], ["d/a.md", 0.09]],
    }
    steps = [
        {"query": mc.WARM_UP, "sem": False, "raw": [["d/a.md", 1.0]]},
        {"query": "resize disk", "sem": False, **missed},
        {"query": "off topic", "sem": False},
        {"query": "resize disk", "sem": True, "dense": [["d/a.md", 0.5]]},
    ]
    _write(tmp_path / "dump.jsonl", dump)
    _write(tmp_path / "steps.jsonl", steps)
    text = mc.report([f"{tmp_path / 'dump.jsonl'}:{tmp_path / 'steps.jsonl'}:{root}"], False)
    lines = text.splitlines()
    # BM25F put the answer second (window first, fusion second again): the earlier step
    assert lines[0] == "s rubi: text list (BM25F) 1; above: longer page 1, above: near tie 1"
    assert lines[1] == "s rubi-semantic: dense only 1"  # matched by query and channel
    assert "question words in the answer page, mean: text list (BM25F) 100% (1)" in text
