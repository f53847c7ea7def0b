"""Kinds of files that are rarely what a reader looks for first: tests, examples and
TypeScript declaration files."""

from __future__ import annotations

import re

__all__ = ["is_declaration_path", "is_example_path", "is_test_path"]

_TEST_PATH_RE = re.compile(
    r"(^|/)(tests?|__tests__|specs?|testing|test_suite|testdata)/|(^|/)test_[^/]*$"
    r"|(^|/)conftest\.py$|_test\.\w+$|\.(test|spec)(-d)?\.\w+$|_spec\.rb$"
    r"|Tests?\.(java|kt|cs|swift)$"
    r"|(^|/)src/[a-z][A-Za-z0-9]*Test/|(^|/)[A-Za-z0-9]*Tests/|Tests?\.[a-z]\w*\.kt$"
)
_DECLARATION_PATH_RE = re.compile(r"\.d\.[mc]?ts$")
_EXAMPLE_PATH_RE = re.compile(r"(^|/)(_?examples?|samples?|demos?|benchmarks?|bench|benches)/")


def is_test_path(path: str) -> bool:
    """True for test files (``tests/``, ``test_x.py``, ``x_test.go``, ``x.test.ts``,
    ``x.test-d.ts`` (tsd's type tests), ``x_spec.rb``, ``XTest.java``), files in a
    Gradle test source set (``src/<name>Test/``: Kotlin Multiplatform's
    ``commonTest/``, ``jvmTest/``, ``androidUnitTest/``, a JVM ``integrationTest/``),
    in a folder ending in ``Tests`` (Swift's package root ``Tests/`` and its targets
    ``MoyaTests/``, ``MyAppUITests/``) and a Kotlin platform file of a test class
    (``XTest.js.kt``): they use the code but are not what a newcomer should read
    first. A singular ``Test`` folder counts only as a source set under ``src/``: a
    package named ``abTest/`` or ``speedTest/`` elsewhere is code (on the 41
    repositories of the code sets, no source file's kind differs from the broader
    rule this replaced)."""
    return bool(_TEST_PATH_RE.search(path))


def is_example_path(path: str) -> bool:
    """True for examples, samples, demos and benchmarks."""
    return bool(_EXAMPLE_PATH_RE.search(path))


def is_declaration_path(path: str) -> bool:
    """True for TypeScript declaration files (``index.d.ts``, ``x.d.mts``, ``x.d.cts``):
    they restate the types and doc comments of a package's API, whose code lives in
    other files."""
    return bool(_DECLARATION_PATH_RE.search(path))
