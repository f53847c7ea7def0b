"""A plain-words question of code length-normalises a file's symbols and comments in
full: the small file that answers it comes above a large module that
defines and documents the same words among many others; a name or a few keywords keep
the low normalisation that lets a central module's definitions count in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.index.bm25params import BM25_CODE_QUESTION_FIELD_B, BM25_FIELD_B
from rubi.search.codecoverage import COVERAGE_MAX_WORDS, COVERAGE_MIN_WORDS, question_field_b

from helpers import rubi_project

SMALL = (
    "def signed_cookie(data, key):\n"
    "    # a signed cookie keeps the session in the browser until it should expire\n"
    "    return sign(data, key)\n"
)


def _module(named: int, extra: int) -> str:
    """The same answer, its words named again in ``named`` documented definitions,
    then ``extra`` unrelated documented functions: a large central module."""
    again = "".join(
        f"\n\ndef session_cookie_{n}(browser):\n"
        "    # the signed session cookie the browser keeps\n"
        "    return browser\n"
        for n in range(named)
    )
    rest = "".join(
        f"\n\ndef unrelated_{n}(value):\n    # formats the value number {n} for display\n"
        f"    return value + {n}\n"
        for n in range(extra)
    )
    return SMALL + again + rest


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    root = rubi_project(
        tmp_path / "proj",
        {"src/store.py": SMALL, "src/module.py": _module(8, 150), "src/other.py": "y = 2\n"},
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def test_a_plain_words_question_finds_the_small_file_first(project: VaultPaths) -> None:
    question = "signed cookie that keeps the session in the browser until it should expire"
    hits = app.search(project, question, scope="code", top_k=3).hits
    assert [h.id for h in hits[:2]] == ["src/store.py", "src/module.py"]


def test_a_few_keywords_keep_the_module_first(project: VaultPaths) -> None:
    hits = app.search(project, "session cookie", scope="code", top_k=3).hits
    assert hits[0].id == "src/module.py"


def test_only_a_plain_words_question_changes_the_normalisation() -> None:
    assert question_field_b(COVERAGE_MIN_WORDS) == BM25_CODE_QUESTION_FIELD_B
    assert question_field_b(COVERAGE_MAX_WORDS) == BM25_CODE_QUESTION_FIELD_B
    assert question_field_b(COVERAGE_MIN_WORDS - 1) is None
    assert question_field_b(COVERAGE_MAX_WORDS + 1) is None
    assert set(BM25_CODE_QUESTION_FIELD_B) == set(BM25_FIELD_B)
    assert all(b > BM25_FIELD_B[f] for f, b in BM25_CODE_QUESTION_FIELD_B.items())
