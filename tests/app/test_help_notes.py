"""rubi's own help in a vault (the README ``rubi init`` writes) is found by a search
and read as any note, but never recalled: in a fresh project it was the only note, and
the prompt hook injected it for issues it had nothing to say about."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.timeline import timeline
from rubi.markdown.parse import parse_note

from helpers import write

PROMPT = (
    "Where does the project memory keep handoffs and captured sessions, "
    "and how do wikilinks in notes get a relation type?"
)
"""Words the template's README explains (handoffs, sessions, wikilinks, notes)."""


def test_the_template_readme_is_marked_as_rubi_s_help(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    text = (project / ".rubi" / "README.md").read_text(encoding="utf-8")
    note = parse_note(text, "README.md")
    assert note.status == "help" and note.title == "Project memory"


def test_the_template_readme_is_searched_but_never_recalled(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    paths = app.locate(None, cwd=project)
    app.index(paths)
    assert "README" in [h.id for h in app.search(paths, PROMPT, refresh=False).hits]
    assert app.recall(paths, PROMPT, max_tokens=700) is None


def test_a_note_marked_help_is_skipped_and_the_others_recalled(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    body = (
        "Handoffs and captured sessions live in their folders of the project memory; "
        "a wikilink in a list item gets a relation type.\n"
    )
    guide = "How rubi works: wikilinks, notes, handoffs and sessions, each in a folder.\n"
    write(vault / "notes" / "guide.md", f"---\nstatus: help\n---\n# Guide\n\n{guide}")
    write(vault / "notes" / "how-to-memory.md", f"---\ntype: how-to\n---\n# Memory\n\n{body}")
    for i in range(20):
        write(vault / "notes" / f"other{i}.md", f"# Other {i}\n\nUnrelated words number {i}.\n")
    paths = app.locate(vault)
    app.index(paths)
    assert {"notes/guide", "notes/how-to-memory"} <= {
        h.id for h in app.search(paths, PROMPT, refresh=False).hits
    }
    block = app.recall(paths, PROMPT, max_tokens=700)
    assert block is not None and "(id notes/how-to-memory)" in block
    assert "(id notes/guide)" not in block


def test_the_timeline_lists_no_help_note_unless_it_is_asked_about(tmp_path: Path) -> None:
    # `rubi init` dates the README the day the vault was made; it was listed among the
    # notes around every hit of that week as if something had happened.
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    write(
        project / ".rubi" / "notes" / "decision-cache.md",
        "---\ntype: decision\ncreated: '2026-03-04'\n---\n# Cache for a day\n\nKeep it 24 h.\n",
    )
    write(
        project / ".rubi" / "notes" / "guide.md",
        "---\nstatus: help\ncreated: '2026-03-05'\n---\n# Guide\n\nHow the vault works.\n",
    )
    paths = app.locate(None, cwd=project)
    app.index(paths)
    around = timeline(paths, "2026-03-04", days=3)
    assert [e.id for e in around.entries] == ["notes/decision-cache"]
    asked = timeline(paths, "notes/guide", days=3)
    assert [e.id for e in asked.entries] == ["notes/guide", "notes/decision-cache"]
