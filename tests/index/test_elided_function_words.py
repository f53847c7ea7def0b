"""Function words a language's list missed, and elided function words (``qu'il``,
``c'est``), are no terms of that language's notes or questions."""

from __future__ import annotations

import pytest

from rubi.core.paths import cache_home
from rubi.index import snowball
from rubi.index.analysis import analyze, query_words
from rubi.index.searchindex import IndexDoc, SearchIndex


@pytest.mark.parametrize(
    ("lang", "word"),
    [("fr", "les"), ("fr", "ils"), ("de", "dass"), ("de", "unsere"), ("pt", "estar")],
)
def test_the_snowball_lists_function_words_whoosh_lacks_are_stop_words(
    lang: str, word: str
) -> None:
    assert word in snowball.stop_words(lang)
    assert analyze(word, lang) == []


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("fr", "qu'il c'est d'un n'est l'on s'il qu’elle"),
        ("it", "c'è l'ho"),
    ],
)
def test_an_elided_function_word_is_a_stop_word(lang: str, text: str) -> None:
    assert analyze(text, lang) == []


def test_an_elided_article_before_a_content_word_keeps_the_word() -> None:
    terms = analyze("l'installer aujourd'hui", "fr")
    assert "install" in terms
    assert "aujourd'hui" in terms  # no piece is a function word of its own


def test_english_keeps_its_terms() -> None:
    # English questions lose their clitics instead (contraction_head); its notes'
    # terms, and so every English ranking, are unchanged.
    assert analyze("don't it's", "en") == ["don't", "it"]
    assert "les" in analyze("les paul", "en")


def test_a_french_question_matches_no_page_by_its_function_words() -> None:
    index = SearchIndex(cache_home() / "elided" / "whoosh")
    body = "Les pages qu'il faut lire, c'est ainsi."
    index.rebuild(
        [
            IndexDoc(
                id="fonctions",
                kind="note",
                path="fonctions.md",
                type="note",
                status="active",
                fields={"title": "Les mots", "body": body * 3},
                lang="fr",
            ),
            IndexDoc(
                id="sentry",
                kind="note",
                path="sentry.md",
                type="note",
                status="active",
                fields={"title": "Surveiller", "body": "Suivre les erreurs en production."},
                lang="fr",
            ),
        ]
    )
    words = query_words("les erreurs qu'il signale", index.languages())
    assert all("les" not in terms and "qu'il" not in terms for w in words for terms in w.values())
    assert [h.id for h in index.bm25("les erreurs qu'il signale, c'est")] == ["sentry"]
