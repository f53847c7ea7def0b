"""Programming abbreviations expand query words both ways, by stem."""

from __future__ import annotations

from pathlib import Path

from rubi.core.paths import index_dir_for
from rubi.index.abbreviations import ABBREVIATIONS, expansions
from rubi.index.analysis import analyze
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex


def test_a_word_adds_its_short_forms_and_back() -> None:
    assert expansions(analyze("implementations")) == {"impl": "impl"}
    assert set(expansions(analyze("ctx"))) == {"context"}
    # Members of one group reach each other: cfg → configuration and config.
    assert set(expansions(analyze("cfg"))) == {"configur", "config", "conf"}


def test_terms_already_in_the_query_are_not_repeated() -> None:
    assert "impl" not in expansions(analyze("impl implementation"))
    assert expansions(analyze("the quick brown fox")) == {}


def test_table_leaves_out_keywords_and_most_two_letter_forms() -> None:
    shorts = {s for forms in ABBREVIATIONS.values() for s in forms}
    assert not shorts & {"def", "fn", "func", "var", "let", "val", "class", "int", "struct"}
    assert {s for s in shorts if len(s) <= 2} <= {"db", "id"}


def test_a_code_search_finds_the_abbreviated_spelling(tmp_path: Path) -> None:
    index = SearchIndex(index_dir_for(tmp_path) / "whoosh")
    docs = [
        IndexDoc("impls.rs", "file", "impls.rs", "rust", "active", {"body": "impl Ser for u8"}),
        IndexDoc("other.rs", "file", "other.rs", "rust", "active", {"body": "fn other()"}),
        IndexDoc("notes/a", "note", "notes/a.md", "note", "active", {"body": "the impl of it"}),
    ]
    index.rebuild(docs)
    hits = index.bm25("implementations", kind="file")
    assert [h.id for h in hits] == ["impls.rs"]
    assert hits[0].matched == {"body": ("impl",)}
    # Notes, and searches of both kinds, take words as written: in notes "info" is the
    # info callout, and code would gain a second match per concept over notes.
    assert index.bm25("implementation") == []
    assert index.bm25("impl", kind="note")[0].id == "notes/a"


def test_author_is_not_an_abbreviation_of_anything() -> None:
    assert expansions(analyze("author of the commit")) == {}


def test_the_written_out_table_is_the_computed_one_in_its_order() -> None:
    """The searches read the table written out; it must be what the abbreviations and
    today's code chain give (run ``python -m rubi.index.abbreviations`` if not)."""
    from rubi.index import abbreviationstems
    from rubi.index.abbreviations import stem_table

    computed = stem_table()
    assert [(k, list(v.items())) for k, v in abbreviationstems.STEMS.items()] == [
        (k, list(v.items())) for k, v in computed.items()
    ], "run python -m rubi.index.abbreviations"
    written = Path(abbreviationstems.__file__).read_text(encoding="utf-8")
    assert abbreviationstems.render(computed) == written


def test_render_writes_a_changed_table_into_the_module_text() -> None:
    from rubi.index.abbreviationstems import render

    text = render({"configur": {"cfg": "cfg", "conf": "conf"}})
    assert (
        'STEMS: dict[str, dict[str, str]] = {\n    "configur": {"cfg": "cfg", "conf": "conf"},\n}'
        in text
    )
    assert text.startswith('"""The programming abbreviations')
