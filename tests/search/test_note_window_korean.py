"""A Korean question is measured by its words, not by the bigrams the index cuts them
into: the note window (:mod:`rubi.search.notewindow`) reorders a question of six to
twenty words, and a Korean question of nine words is 23 bigrams."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.querymatch import BM25Hit
from rubi.search.notewindow import WINDOW_WORDS, by_note_window, note_question
from rubi.semantic import DISABLE_ENV

from helpers import filler_notes, notes_vault

KOREAN = "컴포넌트 바깥을 클릭하면 드롭다운 메뉴를 자동으로 닫으려면 어떻게 하나요"
"""Nine Korean words, 23 bigrams."""
WORDS = KOREAN.split()


def _ones(terms: list[str]) -> dict[str, float]:
    return {t: 1.0 for t in terms}


def _filler(n: int) -> str:
    return " ".join(f"lorem{n}x{i}" for i in range(n)) + "\n"


def _scattered() -> str:
    """A long guide naming every word of the question, each in its own section far
    from the others, and more often than the short page does."""
    parts = ["# 안내서\n"]
    for word in WORDS:
        parts.append(f"## {word}\n\n" + f"{word} 중요합니다. " * 6 + "\n")
        parts.append(_filler(WINDOW_WORDS + 20))
    return "\n".join(parts)


SHORT = "# 드롭다운\n\n" + KOREAN + "? 문서 바깥의 클릭을 감지해서 메뉴를 닫습니다.\n"


def test_a_korean_question_counts_its_words_not_its_bigrams() -> None:
    asked = note_question(KOREAN, ["en"], _ones)
    assert len(asked.terms) == 23
    assert asked.size == 9
    mixed = note_question("CMS의 REST API로 글을 가져오려면", ["en"], _ones)
    assert mixed.size == 5  # cms, rest, api, and two Korean words; the particles none


def test_other_questions_count_their_terms() -> None:
    english = note_question("attach a header to every request", ["en"], _ones)
    assert english.words == -1
    assert english.size == len(english.terms)
    japanese = note_question("ディレクトリの中からファイルを探す", ["en"], _ones)
    assert japanese.size == len(japanese.terms)


def test_a_korean_question_is_reordered_by_its_best_window() -> None:
    asked = note_question(KOREAN, ["en"], _ones)
    hits = [BM25Hit(d, s, {}, "note", d, d) for d, s in (("guide", 2.0), ("short", 1.0))]
    text = {"guide": _scattered(), "short": SHORT}
    order = by_note_window(hits, asked, lambda h: text[h.id])
    assert [h.id for h in order] == ["short", "guide"]


def test_a_korean_search_puts_the_note_where_its_words_meet_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DISABLE_ENV, "0")  # the text list decides, as in a plain install
    pages = {f"page{i}.md": f"# page {i}\n\n" + _filler(2000 + i) for i in range(20)}
    notes = {"guide.md": _scattered(), "dropdown.md": SHORT, **pages, **filler_notes(20)}
    paths = notes_vault(tmp_path / "v", notes)
    app.index(paths)
    hits = app.search(paths, KOREAN, scope="notes", top_k=3).hits
    assert hits[0].id == "dropdown"
