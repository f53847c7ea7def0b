"""In a search of code alone, a long question finds first the file that holds most of
it, not the file named by one of its words; a short question keeps BM25F's order."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.querymatch import BM25Hit
from rubi.search.codecoverage import (
    COVERAGE_MAX_WORDS,
    COVERAGE_MIN_WORDS,
    by_coverage,
    question_words,
)

from helpers import rubi_project

SETTINGS = (
    "class Settings:\n    def read(self):\n        return self\n\n"
    "    def startup(self):\n        return self\n\n\n"
    "def settings():\n    return Settings()\n"
)
LOADER = (
    "import os\n\n\ndef load(defaults):\n"
    "    # read at startup: environment variables merged over the defaults\n"
    "    merged = dict(defaults)\n    for key in defaults:\n"
    "        if key in os.environ:\n            merged[key] = os.environ[key]\n"
    "    return merged\n"
)


def _hit(doc: str, score: float, coverage: float) -> BM25Hit:
    return BM25Hit(doc, score, {}, "file", doc, doc, coverage=coverage)


def test_a_long_question_puts_the_file_holding_most_of_it_first(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "proj",
        {"src/settings.py": SETTINGS, "src/loader.py": LOADER, "src/other.py": "y = 2\n"},
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    question = "read settings from environment variables and merge them with defaults at startup"
    hits = app.search(paths, question, scope="code", top_k=3).hits
    assert [h.id for h in hits][:2] == ["src/loader.py", "src/settings.py"]
    short = app.search(paths, "settings startup", scope="code", top_k=3).hits
    assert short[0].id == "src/settings.py"


def test_reordering_uses_the_square_root_of_coverage_for_a_question() -> None:
    named = _hit("named.py", 10.0, 0.36)  # 10 * 0.6 = 6.0
    holder = _hit("holder.py", 7.0, 1.0)  # 7 * 1.0 = 7.0
    long = by_coverage([named, holder], COVERAGE_MIN_WORDS)
    assert [h.id for h in long] == ["holder.py", "named.py"]
    assert [round(h.score, 6) for h in long] == [7.0, 6.0]
    assert by_coverage([named, holder], COVERAGE_MAX_WORDS) == long
    assert by_coverage([named, holder], COVERAGE_MIN_WORDS - 1) == [named, holder]
    # a document (an issue reduced to its discriminative words) keeps BM25F's order
    assert by_coverage([named, holder], COVERAGE_MAX_WORDS + 1) == [named, holder]


def test_question_words_counts_distinct_content_words() -> None:
    assert question_words("the settings and the settings") == 1
    assert question_words("merge defaults at startup") == 3
