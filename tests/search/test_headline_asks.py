"""A reduced query (a pasted issue) asks for tests only in its headline: the body's
"Example" and "Test passed" say nothing of what the author wants found, so test files
keep their half weight and the source they exercise comes first."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths

from helpers import rubi_project

SOURCE = (
    '"""Reading one line of a configuration file."""\n\n\n'
    "def parse_line(line):\n"
    '    """Split a line into its setting and its trailing comment."""\n'
    '    setting, _, comment = line.partition("#")\n'
    "    return setting.strip(), comment.strip()\n"
)
TESTS = (
    "from confparse.reader import parse_line\n\n\n"
    "def test_parse_line_keeps_the_noqa_comment():\n"
    '    assert parse_line("quiet = true  # noqa") == ("quiet = true", "noqa")\n\n\n'
    "def test_parse_line_keeps_a_trailing_comment_after_a_skip_glob():\n"
    '    assert parse_line("skip_glob = foo.py  # noqa") == ("skip_glob = foo.py", "noqa")\n\n\n'
    "def test_parse_line_without_a_comment():\n"
    '    assert parse_line("quiet = true") == ("quiet = true", "")\n'
)
BODY = (
    "### Description\n"
    "With `quiet = true` in the settings file, the reader loses the noqa comment "
    "written after the value when the line also holds a skip_glob.\n\n"
    "### Example\n"
    "```\n"
    "skip_glob = foo.py  # noqa\n"
    "quiet = true  # noqa\n"
    "```\n\n"
    "### Current behavior\n"
    "Test passed on the old release; the comment is dropped now and the linter "
    "complains about every file in the tree.\n\n"
    "### Versions\n"
    "confparse 5.8.0, Python 3.11 on Linux, installed with pip into a fresh venv."
)


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    root = rubi_project(
        tmp_path / "proj",
        {"confparse/reader.py": SOURCE, "tests/test_reader.py": TESTS},
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def _order(paths: VaultPaths, query: str) -> list[str]:
    return [h.path for h in app.search(paths, query, scope="code", top_k=5).hits]


def test_a_pasted_issue_finds_the_source_above_its_tests(project: VaultPaths) -> None:
    issue = "Trailing comment dropped from a settings line\n\n" + BODY
    assert _order(project, issue)[0] == "confparse/reader.py"


def test_a_headline_that_asks_for_tests_finds_them(project: VaultPaths) -> None:
    issue = "Tests of trailing comments in a settings line\n\n" + BODY
    assert _order(project, issue)[0] == "tests/test_reader.py"
