"""The relevance floor's two readings, each held to what chance would give.

Coverage (the share of the question's IDF mass one note holds) counts only when the
words held are also more than chance would put in one note (significance above 0),
unless a note holds the whole question. Significance alone counts only for a note
holding three or more of the question's words: two words of one idea ("horizontal"
and "vertical") meet far more often than independence gives.
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.search.render import NOTHING_RELEVANT
from rubi.search.reweighting import (
    RELEVANCE_FLOOR,
    SIGNIFICANCE_FLOOR,
    SIGNIFICANCE_MIN_WORDS,
    relevant,
)

from helpers import write


def test_coverage_needs_more_than_chance_unless_the_whole_question_is_held() -> None:
    assert relevant(0.6, 0, significance=0.1)
    assert not relevant(0.6, 0, significance=0.0)  # one note or more holds them by chance
    assert relevant(1.0, 0, significance=-2.0)  # every word of the question: what was asked
    assert not relevant(0.4, 0, significance=0.1)
    # a vault that could not show it (a note holding every known word would be chance)
    assert relevant(0.6, 0, significance=-1.0, most=0.0)
    assert not relevant(0.6, 0, significance=-1.0, most=0.5)


def test_significance_alone_needs_three_words_held() -> None:
    high = SIGNIFICANCE_FLOOR + 1.0
    assert relevant(0.1, 0, significance=high, co_occurrence=high)
    assert not relevant(0.1, 0, significance=high, co_occurrence=0.0)  # a pair held it
    assert relevant(0.1, 0, significance=high)  # not given: the significance itself
    assert SIGNIFICANCE_MIN_WORDS == 3


COMMANDS = 300
"""Short command pages of the pair vault: one holds both adverbs, the rest are alike."""


def _commands(vault: Path) -> Path:
    for i in range(COMMANDS - 1):
        write(vault / f"c{i:03d}.md", f"# Command {i:03d}\n\nShow the list of files. Run it.\n")
    write(vault / "magick.md", "# Image tool\n\nFlip an image horizontal or vertical.\n")
    return vault


PAIR = "How do I centre an element horizontal and vertical with CSS?"
"""Five content words; the image page holds two of them, rare ones."""
TRIPLE = "How do I flip it horizontal and vertical in quokka marmalade zeppelin style?"
"""Seven content words; the image page holds three rare ones, under half the mass."""


def test_a_pair_of_rare_words_is_not_enough(tmp_path: Path) -> None:
    paths = app.locate(_commands(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, PAIR, refresh=False)
    assert result.hits[0].id == "magick"  # the floor labels; it never drops a hit
    assert result.coverage < RELEVANCE_FLOOR
    assert result.significance > SIGNIFICANCE_FLOOR  # chance, were the two independent
    assert not result.relevant
    assert app.render_search(result, 2000).splitlines()[0] == NOTHING_RELEVANT
    assert app.search_json(result, 2000)["relevant"] is False
    assert app.recall(paths, PAIR, max_tokens=700) is None


def test_three_rare_words_together_are_evidence(tmp_path: Path) -> None:
    paths = app.locate(_commands(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, TRIPLE, refresh=False)
    assert result.hits[0].id == "magick"
    assert result.coverage < RELEVANCE_FLOOR
    assert result.relevant
    assert app.recall(paths, TRIPLE, max_tokens=700) is not None


def _training(vault: Path) -> Path:
    """40 pages of equal length: eight hold "train", "weeks" and "plan", one "shoes"."""
    for i in range(40):
        extra = (
            "train weeks plan" if i < 8 else "river stone shoes" if i == 39 else "river stone hill"
        )
        write(vault / f"p{i:02d}.md", f"# Page {i:02d}\n\nLantern meadow copper {extra}.\n")
    return vault


MARATHON = "How should I plan to train for weeks in shoes?"
"""Four content words: three that eight pages hold together, one that one page holds."""


def test_half_the_question_in_words_chance_would_give_is_not_enough(tmp_path: Path) -> None:
    paths = app.locate(_training(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, MARATHON, refresh=False)
    assert result.hits
    assert result.coverage >= RELEVANCE_FLOOR  # 65% of the mass, in three common words
    assert result.significance <= 0.0  # eight pages hold them: more than one by chance
    assert not result.relevant
    assert app.recall(paths, MARATHON, max_tokens=700) is None


def test_a_search_of_words_a_page_holds_all_of_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_training(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, "training", refresh=False)  # one word: never significant
    assert result.significance <= 0.0 and result.coverage == 1.0
    assert result.relevant
