"""Tags are de-duplicated without regard to case, in time linear in their number: a
note of tens of thousands of distinct ``#tags`` parses at once (comparing each tag
with every one before it took minutes at 20,000)."""

from __future__ import annotations

import pytest

from rubi.markdown import parse_note

DISTINCT = 50_000


@pytest.mark.timeout(20)
def test_fifty_thousand_distinct_tags_parse_and_all_are_kept() -> None:
    text = "---\ntags: [front, Shared]\n---\n" + " ".join(f"#t{i}" for i in range(DISTINCT))
    text += " #shared #T7 #t7\n"
    note = parse_note(text, "tags.md")
    assert len(note.tags) == DISTINCT + 2  # front, Shared, then t0 … t49999
    assert note.tags[:4] == ("front", "Shared", "t0", "t1")
    assert note.tags[-1] == f"t{DISTINCT - 1}"


def test_a_tag_repeated_in_another_case_keeps_its_first_spelling_and_place() -> None:
    note = parse_note(
        "---\ntags: [Project/Alpha, beta]\n---\n#BETA #gamma #project/alpha #Gamma #délta #DÉLTA\n",
        "n.md",
    )
    assert note.tags == ("Project/Alpha", "beta", "gamma", "délta")


def test_aliases_repeated_in_another_case_are_dropped() -> None:
    note = parse_note("---\naliases: [Straße, STRASSE, other, Other]\n---\nbody\n", "n.md")
    assert note.aliases == ("Straße", "other")
