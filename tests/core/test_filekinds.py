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
    ],
)
def test_examples_and_benchmarks(path: str, is_example: bool) -> None:
    assert is_example_path(path) is is_example
