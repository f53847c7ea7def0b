"""Frontmatter from a cloned repository: YAML that expands exponentially, nests a
thousand deep or is megabytes long is refused in milliseconds, reported on one line,
and the note is still indexed from its body. Driven through parsing, ``rubi index``,
search, the watcher and the hooks, each with a time limit so a hang fails."""

from __future__ import annotations

import io
import json
import time
from itertools import pairwise
from pathlib import Path

import pytest
from watchfiles import Change

from rubi import app
from rubi.claude.hooks.entry import main as hook_main
from rubi.markdown import parse_note
from rubi.markdown.parse import MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH
from rubi.watch import watch

from helpers import rubi_project, write


def billion_laughs() -> str:
    """The classic payload (341 bytes of YAML): each of nine levels is a list of nine
    aliases of the level before, so the last one stands for 9 ** 9 = 387 million
    strings once anything walks the value."""
    names = "abcdefghi"
    lines = ["a: &a [" + ",".join(['"lol"'] * 9) + "]"]
    lines += [f"{n}: &{n} [" + ",".join([f"*{p}"] * 9) + "]" for p, n in pairwise(names)]
    return "---\n" + "\n".join(lines) + "\n---\nthe note body laughword\n"


HOSTILE = {
    "laughs": billion_laughs(),
    "flow-deep": "---\ntitle: Deep\nx: " + "[" * 999 + "]" * 999 + "\n---\nflowdeepword\n",
    "block-deep": "---\nx:\n"
    + "".join("  " * i + f"k{i}:\n" for i in range(1, 200))
    + "---\nblockdeepword\n",
    "self-ref": "---\nx: &s [1, *s]\n---\nselfrefword\n",
    "merge": "---\nbase: &b {a: 1, b: 2}\nother:\n  <<: *b\n  c: 3\n---\nmergeword\n",
    "huge": "---\ntitle: Huge\nblob: " + "y" * (MAX_FRONTMATTER_BYTES + 10) + "\n---\nhugeword\n",
}
"""Notes whose frontmatter is refused, by name; each body holds one findable word."""


def test_payload_is_small_and_the_parse_finishes_at_once() -> None:
    text = billion_laughs()
    assert len(text.encode()) < 400
    started = time.perf_counter()
    note = parse_note(text, "laughs.md", strict=False)
    assert time.perf_counter() - started < 1.0  # unbounded, this took minutes
    assert note.metadata == {} and "laughword" in note.body
    assert note.frontmatter_error == (
        "frontmatter refused (an alias (*name) of a list or mapping; anchors may only "
        "repeat plain values); fix it or remove the --- block"
    )


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.timeout(10)
def test_each_hostile_block_is_refused_and_the_body_kept(name: str) -> None:
    note = parse_note(HOSTILE[name], f"{name}.md", strict=False)
    assert note.frontmatter_error is not None and note.frontmatter_error.startswith(
        "frontmatter refused ("
    )
    assert note.metadata == {}
    assert note.body.strip().endswith("word")


def test_the_reasons_name_the_budget() -> None:
    def reason(name: str) -> str:
        error = parse_note(HOSTILE[name], "n.md", strict=False).frontmatter_error
        assert error is not None
        return error

    assert f"nested deeper than {MAX_FRONTMATTER_DEPTH}" in reason("block-deep")
    assert f"larger than {MAX_FRONTMATTER_BYTES // 1000} kB" in reason("huge")
    assert "alias (*name) of a list or mapping" in reason("self-ref")


def test_ordinary_frontmatter_parses() -> None:
    text = (
        "---\ntitle: Plain\ntags: [a, b]\nowner: &who alice\nreviewer: *who\n"
        "nested: {x: {y: [1, 2]}}\ncreated: {{date}}\n---\nbody\n"
    )
    note = parse_note(text, "plain.md")
    assert note.frontmatter_error is None
    assert note.metadata["reviewer"] == "alice"  # an alias of a plain value is fine
    assert note.metadata["nested"] == {"x": {"y": [1, 2]}}
    assert note.metadata["created"] == "{{date}}"
    assert note.tags == ("a", "b")


def test_a_day_no_calendar_has_keeps_the_rest_of_the_frontmatter() -> None:
    text = (
        "---\ntitle: Release plan\naliases: [Plan]\ntags: [ops]\n"
        "created: 2026-01-31\nupdated: 2026-13-45\n---\nbody\n"
    )
    note = parse_note(text, "plan.md")
    assert note.frontmatter_error is None
    assert note.title == "Release plan" and note.aliases == ("Plan",) and note.tags == ("ops",)
    assert str(note.metadata["created"]) == "2026-01-31"
    assert note.metadata["updated"] == "2026-13-45"


def test_json_looking_notes_are_body_text() -> None:
    """Frontmatter is YAML only: a note starting with ``{`` is plain text (python-
    frontmatter would hand it to ``json.loads``, which recurses on deep nests)."""
    text = "{\n" + '"a": ' + "[" * 100_000 + "]" * 100_000 + "\n}\njsonword\n"
    note = parse_note(text, "j.md")
    assert note.metadata == {} and note.frontmatter_error is None
    assert "jsonword" in note.body


def _hook(event: str, project: Path, **extra: object) -> str:
    payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": event, **extra}
    out = io.StringIO()
    assert hook_main([event], io.StringIO(json.dumps(payload)), out) == 0
    return out.getvalue()


@pytest.mark.timeout(60)
def test_index_search_hooks_and_cli_on_a_hostile_vault(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rubi.cli.main import cli

    project = rubi_project(tmp_path / "repo", {"src/app.py": "def handler():\n    pass\n"})
    vault = project / ".rubi"
    for name, text in HOSTILE.items():
        write(vault / "notes" / f"{name}.md", text)
    paths = app.locate(vault)
    report = app.index(paths)
    found = {w.path: w.message for w in report.warnings}
    assert set(found) == {f"notes/{name}.md" for name in HOSTILE}
    assert all(m.startswith("frontmatter refused (") for m in found.values())
    assert all(m.endswith("; indexed without its frontmatter") for m in found.values())
    for word, name in [
        ("laughword", "laughs"),
        ("flowdeepword", "flow-deep"),
        ("hugeword", "huge"),
    ]:
        assert app.search(paths, word, scope="notes").hits[0].id == f"notes/{name}"
    assert "laughword" in app.read_note(paths, "notes/laughs").text
    assert _hook("SessionStart", project, source="startup") != ""
    recalled = _hook("UserPromptSubmit", project, prompt="the laughword note body please")
    assert "notes/laughs" in recalled
    result = CliRunner().invoke(cli, ["search", "laughword", "--vault", str(vault)])
    assert result.exit_code == 0 and "notes/laughs" in result.output
    result = CliRunner().invoke(cli, ["doctor", "--vault", str(vault)])
    assert "file       notes/laughs.md: frontmatter refused (an alias" in result.output


@pytest.mark.timeout(60)
def test_the_watcher_indexes_a_hostile_note_as_it_arrives(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# A\n\nalpha\n")
    app.index(app.locate(vault))
    laughs = write(vault / "laughs.md", billion_laughs())
    reports = []
    watch(
        app.locate(vault),
        changes=[{(Change.added, str(laughs))}],
        on_report=lambda _batch, report: reports.append(report),
        catch_up=False,
    )
    assert [[str(w) for w in r.warnings] for r in reports] == [
        [
            "laughs.md: frontmatter refused (an alias (*name) of a list or mapping; anchors "
            "may only repeat plain values); fix it or remove the --- block; indexed without "
            "its frontmatter"
        ]
    ]
    hits = app.search(app.locate(vault), "laughword", refresh=False).hits
    assert [h.id for h in hits] == ["laughs"]
