"""Ranking on the real Obsidian Help vault: questions whose right answers were checked
by reading the notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.search.render import render_compact, result_json


def _ids(vault: Path, query: str, terms: tuple[str, ...] = (), k: int = 5) -> list[str]:
    result = app.search(app.locate(vault), query, terms=terms, top_k=k, refresh=False)
    return [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("query", "terms", "expected", "within"),
    [
        ("embed", (), "Linking notes and files/Embed files", 1),
        ("Aliases", (), "Linking notes and files/Aliases", 1),
        # Two notes answer it: "Set up Obsidian Sync" and the getting-started note on
        # syncing across devices. BM25F proper ranks the second in the top 5 and the
        # first 14th among text matches: its title's word "sync" no longer adds a
        # field's worth of its own, and its body speaks of devices, not phones.
        (
            "how do I sync between phone and desktop",
            (),
            "Getting started/Sync your notes across devices",
            5,
        ),
        (
            "show one note inside another",
            ("embed", "transclude"),
            "Linking notes and files/Embed files",
            1,
        ),
        ("second name for a note", ("alias",), "Linking notes and files/Aliases", 1),
        (
            "link to a specific paragraph",
            ("block", "reference"),
            "Linking notes and files/Internal links",
            3,
        ),
        ("keyboard shortcuts hotkeys", (), "User interface/Hotkeys", 3),
        # Found by the dense list alone (its first), whose first ten are all
        # Publish notes within 0.04 of one another: since the list must lead its
        # own first ten to vote (``dense_weight``) it does not, and the
        # words rank other Publish notes. A known loss, kept visible.
        pytest.param(
            "publish my notes as a website",
            (),
            "Obsidian Publish/Introduction to Obsidian Publish",
            5,
            marks=pytest.mark.xfail(
                strict=True,
                reason=(
                    "a known miss: BM25F ranks four other Publish notes above the "
                    "introduction, and the dense list, which has it first, does not lead "
                    "its flat first ten"
                ),
            ),
        ),
    ],
)
def test_questions_on_obsidian_help(
    help_vault_indexed: Path, query: str, terms: tuple[str, ...], expected: str, within: int
) -> None:
    assert expected in _ids(help_vault_indexed, query, terms, k=within)


def test_every_hit_says_why(help_vault_indexed: Path) -> None:
    result = app.search(app.locate(help_vault_indexed), "canvas cards", refresh=False)
    assert result.hits
    for hit in result.hits:
        assert hit.why, hit.id
        assert any(w.startswith(("text match", "named", "linked to")) for w in hit.why)


def test_graph_brings_linked_notes(help_vault_indexed: Path) -> None:
    result = app.search(app.locate(help_vault_indexed), "Embed files", refresh=False)
    linked = [h for h in result.hits if any(w.startswith("linked to") for w in h.why)]
    assert linked, "neighbours of the named note should be fused in"


def test_budget_is_respected(help_vault_indexed: Path) -> None:
    result = app.search(app.locate(help_vault_indexed), "note", top_k=50, refresh=False)
    for budget in (60, 200, 1500):
        rendered = render_compact(result, budget)
        assert rendered.tokens <= budget
        assert rendered.shown  # at least one hit even when tight
        data = result_json(result, budget)
        assert data["tokens"] <= budget
        assert data["omitted"] == result.candidates - len(data["hits"])
