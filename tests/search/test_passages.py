"""Passage-level hits: the part of a note, session or code file that answers, its id,
opening it with ``read``, and the budget filling with passages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import NoteNotFoundError
from rubi.search.hits import Passage
from rubi.search.passages import choose, excerpt
from rubi.search.render import render_compact, result_json

from helpers import rubi_project, write

GROUPS = {"math": "math", "note": "note"}

MATH_NOTE = """---
tags: [syntax]
---
# Formatting

Every note can hold formatting. A note is text. Notes are notes.

## Tables

A table in a note. Another note line.

## Math

Write math with dollar signs in any note.

```md
# math inside a fence is text
$$ e = mc^2 $$
```
"""

SESSION = """---
type: note
tags: [session]
---
# Session 2026-05-01 ab12

### 14:05

**User:** where did we put the quokka migration script?

**Claude:** In scripts/migrate.py, next to the seeds.

### 14:05

**User:** and the zebrafish fixtures?

### 14:06

**Claude:** They live in tests/fixtures/zebrafish.json.

### 14:09

**User:** thanks

**Claude:** You are welcome.
"""


def test_a_rare_word_outweighs_a_common_one() -> None:
    # "note" is in every section, three times in Tables; "math" is rare in the vault.
    found = choose("Formatting", MATH_NOTE, GROUPS, {"math": 4.0, "note": 1.1})
    assert found[0].anchor == "Math"
    assert found[0].id == "Formatting#Math" and found[0].parent == "Formatting"
    assert found[0].kind == "section"
    lines = MATH_NOTE.split("\n")
    assert lines[found[0].start - 1] == "## Math"
    assert lines[found[0].focus - 1] == "Write math with dollar signs in any note."
    assert found[0].text.startswith("## Math") and "mc^2" in found[0].text


def test_the_dense_channel_picks_when_no_word_matches() -> None:
    found = choose("Formatting", MATH_NOTE, {"zebra": "zebra"}, {}, dense_heading="Tables")
    assert [p.anchor for p in found] == ["Tables"]
    plain = choose("Formatting", MATH_NOTE, {"zebra": "zebra"}, {})
    assert [p.anchor for p in plain] == ["Formatting"] and plain[0].score == 0


def test_a_session_turn_and_the_reply_in_the_next_turn() -> None:
    groups = {"zebrafish": "zebrafish", "fixtur": "fixtur"}
    found = choose("sessions/s", SESSION, groups, {}, kind="session")
    best = found[0]
    assert best.kind == "turn" and best.anchor == "14 05~2"
    # The prompt has no answer: the passage runs on through the next turn's reply.
    assert "**User:** and the zebrafish fixtures?" in best.text
    assert "tests/fixtures/zebrafish.json" in best.text
    assert (
        best.end
        == SESSION.split("\n").index("**Claude:** They live in tests/fixtures/zebrafish.json.") + 1
    )


def test_several_turns_of_one_session_when_they_match_alike() -> None:
    text = (
        SESSION + "\n### 15:00\n\n**User:** the quokka migration again\n\n**Claude:** Same place.\n"
    )
    groups = {"quokka": "quokka", "migrat": "migrat"}
    found = choose("sessions/s", text, groups, {}, kind="session")
    assert [p.anchor for p in found[:2]] == ["14 05", "15 00"] or [p.anchor for p in found[:2]] == [
        "15 00",
        "14 05",
    ]


def test_an_excerpt_keeps_the_heading_the_best_line_and_a_turns_answer() -> None:
    long_prompt = "**User:** " + "filler words " * 80 + "where is the quokka?"
    text = f"### 10:00\n\n{long_prompt}\n\n**Claude:** " + "It is in the zoo. " * 30
    p = Passage("s#10 00", "s", "10 00", "10:00", "turn", 1, 5, text, 1.0, focus=3)
    shown = excerpt(p, 400)
    assert len(shown) <= 400
    assert shown.startswith("### 10:00")
    assert "**Claude:** It is in the zoo." in shown
    assert excerpt(p, 10_000) == text


# -- through the search -------------------------------------------------------------
@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write(root / "notes" / "Formatting.md", MATH_NOTE)
    write(root / "notes" / "Other.md", "# Other\n\nA note about notes, and a note.\n")
    write(root / "notes" / "Linker.md", "# Linker\n\nSee [[Formatting]] for a note.\n")
    write(root / "sessions" / "2026-05-01-ab12.md", SESSION)
    return root


def test_a_hit_carries_its_passage_and_read_opens_it(vault: Path) -> None:
    paths = app.locate(vault)
    hit = app.search(paths, "math in a note", scope="notes").hits[0]
    assert hit.id == "notes/Formatting"
    best = hit.passages[0]
    assert best.id == "notes/Formatting#Math" and best.parent == hit.id
    part = app.read_part(paths, best.id)
    assert part is not None and part.parent == hit.id
    assert part.text.startswith("## Math") and "mc^2" in part.text
    assert app.read_part(paths, hit.id) is None  # the whole note: read_note opens it
    assert app.read_note(paths, hit.id).note.id == "notes/Formatting"
    # links and backlinks of a passage are its note's
    assert [lv.id for lv in app.backlinks(paths, best.id)] == ["notes/Linker"]


def test_a_session_hit_points_to_its_turn(vault: Path) -> None:
    paths = app.locate(vault)
    hit = app.search(paths, "zebrafish fixtures", scope="sessions").hits[0]
    turn = hit.passages[0]
    assert turn.id == "sessions/2026-05-01-ab12#14 05~2" and turn.kind == "turn"
    part = app.read_part(paths, turn.id)
    assert part is not None and part.text.startswith("### 14:05\n\n**User:** and the zebrafish")


def test_a_bad_anchor_is_one_clear_line(vault: Path) -> None:
    paths = app.locate(vault)
    with pytest.raises(NoteNotFoundError) as info:
        app.read_part(paths, "notes/Formatting#Nope")
    message = str(info.value)
    assert "\n" not in message
    assert "no such section" in message and "Tables, Math" in message
    with pytest.raises(NoteNotFoundError):
        app.read_part(paths, "notes/Missing#Math")
    found = app.read_many(paths, ["notes/Formatting#Math", "notes/Formatting#Nope"])
    assert found[0][1] is None and "## Math" in found[0][0]
    assert found[1][0] == "" and "no such section" in (found[1][1] or "")


def test_cli_read_of_a_passage_id_round_trips_from_search_json(vault: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["search", "math", "--json", "--vault", str(vault)])
    assert out.exit_code == 0, out.output
    hit = json.loads(out.stdout)["hits"][0]
    passage = hit["passages"][0]
    assert passage["parent"] == hit["id"] and passage["id"] == hit["id"] + "#Math"
    assert passage["text"].startswith("## Math")
    read = runner.invoke(cli, ["read", passage["id"], "--vault", str(vault)])
    assert read.exit_code == 0, read.output
    assert read.stdout.startswith("# notes/Formatting#Math (lines 12-19 of 19)")
    assert "## Math" in read.stdout
    whole = runner.invoke(cli, ["read", hit["id"], "--vault", str(vault)])
    assert "## Tables" in whole.stdout
    bad = runner.invoke(cli, ["read", "notes/Formatting#Nope", "--vault", str(vault)])
    assert bad.exit_code != 0 and "no such section" in bad.output


def test_the_budget_fills_with_passages_and_stops_there(vault: Path) -> None:
    paths = app.locate(vault)
    result = app.search(paths, "math note", scope="notes")
    roomy = render_compact(result, 1500)
    assert "   § notes/Formatting#Math" in roomy.text
    assert "   > Write math with dollar signs in any note." in roomy.text
    assert "$$ e = mc^2 $$" in roomy.text  # the passage, not just its best line
    for budget in (60, 120, 200, 400, 1500):
        shown = result_json(result, budget)
        assert shown["tokens"] <= budget
        assert render_compact(result, budget).tokens <= budget
    tight = result_json(result, 60)
    assert all(not p["text"] for h in tight["hits"] for p in h["passages"])
    full = result_json(result, 1500)["hits"][0]["passages"][0]
    assert "mc^2" in full["text"] and not full["cut"]


def test_a_code_hit_points_to_its_symbol_and_read_opens_it(tmp_path: Path) -> None:
    helper = "def unrelated():\n    return 0\n\n\n" * 10
    body = "def parse_zanzibar(text):\n    '''Parse a zanzibar tuple.'''\n    return text\n"
    root = rubi_project(tmp_path / "proj", {"pkg/parser.py": "import os\n\n\n" + helper + body})
    paths = app.locate(root / ".rubi")
    app.index(paths)
    hit = app.search(paths, "zanzibar parser", scope="code").hits[0]
    best = hit.passages[0]
    assert best.kind == "symbol" and best.heading == "parse_zanzibar"
    start = 3 + 4 * 10 + 1
    assert best.id == f"pkg/parser.py#L{start}-{start + 2}"
    by_lines = app.read_part(paths, best.id)
    by_name = app.read_part(paths, "pkg/parser.py#parse_zanzibar")
    assert by_lines is not None and by_name is not None
    assert by_lines.text == by_name.text and by_lines.text.startswith("def parse_zanzibar")
    with pytest.raises(NoteNotFoundError) as info:
        app.read_part(paths, "pkg/parser.py#nothing_here")
    assert "parse_zanzibar" in str(info.value)


def test_a_personal_hit_s_passage_ids_carry_the_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "proj" / "notes" / "P.md", "# Proj\n\nnothing here\n")
    care = "# Quokka care\n\n## Feeding\n\nQuokkas eat leaves and grass.\n\n## Sleep\n\nBy day.\n"
    write(tmp_path / "mine" / "notes" / "Q.md", care)
    monkeypatch.setenv("RUBI_VAULT", str(tmp_path / "mine"))
    paths = app.locate(tmp_path / "proj")
    hit = app.search(paths, "what do quokkas eat", scope="notes", personal=True).hits[0]
    assert hit.id == "personal:notes/Q"
    assert [(p.id, p.parent) for p in hit.passages] == [
        ("personal:notes/Q#Feeding", "personal:notes/Q")
    ]
    part = app.read_part(paths, "personal:notes/Q#Feeding")
    assert part is not None and part.parent == "personal:notes/Q"
    assert part.text.startswith("## Feeding")


def test_a_file_cut_again_gives_the_same_passages_and_a_changed_file_its_own() -> None:
    """The layout memo is keyed by the text: a repeat is served from it, an edit is a
    new key, and the memo keeps within its character budget."""
    from rubi.search import layout

    text = "# Title\n\nintro\n\n## Sync\n\nthe sync plan and apply\n\n## Other\n\nnothing\n"
    groups, idf = {"sync": "sync"}, {"sync": 2.0}
    first = choose("n", text, groups, idf)
    assert choose("n", text, groups, idf) == first and first[0].anchor == "Sync"
    edited = (
        text.replace("## Sync", "## Plan")
        .replace("the sync plan", "the plan")
        .replace("nothing", "a sync")
    )
    assert choose("n", edited, groups, idf)[0].anchor == "Other"
    memo = layout.Layouts(budget=2000)
    texts = [f"# T{i}\n\n" + "word " * 20 + "\n" for i in range(20)]
    for t in texts:
        assert memo.get(t, "note", ()) == layout.layout(t, "note", ())
    assert 0 < memo._chars <= 2000 and memo.holds(texts[-1], "note", ())
    assert not memo.holds(texts[0], "note", ())  # the least recently used went
    memo.get("x" * 300, "note", ())  # over an eighth of the budget: never kept
    assert not memo.holds("x" * 300, "note", ())


def test_the_layout_memo_bounds_its_memory_whatever_the_files_shape() -> None:
    """A file of short lines or of many headings holds many times its text in its
    layout (a line's offset and part, a section's anchor): the memo charges those too,
    so what it keeps stays within a few bytes a budgeted character."""
    import tracemalloc

    from rubi.search import layout

    budget = 200_000
    for unit in ("\n", "# a\nb\n"):
        tracemalloc.start()
        try:
            memo = layout.Layouts(budget=budget)
            for i in range(800):
                memo.get(f"{i}\n" + unit * (240 // len(unit)), "note", ())
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert memo._chars <= budget
        assert held < 8 * budget, (unit, held)


def test_a_crlf_file_gets_the_passages_and_scores_of_its_lf_twin() -> None:
    """Occurrences are found in the text as read: with CRLF line ends each line is one
    character longer than its line, and the offsets of the lines must say so (a CRLF
    note scored its sections on shifted lines, and gained a passage)."""
    lf = (
        "---\ntags: [a]\n---\n# Callouts\n\nintro text\n\n## Foldable callouts\n\n"
        + "Add a minus sign to collapse a foldable callout by default.\n" * 6
        + "\n## Nested callouts\n\n"
        + "Callouts nest inside other callouts, line after line.\n" * 12
    )
    crlf = lf.replace("\n", "\r\n")
    groups = {"callout": "callout", "fold": "foldable", "minus": "minus"}
    idf = {"callout": 1.0, "fold": 3.0, "minus": 3.0}
    want = choose("n", lf, groups, idf)
    got = choose("n", crlf, groups, idf)
    assert [(p.anchor, p.score, p.start, p.end, p.focus) for p in got] == [
        (p.anchor, p.score, p.start, p.end, p.focus) for p in want
    ]


def test_the_layout_memo_keeps_a_layout_not_the_text_it_was_cut_from() -> None:
    import tracemalloc

    from rubi.search import layout

    memo = layout.Layouts(budget=10_000_000)
    tracemalloc.start()
    try:
        text = "# T\n\n" + ("word " * 2_000 + "\n") * 50  # 500 KB of long lines
        size = len(text)
        made = memo.get(text, "note", ())
        assert memo.get(text, "note", ()) is made
        del text, made
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 2.5 * size  # its lines and lower-cased copy; the text went
