"""The note window weighs a word written with capitals inside it once, as BM25F does.

``JavaScript`` is analysed into three terms, ``javascript`` and its pieces ``java`` and
``script`` (the index holds the pieces beside the whole on every page that writes it).
BM25F scores the three as one word (:func:`rubi.index.querymatch.query_clauses`); the
window counted each as a word of its own, so the word weighed three times in the
question's mass and a page writing it held three words' worth of it
(``docs/benchmarks-history.md``, "issue 28: Russian and Italian below their own BM25,
twenty-second pass").
"""

from __future__ import annotations

import pytest

from rubi.search.notewindow import note_question
from rubi.search.notewindow import note_window_share as share


def _idf(terms: list[str]) -> dict[str, float]:
    return {t: 2.0 if t in {"java", "script", "javascript"} else 1.0 for t in terms}


def test_the_pieces_of_a_mixed_case_word_are_that_word() -> None:
    asked = note_question("store unique values in JavaScript", ["en"], _idf)
    assert asked.terms == ("store", "uniqu", "valu", "javascript", "java", "script")
    assert asked.readings == (0, 1, 2, 3, 3, 3)
    assert asked.mass == 5.0  # three words of 1.0 and JavaScript's 2.0 (was 9.0)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Write JavaScript here", 2.0),  # the whole and both pieces: one word (was 6.0)
        ("a script tag", 2.0),  # a piece alone holds the word at its own IDF
        ("store unique values", 3.0),
    ],
)
def test_a_mixed_case_word_counts_once_in_a_window(text: str, held: float) -> None:
    asked = note_question("store unique values in JavaScript", ["en"], _idf)
    assert share(text, asked) == pytest.approx(held / 5.0)


def test_a_piece_the_question_also_writes_alone_is_its_own_word() -> None:
    asked = note_question("JavaScript or Java", ["en"], _idf)
    assert asked.terms == ("javascript", "java", "script")
    # ``java`` is written as a word: it is not JavaScript's piece (the BM25F rule,
    # :func:`rubi.index.wordparts.mixed_case_pieces`), ``script`` still is
    assert asked.readings == (0, 1, 0)


def test_a_word_in_one_case_keeps_one_term_a_word() -> None:
    asked = note_question("javascript and java script", ["en"], _idf)
    assert asked.readings == tuple(range(len(asked.terms)))
