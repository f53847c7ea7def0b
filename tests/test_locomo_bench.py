"""The LoCoMo benchmark script on a small conversation of LoCoMo's shape, so the
mapping to captured sessions and the scorer are tested (the data set is not shipped)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from helpers import load_script

CONVERSATION = {
    "speaker_a": "Caroline",
    "speaker_b": "Melanie",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! How have you been?"},
        {"speaker": "Melanie", "dia_id": "D1:2", "text": "Swamped with the kids & work."},
        {"speaker": "Caroline", "dia_id": "D1:3", "text": "I went to a support group yesterday."},
        {
            "speaker": "Caroline",
            "dia_id": "D1:4",
            "text": "It was so powerful.",
            "blip_caption": "a photo of a rainbow flag",
        },
        {"speaker": "Melanie", "dia_id": "D1:5", "text": "That sounds great!"},
    ],
    "session_2_date_time": "7:55 pm on 25 May, 2023",
    "session_2": [
        {"speaker": "Melanie", "dia_id": "D2:1", "text": "I ran a charity race for mental health."},
        {"speaker": "Caroline", "dia_id": "D2:2", "text": "Wow, well done!"},
    ],
}
QA = [
    {
        "question": "When did Caroline go to the support group?",
        "answer": "7 May 2023",
        "evidence": ["D1:3"],
        "category": 2,
    },
    {
        "question": "What did Melanie run for?",
        "answer": "mental health",
        "evidence": ["D2:1"],
        "category": 4,
    },
    {"question": "Anything?", "answer": "", "evidence": [], "category": 5},
]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench/locomo.py")


def test_sessions_become_turns_of_prompt_and_answer_runs(bench: ModuleType) -> None:
    first, second = bench.records(CONVERSATION, "conv-x")
    assert first.session_id == "conv-x-s1" and second.session_id == "conv-x-s2"
    ids = [([u.dia_id for u in p], [u.dia_id for u in a]) for p, a in first.turns]
    assert ids == [(["D1:1"], ["D1:2"]), (["D1:3", "D1:4"], ["D1:5"])]
    assert first.turns[1][0][1].line == (
        "Caroline: It was so powerful. (shared a photo of a rainbow flag)"
    )
    assert [([u.dia_id for u in p], [u.dia_id for u in a]) for p, a in second.turns] == [
        ([], ["D2:1"]),  # the session opens with the second speaker: an answer only
        (["D2:2"], []),
    ]
    plain = bench.records(CONVERSATION, "conv-x", names=False)[0]
    assert plain.turns[0][0][0].line == "Hey Mel! How have you been?"


def test_evidence_is_read_leniently_and_recall_counts_units(bench: ModuleType) -> None:
    assert bench.evidence_ids(["D8:6; D9:17", "D30:05", "D:11:26", "D"]) == {
        "D8:6",
        "D9:17",
        "D30:5",
        "D11:26",
    }
    units = [["D1:1"], [], ["D1:3", "D1:4"], ["D2:1"]]
    assert bench.recall(units, {"D1:3", "D2:1"}, 3) == 0.5
    assert bench.recall(units, {"D1:3", "D2:1"}, 4) == 1.0
    assert bench.recall([], set(), 5) == 1.0


def test_lines_match_snippets_and_passages(bench: ModuleType) -> None:
    written = bench.records(CONVERSATION, "conv-x")
    written[0].name = "2023-05-08-conv-x-s1.md"
    lines = bench.Lines(written)
    name = written[0].name
    assert lines.of_snippet(name, "User: Caroline: I went to a support group yesterday.") == [
        "D1:3"
    ]
    assert lines.of_snippet(name, "…a support group yesterday.") == ["D1:3"]
    assert lines.of_snippet("other.md", "a support group") == []
    passage = (
        "### 13:57\n\n**User:** Caroline: I went to a support group yesterday.\n"
        "Caroline: It was so powerful. (shared a photo of a rainbow flag)\n\n"
        "**Claude:** Melanie: That sounds great!"
    )
    assert lines.of_passage(name, passage) == ["D1:3", "D1:4", "D1:5"]


TURN = (
    "### 13:57\n\n**User:** Caroline: I went to a support group yesterday.\n"
    "Caroline: It was so powerful. (shared a photo of a rainbow flag)\n\n"
    "**Claude:** Melanie: That sounds great!"
)


def passage(text: str, start: int, focus: int) -> SimpleNamespace:
    return SimpleNamespace(text=text, start=start, focus=focus)


def test_the_turn_unit_ranks_a_passages_utterances_from_its_best_line(
    bench: ModuleType,
) -> None:
    written = bench.records(CONVERSATION, "conv-x")
    written[0].name, written[1].name = "s1.md", "s2.md"
    lines = bench.Lines(written)
    # the turn's lines in the file are 20 (heading) to 25 (answer); its best line is 25
    assert bench.ranked_turns(passage(TURN, 20, 25), "s1.md", lines) == ["D1:5", "D1:3", "D1:4"]
    assert bench.ranked_turns(passage(TURN, 20, 23), "s1.md", lines) == ["D1:4", "D1:3", "D1:5"]
    # a focus on the heading (or outside the text) keeps the order they were said in
    assert bench.ranked_turns(passage(TURN, 20, 20), "s1.md", lines) == ["D1:3", "D1:4", "D1:5"]
    assert bench.ranked_turns(passage(TURN, 20, 99), "s1.md", lines) == ["D1:3", "D1:4", "D1:5"]
    first = "### 13:56\n\n**User:** Caroline: Hey Mel! How have you been?\n\n" + (
        "**Claude:** Melanie: Swamped with the kids & work."
    )
    hits = [
        SimpleNamespace(
            path=".rubi/sessions/s1.md",
            passages=(passage(TURN, 20, 22), passage(first, 10, 14)),
            snippet="",
        ),
        SimpleNamespace(path=".rubi/sessions/s1.md", passages=(passage(TURN, 20, 25),), snippet=""),
        SimpleNamespace(path=".rubi/sessions/s2.md", passages=(), snippet="a charity race"),
    ]
    shown = bench.turns(hits, lines)
    # hit by hit, passage by passage, each utterance once; a snippet is one turn
    assert shown == ["D1:3", "D1:4", "D1:5", "D1:2", "D1:1", "D2:1"]
    # the same hits at the two units: k passages hold about twice k turns
    units = [u for h in hits for u in bench.units(h, lines)]
    assert units[:2] == [["D1:3", "D1:4", "D1:5"], ["D1:1", "D1:2"]]
    wanted = {"D1:5", "D1:1"}
    assert bench.recall(units, wanted, 2) == 1.0
    assert bench.recall([[d] for d in shown], wanted, 2) == 0.0
    assert bench.recall([[d] for d in shown], wanted, 3) == 0.5
    assert bench.recall([[d] for d in shown], wanted, 5) == 1.0


def test_the_dense_channel_line_says_what_was_on(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.semantic

    monkeypatch.setenv("RUBI_SEMANTIC", "0")
    assert bench.dense_channel() == "off (RUBI_SEMANTIC=0)"
    monkeypatch.delenv("RUBI_SEMANTIC")
    # a plain install: no numpy, so the channel is off although nothing turned it off
    monkeypatch.setattr(rubi.semantic, "_MISSING", ["numpy is not installed (pip install …)"])
    assert bench.dense_channel() == "off (numpy is not installed (pip install …))"
    monkeypatch.setattr(rubi.semantic, "_MISSING", [None])
    assert bench.dense_channel() == "on"


def test_the_script_scores_a_conversation_end_to_end(
    bench: ModuleType,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "RUBI_VAULT"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))  # the script sets them: restored
    data = tmp_path / "locomo.json"
    sample = {"sample_id": "conv-x", "conversation": CONVERSATION, "qa": QA}
    data.write_text(json.dumps([sample]), encoding="utf-8")
    out = tmp_path / "out.json"
    assert bench.main([str(data), "--conversations", "conv-x", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    questions = result["conversations"][0]["questions"]
    assert [q["r10"] for q in questions] == [1.0, 1.0, 1.0]
    assert [q["passage_r10"] for q in questions] == [1.0, 1.0, 1.0]
    assert all(len(q["turns"]) <= 10 for q in questions)
    assert "D1:3" in questions[0]["turns"][:5]
    assert result["summary"]["all"]["n"] == 3
    printed = capsys.readouterr().out
    assert "R@k: evidence among the first k dialog turns (the paper's unit)" in printed
    assert "R@10 psg" in printed and "dialog turns per passage" in printed
    assert "dense channel on;" in printed or "dense channel off (" in printed
