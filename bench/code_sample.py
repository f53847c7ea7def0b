"""Draw the source files a code-search set's queries are written from, seeded (redoable).

Usage::

    python bench/code_sample.py CHECKOUT --lang go --seed N --count K

Candidates are the files git tracks in ``CHECKOUT`` (``git ls-files``) with an extension
of the language (:data:`EXTENSIONS`), at least ``--min-lines`` lines long (default 20),
and not tests, examples, docs, benchmarks, scripts, CI or tool configuration: a path
with a folder named as in :data:`SKIP_DIRS` (in any case) or starting with such a name and
``-`` or ``_`` (``docs_src``, ``test-helpers``, ``test-jpms``), a test source set's folder
(:data:`TEST_SOURCE_SET`: ``commonTest``, ``MoyaTests``), or a file name matching
:data:`TEST_NAME` (Java's, Kotlin's, Swift's and PHP's ``*Test`` and ``*Benchmark`` among them, C's
``test.c``, Dart's ``*_test.dart``).
They are sorted by path and ``random.Random(N).sample`` picks ``min(K, candidates)``
in draw order; when a repository has fewer candidates than ``K``, the remaining draws
are taken by ``choices`` of the same generator weighted by line count (a large file
answers more questions). One path a line goes to stdout, the candidate count to stderr.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

EXTENSIONS = {
    "go": (".go",),
    "javascript": (".js", ".mjs", ".cjs", ".ts"),
    "python": (".py",),
    "rust": (".rs",),
    "php": (".php",),
    "ruby": (".rb",),
    "java": (".java",),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".ipp"),
    "kotlin": (".kt", ".kts"),
    "swift": (".swift",),
    "dart": (".dart",),
}
SKIP_DIRS = frozenset(
    {
        "test",
        "tests",
        "testdata",
        "spec",
        "examples",
        "example",
        "docs",
        "doc",
        "benchmark",
        "benchmarks",
        "bench",
        "script",
        "scripts",
        ".github",
        "vendor",
        "node_modules",
    }
)
TEST_NAME = re.compile(
    r"(_test\.go|^test_.*\.py|_test\.py|\.test(-d)?\.[jt]s|\.spec\.[jt]s|_spec\.rb|\.config\.[cm]?js"
    r"|Tests?\.(java|kt|swift|php)|Benchmark\.(java|kt|swift|php)|Bench\.php|^test(_.*)?\.(c|cc|cpp|cxx)|_test\.(c|cc|cpp|cxx|dart))$"
)
"""Tests by their file name (C's and C++'s ``test.c``, ``test_*.cpp`` and ``*_test.cc`` among
them, Kotlin's, Swift's and PHP's ``*Test.kt``, ``*Tests.swift`` and ``*Test.php`` as Java's
(a PHP package may keep its PHPUnit tests and PHPBench ``*Bench.php`` beside the code in
``src/``), Dart's ``*_test.dart``),
and tool configuration files (``eslint.config.js``). C++ takes ``.h`` too (most C++ projects
name their headers so); Kotlin takes ``.kts`` as the code map does (Gradle build scripts are
Kotlin)."""

TEST_SOURCE_SET = re.compile(r"[a-z](Test|Tests)$")
"""A folder named as a test source set or target: Kotlin Multiplatform's ``commonTest``,
``jvmTest``, ``androidUnitTest``, Swift packages' ``MoyaTests`` (a lower-case letter, then
``Test`` or ``Tests`` at the end of the name)."""


def _skipped_dir(part: str) -> bool:
    """Whether a folder name is in :data:`SKIP_DIRS` (in any case: Swift's ``Tests``,
    ``Examples``), alone or before ``-``/``_``, or names a test source set
    (:data:`TEST_SOURCE_SET`)."""
    lower = part.lower()
    return (
        lower in SKIP_DIRS
        or re.split(r"[-_]", lower, maxsplit=1)[0] in SKIP_DIRS
        or TEST_SOURCE_SET.search(part) is not None
    )


def candidates(checkout: Path, lang: str, min_lines: int = 20) -> list[tuple[str, int]]:
    """The tracked source files that may be drawn, as ``(path, line count)`` sorted by path."""
    listed = subprocess.run(
        ["git", "-C", str(checkout), "ls-files", "-z"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    found = []
    for rel in sorted(p for p in listed.split("\0") if p):
        pure = PurePosixPath(rel)
        if pure.suffix not in EXTENSIONS[lang] or TEST_NAME.search(pure.name):
            continue
        if any(_skipped_dir(part) for part in pure.parts[:-1]):
            continue
        path = checkout / rel
        if path.is_symlink() or not path.is_file():
            continue
        lines = path.read_bytes().count(b"\n")
        if lines >= min_lines:
            found.append((rel, lines))
    return found


def pick(found: list[tuple[str, int]], seed: int, count: int) -> list[str]:
    """``count`` paths: drawn without replacement, then (when there are too few
    candidates) with replacement weighted by line count, all by ``random.Random(seed)``."""
    rng = random.Random(seed)
    paths = [p for p, _ in found]
    out = rng.sample(paths, min(count, len(paths)))
    if len(out) < count and paths:
        out += rng.choices(paths, weights=[n for _, n in found], k=count - len(out))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the picked files, one path a line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--lang", choices=sorted(EXTENSIONS), required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--min-lines", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.checkout.is_dir():
        print(f"{args.checkout}: not a folder; give a git checkout")
        return 2
    found = candidates(args.checkout, args.lang, args.min_lines)
    print(f"{len(found)} candidates", file=sys.stderr)
    for path in pick(found, args.seed, args.count):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
