"""A word written with capitals inside it is one word of a question of notes.

``JavaScript`` is indexed with its pieces ``java`` and ``script`` beside it on every
page that writes it (so a search for ``script`` finds it). As query words of their
own, the pieces counted that page's one word three times, each saturated and weighed
apart: on lang-doka-ru a page writing "JavaScript" in passing outranked the page on
sets (which writes the word in lower case, ``javascript.builtins.Set``) for a question
about storing values that never repeat. In a search of notes the pieces are readings
of the word, saturated with it and weighed by the IDF of the word as written; a search
of code keeps them as words (an identifier's pieces are its words).
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.querymatch import query_clauses
from rubi.index.searchindex import SearchIndex
from rubi.index.wordparts import mixed_case_pieces

from helpers import write


def test_the_pieces_of_a_mixed_case_word_are_found_but_not_those_written_apart() -> None:
    pieces = mixed_case_pieces("store values in JavaScript, on macOS: parse_v2 or l'installer")
    assert pieces == {"java": "javascript", "script": "javascript", "mac": "macos", "os": "macos"}
    assert mixed_case_pieces("JavaScript and Java") == {"script": "javascript"}
    assert mixed_case_pieces("URLs, HTML, Title") == {}


def test_a_notes_question_saturates_the_pieces_with_the_word() -> None:
    notes = query_clauses("JavaScript sets", languages=["en"], fields=["body"])
    words = {c.text: (c.word, c.reading) for c in notes}
    assert words["javascript"] == (words["java"][0], False)
    assert words["java"][1] and words["script"][1]
    assert words["javascript"][0] == words["script"][0] != words["set"][0]
    code = query_clauses("JavaScript sets", kind="file", languages=["en"], fields=["body"])
    assert len({c.word for c in code}) == 4  # javascript, java, script, set
    assert not any(c.reading for c in code)


def test_a_page_writing_the_word_in_passing_does_not_outrank_the_answer(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "v"
    write(
        vault / "sets.md",
        "# Sets\n\nA set keeps unique values: adding a value twice keeps one.\n\n"
        "Feature: javascript.builtins.Set\n",
    )
    write(
        vault / "strings.md",
        "# Strings\n\nJavaScript strings hold text. In JavaScript every value has a "
        "type, and JavaScript converts values on the fly.\n",
    )
    for i in range(6):
        write(vault / f"other{i}.md", f"# Other {i}\n\nA page about gardening number {i}.\n")
    paths = app.locate(vault)
    app.index(paths)
    index = SearchIndex(paths.whoosh_dir)
    hits = index.bm25("How do I keep unique values in JavaScript?", kind="note")
    assert [h.id for h in hits][:2] == ["sets", "strings"]


def test_a_long_mixed_case_identifier_maps_its_pieces_to_it() -> None:
    """A 60,000-character camelCase identifier (a hostile query or note): its pieces
    map to the identifier, lower-cased (the cost of a long one is measured by a bench,
    not here: its lower-cased form is made once, not once a piece)."""
    word = "fooBar" * 10_000
    low = word.lower()
    assert mixed_case_pieces(f"{word} plain") == {"foo": low, "barfoo": low, "bar": low}
