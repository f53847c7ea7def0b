"""Kinds of files that are rarely what a reader looks for first: tests, examples and
TypeScript declaration files."""

from __future__ import annotations

import re

__all__ = ["is_declaration_path", "is_example_path", "is_test_path"]

_TEST_FOLDER_RE = re.compile(
    r"(^|/)(tests?|__tests__|specs?|testing|test_suite|testdata)/"
    r"|(^|/)src/[a-z][A-Za-z0-9]*Test/|(^|/)[A-Za-z0-9]*Tests/"
)
_TEST_FILE_RE = re.compile(
    r"(^|/)test_[^/]*$|(^|/)conftest\.py$|_test\.\w+$|\.(test|spec)(-d)?\.\w+$|_spec\.rb$"
    r"|Tests?\.(java|kt|cs|swift|php)$|Tests?\.[a-z]\w*\.kt$"
)
_MAIN_SOURCE_SET_RE = re.compile(r"(^|/)src/(main|[a-z][A-Za-z0-9]*Main)/")
_DECLARATION_PATH_RE = re.compile(r"\.d\.[mc]?ts$")
_EXAMPLE_FOLDER_RE = re.compile(r"(^|/)(_?examples?|samples?|demos?|benchmarks?|bench|benches)/")
_EXAMPLE_FILE_RE = re.compile(r"\wBenchmark\.(java|kt|swift|php)$|\wBench\.php$")


def _above_main_source_set(path: str) -> str:
    """The folders of ``path`` down to its last Gradle or Maven main source set
    (``src/main/``, ``src/commonMain/``), the whole path when it has none: below such a
    set every folder is a package (Maven's "Introduction to the Standard Directory
    Layout", Gradle's "Organizing Gradle Projects")."""
    ends = [m.end() for m in _MAIN_SOURCE_SET_RE.finditer(path)]
    return path[: ends[-1]] if ends else path


def is_test_path(path: str) -> bool:
    """True for test files (``tests/``, ``test_x.py``, ``x_test.go``, ``x.test.ts``,
    ``x.test-d.ts`` (tsd's type tests), ``x_spec.rb``, ``XTest.java``, PHPUnit's
    ``XTest.php``), files in a
    Gradle test source set (``src/<name>Test/``: Kotlin Multiplatform's
    ``commonTest/``, ``jvmTest/``, ``androidUnitTest/``, a JVM ``integrationTest/``),
    in a folder ending in ``Tests`` (Swift's package root ``Tests/`` and its targets
    ``MoyaTests/``, ``MyAppUITests/``) and a Kotlin platform file of a test class
    (``XTest.js.kt``): they use the code but are not what a newcomer should read
    first. A singular ``Test`` folder counts only as a source set under ``src/``: a
    package named ``abTest/`` or ``speedTest/`` elsewhere is code.

    Below a Gradle or Maven *main* source set (``src/main/``, Kotlin Multiplatform's
    ``src/commonMain/``, ``src/jvmMain/``) a folder is a package, never a test folder:
    the build keeps tests in ``src/test/`` and ``src/<name>Test/``, so kotlinpoet's
    package ``metadata/specs/`` or clikt's ``testing/`` helpers it ships are code
    there; a folder above the source set still counts (a Gradle module named
    ``tests/``), and so does a test file's own name. Gradle's "Organizing Gradle
    Projects" and Maven's "Introduction to the Standard Directory Layout" give the
    layout. Measured on code search: ``docs/benchmarks-history.md``, "issue 28: code
    search on unseen repositories, what wins instead, twenty-seventh pass"."""
    folders = _above_main_source_set(path)
    return bool(_TEST_FOLDER_RE.search(folders) or _TEST_FILE_RE.search(path))


def is_example_path(path: str) -> bool:
    """True for examples, samples, demos and benchmarks: their folders, JMH's
    ``XBenchmark.java`` (and Kotlin's, Swift's and PHP's alike) and PHPBench's
    ``XBench.php``, which a package may keep beside its code (gson's ``metrics`` module,
    thephpleague/csv's ``src/``), as ``bench/code_sample.py`` reads them.

    As in :func:`is_test_path`, a folder below a Gradle or Maven *main* source set is a
    package, never an examples folder: spring-petclinic's code lives in the package
    ``org.springframework.samples.petclinic`` (``src/main/java/org/springframework/
    samples/...``), and reading ``samples/`` there as examples weighed every one of its
    Java classes half, below its SQL scripts and stylesheets. A folder above the source
    set (clikt's Gradle module ``samples/json/``) and a benchmark's own file name still
    count. Measured on code search: ``docs/benchmarks-history.md``, "issue 28: code
    search on unseen repositories, a package named samples, twenty-ninth pass"."""
    folders = _above_main_source_set(path)
    return bool(_EXAMPLE_FOLDER_RE.search(folders) or _EXAMPLE_FILE_RE.search(path))


def is_declaration_path(path: str) -> bool:
    """True for TypeScript declaration files (``index.d.ts``, ``x.d.mts``, ``x.d.cts``):
    they restate the types and doc comments of a package's API, whose code lives in
    other files."""
    return bool(_DECLARATION_PATH_RE.search(path))
