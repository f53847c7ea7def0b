"""The text answer reads a hit's passages only when the hit can be shown: the hit that
ends the list because even its lines without a passage overflow the budget is not read
(its passages are found in the file, 0.35 ms a hit on a large vault), and the text is
the same as when every hit's passages were read first."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.core.tokens import estimate_tokens
from rubi.search.hits import Hit
from rubi.search.render import render_compact, render_hit

from helpers import write


def _read(hit: Hit) -> bool:
    """Whether ``hit``'s passages were found already."""
    return hit.parts._find is None


def test_a_hit_whose_lines_overflow_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    for i in range(14):
        body = f"# Heron migration log {i}\n\n" + (
            f"Herons on the lake, day {i}. The migration of herons goes south.\n\n"
            "## Counts\n\nWe counted herons at dawn; the migration was late.\n" * (1 + i % 3)
        )
        write(folder / f"Heron migration field log number {i:02d}.md", body)
    paths = app.locate(folder)
    unread = 0
    for budget in range(40, 600, 9):
        result = app.search(paths, "heron migration", scope="notes")
        shown = render_compact(result, budget)
        n = len(shown.shown)
        if n == 0 or n >= len(result.hits):
            continue
        used = sum(
            estimate_tokens(render_hit(rank, hit)) + 1
            for rank, hit in enumerate(result.hits[:n], start=1)
        )
        after = result.hits[n]
        head = estimate_tokens(render_hit(n + 1, after, snippet=False)) + 1
        if used + head > budget:
            assert not _read(after), budget  # its lines alone overflow: never read
            unread += 1
        for hit in result.hits:
            assert hit.passages is not None  # every hit read now
        again = render_compact(result, budget)
        assert again.text == shown.text and again.tokens == shown.tokens
    assert unread >= 3  # the case was met
