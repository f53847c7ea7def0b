"""The facade's use cases for the Claude Code integration: recall, the session-start
context (one handoff rule), pages read through the note parser, the personal vault."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi import app
from rubi.app.pagetext import note_body, page_text
from rubi.app.recall import needed_terms

from helpers import VAULTS, require_data, write


def test_recall_bar_and_budget(project: Path) -> None:
    vault = app.locate(project / ".rubi")
    text = app.recall(vault, "why do login tokens expire at midnight", max_tokens=700)
    assert text is not None
    assert "Login tokens expire at midnight UTC (id " in text and "SQLite" not in text
    assert app.recall(vault, "login", max_tokens=700) is None  # one word is chance
    assert app.recall(vault, "why do login tokens expire", max_tokens=40) is None  # no room
    assert [needed_terms(n) for n in (2, 6, 10, 40)] == [2, 2, 3, 3]


def test_recall_snippet_keeps_text_before_a_rule(project: Path) -> None:
    """A note without frontmatter whose body has a ``---`` rule keeps its first part
    (splitting on the first rule, as recall once did, dropped it)."""
    vault = app.locate(project / ".rubi")
    write(
        vault.root / "notes" / "plain.md",
        "# Pelican deploys\n\nPelican deploys need the zeppelin flag.\n\n---\n\nOther text.\n",
    )
    app.index(vault)
    text = app.recall(vault, "pelican deploys zeppelin flag", max_tokens=700)
    assert text is not None and "zeppelin" in text


def test_session_start_picks_the_handoff_by_name_as_handoff_show_does(project: Path) -> None:
    vault = app.locate(project / ".rubi")
    older = app.save_handoff(vault, "Older goal", "old state")
    newer = app.save_handoff(vault, "Newer goal", "new state")
    os.utime(vault.root / older.path, (2_000_000_000, 2_000_000_000))  # newest by time
    shown = app.last_handoff(vault)
    assert shown is not None and shown.path == newer.path
    context = app.session_start_context(vault, source="compact", session_id="s1", max_chars=9000)
    assert context is not None
    assert f"Last handoff (.rubi/{newer.path})" in context and "Newer goal" in context
    assert "Older goal" not in context and "\ntype: handoff" not in context
    start = app.session_start_context(vault, source="startup", session_id="s1", max_chars=9000)
    assert start is not None and f".rubi/{newer.path}" in start and "# Code map" in start


def test_page_text_drops_frontmatter_by_the_parser(project: Path) -> None:
    vault = app.locate(project / ".rubi")
    page = vault.root / "notes" / "fm.md"
    write(page, "---\ntitle: X\ntags: [a]\n---\n# Body\n\nline one\nline two\n")
    assert page_text(vault, page, 1000) == "# Body\n\nline one\nline two"
    assert page_text(vault, page, 12) == "# Body\n\n…"
    assert page_text(vault, vault.root / "notes" / "missing.md", 1000) == ""


def test_session_record_capture_and_latest_record(project: Path, tmp_path: Path) -> None:
    vault = app.locate(project / ".rubi")
    assert app.capture_turn(vault, "s2", "", None) is False
    assert app.capture_turn(vault, "s2", "my key is AKIAIOSFODNN7EXAMPLE", "ok")
    text = app.session_file(vault, "s2").read_text(encoding="utf-8")
    assert "AKIAIOSFODNN7EXAMPLE" not in text and "**Claude:** ok" in text
    from rubi.app.sessionrecord import latest_record

    assert latest_record(vault, "s2", 100) is None  # turns only, no record yet
    assert latest_record(vault, "nobody", 100) is None


def test_ensure_personal_vault_once() -> None:
    assert app.ensure_personal_vault() is True
    assert app.ensure_personal_vault() is False


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["kepano-obsidian", "obsidian-help-en"])
def test_note_body_is_the_parsers_body_on_real_vaults(name: str) -> None:
    """The hook path's cheap frontmatter split gives the body the note parser gives,
    note for note, on real vaults (notes whose frontmatter does not parse are left
    out: the parser refuses them and they are never indexed)."""
    from rubi.core.errors import NoteParseError
    from rubi.markdown.parse import split_frontmatter

    vault = require_data(VAULTS / name)
    compared = with_frontmatter = 0
    for path in sorted(vault.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            body = split_frontmatter(text, path.name)[1]
        except NoteParseError:
            continue
        assert note_body(text) == body, path.relative_to(vault)
        compared += 1
        with_frontmatter += text.startswith("---")
    assert compared > 20 and with_frontmatter > 5


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: X\n---\n# Body\n",
        "# No frontmatter\n\ntext\n\n---\n\nafter a rule\n",
        "---\ntitle: never closed\n# Body\n",
        "----\ntitle: X\n-----   \n\n# Body\n---\nrule\n",
        "",
    ],
)
def test_note_body_edge_cases_match_the_parser(text: str) -> None:
    from rubi.markdown.parse import split_frontmatter

    assert note_body(text) == split_frontmatter(text, "x.md")[1]
