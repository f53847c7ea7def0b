"""The relevance floor on a question word no page holds as written: read as the words
that begin like it (its longest prefix some term begins with, of five letters at least:
McNamee, Nicholas & Mayfield 2009), in the floor's significance, not in its coverage.

A Polish question asks how to ``skopiować`` (to copy) a file and ``otworzyć`` (to open)
a shell; the page writes the imperatives ``Skopiuj`` and ``Otwórz``. Snowball's Polish
stemmer leaves the infinitive's stem apart from the imperative's, so the question's
forms were words no document holds, counted at the highest IDF ("the vault has nothing
on it"), and the page that answers it fell below the floor.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from rubi import app
from rubi.index import compounds
from rubi.index.compounds import CompoundParts
from rubi.index.segmentfiles import open_segments
from rubi.index.truncation import (
    MAX_FAMILY,
    PREFIX_LETTERS,
    family,
    terms_beginning,
    truncated,
)

from helpers import language_vault

ASKED = "Jak skopiować plik na komputer albo otworzyć powłokę?"
UNKNOWN = "Jak upiec sernik z rodzynkami i posypką?"

PAGES = {
    "adb": (
        "# adb\n\nMost debugowania Androida.\n\n- Skopiuj plik z urządzenia na komputer:\n\n"
        "`adb pull ścieżka`\n\n- Otwórz powłokę na urządzeniu:\n\n`adb shell`\n"
    ),
    "ls": "# ls\n\nWyświetla zawartość katalogu.\n\n- Wyświetl ukryte pliki:\n\n`ls -a`\n",
}


def _vault(tmp_path: Path) -> Path:
    return language_vault(
        tmp_path,
        PAGES,
        (
            "# Polecenie {i}\n\nTo jest polecenie, które wyświetla plik na komputerze, a także"
            " jego opcje, gdy jest to potrzebne, oraz to, czego nie ma w katalogu.\n"
        ),
        24,
        "p",
    )


def _prefixed(lexicon: list[str]):  # type: ignore[no-untyped-def]
    return lambda start: [t for t in lexicon if t.startswith(start)]


def test_a_word_is_truncated_to_its_first_five_letters_accents_folded() -> None:
    assert PREFIX_LETTERS == 5
    assert truncated("skopiować") == "skopi"
    assert truncated("Otworzyć".lower()) == "otwor"
    assert truncated("skončil") == "skonc"
    assert truncated("plik") is None  # shorter: its truncation is itself
    assert truncated("x86_64") is None and truncated("2024r") is None


def test_the_family_is_the_terms_of_the_longest_prefix_some_term_begins_with() -> None:
    lexicon = ["otworz", "otworzen", "otwart", "skopiuj", "skora"]
    assert family("skopiować", _prefixed(lexicon)) == ["skopiuj"]
    # "otworzyć": "otworz" (six letters) is held, "otwor" would add no other here
    assert family("otworzyć", _prefixed(lexicon)) == ["otworz", "otworzen"]
    # "skorowidz" shares "skor" (four letters) with "skora": below five, no family
    assert family("skorowidz", _prefixed(lexicon)) == []
    assert family("sernik", _prefixed(lexicon)) == []


def test_a_prefix_of_too_many_terms_reads_nothing() -> None:
    lexicon = [f"konfig{i:04d}" for i in range(MAX_FAMILY + 1)]
    assert family("konfiguracja", _prefixed(lexicon)) == []
    assert len(family("konfiguracja", _prefixed(lexicon[:MAX_FAMILY]))) == MAX_FAMILY


def test_the_cold_reader_reads_a_prefix_as_whoosh_does(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    cold = open_segments(paths.whoosh_dir)
    try:
        with whoosh_index.open_dir(str(paths.whoosh_dir)).reader() as reader:
            for start in ("skopi", "otwor", "polece", "zzz", ""):
                mine = terms_beginning(cold, "body", start)
                assert mine == terms_beginning(reader, "body", start)
                assert all(t.startswith(start.encode()) for t in mine)
            assert terms_beginning(cold, "body", "skopi") == [b"skopiuj"]
            assert len(terms_beginning(cold, "body", "")) > 20  # the whole field
    finally:
        cold.close()


def test_a_truncated_word_stays_unseen_in_the_coverages_reading() -> None:
    # word 2 read by a truncation's terms (part 7), word 3 split as a compound (8, 9)
    parts = CompoundParts(
        {2: (7,), 3: (8, 9)},
        {7: frozenset({1}), 8: frozenset({1, 2}), 9: frozenset({2})},
        {7: 1, 8: 2, 9: 1},
        {7: 3.0, 8: 2.5, 9: 3.0},
        frozenset({2}),
    )
    dfs, idfs = {1: 5, 2: 0, 3: 0}, {1: 1.5, 2: 4.0, 3: 4.0}
    assert parts.measure(dfs, idfs, [{1, 2, 3}]) == (
        {1: 5, 7: 1, 8: 2, 9: 1},
        {1: 1.5, 7: 3.0, 8: 2.5, 9: 3.0},
        [{1, 7, 8, 9}],
    )
    assert parts.measure(dfs, idfs, [{1, 2, 3}], loose=False) == (
        {1: 5, 2: 0, 8: 2, 9: 1},
        {1: 1.5, 2: 4.0, 8: 2.5, 9: 3.0},
        [{1, 2, 8, 9}],
    )


def test_a_polish_question_in_other_forms_than_the_page_is_relevant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ASKED, refresh=False)
    assert result.hits[0].id == "adb"
    assert result.relevant, result.coverage
    # without the truncation: the same coverage (a family is not read there), and
    # the page's co-occurrence alone is not enough
    monkeypatch.setattr(compounds, "family", lambda word, prefixed: [])
    without = app.search(paths, ASKED, refresh=False)
    assert without.coverage == result.coverage < 0.5
    assert not without.relevant


def test_a_question_whose_words_begin_like_no_term_stays_off_topic(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    assert not app.search(paths, UNKNOWN, refresh=False).relevant
