"""A search of captured sessions ranks turns: the session whose one turn answers comes
before a session that mentions the question's words in many turns, and a hit shows
only its turns that rank among the result's best."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.sessionrecord import capture_turn
from rubi.search.hits import Passage
from rubi.search.turnranking import rank_turns

DAY = 1_683_000_000.0  # early May 2023

CHATTY = [  # the garden and the tomatoes come up in every turn, and answer nothing
    ("The garden looks green after the rain.", "Tomatoes love rain, the garden too."),
    ("I bought a hose for the garden.", "Good, the tomatoes will need it."),
    ("Roses planted by the gate.", "By the garden hose? Lovely."),
    ("The old garden tree was planted by my grandma.", "Older than the house!"),
    ("Neighbours asked about our garden.", "Tell them about the tomatoes."),
    ("The cat sleeps in the garden.", "As long as it leaves the tomatoes alone."),
    ("Garden gloves are torn again.", "Buy new ones with the tomatoes seeds."),
    ("Sunny weekend for the garden!", "Tomatoes and garden chairs, then."),
]
ANSWERING = [
    ("How was the concert?", "Loud and wonderful, we danced all night."),
    ("When did you plant the tomatoes?", "We planted them in the garden on Sunday."),
    ("Any plans for the holidays?", "A week by the sea."),
]


def _project(tmp_path: Path) -> app.VaultPaths:
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    paths = app.locate(project / ".rubi")
    for sid, turns, start in (("chatty", CHATTY, DAY), ("answering", ANSWERING, DAY + 86_400)):
        for i, (prompt, answer) in enumerate(turns):
            capture_turn(paths, sid, prompt, answer, now=start + 60 * i)
    app.index(paths)
    return paths


def test_the_session_with_the_answering_turn_comes_first(tmp_path: Path) -> None:
    paths = _project(tmp_path)
    result = app.search(
        paths, "when were the tomatoes planted in the garden", scope="sessions", refresh=False
    )
    first = result.hits[0]
    assert "answering" in first.id
    assert "We planted them in the garden" in first.passages[0].text
    assert "plant the tomatoes" in first.snippet


def test_a_hit_shows_only_its_turns_among_the_results_best(tmp_path: Path) -> None:
    paths = _project(tmp_path)
    result = app.search(
        paths,
        "when were the tomatoes planted in the garden",
        scope="sessions",
        top_k=2,
        refresh=False,
    )
    shown = sum(len(h.passages) for h in result.hits)
    assert shown <= 2  # top_k turns in all, however many of them a session matches
    assert all(h.passages for h in result.hits)


def _turn(name: str, score: float) -> Passage:
    return Passage(f"s#{name}", "s", name, name, "turn", 1, 2, name, score)


def test_turns_rank_by_their_session_and_their_own_score() -> None:
    turns = {
        "a": [_turn("a1", 2.0), _turn("a2", 1.9), _turn("a3", 1.8)],
        "b": [_turn("b1", 9.0), _turn("b2", 8.0)],
        "c": [],  # a file that cannot be read keeps a place only when one is left
    }
    ranked = rank_turns(["a", "b", "c"], lambda s: turns[s], top_k=3)
    assert [r.id for r in ranked] == ["b", "a", "c"]
    assert [t.anchor for t in ranked[0].turns] == ["b1", "b2"]
    assert [t.anchor for t in ranked[1].turns] == ["a1"]  # a2, a3: not among the best 3
    assert ranked[2].turns == () and ranked[2].score == 0.0
    assert ranked[0].score > ranked[1].score


def test_with_the_dense_channel_the_turn_closest_in_meaning_joins_the_fusion() -> None:
    turns = {
        "a": [_turn("a1", 9.0), _turn("a2", 1.0)],
        "b": [_turn("b1", 2.0)],  # a later session, but says what the query asks
    }
    words_only = rank_turns(["a", "b"], lambda s: turns[s], top_k=2)
    assert [t.anchor for r in words_only for t in r.turns] == ["a1", "a2", "b1"]
    assert [r.id for r in words_only] == ["a", "b"]
    near = {"a1": 0.1, "a2": 0.2, "b1": 0.9}
    ranked = rank_turns(
        ["a", "b"], lambda s: turns[s], top_k=2, closeness=lambda texts: [near[t] for t in texts]
    )
    assert [t.anchor for t in ranked[0].turns] == ["a1"]  # a2 gave its place to b1
    assert [t.anchor for t in ranked[1].turns] == ["b1"]


def test_without_the_dense_channel_no_turn_is_compared_by_meaning(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rubi.search.dense import text_closeness

    monkeypatch.setenv("RUBI_SEMANTIC", "0")
    assert text_closeness("where did they camp", ()) is None
