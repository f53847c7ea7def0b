"""``rubi index`` on a note past a per-note limit: the note is indexed with its first
items, the rest of it searchable, and the run reports one warning naming the file and
the limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.model import ScanWarning
from rubi.markdown import limits

from helpers import write


def test_a_note_of_too_many_tags_is_indexed_with_one_warning(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "plain.md", "# Plain\n\nnothing odd here\n")
    tags = " ".join(f"#tag{i}" for i in range(limits.MAX_TAGS + 500))
    write(vault / "wide.md", f"# Wide\n\n{tags}\n\nthe closing paragraph says quokka\n")
    report = app.index(app.locate(vault))
    assert report.warnings == [
        ScanWarning(
            "wide.md",
            f"{limits.MAX_TAGS + 500:,} tags, over the limit of {limits.MAX_TAGS:,}: "
            f"the first {limits.MAX_TAGS:,} indexed",
        )
    ]
    assert report.added == 2
    hits = app.search(app.locate(vault), "quokka", refresh=False).hits
    assert [h.id for h in hits] == ["wide"]


def test_links_past_the_limit_are_left_out_of_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_LINKS", 3)
    vault = tmp_path / "v"
    for name in "abcde":
        write(vault / f"{name}.md", f"note {name}\n")
    write(vault / "hub.md", "[[a]] [[b]] [[c]] [[d]] [[e]]\n")
    paths = app.locate(vault)
    report = app.index(paths)
    assert [str(w) for w in report.warnings] == [
        "hub.md: 5 links, over the limit of 3: the first 3 indexed"
    ]
    assert sorted(lv.id for lv in app.links(paths, "hub")) == ["a", "b", "c"]
