"""Which paths are examples and benchmarks (:func:`rubi.core.filekinds.is_example_path`)."""

from __future__ import annotations

import pytest

from rubi.core.filekinds import is_example_path


@pytest.mark.parametrize(
    ("path", "is_example"),
    [
        ("examples/hello.py", True),
        ("samples/json/src/main/kotlin/a/JsonValueSource.kt", True),
        ("benchmarks/db_bench.cc", True),
        # JMH's and PHPBench's benchmark classes, kept in a module or beside the code
        ("metrics/src/main/java/com/google/gson/metrics/ParseBenchmark.java", True),
        ("src/ReaderBench.php", True),
        # a class named for the product, or a word ending in "bench", is code
        ("runtime/src/commonMain/kotlin/kotlinx/perf/Benchmark.kt", False),
        ("src/Workbench.php", False),
        ("src/Reader.php", False),
        # below a Gradle or Maven main source set a folder is a package: Spring's
        # sample applications live in the package org.springframework.samples
        ("src/main/java/org/springframework/samples/petclinic/vet/Vet.java", False),
        ("lib/src/commonMain/kotlin/org/example/demo/Widget.kt", False),
        # a folder above the source set and a benchmark's own name still count
        ("examples/app/src/main/java/org/x/App.java", True),
        ("src/main/java/org/x/benchmarks/ParseBenchmark.java", True),
        # with no main source set every samples folder counts
        ("src/test/java/org/x/samples/A.java", True),
        ("docs/samples/main.go", True),
    ],
)
def test_examples_and_benchmarks(path: str, is_example: bool) -> None:
    assert is_example_path(path) is is_example
