"""A word written in letters with capitals inside it (``JavaScript``, ``macOS``) is one
word of the question, its parts terms of that word, not words of their own."""

from __future__ import annotations

from rubi.core.paths import cache_home
from rubi.index.analysis import query_words, written_words
from rubi.index.searchindex import IndexDoc, SearchIndex


def test_a_word_with_capitals_inside_is_written_as_one_word() -> None:
    assert written_words("Run JavaScript on macOS, not parse_args or HTTP") == [
        ("javascript", ["java", "script"]),
        ("macos", ["mac", "os"]),
    ]


def test_its_parts_are_terms_of_the_one_word() -> None:
    words = query_words("JavaScript profile", ["en"])
    assert words == [{"en": ["javascript", "java", "script"]}, {"en": ["profil"]}]


def test_an_identifier_of_several_words_keeps_its_parts_as_words() -> None:
    # Snake case, dotted names and digits are identifiers as before.
    words = query_words("parse_wiki_links", ["en"])
    assert len(words) == 4


def _doc(doc_id: str, body: str) -> IndexDoc:
    return IndexDoc(
        id=doc_id,
        kind="note",
        path=f"{doc_id}.md",
        type="note",
        status="active",
        fields={"title": doc_id, "body": body},
        lang="en",
    )


def test_one_brand_word_does_not_outweigh_the_rest_of_the_question() -> None:
    index = SearchIndex(cache_home() / "written" / "whoosh")
    index.rebuild(
        [
            _doc("engine", "Shell for the JavaScript-engine. Run a JavaScript-file."),
            _doc("profile", "Change the public email address in your registry profile."),
            *(_doc(f"other{i}", f"Unrelated page {i} about email.") for i in range(8)),
        ]
    )
    # Before: the page holding JavaScript twice came first (java, script and
    # javascript: three words matched, against public, address and registry).
    hits = index.bm25("public address in the JavaScript registry")
    assert [h.id for h in hits][:1] == ["profile"]
