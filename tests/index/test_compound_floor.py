"""The relevance floor on a compounding language's question: a compound no page writes
is read as the two words it is made of, when the vault holds both.

A Dutch question asks about the ``beheeromgeving`` (admin environment) of a vault that
writes ``beheer`` and ``omgeving`` apart; the floor counted the compound as a word no
document holds, at the highest IDF ("the vault has nothing on it"), and labelled the
page that answers it nothing relevant. An English question of the same words is
measured by two ordinary words.
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.compounds import MAX_LETTERS, CompoundParts, best_split

from helpers import language_vault

ASKED = "Hoe zie ik de afbeeldingen in de beheeromgeving en de mediabibliotheek van mijn winkel?"
UNKNOWN = "Hoe plak ik de fietsband en de binnenband van mijn racefiets?"

PAGES = {
    "beheer": (
        "# Het beheer\n\nDe omgeving voor het beheer is de plek waar u de bibliotheek met"
        " media van uw winkel opent. U kunt er de afbeeldingen van de winkel zien.\n"
    ),
    "verzenden": "# Verzenden\n\nHoe u de verzending van een bestelling aan de klant regelt.\n",
}


def _vault(tmp_path: Path) -> Path:
    return language_vault(
        tmp_path,
        PAGES,
        "# Pagina {i}\n\nDit is een pagina over de winkel en de klanten, met een band.\n",
        24,
        "p",
    )


def test_a_compound_splits_into_the_two_most_frequent_known_parts() -> None:
    df = {"beheer": 5, "omgeving": 3, "beheero": 0, "gebruik": 40, "recht": 2, "media": 4}
    df |= {"bibliotheek": 2, "mediabib": 1, "liotheek": 1}
    assert best_split("beheeromgeving", lambda w: df.get(w, 0)) == ("beheer", "omgeving")
    assert best_split("gebruiksrecht", lambda w: df.get(w, 0)) == ("gebruik", "recht")
    # Koehn & Knight: the split of the largest geometric mean (4 * 2 over 1 * 1)
    assert best_split("mediabibliotheek", lambda w: df.get(w, 0)) == ("media", "bibliotheek")
    assert best_split("fietsband", lambda w: df.get(w, 0)) is None
    long = "beheer" * 7  # 42 letters: a pasted token, not a compound; not read cut by cut
    assert best_split(long, lambda w: 1) is None
    assert best_split(long[:MAX_LETTERS], lambda w: 1) is not None


def test_the_parts_take_the_compounds_place_in_the_floors_measure() -> None:
    parts = CompoundParts(
        {2: (7, 8)}, {7: frozenset({1, 3}), 8: frozenset({3})}, {7: 2, 8: 1}, {7: 3.0, 8: 4.0}
    )
    dfs, idfs, groups = parts.measure({1: 5, 2: 0}, {1: 1.5, 2: 6.0}, [{1, 2}])
    assert dfs == {1: 5, 7: 2, 8: 1}
    assert idfs == {1: 1.5, 7: 3.0, 8: 4.0}
    assert groups == [{1, 7, 8}]
    assert parts.held(3) == {7, 8} and parts.held(1) == {7} and parts.held(0) == set()


def test_a_dutch_question_of_compounds_the_vault_writes_apart_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ASKED, refresh=False)
    assert result.hits[0].id == "beheer"
    assert result.relevant, result.coverage


def test_a_compound_whose_part_no_page_holds_stays_unseen(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, UNKNOWN, refresh=False)
    assert not result.relevant  # "band" is on every page, "fiets" on none
