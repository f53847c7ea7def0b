"""Words joined by an apostrophe or a dot keep their accented pieces whole.

French and Italian elide an article into the next word (``d'hôte``, ``l'élément``,
``dell'università``); the word after it is found by a search for it alone, in a note
and in a question. Identifiers in ASCII split as they always did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import identifier_parts, text_analyzer
from rubi.index.searchindex import SearchIndex
from rubi.index.wordparts import word_parts

from helpers import write


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("d'hôte", ["d", "hôte"]),
        ("l'élément", ["l", "élément"]),
        ("dell'università", ["dell", "università"]),
        ("ПриветМир", ["Привет", "Мир"]),
        ("HTTPServer", ["HTTP", "Server"]),
        ("parse_v2", ["parse", "v", "2"]),
        ("getÉtat", ["get", "État"]),
        ("ファイル.txt", ["ファイル", "txt"]),
    ],
)
def test_word_parts_split_where_the_case_or_the_separator_changes(
    word: str, parts: list[str]
) -> None:
    assert word_parts(word) == parts
    assert identifier_parts(word) == parts


def test_the_word_after_an_elided_article_is_a_term() -> None:
    terms = {t.text for t in text_analyzer("fr")("une clé d'hôte connue")}
    assert {"hote", "hot"} & terms  # hôte, accent-folded, stemmed or not
    assert "te" not in terms and "h" not in terms


def test_a_french_note_with_an_elided_word_is_found_by_the_word(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(
        vault / "ssh.md",
        "# ssh-keygen\n\nRetire la clé d'hôte d'une machine connue.\n",
    )
    write(
        vault / "docker.md", "# docker login\n\nSe connecter à un registre avec un mot de passe.\n"
    )
    write(vault / "autre.md", "# autre\n\nUne page sur autre chose entièrement.\n")
    paths = app.locate(vault)
    app.index(paths)
    index = SearchIndex(paths.whoosh_dir)
    for query in ("hôte", "l'hôte"):  # the text list: a match of the word, not of meaning
        assert [h.id for h in index.bm25(query, kind="note")] == ["ssh"], query
