"""A word in markdown's underscore emphasis, and a plural acronym, are terms.

``_frobnicate_`` (italics), ``__bold__`` and Python's ``__init__`` are tokens of one
part; the index kept them whole only, so a search for ``frobnicate`` did not find the
note. ``URLs`` was cut ``UR`` and ``Ls`` (at the last capital of a run), so a question's
``url`` matched neither. The windows' check (:func:`rubi.search.termat.holds_term`)
agrees with the index on both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import text_analyzer
from rubi.index.searchindex import SearchIndex
from rubi.index.wordparts import word_parts
from rubi.search.codewindow import QuestionTerms, window_share
from rubi.search.notewindow import NoteQuestion, note_window_share

from helpers import write


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("URLs", ["URLs"]),
        ("APIs", ["APIs"]),
        ("parseURLs", ["parse", "URLs"]),
        ("URLsFor", ["URLs", "For"]),
        ("UIsettings", ["U", "Isettings"]),  # a lower-case run after the s: no plural
        ("HTTPServer", ["HTTP", "Server"]),
        ("ÉTATs", ["ÉTATs"]),
        ("_frobnicate_", ["frobnicate"]),
    ],
)
def test_a_plural_acronym_is_one_part(word: str, parts: list[str]) -> None:
    assert word_parts(word) == parts


@pytest.mark.parametrize("lang", ["en", "code"])
def test_the_word_inside_underscores_is_a_term(lang: str) -> None:
    terms = set(text_analyzer(lang).terms("call _frobnicate_ then __bold__ in __init__"))
    assert {"_frobnicate_", "__bold__", "__init__", "bold", "init"} <= terms
    assert any(t.startswith("frobnic") for t in terms - {"_frobnicate_"})


@pytest.mark.parametrize("lang", ["en", "code"])
def test_a_plural_acronym_holds_the_acronym(lang: str) -> None:
    terms = set(text_analyzer(lang).terms("the APIs take URLs"))
    assert {"api", "url"} <= terms
    assert not {"ur", "ls", "ap", "is"} & terms


def test_search_finds_a_word_in_underscore_emphasis_and_a_plural_acronym(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "v"
    write(vault / "emph.md", "# Tooling\n\nAlways _frobnicate_ the widgets before a release.\n")
    write(vault / "links.md", "# Links\n\nThe crawler rewrites relative URLs on every page.\n")
    write(vault / "other.md", "# Other\n\nA page about something else entirely.\n")
    paths = app.locate(vault)
    app.index(paths)
    index = SearchIndex(paths.whoosh_dir)
    assert [h.id for h in index.bm25("frobnicate", kind="note")] == ["emph"]
    for query in ("url", "urls"):
        assert [h.id for h in index.bm25(query, kind="note")] == ["links"], query


@pytest.mark.parametrize(
    ("text", "term"),
    [("Always _frobnicate_ it", "frobnic"), ("def __init__(self):", "init"), ("URLs", "url")],
)
def test_the_windows_find_the_term_the_index_now_holds(text: str, term: str) -> None:
    assert term in text_analyzer("code").terms(text)
    assert window_share(text, QuestionTerms((term,), (term[:4],), (1.0,))) == 1.0
    assert term in text_analyzer("en").terms(text)
    assert note_window_share(text, NoteQuestion("en", (term,), (term[:4],), (1.0,))) == 1.0
