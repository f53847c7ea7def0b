"""Ranking on a compounding language's question: a compound no page writes is searched
as the two words it is made of, when the vault holds both.

A German user asks about the ``Benutzerkonto`` (user account) of a manual that writes
``Benutzer`` and ``Konto`` apart. The compound matched no page, so the question was
ranked by its other words alone, and a page repeating them (the printer's settings)
came before the page about the account. Searched as its parts (Braschler & Ripplinger
2004; Koehn & Knight 2003 for the split), the account's page is first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index import compounds
from rubi.index.compounds import CompoundParts

from helpers import language_vault

ASKED = "Wie ändere ich die Einstellungen für mein Benutzerkonto?"

PAGES = {
    "konto": (
        "# Das Konto\n\nJeder Benutzer hat ein eigenes Konto. Die Einstellungen für das"
        " Konto eines Benutzers ändern Sie im Profil.\n"
    ),
    "drucker": (
        "# Einstellungen des Druckers\n\nSo ändern Sie die Einstellungen des Druckers:"
        " öffnen Sie die Einstellungen und ändern Sie das Papier.\n"
    ),
}


def _vault(tmp_path: Path) -> Path:
    return language_vault(
        tmp_path,
        PAGES,
        (
            "# Seite {i}\n\nDies ist eine Seite über das Handbuch und die Hilfe, mit einem"
            " Beispiel für den Benutzer.\n"
        ),
        20,
        "s",
    )


def test_a_german_compound_no_page_writes_is_searched_as_its_parts(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ASKED, refresh=False)
    assert [h.id for h in result.hits[:2]] == ["konto", "drucker"]
    assert result.relevant


def test_without_the_parts_the_page_repeating_the_other_words_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the premise of the test above: the compound alone finds nothing
    monkeypatch.setattr(compounds, "unseen_parts", lambda *a, **k: None)
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ASKED, refresh=False)
    assert result.hits[0].id == "drucker"


def test_a_part_the_question_asks_already_is_no_second_word() -> None:
    parts = CompoundParts(
        {3: (7, 8)},
        {7: frozenset({1}), 8: frozenset({1, 2})},
        {7: 1, 8: 2},
        {7: 3.0, 8: 2.5},
        terms={7: ("benutz",), 8: ("konto",)},
    )
    clauses = parts.clauses({"title": 1.0, "body": 1.0}, 5, have={"konto", "andern"})
    assert [(c.field, c.text, c.word, c.origin) for c in clauses] == [
        ("title", "benutz", 5, -1),
        ("body", "benutz", 5, -1),
    ]
