"""A TypeScript declaration file (``index.d.ts``) restates a package's whole API with
its doc comments: in a search of code it weighs half, so the module that does the work
comes first, unless the question asks for declarations or names a name only it
defines."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.filekinds import is_declaration_path
from rubi.core.paths import VaultPaths
from rubi.search.nodeweights import (
    DECLARATION_FILE_WEIGHT,
    SECONDARY_FILE_WEIGHT,
    declarations_named,
    node_weight,
    wants_declarations,
)

from helpers import rubi_project

LEVELS = (
    "'use strict'\n\n"
    "function setLevel (logger, level) {\n"
    "  // the lowest severity written from now on\n"
    "  logger.threshold = level\n"
    "}\n\n"
    "function isLevelEnabled (logger, level) {\n"
    "  return level >= logger.threshold\n"
    "}\n\n"
    "module.exports = { setLevel, isLevelEnabled }\n"
)
REDACT = (
    "'use strict'\n\n"
    "function redact (obj, paths) {\n"
    "  // censor secret values at the given paths\n"
    "  for (const p of paths) delete obj[p]\n"
    "  return obj\n"
    "}\n\n"
    "module.exports = { redact }\n"
)
TYPES = (
    "/** Severity names; a logger writes a severity at or above its threshold. */\n"
    "export type LevelWithSilent = 'info' | 'warn' | 'error' | 'silent'\n\n"
    "export interface Logger {\n"
    "  /** Set the lowest severity written; each severity below the threshold is\n"
    "   * dropped, user-defined severities included. */\n"
    "  setLevel(level: LevelWithSilent): void\n"
    "  /** Whether a severity would be written at the current threshold. */\n"
    "  isLevelEnabled(level: LevelWithSilent): boolean\n"
    "}\n\n"
    "export interface Options {\n"
    "  /** Censor secret values at the given paths before a line is written. */\n"
    "  redact?: string[]\n"
    "}\n"
)


@pytest.mark.parametrize(
    ("path", "declaration"),
    [
        ("index.d.ts", True),
        ("types/pino.d.mts", True),
        ("lib/x.d.cts", True),
        ("src/index.ts", False),
        ("src/d.ts/x.js", False),
        ("src/odd.ts", False),
    ],
)
def test_declaration_paths(path: str, declaration: bool) -> None:
    assert is_declaration_path(path) is declaration


def test_wants_declarations_reads_whole_words() -> None:
    assert wants_declarations("type declarations for TypeScript users")
    assert wants_declarations("where are the typings")
    assert wants_declarations("what does index.d.ts export")
    assert not wants_declarations("set the lowest severity a logger writes")
    assert not wants_declarations("undeclared variables")  # a word inside another


def test_node_weight_halves_a_declaration_file_unless_wanted() -> None:
    node = {"kind": "file", "path": "index.d.ts"}
    assert node_weight(node, False) == DECLARATION_FILE_WEIGHT
    assert node_weight(node, False, declarations_wanted=True) == 1.0
    assert node_weight({"kind": "file", "path": "lib/levels.js"}, False) == 1.0
    assert node_weight({"kind": "note", "path": "x.d.ts"}, False) == 1.0
    test_types = {"kind": "file", "path": "test/types/x.d.ts"}
    assert node_weight(test_types, False) == SECONDARY_FILE_WEIGHT  # one rule, not both


def test_only_a_name_no_implementation_carries_exempts_a_declaration_file() -> None:
    matches = [
        ("index.d.ts", "optionvaluesource"),  # a type the declarations alone define
        ("index.d.ts", "canceledError"),
        ("lib/cancel/CanceledError.js", "canceledError"),  # the class is code too
        ("types/a.d.ts", "shared"),
        ("types/b.d.mts", "shared"),
    ]
    assert declarations_named(matches, lambda i: i) == {
        "index.d.ts",
        "types/a.d.ts",
        "types/b.d.mts",
    }
    assert (
        declarations_named(
            [("index.d.ts", "canceledError"), ("lib/x.js", "canceledError")], lambda i: i
        )
        == set()
    )


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    root = rubi_project(
        tmp_path / "proj",
        {"lib/levels.js": LEVELS, "lib/redaction.js": REDACT, "index.d.ts": TYPES},
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def _first(paths: VaultPaths, query: str) -> str:
    return app.search(paths, query, scope="code", top_k=3).hits[0].path


def test_the_module_that_does_the_work_comes_before_the_declarations(
    project: VaultPaths,
) -> None:
    question = "set the lowest severity a logger writes, user-defined severities included"
    assert _first(project, question) == "lib/levels.js"


def test_a_question_about_declarations_finds_them(project: VaultPaths) -> None:
    assert _first(project, "TypeScript declarations of the logger's severities") == "index.d.ts"


def test_a_name_only_the_declarations_define_finds_them(project: VaultPaths) -> None:
    assert _first(project, "LevelWithSilent") == "index.d.ts"
