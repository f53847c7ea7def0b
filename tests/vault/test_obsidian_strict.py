"""``rubi doctor`` lists every link Obsidian leaves unresolved (rubi
also resolves titles, aliases and frontmatter ids; search keeps that), and git
conflict markers left in notes."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.core.model import Note
from rubi.markdown import parse_note
from rubi.vault.conflicts import conflict_line
from rubi.vault.obsidian import LenientLink, obsidian_unresolved

from helpers import write


def _notes() -> list[Note]:
    texts = {
        "Projects/Plan.md": "---\naliases: [Roadmap]\nid: plan-2026\n---\n# The Plan\n",
        "Daily.md": "# Daily\n",
        "Source.md": (
            "# Source\n\n[[Projects/Plan]] [[Plan]] [[plan.md]] [[DAILY]] [[./Daily]] "
            "![[pic.png]] [[#Heading]] [[Nowhere]]\n"
            "[[The Plan]] [[Roadmap]] [[plan-2026]]\n"
        ),
    }
    return [parse_note(text, path) for path, text in texts.items()]


def test_links_obsidian_leaves_unresolved() -> None:
    found = obsidian_unresolved(_notes(), ["pic.png"])
    assert found == [
        LenientLink("Source", "Roadmap", "Projects/Plan"),
        LenientLink("Source", "The Plan", "Projects/Plan"),
        LenientLink("Source", "plan-2026", "Projects/Plan"),
    ]


def test_search_resolves_a_title_link(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "Projects" / "Plan.md", "# The Plan\n\nquokka\n")
    write(vault / "Source.md", "# Source\n\nsee [[The Plan]]\n")
    paths = app.locate(vault)
    assert [lv.id for lv in app.links(paths, "Source")] == ["Projects/Plan"]
    report = app.doctor(paths)
    assert [(p.source, p.target, p.resolved_to) for p in report.obsidian] == [
        ("Source", "The Plan", "Projects/Plan")
    ]
    assert not report.ok


def test_conflict_markers() -> None:
    conflicted = "# A\n\ntext\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n"
    assert conflict_line(conflicted) == 4
    assert conflict_line("# A\n\nTitle\n=======\n\nplain\n") is None  # a setext heading
    fenced = "# How to merge\n\n```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n```\n"
    assert conflict_line(fenced) is None
    assert conflict_line("<<<<<<< HEAD\nonly the start\n") is None


def test_doctor_reports_a_conflicted_note(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "ok.md", "# Ok\n")
    write(vault / "bad.md", "# Bad\n\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n")
    report = app.doctor(app.locate(vault))
    assert [w.path for w in report.conflicts] == ["bad.md"]
    assert "line 3" in report.conflicts[0].message and not report.ok
