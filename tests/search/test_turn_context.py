"""A captured session's turn is scored with its neighbouring turns as context: the turn
that answers in words of its own, next to the turn that names the topic, comes before a
turn elsewhere that shares one of the question's words and nothing around it."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.sessionrecord import capture_turn
from rubi.search.passages import choose

SESSION = """# Session

### 10:00

**User:** The lake froze.

**Claude:** Brr.

### 10:01

**User:** Nothing much happened at work, the usual meetings.

**Claude:** Sounds calm.

### 10:02

**User:** We went camping with the kids in the mountains last weekend.

**Claude:** Where did you put up the tent?

### 10:03

**User:** Right by the lake, at Pine Cove, under the stars, with the whole family.

**Claude:** Beautiful spot, I can imagine the view from there at night!
"""
GROUPS = {"lake": "lake", "camp": "camp", "tent": "tent"}
IDF = {"lake": 2.0, "camp": 3.0, "tent": 3.0}


def test_with_its_neighbour_as_context_the_answering_turn_passes_a_lone_match() -> None:
    alone = choose("s", SESSION, GROUPS, IDF, kind="session", share=0.0, most=10)
    scores = {p.anchor: p.score for p in alone}
    assert scores["10 00"] > scores["10 03"]  # "lake" once each, 10:00 shorter
    found = choose("s", SESSION, GROUPS, IDF, kind="session", share=0.0, most=10, context=0.25)
    scores = {p.anchor: p.score for p in found}
    assert list(scores)[:2] == ["10 02", "10 03"]  # camping, then where they camped
    assert scores["10 03"] > scores["10 00"]


def test_a_turn_without_the_words_gains_from_its_neighbour_only() -> None:
    found = choose("s", SESSION, {"camp": "camp"}, IDF, kind="session", share=0.0, most=10)
    assert [p.anchor for p in found] == ["10 02"]
    found = choose(
        "s", SESSION, {"camp": "camp"}, IDF, kind="session", share=0.0, most=10, context=0.25
    )
    scores = {p.anchor: p.score for p in found}
    assert next(iter(scores)) == "10 02"
    assert scores["10 03"] == scores["10 01"] > 0  # each a quarter of its neighbour's
    assert abs(scores["10 03"] - 0.25 * scores["10 02"]) < 1e-3
    assert "10 00" not in scores  # two turns away: no context


def test_a_turn_gains_nothing_for_the_words_it_has_itself() -> None:
    text = SESSION.replace("Nothing much happened at work", "The lake at work")
    found = choose("s", text, {"lake": "lake"}, IDF, kind="session", share=0.0, most=10)
    with_context = choose(
        "s", text, {"lake": "lake"}, IDF, kind="session", share=0.0, most=10, context=0.25
    )
    # 10:00, 10:01 and 10:03 each say "lake": no neighbour brings a word they lack
    assert [(p.anchor, p.score) for p in with_context if p.anchor != "10 02"] == [
        (p.anchor, p.score) for p in found
    ]
    assert any(p.anchor == "10 02" for p in with_context)  # camping: lake beside it


def test_notes_are_not_scored_with_context() -> None:
    note = SESSION.replace("### 10:0", "## Part ")
    alone = choose("n", note, GROUPS, IDF, kind="note", share=0.0, most=10)
    found = choose("n", note, GROUPS, IDF, kind="note", share=0.0, most=10, context=0.25)
    assert [(p.anchor, p.score) for p in found] == [(p.anchor, p.score) for p in alone]


def test_a_search_of_sessions_shows_the_reply_that_names_no_query_word(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    paths = app.locate(project / ".rubi")
    day = 1_683_000_000.0
    school = [("The kids went camping at school.", "Fun!"), ("Work was busy.", "Sounds tiring.")]
    trip = [
        ("Work was busy again.", "Sounds tiring."),
        ("We went camping last weekend, guess the spot!", "Tell me!"),
        ("Pine Cove, right under the stars.", "Beautiful!"),  # the answer: no query word
        ("The car needs new tyres.", "Get them soon."),
    ]
    for sid, turns, start in (("school", school, day), ("trip", trip, day + 86_400)):
        for i, (prompt, answer) in enumerate(turns):
            capture_turn(paths, sid, prompt, answer, now=start + 60 * i)
    app.index(paths)
    hits = app.search(paths, "camping spot", scope="sessions", top_k=4, refresh=False).hits
    shown = [p.text for h in hits for p in h.passages]
    assert "We went camping last weekend" in shown[0]
    assert any("Pine Cove" in t for t in shown)  # scored by the camping turn beside it
    assert not any("new tyres" in t for t in shown)  # two turns away: no context
