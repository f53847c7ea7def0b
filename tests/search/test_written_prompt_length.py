"""A prompt of a few written words is short whatever its term count
(:data:`rubi.app.recall.SHORT_PROMPT_WORDS`): outside English a word brings its stem
beside its surface, so a six-word Spanish question counted 11 terms, took recall's
long-prompt route past the relevance floor and recalled notes that share two of its
words."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.recall import (
    LONG_PROMPT_TERMS,
    SHORT_PROMPT_WORDS,
    prompt_terms,
    prompt_words,
    written_count,
)
from rubi.index.queryanalysis import QueryAnalysis

from helpers import write

OFF_TOPIC = "¿Cuánto cuesta reparar la pantalla rota de un portátil?"
TOPICS = [
    "componentes",
    "rutas",
    "imágenes",
    "estilos",
    "formularios",
    "plantillas",
    "consultas",
    "servidores",
    "eventos",
    "módulos",
    "pruebas",
    "errores",
    "sesiones",
    "cookies",
    "fuentes",
    "enlaces",
    "tablas",
    "menús",
    "temas",
    "scripts",
]


def test_a_short_question_counts_its_written_words() -> None:
    analysis = QueryAnalysis(OFF_TOPIC)
    terms = set(analysis.terms(OFF_TOPIC, "es"))
    assert len(terms) > LONG_PROMPT_TERMS  # stems beside surfaces: read as long
    assert written_count(OFF_TOPIC, terms, "es") == 6
    assert prompt_words(OFF_TOPIC, terms) == len(terms)  # no chain: the term count
    assert prompt_words(OFF_TOPIC, terms, "es") == 6 <= SHORT_PROMPT_WORDS


def test_a_long_question_keeps_its_term_count() -> None:
    question = (
        "How do I keep the old colour hash working on servers locked to government "
        "cryptography rules today?"
    )
    terms = set(QueryAnalysis(question).terms(question))
    assert written_count(question, terms, "en") == len(terms) > SHORT_PROMPT_WORDS
    assert written_count(question, terms, "en", stop=SHORT_PROMPT_WORDS + 1) == 7
    assert prompt_words(question, terms, "en") == len(terms) > LONG_PROMPT_TERMS


def test_a_short_off_topic_question_is_held_to_the_floor(tmp_path: Path) -> None:
    """Some notes hold "pantalla" and "cuesta" (four of the question's eleven terms);
    the floor labels the search nothing relevant, and recall now says nothing. An
    on-topic question is still recalled."""
    vault = tmp_path / "v"
    for i, topic in enumerate(TOPICS):
        for j in range(2):
            body = f"Los {topic} del proyecto se configuran en un archivo. "
            if i % 5 == 0:
                body += f"La pantalla de inicio muestra los {topic} y cuesta poco cambiarla. "
            body += f"Cada uno de los {topic} tiene opciones propias que el sitio lee al compilar."
            write(vault / f"{topic}-{j}.md", f"# Los {topic} ({j})\n\n{body}\n")
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, OFF_TOPIC, scope="notes", top_k=10, refresh=False, personal=False)
    assert not result.relevant
    assert result.hits  # notes share its words: only the floor keeps recall silent
    assert app.recall(paths, OFF_TOPIC, max_tokens=700) is None
    on = "¿Cómo se configuran los formularios del proyecto en un archivo?"
    block = app.recall(paths, on, max_tokens=700)
    assert block is not None and "(id formularios-" in block


def test_prompt_terms_reads_the_prompt_in_its_own_chain() -> None:
    analysis = QueryAnalysis(OFF_TOPIC)
    lang, terms = prompt_terms(analysis, ["es"])
    assert lang == "es"
    assert terms == set(analysis.terms(OFF_TOPIC, "es"))


def test_a_word_written_as_code_counts_its_parts() -> None:
    """A pasted issue's title of identifiers keeps the term count it had: the parts of
    ``Locale.get_display_name`` are the code's words, not one word's forms."""
    title = "`Locale.get_display_name` raises a cryptic `TypeError` with valid args"
    terms = set(QueryAnalysis(title).terms(title))
    assert len(terms) > LONG_PROMPT_TERMS
    assert written_count(title, terms, "en") > SHORT_PROMPT_WORDS
    assert prompt_words(title, terms, "en") == len(terms)
