"""The window rules find a question's terms where the index holds them, and nowhere else.

The windows (:mod:`rubi.search.codewindow`, :mod:`rubi.search.notewindow`) find a term by
``str.find`` of its key and check the word or identifier part there
(:func:`rubi.search.termat.holds_term`) instead of analysing the text whole. The index
holds an identifier whole and in parts (``SQLite`` is ``sqlite``, ``sq``, ``lite``;
``HTTPServer`` is ``httpserv``, ``http``, ``serv``): a check reading the part alone
missed the whole word, and one cutting parts at case changes alone missed the part
after an acronym or a digit. ``data/identifiers.txt``: 310 identifiers drawn from the
public code-search benchmark's checkouts (Go, Rust, Swift, JavaScript, Python, Ruby),
by kind (acronyms, digits, dotted names, leading or trailing underscores, snake and
camel case), the first of each kind by the SHA-256 of the identifier.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.index.analysis import text_analyzer
from rubi.search.codewindow import QuestionTerms, question_terms, window_share
from rubi.search.notewindow import NoteQuestion, note_window_share
from rubi.search.termat import part_at, term_key, token_at

IDENTIFIERS = (Path(__file__).parent / "data" / "identifiers.txt").read_text().split()
CONTEXTS = ("{}", "    value = {}(other)\n", "self.{} = 1", "# see {}: done")


def _idf(terms: list[str]) -> dict[str, float]:
    return dict.fromkeys(terms, 1.0)


def _keys(text: str, lang: str) -> dict[str, str]:
    """Each term of ``text`` as a question would ask it, with its key."""
    analyzer = text_analyzer(lang)
    keys: dict[str, str] = {}
    for surface in analyzer.surface(text):
        for term in analyzer.terms_of(surface):
            keys.setdefault(term, term_key(surface, term))
    return keys


def test_a_question_word_the_index_holds_whole_is_found_in_the_code_window() -> None:
    text = "import SQLite\n\n\ndef open_store(path):\n    return SQLite.connect(path)\n"
    question = question_terms("where is the sqlite store opened from a path", _idf)
    assert "sqlite" in question.terms
    assert "sqlite" in text_analyzer("code").terms(text)  # what the index matched
    assert window_share(text, question) == 1.0  # was 0.75: ``sqlite`` not seen


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("class HTTPServer:", "serv"),
        ("def getHTTPResponse():", "respons"),
        ("api_v2beta = 1", "beta"),
        ("def __init__(self):", "__init__"),
        ("import os.path", "os.path"),
        ("GraphQL", "graphql"),
        ("OAuth", "oauth"),
        ("IPv6", "ipv6"),
    ],
)
def test_the_code_window_finds_a_term_the_index_holds(text: str, term: str) -> None:
    assert term in text_analyzer("code").terms(text)
    question = QuestionTerms((term,), (_keys(text, "code")[term],), (1.0,))
    assert window_share(text, question) == 1.0


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("design", "sign"),  # no part starts at ``sign``
        ("config.SQLite", "sqlite"),  # the token is ``config.sqlite``, cut SQ, Lite
        ("get_HTTPResponse", "httprespons"),  # the token starts at ``get``
        ("SQLiteStore", "sqlite"),  # parts SQ, Lite, Store; whole ``sqlitestore``
    ],
)
def test_the_code_window_does_not_find_a_term_the_index_lacks(text: str, term: str) -> None:
    assert term not in text_analyzer("code").terms(text)
    assert window_share(text, QuestionTerms((term,), (term,), (1.0,))) == 0.0


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_term_of_a_real_identifier_is_found_where_the_index_holds_it(context: str) -> None:
    assert len(IDENTIFIERS) >= 300
    missed: list[tuple[str, str]] = []
    for ident in IDENTIFIERS:
        text = context.format(ident)
        for lang in ("code", "en"):
            held = text_analyzer(lang).terms(text)
            keys = _keys(text, lang)
            assert set(keys) == set(held), (text, lang)  # a question asks what is held
            for term in dict.fromkeys(held):
                if lang == "code":
                    asked = QuestionTerms((term,), (keys[term],), (1.0,))
                    share = window_share(text, asked)
                else:
                    note = NoteQuestion("en", (term,), (keys[term],), (1.0,))
                    share = note_window_share(text, note)
                if share != 1.0:
                    missed.append((text, term))
    assert missed == []


def test_no_term_of_another_identifier_is_found_where_the_index_lacks_it() -> None:
    code = text_analyzer("code")
    wrong: list[tuple[str, str]] = []
    for ident, other in zip(IDENTIFIERS, IDENTIFIERS[1:] + IDENTIFIERS[:1], strict=True):
        text = f"    value = {ident}(other)\n"
        held = set(code.terms(text))
        for term, key in _keys(other, "code").items():
            if term in held:
                continue
            if window_share(text, QuestionTerms((term,), (key,), (1.0,))) != 0.0:
                wrong.append((text, term))
    assert wrong == []


def test_parts_and_tokens_start_where_the_index_cuts() -> None:
    text = "x = HTTPServer.v2beta"
    assert [part_at(text, i) for i in (4, 8, 15, 16, 17)] == [
        "http",
        "server",
        "v",
        "2",
        "beta",
    ]
    assert part_at(text, 5) is None  # inside ``HTTP``
    assert token_at(text, 4) == "httpserver.v2beta"
    assert token_at(text, 8) is None  # inside the token
    assert token_at(text, 15) is None  # after the dot that joins it
    assert token_at("a..b", 3) == "b"
