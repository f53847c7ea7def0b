"""The note window weighs a question's word once, however many terms the index reads
it as, at the largest IDF of its terms a window holds.

A word of a Latin-script language other than English is read twice, its own stem and
English's (:func:`rubi.index.wordterm.word_terms`): Dutch ``doorzichtig`` is
``doorzicht`` and ``doorzichtig``, ``kleur`` is ``kleur`` alone. BM25F scores the two
readings as one word; the window counted each reading's IDF, so a word whose two
stemmers disagree weighed twice in the question's mass, and a note holding it rose
above one holding a word the stemmers agree on (``docs/benchmarks-history.md``,
"issue 28: languages still below their own BM25, twenty-first pass").
"""

from __future__ import annotations

import pytest

from rubi.search.notewindow import NoteQuestion, best_word_window, note_question
from rubi.search.notewindow import note_window_share as share


def _idf(terms: list[str]) -> dict[str, float]:
    return {t: 3.0 if t == "doorzichtig" else 1.0 for t in terms}


def test_a_word_read_twice_is_one_word_of_the_question() -> None:
    asked = note_question("kleur doorzichtig", ["nl"], _idf)
    assert asked.terms == ("kleur", "doorzicht", "doorzichtig")
    assert asked.readings == (0, 1, 1)
    assert asked.mass == 4.0  # kleur 1.0 + doorzichtig's larger reading 3.0 (was 5.0)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Maak een kleur", 1.0),  # was 1.0 of 5.0
        ("Maak het doorzichtig", 3.0),  # both readings: the larger (was 4.0 of 5.0)
        ("Een doorzicht", 1.0),  # the own stem alone: its own IDF
        ("Een kleur doorzichtig", 4.0),
    ],
)
def test_a_word_holds_its_largest_reading_found(text: str, held: float) -> None:
    asked = note_question("kleur doorzichtig", ["nl"], _idf)
    assert share(text, asked) == pytest.approx(held / 4.0)


def test_a_word_counts_once_in_a_window_and_leaves_it_with_its_last_reading() -> None:
    # terms 0 and 1 are one word (IDF 1 and 3), term 2 another (IDF 2)
    idfs, readings = (1.0, 3.0, 2.0), (0, 0, 1)
    assert best_word_window([0, 1], [0, 1], idfs, readings, 10) == 3.0
    assert best_word_window([0, 5, 20], [1, 2, 0], idfs, readings, 10) == 5.0
    assert best_word_window([0, 8, 9], [1, 0, 2], idfs, readings, 10) == 5.0
    # the specific reading leaves the window, the general one stays: 1 + 5 (not 3 + 5,
    # nor 0 + 5)
    assert best_word_window([0, 8, 12], [1, 0, 2], (1.0, 3.0, 5.0), readings, 10) == 6.0
    assert best_word_window([], [], idfs, readings, 10) == 0.0


def test_without_readings_each_term_is_a_word() -> None:
    asked = NoteQuestion("en", ("tabl", "chair"), ("tabl", "chair"), (2.0, 3.0))
    assert asked.mass == 5.0
    assert share("a table and a chair", asked) == 1.0
    assert share("a chair", asked) == pytest.approx(0.6)


def test_an_english_question_has_one_reading_a_word() -> None:
    asked = note_question("transparent colour of an image", ["en"], _idf)
    assert asked.readings == tuple(range(len(asked.terms)))
    assert asked.mass == len(asked.terms)
