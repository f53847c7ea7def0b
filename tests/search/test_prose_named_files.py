"""A file named inside a longer question by a word written as prose (a project's own
name, ``Toolkit``, that one shim defines) votes in fusion only when the text list also
ranks it among its first hits; a file named as an identifier (``load_settings``) votes
as before. The file whose text holds the question comes first."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths

from helpers import rubi_project

CACHE = (
    '"""Keep recent answers in memory so repeated lookups of the Toolkit return at once."""\n\n'
    "class RecentAnswers:\n"
    '    """Answers kept in memory, oldest dropped first."""\n\n'
    "    def remember(self, key, value):\n"
    "        self.values[key] = value\n"
)
SHIM = '"""Old import paths, kept for callers of earlier releases."""\n\nclass Toolkit:\n    pass\n'
SETTINGS = '"""Settings."""\n\n\ndef load_settings(path):\n    return open(path).read()\n'


def _filler(i: int) -> str:
    return (
        f'"""Part {i} of the parser: reads repeated tokens and answers from a stream."""\n\n'
        f"def parse_{i}(stream):\n    return stream.read()\n"
    )


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    files = {
        "toolkit/cache.py": CACHE,
        "toolkit/compat.py": SHIM,
        "toolkit/settings.py": SETTINGS,
        **{f"toolkit/parse{i}.py": _filler(i) for i in range(12)},
    }
    root = rubi_project(tmp_path / "proj", files)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def test_the_file_holding_the_question_comes_before_the_one_its_prose_names(
    project: VaultPaths,
) -> None:
    q = "keep recent answers in memory so repeated lookups of the Toolkit return at once"
    result = app.search(project, q, scope="code", top_k=5)
    assert result.hits[0].path == "toolkit/cache.py"


def test_a_file_named_as_an_identifier_still_votes(project: VaultPaths) -> None:
    result = app.search(project, "where does load_settings read the file", scope="code", top_k=5)
    assert result.hits[0].path == "toolkit/settings.py"
