"""Recall counts a prompt's content words in the prompt's own language
(:func:`rubi.app.recall.content_terms`), not in the English chain: a plain French,
Spanish or German question of a dozen words is a question, not a pasted issue
(:data:`rubi.app.recall.LONG_PROMPT_TERMS`), so the relevance floor applies to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.app.recall import LONG_PROMPT_TERMS, content_terms, prompt_words
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.warm import index_at

from helpers import write

NOTES = {
    "fr": (
        "Un objet range des paires clé-valeur sous un même nom. On vérifie qu'une clé "
        "existe avec l'opérateur in. Les objets sont copiés par référence, pas par valeur.",
        "Comment est-ce que je peux savoir si une clé existe dans un objet avec une valeur ?",
    ),
    "es": (
        "Un objeto guarda pares de clave y valor bajo un mismo nombre. Para saber si una "
        "clave existe se usa el operador in. Los objetos se copian por referencia.",
        "¿Cómo puedo saber si una clave existe en un objeto que tiene un valor para ella?",
    ),
    "de": (
        "Ein Objekt speichert Paare aus Schlüssel und Wert unter einem Namen. Ob ein "
        "Schlüssel existiert, prüft man mit dem Operator in. Objekte werden als Referenz "
        "kopiert, nicht als Wert.",
        "Wie kann ich in einem Objekt herausfinden, ob es einen Schlüssel mit einem Wert gibt?",
    ),
}


@pytest.mark.parametrize("lang", sorted(NOTES))
def test_a_plain_question_counts_its_words_in_its_own_language(tmp_path: Path, lang: str) -> None:
    body, question = NOTES[lang]
    vault = tmp_path / "v"
    for i in range(3):
        write(vault / f"note{i}.md", f"# Note {i}\n\n{body}\n")
    paths = app.locate(vault)
    app.index(paths)
    index = index_at(paths.whoosh_dir)
    assert index.languages() == [lang]
    analysis = QueryAnalysis(question)
    english = set(analysis.terms(question))  # what recall counted before
    assert prompt_words(question, english) > LONG_PROMPT_TERMS  # read as a long prompt
    own = content_terms(analysis, index.languages())
    assert prompt_words(question, own) <= LONG_PROMPT_TERMS  # a question
    assert own < english or len(own) < len(english)  # its function words are not content
