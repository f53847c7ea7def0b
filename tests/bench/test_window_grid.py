"""The note-window grid bench: each variant's factor, the swap of the window function,
and the table of halves and questions up and down."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from rubi.index.querymatch import BM25Hit
from rubi.search import notewindow as nw

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def wg() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import window_grid

    return window_grid


def test_each_variant_scores_a_window_and_its_whole_text(wg: ModuleType) -> None:
    assert wg.factor("base", 0.5, 1.0, 1.0, 0.01) == 0.5
    assert wg.factor("off", 0.5, 1.0, 1.0, 0.01) == 1.0
    assert wg.factor("power:0.5", 0.25, 1.0, 1.0, 0.01) == 0.5
    assert wg.factor("apart:1", 0.5, 1.0, 1.0, 0.01) == 0.25  # half of what it holds meets
    assert wg.factor("apart:1", 0.5, 0.5, 1.0, 0.01) == 0.5  # all of it meets: the share
    assert wg.factor("apart:1", 0.0, 0.0, 1.0, 0.01) == 0.01  # holds none: the floor
    assert wg.factor("apart:0.5:0.5", 0.25, 1.0, 1.0, 0.01) == 0.25  # s / sqrt(w)
    assert wg.factor("blend:0.5", 0.2, 0.6, 1.0, 0.01) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="unknown variant"):
        wg.factor("window:200", 0.5, 1.0, 1.0, 0.01)


def test_a_variant_replaces_the_window_only_inside_its_block(wg: ModuleType) -> None:
    shipped = nw.by_note_window
    six = nw.NoteQuestion("en", *[tuple(f"w{i}" for i in range(6))] * 2, (1.0,) * 6)
    apart = "w0 w1 w2\n" + " ".join(f"x{i}" for i in range(nw.WINDOW_WORDS)) + "\nw3 w4 w5\n"
    texts = {"apart": apart, "short": "w0 w1 w2 and nothing else\n"}
    hits = [
        BM25Hit("apart", 1.3, {}, "note", "apart", "apart"),
        BM25Hit("short", 1.0, {}, "note", "short", "short"),
    ]
    with wg.window_variant("base"):
        assert nw.by_note_window is shipped
    with wg.window_variant("apart:1"):
        assert [h.id for h in nw.by_note_window(hits, six, lambda h: texts[h.id])] == [
            "short",
            "apart",
        ]
    assert nw.by_note_window is shipped
    assert [h.id for h in shipped(hits, six, lambda h: texts[h.id])] == ["apart", "short"]


def test_the_table_counts_halves_and_questions_against_the_base(wg: ModuleType) -> None:
    rows = [
        {
            "set": "a",
            "variant": "base",
            "mrr": 0.5,
            "ranks": {"q1": 2, "q2": 1},
            "off_silent": {"o": True},
        },
        {
            "set": "a",
            "variant": "off",
            "mrr": 0.75,
            "ranks": {"q1": 1, "q2": 2},
            "off_silent": {"o": False},
        },
        {"set": "b", "variant": "base", "mrr": 1.0, "ranks": {"q3": 1}, "off_silent": {}},
        {"set": "b", "variant": "off", "mrr": 1.0, "ranks": {"q3": 1}, "off_silent": {}},
    ]
    text = wg.table(rows)
    assert "| a | 0.500 | 0.750 |" in text
    assert "| b | 1.000 | 1.000 |" in text
    assert text.endswith("| 0 / 0 (0 / 0); 1 of 1 | 1 / 0 (1 / 1); 0 of 1 |")
    assert wg.mrr([1, 2, None, 11]) == pytest.approx((1 + 0.5) / 4)
