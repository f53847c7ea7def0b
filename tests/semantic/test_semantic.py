"""The dense channel (rubi.semantic): offline, on the real Obsidian Help vault."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app, semantic
from rubi.semantic.dense import dense_index_for, query_vector
from rubi.semantic.sync import vectors_file
from rubi.semantic.vectors import open_vectors
from rubi.semantic.wordpiece import WordPiece

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)


def dense_ids(vault: Path, query: str, k: int = 5) -> list[str]:
    index = dense_index_for(app.locate(vault).index_dir)
    assert index is not None
    return [m.id for m in index.rank(query_vector(query, []), lambda _: True, k)]


def test_finds_a_note_that_shares_no_word_with_the_question(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    question = "a new journal page for each day"
    assert dense_ids(help_vault, question, 1) == ["Plugins/Daily notes"]
    hits = app.search(paths, question, scope="notes", refresh=False).hits
    assert hits[0].id == "Plugins/Daily notes"
    # The list's first leads its first ten by under 0.10 (the model finds many notes
    # about as close), so it does not vote (``dense_weight``): the words rank it.
    assert not any(w.startswith("close in meaning") for w in hits[0].why)


def test_a_match_that_leads_its_list_votes_and_says_so(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    hits = app.search(paths, "formulas in my writing", scope="notes", refresh=False).hits
    assert hits[0].id == "Bases/Formulas"
    assert any(
        w.startswith("close in meaning") and "best match: 0." in w and " over top " in w
        for w in hits[0].why
    )


def test_finds_the_section_about_callouts(help_vault: Path) -> None:
    app.index(app.locate(help_vault))
    index = dense_index_for(app.locate(help_vault).index_dir)
    assert index is not None
    query = query_vector("colored boxes for warnings and tips inside a note", [])
    headings = [m.heading for m in index.rank(query, lambda _: True, 5)]
    assert "Callout types" in headings


def test_a_note_edit_re_embeds_that_note_alone(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    store = open_vectors(vectors_file(paths.index_dir), create=False)
    assert store is not None
    before, gen = store.gens(), store.gen()
    store.close()
    note = help_vault / "Plugins" / "Slides.md"
    note.write_text(
        "# Slides\n\nA slow cooker recipe for lentil soup with carrots and cumin.\n",
        encoding="utf-8",
    )
    app.index(paths)
    store = open_vectors(vectors_file(paths.index_dir), create=False)
    assert store is not None
    after = store.gens()
    store.close()
    changed = {i for i in after if after[i] != before.get(i)}
    assert changed == {"Plugins/Slides"} and max(after.values()) == gen + 1
    assert dense_ids(help_vault, "lentil soup recipe", 1) == ["Plugins/Slides"]


def test_search_works_when_the_channel_is_off(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "_MISSING", ["numpy is not installed"])
    assert not semantic.enabled()
    paths = app.locate(help_vault)
    hits = app.search(paths, "how do I embed a note in another note", scope="notes").hits
    assert hits and hits[0].id == "Linking notes and files/Embed files"
    assert not vectors_file(paths.index_dir).exists()
    assert dense_index_for(paths.index_dir) is None


def test_wordpiece_cuts_words_into_vocabulary_pieces() -> None:
    wp = WordPiece({"[UNK]": 0, "play": 1, "##ing": 2, ",": 3, "cafe": 4, "x": 5})
    assert wp.encode("Playing, CAFÉ") == [1, 2, 3, 4]
    assert wp.encode("zzz") == [0]
    assert wp.words("naïve-ok") == ["naive", "-", "ok"]


def test_passages_are_the_heading_sections_search_cuts() -> None:
    from rubi.index.indexdoc import IndexDoc
    from rubi.semantic.passages import doc_passages

    filler = "words about the section. " * 4
    body = (
        f"lead {filler}\n# Setup\n{filler}\n```sh\n# not a heading\n```\n"
        f"## Using C#\n{filler}\n~~~\n## still code\n~~~\n"
    )
    doc = IndexDoc("n", "note", "n.md", "note", "", {"title": "Guide", "body": body})
    passages = doc_passages(doc)
    assert [p.heading for p in passages] == ["", "Setup", "Using C#"]
    assert passages[1].text.startswith("Guide: Setup\n")
    assert "# not a heading" in passages[1].text
    assert "## still code" in passages[2].text
