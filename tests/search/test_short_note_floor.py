"""The relevance floor on short notes: a few-line note holding the question's rare words.

A "today I learned" note is a few lines; a question asked in plain words holds a few of
its words and many of the asker's own. Read at the vault's rate of each word, the
chance that some note holds those few words together is not small enough, and
coverage (the share of the question's IDF mass) is under half, so the answer sat
below the floor. A note shorter than the average is now held to the chance that a
note of its length holds each word: the same words in a tenth of the text are ten
times less likely by chance. A longer note, and one word held by any note, are read as
before.
"""

from __future__ import annotations

import math
from pathlib import Path

from rubi import app
from rubi.index.querymatch import significance
from rubi.search.reweighting import RELEVANCE_FLOOR, SIGNIFICANCE_FLOOR

from helpers import write

QUESTION = "Why does the quokka marmalade zeppelin trombone glacier saffron walrus origami fail?"
"""Eight content words: three held by one short note, five by no note."""

FILLER = (
    "river stone lantern meadow copper window harbor pepper candle orchard "
    "ladder velvet marble thunder compass blanket hammer violin basket mirror "
)


def _vault(tmp_path: Path, short: str) -> Path:
    vault = tmp_path / "v"
    write(vault / "til.md", f"# A small thing\n\n{short}\n")
    for i, word in enumerate(["quokka", "marmalade", "zeppelin"]):
        write(vault / f"long{i}.md", f"# Notes {i}\n\n{FILLER * 10}{word}\n")
    for i in range(36):
        write(vault / f"page{i:02d}.md", f"# Page {i}\n\n{FILLER * 10}\n")
    return vault


def test_a_short_note_holding_rare_words_together_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path, "The quokka ate marmalade on a zeppelin."))
    app.index(paths)
    result = app.search(paths, QUESTION, refresh=False)
    assert result.hits[0].id == "til"
    assert result.coverage < RELEVANCE_FLOOR  # five of eight words are in no note
    assert result.significance > SIGNIFICANCE_FLOOR
    assert result.relevant
    block = app.recall(paths, QUESTION, max_tokens=700)
    assert block is not None and "(id til)" in block


def test_one_word_in_a_short_note_is_still_chance(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path, "A quokka."))
    app.index(paths)
    result = app.search(paths, QUESTION, refresh=False)
    assert "til" in [h.id for h in result.hits]
    assert result.significance <= 0.0
    assert not result.relevant
    assert app.recall(paths, QUESTION, max_tokens=700) is None


def test_significance_credits_short_documents_only() -> None:
    dfs = {0: 4, 1: 4, 2: 4, 3: 0, 4: 0}
    held = {0, 1, 2}
    average = significance(held, dfs, 40)
    assert average == significance(held, dfs, 40, 1.0) == significance(held, dfs, 40, 3.0)
    # three words each in 4 of 40 documents: 40 * C(5, 3) * 0.1**3 expected by chance
    assert math.isclose(average, -math.log(40 * 10 * 0.1**3))
    tenth = significance(held, dfs, 40, 0.1)  # each word's chance 1 - 0.9 ** 0.1
    assert math.isclose(tenth, -math.log(40 * 10 * (1 - 0.9**0.1) ** 3))
    assert tenth > average + 6.0
    one = significance({0}, dfs, 40, 0.01)  # one word: the vault's rate, whatever the length
    assert one == significance({0}, dfs, 40) <= 0.0
