"""A short question's stop words are no part of it, whichever of the index's
languages they belong to: a Spanish question written with its accents (``cómo``)
is recognised as Spanish, and when the language stays uncertain (a word that is a
stop word of several of the index's languages) the stop words of every one of them
are dropped rather than searched in the chains that keep them."""

from __future__ import annotations

from rubi.index.language import query_language
from rubi.index.querymatch import query_clauses

INDEX = ["ca", "en", "es", "fr"]


def _terms(text: str, langs: list[str]) -> set[str]:
    return {c.text for c in query_clauses(text, languages=langs, fields=["body"])}


def test_an_accented_stop_word_tells_the_question_is_spanish() -> None:
    assert query_language("cómo cocinar arroz", INDEX) == "es"
    assert query_language("¿Cómo hago un pastel?", INDEX) == "es"
    assert query_language("what is the tar option", INDEX) == "en"


def test_a_spanish_question_searches_no_stop_word_in_another_chain() -> None:
    terms = _terms("cómo cocinar arroz", INDEX)
    assert "com" not in terms and "como" not in terms and "cómo" not in terms
    assert {"cocin", "arroz"} <= terms


def test_an_uncertain_language_drops_every_index_languages_stop_words() -> None:
    assert query_language("receta de tortilla", INDEX) is None  # "de": four lists
    terms = _terms("receta de tortilla", INDEX)
    assert "de" not in terms
    assert {"recet", "tortill"} <= terms


def test_a_question_of_stop_words_alone_is_still_searched() -> None:
    assert _terms("de la", INDEX)  # nothing else to search: kept where a chain keeps it


def test_one_language_keeps_its_words() -> None:
    assert _terms("git rebase conflict", ["en"]) == {"git", "rebas", "conflict"}
