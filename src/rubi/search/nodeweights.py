"""A fused candidate's own weight, from what its node is: tests, examples and
benchmarks, generated map pages, TypeScript declaration files, and a near-duplicate
variant of a file ranked above it.

After Reciprocal Rank Fusion (:mod:`rubi.search.fuse`) a candidate's score is
multiplied by the weight of the first rule that applies to it
(:func:`rubi.search.engine.fuse`). Every rule was kept because the mean NDCG@10 of
``bench/code_search.py`` over its 9 repositories rose (``docs/benchmarks-history.md``,
"Experiments"), and the declaration-file rule on the development halves of the unseen
code sets ("issue 28: declaration files, nineteenth pass"); a rule that did not raise
it was dropped.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping

from rubi.core.filekinds import is_declaration_path, is_example_path, is_test_path

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "DECLARATION_FILE_WEIGHT",
    "GENERATED_PAGE_WEIGHT",
    "SECONDARY_FILE_WEIGHT",
    "TWIN_WEIGHT",
    "common_twin",
    "declaration_file",
    "declarations_named",
    "generated_page",
    "node_weight",
    "secondary_file",
    "variant_of",
    "wants_declarations",
    "wants_tests",
]

GENERATED_PAGE_WEIGHT = 0.25
"""Fused-score multiplier for generated map and module pages."""
SECONDARY_FILE_WEIGHT = 0.5
"""Fused-score multiplier for tests, examples and benchmarks."""
TWIN_WEIGHT = 0.5
"""Fused-score multiplier for a near-duplicate variant of a file ranked above it."""
DECLARATION_FILE_WEIGHT = 0.5
"""Fused-score multiplier for a TypeScript declaration file (``.d.ts``)."""

_TESTS_WANTED = re.compile(
    r"(?i)\b(tests?|testing|spec|specs|examples?|samples?|demos?|benchmarks?|fixtures?)\b"
)


def wants_tests(text: str) -> bool:
    """Whether the query (with its terms) asks for tests, specs, examples (samples,
    demos: the folder names :func:`rubi.core.filekinds.is_example_path` reads as
    examples), benchmarks or fixtures, which turns :func:`secondary_file` off."""
    return bool(_TESTS_WANTED.search(text))


_DECLARATIONS_WANTED = re.compile(
    r"(?i)\b(typings?|typescript|declarations?|declared|d\.[mc]?ts)\b"
)


def wants_declarations(text: str) -> bool:
    """Whether the query (with its terms) asks for type declarations (``typings``,
    ``TypeScript``, ``declarations``, ``.d.ts``), which turns
    :func:`declaration_file` off."""
    return bool(_DECLARATIONS_WANTED.search(text))


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
    """×:data:`SECONDARY_FILE_WEIGHT` for a test, example or benchmark file
    (:func:`rubi.core.filekinds.is_test_path`, ``is_example_path``, read from the
    file's path here, so a graph built under older rules weighs its files by the
    current ones) unless the query asks for them (:func:`wants_tests`), else None.

    Why: such files mention everything they exercise, so they match a query as well as
    the code itself yet are rarely what it is about. Measured: mean NDCG@10 over the 9
    benchmark repositories 0.822 → 0.861 (``docs/benchmarks-history.md``, "Experiments": tests,
    examples and benchmarks weigh half unless the query asks for them).
    """
    if tests_wanted or node.get("kind") != "file":
        return None
    return SECONDARY_FILE_WEIGHT if _secondary_path(str(node.get("path", ""))) else None


@functools.lru_cache(maxsize=16384)
def _secondary_path(path: str) -> bool:
    """Whether ``path`` is a test, example or benchmark: two regular expressions, about
    5 µs a path, so a long-lived process asks them once a path (a warm search weighs
    50 to 120 code candidates)."""
    return is_test_path(path) or is_example_path(path)


def declaration_file(node: Mapping[str, Any], declarations_wanted: bool) -> float | None:
    """×:data:`DECLARATION_FILE_WEIGHT` for a TypeScript declaration file
    (:func:`rubi.core.filekinds.is_declaration_path`) unless the query asks for
    declarations (:func:`wants_declarations`), else None.

    Why: a package's hand-written ``index.d.ts`` restates the names and doc comments
    of its whole API in one file, so it holds some words of any question about any
    module while the module that does the work holds its own; it came first above the
    answer in four of pino's nine development questions (``pino.d.ts``: "imported
    by" the type tests, text list first). Measured in ``docs/benchmarks-history.md``,
    "issue 28: declaration files, nineteenth pass".
    """
    if node.get("kind") != "file" or declarations_wanted:
        return None
    return DECLARATION_FILE_WEIGHT if is_declaration_path(str(node.get("path", ""))) else None


def declarations_named(
    matches: Iterable[tuple[str, str]], path_of: Callable[[str], str]
) -> set[str]:
    """The declaration files among the voting name matches (``(id, name)`` pairs; a
    file's path by ``path_of``) whose name no other file of the matches carries: the
    type the question names is defined only there (``OptionValueSource`` in
    commander's ``index.d.ts``), so :func:`declaration_file` does not apply to them.
    A name the implementation defines too (``CanceledError``, a class in
    ``lib/cancel/CanceledError.js`` and in ``index.d.ts``) exempts none of them."""
    owners: dict[str, list[str]] = {}
    for doc_id, name in matches:
        owners.setdefault(name, []).append(doc_id)
    return {
        doc_id
        for ids in owners.values()
        if all(is_declaration_path(path_of(i)) for i in ids)
        for doc_id in ids
    }


def node_weight(
    node: Mapping[str, Any], tests_wanted: bool, declarations_wanted: bool = False
) -> float:
    """The multiplier of the first rule that applies to ``node`` (a generated page is
    never also weighed as a test), 1.0 when none does."""
    for weight in (
        generated_page(node),
        secondary_file(node, tests_wanted),
        declaration_file(node, declarations_wanted),
    ):
        if weight is not None:
            return weight
    return 1.0


def variant_of(twins: Iterable[str], above: set[str]) -> str | None:
    """The first (by id) near-duplicate of a file among the ids ranked ``above`` it, or
    None; such a file weighs :data:`TWIN_WEIGHT` and says "variant of …".

    Why: per-platform and build-tag twins (``binding.go`` / ``binding_nomsgpack.go``:
    same folder and language, top-level symbol names overlapping ≥ 80%,
    :func:`rubi.graph.code.twins`) add little after the first copy. Measured: mean
    NDCG@10 0.913 → 0.914 (``docs/benchmarks-history.md``, "Experiments").
    """
    found = sorted(above.intersection(twins))
    return found[0] if found else None


_SOURCE_SET = re.compile(r"(?:^|/)src/([a-z][A-Za-z0-9]*)Main/")


def common_twin(path: str) -> str | None:
    """The path of the same file in the ``commonMain`` source set, for a file of
    another ``<platform>Main`` source set of a Kotlin Multiplatform module
    (``okio/src/jvmMain/kotlin/okio/HashingSink.kt`` →
    ``okio/src/commonMain/kotlin/okio/HashingSink.kt``); None for any other path.
    Whether that file exists is the caller's to check.

    Why: a multiplatform module declares its API once in ``commonMain`` (``expect``
    declarations, with their KDoc) and implements it in a file of the same name per
    platform (``actual``), so the platform files repeat the common file's names and
    words in other folders, out of :func:`rubi.graph.code.twins`' reach. Below the
    common file they weigh :data:`TWIN_WEIGHT` as its variants (the common file is
    never a variant of one of them). Measured in ``docs/benchmarks-history.md``,
    "issue 28: Kotlin, twentieth pass".
    """
    m = _SOURCE_SET.search(path) if "Main/" in path else None  # most paths: no regex
    if m is None or m.group(1) == "common":
        return None
    return f"{path[: m.start(1)]}common{path[m.end(1) :]}"
