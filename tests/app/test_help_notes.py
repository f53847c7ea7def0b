"""rubi's own help in a vault (the README ``rubi init`` writes) is found by a search
and read as any note, but never recalled: in a fresh project it was the only note, and
the prompt hook injected it for issues it had nothing to say about."""

from __future__ import annotations

from pathlib import Path

from rubi import app
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
