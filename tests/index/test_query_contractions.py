"""A contracted stop word in a question is a stop word: ``what's``, ``don't``,
``we're`` and ``you'll`` add no term (no fragment such as ``what``, ``don``, ``re``
or ``ll``), a possessive keeps its noun, and a word with an apostrophe that is no
contraction (a name, a French elision) is searched as before."""

from __future__ import annotations

import pytest

from rubi.index.analysis import contraction_head, query_words


@pytest.mark.parametrize(
    ("word", "head"),
    [
        ("what's", "what"),
        ("it\u2019s", "it"),
        ("we're", "we"),
        ("you'll", "you"),
        ("I've", "I"),
        ("they'd", "they"),
        ("don't", "do"),
        ("isn't", "is"),
        ("can't", "can"),
        ("won't", "will"),
        ("John's", "John"),
        ("O'Reilly", "O'Reilly"),
        ("l'ordinateur", "l'ordinateur"),
        ("'s", "'s"),
    ],
)
def test_a_contraction_is_read_as_the_word_before_its_clitic(word: str, head: str) -> None:
    assert contraction_head(word) == head


def _terms(text: str, langs: list[str]) -> set[str]:
    return {t for word in query_words(text, langs) for terms in word.values() for t in terms}


def test_contracted_stop_words_leave_no_terms_in_a_question() -> None:
    terms = _terms("what's wrong? we're sure you'll see it isn't the cache, don't retry", ["en"])
    assert terms == {"wrong", "sure", "see", "cach", "retri"}


def test_a_possessive_keeps_its_noun_and_an_elision_its_word() -> None:
    assert _terms("John's laptop", ["en"]) == {"john", "laptop"}
    assert "ordinateur" in _terms("l'ordinateur", ["fr"])
