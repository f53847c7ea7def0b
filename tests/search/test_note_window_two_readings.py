"""A question in a language other than English is measured by its words, not by its
terms: the index reads such a word twice (its language's stem and the English one,
:func:`rubi.index.wordterm.word_terms`), so an Italian question of thirteen words was
21 terms, past the twenty the note window (:mod:`rubi.search.notewindow`) reorders,
and it kept BM25F's order and saturation where the same question in English had the
window's."""

from __future__ import annotations

from rubi.index.analysis import text_analyzer
from rubi.index.bm25params import BM25_PROSE_K1
from rubi.search.notewindow import note_question, question_k1

ITALIAN = (
    "Come inserisco il mio codice in una pagina HTML, scritto direttamente nel file "
    "oppure caricato da un file esterno, e poi lo eseguo nel browser del sito?"
)
"""Fourteen content words of Italian, most of them read twice."""


def _ones(terms: list[str]) -> dict[str, float]:
    return {t: 1.0 for t in terms}


def test_a_word_read_twice_counts_once() -> None:
    asked = note_question(ITALIAN, ["it", "en"], _ones)
    words = ITALIAN.lower().replace(",", "").replace("?", "").split()
    own = {text_analyzer("it").terms_of(w)[:1] for w in words}
    assert len(asked.terms) > 20  # both readings are still looked for
    assert asked.size == len({t for t in own if t}) == 14
    assert question_k1(asked) == BM25_PROSE_K1  # a question, as in English


def test_a_question_whose_words_are_read_once_counts_its_terms() -> None:
    english = note_question("attach a header to every request", ["en"], _ones)
    assert english.words == -1
    assert english.size == len(english.terms)
    russian = note_question("как повесить обработчик на клик по кнопке", ["ru"], _ones)
    assert russian.words == -1  # Cyrillic words have one reading in every chain
