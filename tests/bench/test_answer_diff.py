"""bench/mcp_bench.py compares a fresh server's first-minute answers with a warm
server's query by query (bench/answerdiff.py) and says which differ and how.

It once compared the two dicts whole: with ``--questions`` the first minute asks 120
queries and the warm run ``--calls`` (60) of them, so the dicts never matched and the
bench printed "the first-minute answers differ from the warm ones" on every run, with
no word of which answers or what in them (issue 29)."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from helpers import REPO


@pytest.fixture(scope="module")
def diff() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))
    import answerdiff

    return answerdiff


def answer(ids: list[str], text: str = "", **other: object) -> dict[str, object]:
    return {"query": "q", "relevant": True, "ids": ids, "omitted": 0, "text": text, **other}


def test_queries_one_side_asked_alone_are_not_a_difference(diff: ModuleType) -> None:
    first = {f"q{i}": answer([f"n{i}"]) for i in range(120)}
    warm = {f"q{i}": answer([f"n{i}"]) for i in range(60)}
    assert first != {q: warm[q] for q in first if q in warm}  # what the bench compared

    same = diff.compare_answers(first, warm)
    assert same.compared == 60
    assert same.differ == {}
    assert len(same.only_first) == 60 and same.only_second == []
    assert same.summary().startswith("0 of 60 answers differ")
    assert "60 asked by the first minute only" in same.summary()


def test_a_difference_names_the_query_and_what_moved(diff: ModuleType) -> None:
    first = {"sync": answer(["a", "b", "c"], "1. A\n2. B\n3. C"), "same": answer(["x"])}
    warm = {"sync": answer(["a", "c", "b"], "1. A\n2. C\n3. B"), "same": answer(["x"])}
    same = diff.compare_answers(first, warm)
    assert list(same.differ) == ["sync"]
    lines = same.differ["sync"]
    assert lines[0] == "ids: the same 3 in another order; moved: b (2 → 3), c (3 → 2)"
    assert "text - 2. B" in lines and "text + 2. C" in lines


def test_added_dropped_ids_and_other_fields_are_named(diff: ModuleType) -> None:
    lines = diff.describe(
        answer(["a", "b"], "t", relevant=True, omitted=3),
        answer(["a", "d"], "t", relevant=False, omitted=2),
    )
    assert lines == [
        "ids: 2 → 2; only first: b (rank 2); only second: d (rank 2)",
        "omitted: 3 → 2",
        "relevant: True → False",
    ]


def test_text_answers_and_equal_answers(diff: ModuleType) -> None:
    assert diff.describe(answer(["a"]), answer(["a"])) == []
    assert diff.describe("1. A\nwhy: bm25", "1. A\nwhy: bm25, dense") == [
        "text - why: bm25",
        "text + why: bm25, dense",
    ]
    assert diff.describe(answer(["a"]), "1. A") == ["answer kinds differ: dict vs str"]


def test_many_changed_ids_are_cut_and_counted(diff: ModuleType) -> None:
    first = [f"a{i}" for i in range(8)]
    line = diff.describe(answer(first), answer([]))[0]
    assert (
        line
        == "ids: 8 → 0; only first: "
        + ", ".join(f"a{i} (rank {i + 1})" for i in range(diff.MAX_IDS))
        + f" (+{8 - diff.MAX_IDS} more)"
    )


def test_many_changed_lines_are_cut_and_counted(diff: ModuleType) -> None:
    a = "\n".join(f"line {i}" for i in range(10))
    b = "\n".join(f"LINE {i}" for i in range(10))
    lines = diff.describe(answer(["a"], a), answer(["a"], b))
    assert len(lines) == diff.MAX_TEXT_LINES + 1
    assert lines[-1] == f"text: {20 - diff.MAX_TEXT_LINES} more changed lines"
