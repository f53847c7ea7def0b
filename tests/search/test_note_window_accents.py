"""The note window finds a question's accented words where the index matched them.

The index folds accents (``méthode`` is the term ``method``, ``código`` is ``codigo``),
and the note window finds a term by ``str.find`` of a key, the common prefix of the
question's word and its term. Where the accent is among the first letters the prefix
was too short and the key was the folded term, which the text (``méthode``) does not
hold: the window never saw the word, so a page holding the question's accented words
(``déclarer``, ``página``, ``größe``, ``företag``) was measured as if it held none of
them ("issue 28: languages against their own BM25, seventeenth pass"). The text is now
searched folded letter for letter, as the index folds it (a question written
without its accents finds the accented text too).
"""

from __future__ import annotations

import pytest

from rubi.index.analysis import text_analyzer
from rubi.index.wordterm import aligned_fold
from rubi.search.notewindow import note_question, note_window_share, word_numbers


def _idf(terms: list[str]) -> dict[str, float]:
    return dict.fromkeys(terms, 1.0)


@pytest.mark.parametrize(
    ("lang", "question", "text"),
    [
        ("fr", "déclarer une méthode", "On peut déclarer une méthode statique."),
        ("fr", "écouter les événements", "Pour écouter les événements du clic."),
        ("es", "código página", "El código de la página."),
        ("de", "Größe ändern", "Die Größe der Datei ändern."),
        ("sv", "företag godkänna", "Ett företag kan godkänna en order."),
        ("pl", "łączyć", "Można łączyć pliki."),
    ],
)
def test_a_page_holding_the_questions_accented_words_holds_the_whole_question(
    lang: str, question: str, text: str
) -> None:
    asked = note_question(question, [lang], _idf)
    terms = set(text_analyzer(lang).terms(text))
    assert set(asked.terms) <= terms  # the index matched every word of the question
    assert note_window_share(text, asked) == 1.0  # was 0.0 to 0.5: accented words unseen


def test_a_question_written_without_its_accents_finds_the_accented_text() -> None:
    asked = note_question("declarer une methode", ["fr"], _idf)
    assert note_window_share("déclarer une méthode", asked) == 1.0
    asked = note_question("déclarer une méthode", ["fr"], _idf)
    assert note_window_share("declarer une methode", asked) == 1.0


def test_folding_finds_nothing_the_index_lacks() -> None:
    asked = note_question("déclarer une méthode", ["fr"], _idf)
    assert note_window_share("une méthodologie", asked) == 0.0  # ``methodolog``
    asked = note_question("côté", ["fr"], _idf)
    assert note_window_share("une écoute", asked) == 0.0


def test_folding_keeps_every_offset() -> None:
    text = "Größe e\u0301te\u0301 İstanbul łódź ñandú"
    folded = aligned_fold(text)
    assert len(folded) == len(text)
    assert folded.startswith("Grose")  # ß is one letter here, as the index's map has it
    assert "e\u0301te\u0301" in folded  # a combining accent is kept, not deleted
    far = "x " * 200 + "déclarer une méthode"
    asked = note_question("déclarer une méthode", ["fr"], _idf)
    assert note_window_share(far, asked) == 1.0
    assert word_numbers(far, [far.index("méthode")]) == [202]


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("grösse der strasse ändern", "Die Größe der Straße ändern."),
        ("größe der straße ändern", "Die Grösse der Strasse ändern."),
        ("spass beim fussball", "Viel Spaß beim Fußball."),
    ],
)
def test_a_sharp_s_and_its_double_s_meet_in_the_window_as_in_the_index(
    question: str, text: str
) -> None:
    # German's stemmer writes ß as ss (``Größe`` and ``grösse`` are both ``gross``),
    # while the folded text holds ß as one letter: the key ``gross`` was not in
    # ``grose``, and the window found none of the words the index matched (0.0).
    # (the question's English readings, ``grose`` of ``größe``, are matched or not
    # as the index matches them: the share is that of the terms the index holds)
    asked = note_question(question, ["de"], _idf)
    held = set(text_analyzer("de").terms(text))
    assert asked.terms[0] in held
    assert note_window_share(text, asked) == sum(t in held for t in asked.terms) / len(asked.terms)
