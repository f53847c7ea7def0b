"""The note window looks for a question's terms in a note's text lower-cased, not
accent-folded, by keys written as the question writes its words.

A term's key is the prefix of the question's word whose letters, folded one by one,
begin its term (:func:`rubi.search.termat.term_key`): ``déclarer`` (term
``declar``) looks for ``déclar``, so a note writing the word as the question does is
seen. Before, the key was the prefix the word shares with its term unfolded, the term
itself when that was short, and an accent among a word's first letters hid it from the
window (``docs/benchmarks-history.md``, "issue 28: languages still below their own
BM25, twentieth pass"). The text is still searched as written: a question typed
without its accents does not find the accented note's word (folding the text as the
index does, seventeenth pass, cost on the development halves it was not chosen on and
was taken back, "issue 28: ranking rules on sets they were not designed on, eighteenth
pass").
"""

from __future__ import annotations

import pytest

from rubi.search.notewindow import note_question, note_window_share
from rubi.search.termat import term_key

TEXT = "On peut déclarer une méthode statique."


def _idf(terms: list[str]) -> dict[str, float]:
    return dict.fromkeys(terms, 1.0)


def test_a_word_written_with_its_accents_is_found_where_the_note_writes_them() -> None:
    asked = note_question("déclarer une méthode", ["fr"], _idf)
    assert asked.terms == ("declar", "method")
    assert asked.keys == ("déclar", "méthod")
    assert note_window_share(TEXT, asked) == 1.0  # was 0.0: keys ``declar``, ``method``


def test_a_question_typed_without_its_accents_does_not_find_the_accented_word() -> None:
    asked = note_question("declarer une methode", ["fr"], _idf)
    assert asked.terms == ("declar", "method")
    assert note_window_share(TEXT, asked) == 0.0


@pytest.mark.parametrize(
    ("surface", "term", "key"),
    [
        ("képlettel", "kepl", "képl"),
        ("összegét", "osszeg", "összeg"),
        ("außer", "auss", "auß"),
        ("using", "use", "us"),
        ("files", "file", "file"),
        ("über", "xyz", "xyz"),
    ],
)
def test_a_key_is_the_written_prefix_that_folds_into_the_term(
    surface: str, term: str, key: str
) -> None:
    assert term_key(surface, term) == key


def test_words_written_alike_are_found() -> None:
    asked = note_question("declarer une methode", ["fr"], _idf)
    assert note_window_share("On peut declarer une methode statique.", asked) == 1.0
