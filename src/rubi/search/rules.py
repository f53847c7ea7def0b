"""Re-weighting rules applied to fused scores, each with the measurement that kept it.

After Reciprocal Rank Fusion (:mod:`rubi.search.fuse`) a candidate's score is
multiplied by the weight of the rules that apply to it. Every rule was kept because
the mean NDCG@10 of ``bench/code_search.py`` over its 9 repositories rose
(``docs/benchmarks.md``, "Experiments"); a rule that did not raise it was dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "GENERATED_PAGE_WEIGHT",
    "SECONDARY_FILE_WEIGHT",
    "TWIN_WEIGHT",
    "generated_page",
    "node_weight",
    "secondary_file",
    "variant_of",
    "wants_tests",
]

GENERATED_PAGE_WEIGHT = 0.25
"""Fused-score multiplier for generated map and module pages."""
SECONDARY_FILE_WEIGHT = 0.5
"""Fused-score multiplier for tests, examples and benchmarks."""
TWIN_WEIGHT = 0.5
"""Fused-score multiplier for a near-duplicate variant of a file ranked above it."""

_TESTS_WANTED = re.compile(r"(?i)\b(tests?|testing|spec|specs|examples?|benchmarks?|fixtures?)\b")


def wants_tests(text: str) -> bool:
    """Whether the query (with its terms) asks for tests, specs, examples, benchmarks
    or fixtures, which turns :func:`secondary_file` off."""
    return bool(_TESTS_WANTED.search(text))


def generated_page(node: Mapping[str, Any]) -> float | None:
    """×:data:`GENERATED_PAGE_WEIGHT` for a generated map or module page, else None
    (the rule does not apply).

    Why: a generated page repeats the titles of the notes and files it lists, so it
    matches their names as well as they do and pushed them down (found in the code
    map's new-user trial, commit "Code map fixes from a new-user trial"; the pages
    exist only in project vaults, so the code-search benchmark, which indexes code
    alone, does not measure it).
    """
    return GENERATED_PAGE_WEIGHT if node.get("generated") else None


def secondary_file(node: Mapping[str, Any], tests_wanted: bool) -> float | None:
    """×:data:`SECONDARY_FILE_WEIGHT` for a test, example or benchmark file unless the
    query asks for them (:func:`wants_tests`), else None.

    Why: such files mention everything they exercise, so they match a query as well as
    the code itself yet are rarely what it is about. Measured: mean NDCG@10 over the 9
    benchmark repositories 0.822 → 0.861 (``docs/benchmarks.md``, "tests, examples,
    benchmarks weigh half unless the query asks for them").
    """
    return SECONDARY_FILE_WEIGHT if node.get("secondary") and not tests_wanted else None


def node_weight(node: Mapping[str, Any], tests_wanted: bool) -> float:
    """The multiplier of the first rule that applies to ``node`` (a generated page is
    never also weighed as a test), 1.0 when none does."""
    for weight in (generated_page(node), secondary_file(node, tests_wanted)):
        if weight is not None:
            return weight
    return 1.0


def variant_of(twins: Iterable[str], above: set[str]) -> str | None:
    """The first (by id) near-duplicate of a file among the ids ranked ``above`` it, or
    None; such a file weighs :data:`TWIN_WEIGHT` and says "variant of …".

    Why: per-platform and build-tag twins (``binding.go`` / ``binding_nomsgpack.go``:
    same folder and language, top-level symbol names overlapping ≥ 80%,
    :func:`rubi.graph.code.twins`) add little after the first copy. Measured: mean
    NDCG@10 0.913 → 0.914 (``docs/benchmarks.md``, "near-duplicate variants").
    """
    found = sorted(above.intersection(twins))
    return found[0] if found else None
