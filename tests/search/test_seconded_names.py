"""A note named by an identifier inside a longer question (``TypeScript``, ``Base64``)
votes only when the text list also ranks it among its first hits and no hit above it
holds more of the question: the hub of the topic a question is *in* does not come
first above the note that answers it, and its why-line says why its name was not
counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.querymatch import BM25Hit
from rubi.search.lists import SEED_COUNT, seconded_names
from rubi.search.names import NameMatch
from rubi.search.reweighting import name_seconded

from helpers import filler_notes, notes_vault


def test_a_name_is_seconded_only_by_the_texts_first_hits() -> None:
    assert name_seconded("base64", ["base64", "gzip"])
    assert not name_seconded("typescript", ["styles", "linaria"])
    assert not name_seconded("typescript", [])


def test_a_name_is_seconded_by_being_among_the_texts_first_hits_alone() -> None:
    # The tenth pass's second clause (no hit above it may hold more of the question)
    # moved no answer on the development halves added after it and was taken back.
    assert name_seconded("x86_64", ["arch", "x86_64", "ld"])


def test_only_matches_that_need_the_text_lose_their_vote() -> None:
    named = [
        NameMatch("typescript", "typescript", needs_text=True),
        NameMatch("linaria", "linaria", needs_text=True),
        NameMatch("log", "log"),  # the whole query or a file: no second needed
    ]

    def hit(id: str) -> BM25Hit:
        return BM25Hit(id, 1.0, {}, "note", f"{id}.md", id)

    text = [hit(f"n{i}") for i in range(SEED_COUNT - 1)] + [hit("linaria"), hit("typescript")]
    out = seconded_names(named, text)
    assert [m.votes for m in out] == [False, True, True]
    assert out[0].evidence == f"not counted: not in the text's first {SEED_COUNT}"
    assert out[1] == named[1] and out[2] == named[2]


def test_a_vote_is_kept_below_a_hit_holding_more_of_the_question() -> None:
    named = [NameMatch("x86_64", "x86_64", needs_text=True)]
    text = [
        BM25Hit("osx/arch", 3.0, {}, "note", "osx/arch.md", "arch", coverage=0.75),
        BM25Hit("x86_64", 2.0, {}, "note", "x86_64.md", "x86_64", coverage=0.4),
    ]
    assert seconded_names(named, text) == named


def _wiki() -> dict[str, str]:
    """A hub note for a language, the note that answers a question about styles in it,
    ten notes on component styles in it that do not answer, a note on encoding, eighty
    unrelated notes."""
    return {
        "TypeScript.md": "# TypeScript\n\nTyped JavaScript. See [[Linaria]].\n",
        "Linaria.md": "# Linaria\n\nA library that writes component styles that compile "
        "away at build time, in TypeScript.\n",
        "Base64.md": "# Base64\n\nEncode a file as text and decode it back.\n",
        **{
            f"styles{i}.md": f"# styles {i}\n\nComponent styles library for TypeScript.\n"
            for i in range(10)
        },
        **filler_notes(80),
    }


@pytest.mark.timeout(60)
def test_a_hub_named_by_an_identifier_does_not_outrank_the_answer(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", _wiki())
    q = "which library writes component styles that compile away in TypeScript"
    result = app.search(paths, q, top_k=20)
    assert result.hits[0].id == "Linaria"
    assert result.named == 0
    hub = next(h for h in result.hits if h.id == "TypeScript")  # shown for its text match
    named = [r for r in hub.reasons if r.kind == "named"]
    assert named and named[0].evidence == f"not counted: not in the text's first {SEED_COUNT}"


@pytest.mark.timeout(60)
def test_an_identifier_named_note_the_text_also_finds_still_votes(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", _wiki())
    result = app.search(paths, "how do I encode a file in Base64 and decode it", top_k=5)
    assert result.hits[0].id == "Base64"
    assert result.named == 1


def _mac() -> dict[str, str]:
    """The page that answers how to run a command as another architecture, the page
    of the architecture's own command (named by an identifier in the question), a
    page on the linker, eighty unrelated pages."""
    return {
        "arch.md": "# arch\n\nOn a Mac with an Apple chip, run a command as x86_64 or "
        "arm, or show the architecture of the machine.\n",
        "x86_64.md": "# x86_64\n\nThis command is an alias of setarch x86_64.\n",
        "ld.md": "# ld\n\nLink object files for an architecture.\n",
        **filler_notes(80),
    }


@pytest.mark.timeout(60)
def test_a_named_note_the_text_also_ranks_votes_below_a_fuller_match(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", _mac())
    q = "on a Mac with an Apple chip how do I run a command as x86_64 or arm"
    result = app.search(paths, q, top_k=5)
    assert {h.id for h in result.hits[:2]} == {"arch", "x86_64"}
    assert result.named == 1
