"""``rubi links``, ``rubi backlinks`` and ``rubi timeline`` of a title several notes
share (two notes titled ``tar`` in different folders) answer for the first by id and
say so as ``rubi read`` does: one line on stderr naming the others, their ids as
``other_matches`` with ``--json``; a reference naming one note says nothing more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import write

LINE = (
    "'tar' names 3 notes: showing notes/archive/tar; also notes/tools/tar, notes/zzz/tar "
    "(read one by its id)\n"
)


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    notes = tmp_path / "v" / "notes"
    write(
        notes / "tools" / "tar.md",
        "---\ntitle: tar\nupdated: 2025-01-10\n---\nThe tape archiver; see [[mt]].\n",
    )
    write(
        notes / "archive" / "tar.md",
        "---\ntitle: tar\nupdated: 2025-03-10\n---\nThe file format; see [[gzip]].\n",
    )
    write(notes / "zzz" / "tar.md", "---\naliases: [tar]\nupdated: 2025-06-01\n---\nA third.\n")
    write(notes / "gzip.md", "---\nupdated: 2025-03-11\n---\nBack to [[notes/archive/tar]].\n")
    write(notes / "mt.md", "---\nupdated: 2025-01-11\n---\nMagnetic tape.\n")
    root = tmp_path / "v"
    app.index(app.locate(root))
    return root


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_links_of_a_shared_title_name_the_notes_not_shown(vault: Path) -> None:
    code, out, err = run("links", "tar", "--vault", str(vault))
    assert code == 0 and err == LINE
    assert out.split() == ["links_to", "notes/gzip"]
    code, out, err = run("links", "tar", "--json", "--vault", str(vault))
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["id"] == "notes/archive/tar"
    assert [lv["id"] for lv in data["links"]] == ["notes/gzip"]
    assert data["other_matches"] == ["notes/tools/tar", "notes/zzz/tar"]


def test_backlinks_of_a_shared_title_name_the_notes_not_shown(vault: Path) -> None:
    code, out, err = run("backlinks", "tar", "--vault", str(vault))
    assert code == 0 and err == LINE and out.split() == ["notes/gzip", "links_to", "this"]
    code, out, err = run("backlinks", "--json", "tar#L4", "--vault", str(vault))
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["id"] == "notes/archive/tar"
    assert [lv["id"] for lv in data["backlinks"]] == ["notes/gzip"]
    assert data["other_matches"] == ["notes/tools/tar", "notes/zzz/tar"]


def test_a_ref_naming_one_note_lists_its_links_without_a_notice(vault: Path) -> None:
    code, out, err = run("links", "notes/tools/tar", "--vault", str(vault))
    assert code == 0 and err == "" and out.split() == ["links_to", "notes/mt"]
    code, out, err = run("backlinks", "--json", "gzip", "--vault", str(vault))
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data == {
        "id": "notes/gzip",
        "backlinks": [
            {"id": "notes/archive/tar", "title": "tar", "kind": "note", "relation": "links_to"}
        ],
        "other_matches": [],
    }


def test_timeline_of_a_shared_title_centres_on_the_first_and_names_the_others(
    vault: Path,
) -> None:
    code, out, err = run("timeline", "tar", "--days", "2", "--vault", str(vault))
    assert code == 0 and err == LINE
    assert out.startswith("2025-03-08 … 2025-03-12 around tar (2025-03-10)")
    assert "notes/gzip" in out and "notes/mt" not in out
    code, out, err = run("timeline", "tar", "--json", "--vault", str(vault))
    data = json.loads(out)
    assert code == 0 and err == "" and data["centre"] == "2025-03-10"
    assert data["other_matches"] == ["notes/tools/tar", "notes/zzz/tar"]
    code, out, err = run("timeline", "notes/tools/tar", "--json", "--vault", str(vault))
    data = json.loads(out)
    assert code == 0 and err == "" and data["centre"] == "2025-01-10"
    assert data["other_matches"] == []
    code, out, err = run("timeline", "2025-03-10", "--json", "--vault", str(vault))
    assert code == 0 and err == "" and json.loads(out)["other_matches"] == []


@pytest.mark.parametrize("command", ["links", "backlinks"])
def test_the_json_help_names_the_keys_the_object_has(vault: Path, command: str) -> None:
    # a script that read a bare list learns the shape from --help, not by breaking
    _, help_text, _ = run(command, "--help")
    code, out, _ = run(command, "notes/archive/tar", "--json", "--vault", str(vault))
    assert code == 0
    data = json.loads(out)
    named = " ".join(help_text.split())
    assert f"one JSON object: {{id, {command}: [{{id, title, kind, relation}}]" in named
    assert set(data) == {"id", command, "other_matches"}
    assert data[command] and all(
        set(item) == {"id", "title", "kind", "relation"} for item in data[command]
    )


def test_an_unresolved_link_is_shown_as_written_not_by_the_graphs_id(tmp_path: Path) -> None:
    """`rubi links` printed an unresolved [[Missing Note]] as `dangling:missing note`,
    the graph's node id (folded case, an internal prefix); the text shows the link as
    the note wrote it, --json keeps the id."""
    root = tmp_path / "v"
    write(root / "notes" / "a.md", "# A\n\nSee [[Missing Note]] and [[Other Gone|alias]].\n")
    app.index(app.locate(root))
    code, out, _ = run("links", "notes/a", "--vault", str(root))
    assert code == 0
    assert out.splitlines() == [
        "links_to     [[Missing Note]]  (unresolved)",
        "links_to     [[Other Gone]]  (unresolved)",
    ]
    code, out, _ = run("links", "notes/a", "--vault", str(root), "--json")
    assert [item["id"] for item in json.loads(out)["links"]] == [
        "dangling:missing note",
        "dangling:other gone",
    ]


def test_a_backlink_reads_in_its_own_direction(tmp_path: Path) -> None:
    """`rubi backlinks old` printed `supersedes   notes/new`, which reads as the old note
    superseding the new one; the linking note now comes first."""
    root = tmp_path / "v"
    write(root / "notes" / "old.md", "---\nstatus: superseded\n---\n# Old\n\nBefore.\n")
    write(root / "notes" / "new.md", "# New\n\nAfter.\n\n## Links\n- supersedes [[old]]\n")
    code, out, _ = run("backlinks", "notes/old", "--vault", str(root))
    assert code == 0 and out.strip() == "notes/new  supersedes this"
    code, out, _ = run("links", "notes/new", "--vault", str(root))
    assert code == 0 and out.split() == ["supersedes", "notes/old"]
