"""Hostile source files parse in time linear in their size, and ordinary code gives
the same imports and symbols. Patterns that started a line with ``\\s*`` under
``re.M`` crossed every blank line after each line start (40,000 indented empty lines
took minutes in Java, Kotlin, PHP and Swift); a JS/TS import clause or export list
scanned to the end of the file from every ``import``/``export {``; Dart's function
pattern let its return type and the spaces before the name share a run of spaces, and
scanned on for a ``>`` or ``)`` from every candidate."""

from __future__ import annotations

import pytest

from rubi.codemap.lang import parse_source

BLANK = "\n    " * 40_000
"""40,000 lines holding four spaces each (200 kB)."""


@pytest.mark.parametrize("language", ["java", "kotlin", "php", "swift"])
@pytest.mark.timeout(20)
def test_forty_thousand_indented_blank_lines_parse_at_once(language: str) -> None:
    parsed = parse_source(language, BLANK)
    assert parsed.imports == ()


@pytest.mark.parametrize(
    ("language", "source", "target"),
    [
        ("java", "package a.b;\n\n   \n  import a.b.C;\nclass D {}\n", "a.b.C"),
        ("kotlin", "\n  \n  import a.b.C\n", "a.b.C"),
        ("php", "<?php\n\n   \n  use App\\Models\\User;\n", "App\\Models\\User"),
        ("swift", "\n  \n  import Foundation\n", "Foundation"),
        ("dart", "\n  \n  import 'package:a/b.dart';\n", "package:a/b.dart"),
        ("go", 'package a\n\nimport (\n\n   \n  "fmt"\n)\n', "fmt"),
    ],
)
def test_an_indented_import_after_blank_lines_is_found(
    language: str, source: str, target: str
) -> None:
    assert [spec.target for spec in parse_source(language, source).imports] == [target]


@pytest.mark.parametrize(
    "source", ["import a\n" * 22_000, "export {\n" * 22_000], ids=["import", "export"]
)
@pytest.mark.parametrize("language", ["javascript", "typescript"])
@pytest.mark.timeout(20)
def test_thousands_of_unfinished_import_and_export_clauses_parse_at_once(
    language: str, source: str
) -> None:
    """Each ``import`` without ``from`` (each ``export {`` without ``}``) scanned on to
    the end of the file for one."""
    parsed = parse_source(language, source)
    assert parsed.imports == () and parsed.symbols == ()


def test_import_clauses_that_hold_dollar_names_and_span_lines_parse() -> None:
    source = (
        'import $import, {\n  a,\n  b as c,\n} from "./m";\nimport x from "y"\n'
        'export { q } from "z"\nexport {\n  r,\n  s as t,\n}\n'
    )
    parsed = parse_source("typescript", source)
    assert [(s.kind, s.target, s.names) for s in parsed.imports] == [
        ("import", "./m", ("a", "b")),
        ("import", "y", ()),
        ("export", "z", ("q",)),
    ]
    assert [s.name for s in parsed.symbols] == ["r", "t"]


@pytest.mark.parametrize(
    "source",
    [" " * 200_000 + "x\n", BLANK, "fn a<" * 160_000, "a f(\n" * 40_000],
    ids=["spaces", "blank-lines", "angles", "open-parens"],
)
@pytest.mark.timeout(20)
def test_dart_functions_are_found_in_time_linear_in_the_file(source: str) -> None:
    assert parse_source("dart", source).symbols == ()


DART = """\
void main() {
  runApp(const MyApp());
}

int add(int a, int b) => a + b;

Map<String, List<int>> group<T>(List<T> items) {
  return {};
}

Stream<int> count() async* {
  yield 1;
}

class MyApp extends StatelessWidget {
  @override
  Widget build(BuildContext context) {
    return const Text('x');
  }

  void _onTap(
    int index,
  ) {}
}

String? maybe() => null;
"""


def test_dart_functions_of_ordinary_code_are_found() -> None:
    symbols = [(s.name, s.kind, s.line) for s in parse_source("dart", DART).symbols]
    assert symbols == [
        ("main", "function", 1),
        ("add", "function", 5),
        ("group", "function", 7),
        ("count", "function", 11),
        ("MyApp", "class", 15),
        ("build", "function", 17),
        ("_onTap", "function", 21),
        ("maybe", "function", 26),
    ]


@pytest.mark.parametrize("head", ["var (", "const (", "type (", "import ("])
@pytest.mark.timeout(20)
def test_thousands_of_unclosed_go_blocks_parse_at_once(head: str) -> None:
    """Each ``var (`` without a line starting ``)`` scanned on to the end of the file for
    one (8,000 of them, 120 kB, took 4.3 s; these 40,000 ran past the timeout)."""
    parsed = parse_source("go", f"package a\n{head}\n" * 40_000)
    assert parsed.symbols == () and parsed.imports == ()


def test_go_blocks_after_an_unclosed_one_and_between_closed_ones_are_read() -> None:
    source = (
        'package a\nimport (\n\t"fmt"\n)\nvar (\n\tA, B = 1, 2\n)\nconst (\n\tC = 1\n)\n'
        "type (\n\tD struct{}\n)\nvar (\n\tE = 1\n"
    )
    parsed = parse_source("go", source)
    assert [s.target for s in parsed.imports] == ["fmt"]
    assert [(s.name, s.kind, s.line) for s in parsed.symbols] == [
        ("A", "variable", 6),
        ("B", "variable", 6),
        ("C", "const", 9),
        ("D", "struct", 12),
    ]


C_FAMILY_HOSTILE = {
    "unclosed templates": "template <\n" * 20_000,
    "unclosed templates in a namespace": "namespace a {\n" + "template <\n" * 20_000,
    "calls": "f(x)\n" * 20_000,
    "calls after calls": "int f(x) g(y)\n" * 20_000,
    "macro calls in a namespace": "namespace a {\n" + "  F(X)\n" * 20_000,
    "typedefs without a semicolon": "typedef int a b c\n" * 20_000,
}
"""C and C++ files built to make a pattern read on to the end of the file from each
line: a lazy parameter list, an unbounded run of qualifier macros, an unclosed
``template <`` and a ``typedef`` without ``;`` (4,000 of these lines took 0.1-8.8 s;
now each 20,000 under 0.7 s)."""


@pytest.mark.parametrize("language", ["c", "cpp"])
@pytest.mark.parametrize("source", C_FAMILY_HOSTILE.values(), ids=C_FAMILY_HOSTILE.keys())
@pytest.mark.timeout(20)
def test_c_family_files_built_to_backtrack_parse_at_once(language: str, source: str) -> None:
    assert parse_source(language, source).symbols == ()


def test_c_family_definitions_with_nested_parameters_and_trailing_macros_are_found() -> None:
    """The bounded patterns still read what the lazy ones read."""
    source = (
        "static int apply(int (*cb)(int), int x __attribute__((unused))) {\n  return 0;\n}\n"
        "void stop(void) __attribute__((noreturn)) {\n}\n"
        "int plain(int a, int b) {\n}\n"
        "typedef unsigned long size_type;\n"
    )
    assert [(s.name, s.line) for s in parse_source("c", source).symbols] == [
        ("apply", 1),
        ("stop", 4),
        ("plain", 6),
        ("size_type", 8),
    ]
    template = "template <typename T, typename U = std::vector<T>>\nclass Box {\n};\n"
    assert [(s.name, s.line) for s in parse_source("cpp", template).symbols] == [("Box", 2)]


@pytest.mark.parametrize("language", ["c", "cpp"])
@pytest.mark.timeout(60)
def test_a_typedef_before_a_long_run_of_blank_space_parses_at_once(language: str) -> None:
    """``typedef\\s+`` gave back each of the run's characters to a lazy 500-character
    body, which tried a name and ``;`` at each of them: 200 kB took 4.5 s of CPU (a
    4 MB file, the map's limit, about 90 s); the typedef's parts are possessive now
    (3 ms). A MB of ``typedef`` lines took 3.7 s, now 0.4 s."""
    import time

    for blank in (" ", "\n"):
        started = time.process_time()
        assert parse_source(language, "typedef" + blank * 300_000 + "x\n").symbols == ()
        assert time.process_time() - started < 1.0


def test_typedef_names_are_the_last_word_before_the_semicolon() -> None:
    source = (
        "typedef unsigned long size_type;\n"
        "typedef struct node *  node_ptr  ;\n"
        "typedef int *;\n"
        "typedef void (*handler)(int);\n"
        "typedef\n  long\n  wide_t;\n"
    )
    assert [(s.name, s.line) for s in parse_source("c", source).symbols] == [
        ("size_type", 1),
        ("node_ptr", 2),
        ("wide_t", 5),
    ]
