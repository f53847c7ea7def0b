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


TOPICS = [
    "promesses",
    "tableaux",
    "objets",
    "événements",
    "modules",
    "classes",
    "fonctions",
    "chaînes",
    "nombres",
    "dates",
    "erreurs",
    "boucles",
    "variables",
    "prototypes",
    "itérateurs",
    "générateurs",
    "symboles",
    "proxies",
    "cookies",
    "formulaires",
]
VERBS = [
    "crée",
    "modifie",
    "parcourt",
    "copie",
    "compare",
    "trie",
    "affiche",
    "vérifie",
    "supprime",
    "ajoute",
]


def test_an_off_topic_french_question_is_held_to_the_floor(tmp_path: Path) -> None:
    """An 11-word off-topic French question shares "meilleure façon de faire" with
    every note of a French vault. Counted in the English chain it was a long prompt
    (15 words), skipped the relevance floor and recalled unrelated notes; counted in
    French it is a question the floor silences. An on-topic one is still recalled."""
    vault = tmp_path / "v"
    for i, topic in enumerate(TOPICS):
        for j in range(2):
            verb = [VERBS[(i * 2 + j + k) % len(VERBS)] for k in range(4)]
            body = f"On {verb[0]} les {topic} avec une méthode du langage, et la meilleure "
            body += "façon de le faire dépend du navigateur. "
            body += " ".join(
                f"Le code {verb[k]} une valeur de {topic} puis {verb[k - 1]} le résultat "
                "dans la console."
                for k in range(1, 4)
            )
            write(vault / f"{topic}-{j}.md", f"# Les {topic} ({j})\n\n{body}\n")
    paths = app.locate(vault)
    app.index(paths)
    off = "Quelle est la meilleure façon de faire cuire une tarte aux pommes pour ce soir ?"
    assert app.recall(paths, off, max_tokens=700) is None
    on = "Comment est-ce que je trie les tableaux avec une méthode du langage ?"
    block = app.recall(paths, on, max_tokens=700)
    assert block is not None and "(id tableaux-" in block
