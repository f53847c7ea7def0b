"""``rubi doctor`` on a project: every section, text and JSON, and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli

from helpers import rubi_project, write

SECTIONS = [
    "files",
    "missing",
    "missing_attachments",
    "ambiguous",
    "missing_note_files",
    "pages",
    "code_skipped",
    "ignored",
    "obsidian_unresolved",
    "conflicts",
    "secrets",
    "help",
    "worktrees",
    "hooks",
    "pages_written",
]


def doctor(vault: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["doctor", "--vault", str(vault), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return rubi_project(tmp_path / "p", {"src/app.py": "import util\n", "src/util.py": "X = 1\n"})


def break_everything(root: Path) -> None:
    """One problem of every kind doctor reports."""
    vault = root / ".rubi"
    write(
        vault / "notes" / "a.md",
        "---\ntype: note\nfiles: [src/gone.py]\n---\n# A\n\n"
        "see [[nowhere]] and [[dup]] ![[missing.png]] and [[Dup 2]]\n",
    )
    write(
        vault / "notes" / "c.md",
        "# C\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n",
    )
    write(
        vault / "notes" / "s.md",
        "# S\n\nthe CI key:\nexport AWS_ACCESS_KEY_ID=AKIAFAKE0EXAMPLE0KEY\n",
    )
    write(vault / "notes" / "x" / "dup.md", "# Dup 1\n")
    write(vault / "notes" / "y" / "dup.md", "# Dup 2\n")
    write(root / "src" / "bad.py", b'x = "\xff\xfe"\n')
    (vault / ".index").mkdir()
    readme = vault / "README.md"  # rubi's help, unmarked and edited: recall injects it
    text = readme.read_text(encoding="utf-8").replace("---\nstatus: help\n---\n", "")
    write(readme, text + "\nOur own line.\n")
    write(vault / "config.toml", "not = [toml\n")
    page = vault / "map.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("<!-- rubi:summary:end -->", ""),
        encoding="utf-8",
    )


def test_a_healthy_project_exits_0_with_every_count_at_zero_and_says_so(
    project: Path,
) -> None:
    """The counts line stays; a verdict follows it (ten zeros on one line said
    nothing a new user could read as "healthy")."""
    code, out = doctor(project / ".rubi")
    assert code == 0
    assert out.strip() == (
        "0 file problems, 0 unresolved links, 0 ambiguous links, "
        "0 links only rubi resolves, 0 notes with conflict markers, 0 secrets in notes, "
        "0 help notes recalled, 0 missing attachments, "
        "0 missing note files, 0 generated pages with broken summary markers, "
        "0 code files skipped or partly read.\nNo problems found."
    )
    assert (project / ".rubi" / "map.md").is_file()  # doctor indexes first
    code, out = doctor(project / ".rubi", "--json")
    assert code == 0
    assert json.loads(out) == {section: [] for section in SECTIONS}


def test_the_summary_does_not_count_unresolved_links_twice_under_two_names(
    project: Path,
) -> None:
    """A link nothing resolves is "unresolved"; the count of links only rubi resolves
    (by title or alias) was labelled "links unresolved in Obsidian", so a vault with
    62 unresolved links read "62 unresolved links, … 0 links unresolved in Obsidian"."""
    write(project / ".rubi" / "notes" / "lone.md", "# Lone\n\nSee [[nowhere at all]].\n")
    code, out = doctor(project / ".rubi")
    assert code == 1
    how, summary, verdict = out.splitlines()[-3:]
    assert how.strip().startswith("how: write a note with that file name")
    assert verdict == ("1 problem: fix what the lines above name, then run `rubi doctor` again.")
    assert "1 unresolved link," in summary and "0 links only rubi resolves," in summary
    assert "unresolved in Obsidian" not in summary


def test_a_link_problem_is_followed_once_by_how_to_fix_it(project: Path) -> None:
    """A trial user read "fix what the lines above name (each says how)" under
    `unresolved notes/x: [[Client redirect handling]]`, a line that says no how: each
    group of link findings now ends with one line naming the fix."""
    doctor(project / ".rubi")
    break_everything(project)
    write(project / ".rubi" / "notes" / "b.md", "# B\n\n[[nowhere either]] ![[gone.png]]\n")
    _, out = doctor(project / ".rubi")
    lines = out.splitlines()
    hows = [line.strip() for line in lines if line.strip().startswith("how: ")]
    assert len(hows) == 3, out  # unresolved, attachment, ambiguous: once each
    last_unresolved = max(i for i, line in enumerate(lines) if line.startswith("unresolved "))
    assert lines[last_unresolved + 1].strip().startswith("how: write a note")
    last_ambiguous = max(i for i, line in enumerate(lines) if line.startswith("ambiguous "))
    assert lines[last_ambiguous + 1].strip() == (
        "how: link by path ([[folder/name]]) to pick one note"
    )
    assert "(each says how)" not in out


def test_every_section_in_text(project: Path) -> None:
    doctor(project / ".rubi")  # generates map.md, which break_everything then damages
    break_everything(project)
    code, out = doctor(project / ".rubi")
    assert code == 1
    lines = out.splitlines()
    assert "file       config.toml: not valid TOML" in out
    assert "unresolved notes/a: [[nowhere]]" in lines
    assert "attachment missing.png missing (embedded in notes/a)" in lines
    assert "ambiguous  notes/a: [[dup]] → notes/x/dup (also notes/y/dup)" in lines
    assert "files:     notes/a.md: files: src/gone.py does not exist in the project" in lines
    assert any(line.startswith("page       map.md: summary markers are broken") for line in lines)
    assert any(line.startswith("code       src/bad.py: is not valid UTF-8") for line in lines)
    assert any(
        line.startswith("ignored    .index/: derived data inside the vault") for line in lines
    )
    assert (
        "obsidian   notes/a: [[Dup 2]] is unresolved in Obsidian (rubi finds notes/y/dup by "
        "its title or alias; link its file name)" in lines
    )
    assert any(
        line.startswith("conflict   notes/c.md: git conflict markers from line 3") for line in lines
    )
    assert "secret     notes/s.md: line 4: a secret (aws-key); replace it with " in out
    (summary,) = [line for line in lines if "file problem" in line]
    # problems, then their counts, then information, then the verdict
    at = lines.index(summary)
    problems = ("file ", "unresolved ", "attachment ", "ambiguous ", "files:", "page ", "obs")
    assert all(not line.startswith(problems) for line in lines[at:])
    assert all(not line.startswith(("code ", "ignored ")) for line in lines[:at])
    assert any(line.startswith("help       README.md: rubi's help, edited") for line in lines)
    assert lines[-1].startswith("12 problems: fix what the lines above name")
    for part in (
        "1 secret in notes",
        "1 help note recalled",
        "1 link only rubi resolves",
        "1 note with conflict markers",
        "1 ambiguous link",
        "1 missing attachment",
        "1 missing note file",
        "1 generated page with broken summary markers",
        "1 code file skipped or partly read",
    ):
        assert part in summary
    assert "0 " not in summary


def test_every_section_in_json(project: Path) -> None:
    doctor(project / ".rubi")
    break_everything(project)
    code, out = doctor(project / ".rubi", "--json")
    assert code == 1
    data = json.loads(out)
    assert sorted(data) == sorted(SECTIONS)
    assert {"source": "notes/a", "target": "nowhere"} in data["missing"]
    assert data["missing_attachments"] == [{"source": "notes/a", "target": "missing.png"}]
    assert data["ambiguous"] == [
        {
            "source": "notes/a",
            "target": "dup",
            "resolved_to": "notes/x/dup",
            "candidates": ["notes/x/dup", "notes/y/dup"],
        }
    ]
    assert {f["path"] for f in data["files"]} == {"config.toml", "map.md"}
    assert data["missing_note_files"] == [
        "notes/a.md: files: src/gone.py does not exist in the project"
    ]
    assert len(data["pages"]) == 1 and data["pages"][0].startswith("map.md: summary markers")
    assert len(data["code_skipped"]) == 1 and data["code_skipped"][0].startswith("src/bad.py:")
    assert len(data["ignored"]) == 1 and data["ignored"][0].startswith(".index/:")
    assert data["obsidian_unresolved"] == [
        {"source": "notes/a", "target": "Dup 2", "rubi_resolves_to": "notes/y/dup"}
    ]
    assert [c["path"] for c in data["conflicts"]] == ["notes/c.md"]
    assert [c["path"] for c in data["secrets"]] == ["notes/s.md"]
    assert [c["path"] for c in data["help"]] == ["README.md"]


def test_secrets_in_notes_are_reported_by_line_and_kind_and_left_alone(project: Path) -> None:
    token = "glpat-" + "FAKEexample0token0value"
    note = project / ".rubi" / "notes" / "ci.md"
    text = f"# CI\n\nalready scrubbed: [REDACTED:aws-key]\n\nthe runner uses {token}\n"
    write(note, text)
    before = note.read_bytes()
    code, out = doctor(project / ".rubi")
    assert code == 1
    assert "secret     notes/ci.md: line 5: a secret (gitlab-token)" in out
    assert out.count("secret     ") == 1  # a mark is no secret
    assert token not in out
    assert note.read_bytes() == before
    code, out = doctor(project / ".rubi", "--json")
    assert json.loads(out)["secrets"] == [
        {
            "path": "notes/ci.md",
            "problem": "line 5: a secret (gitlab-token); replace it with [REDACTED:gitlab-token] "
            "and rotate it if the note was ever pushed",
        }
    ]


def test_skipped_code_and_ignored_folders_are_reported_but_healthy(project: Path) -> None:
    write(project / "src" / "bad.py", b'x = "\xff"\n')
    (project / ".rubi" / ".index").mkdir()
    code, out = doctor(project / ".rubi")
    assert code == 0
    assert "code       src/bad.py" in out and "ignored    .index/" in out
    lines = out.splitlines()
    assert lines[0].endswith("1 code file skipped or partly read.")  # no problem above
    assert lines[1].startswith("code       src/bad.py")  # information after the counts
    assert lines[-1] == "No problems found."  # information, not a problem


def test_two_attachments_one_target_are_one_line(project: Path) -> None:
    write(project / ".rubi" / "notes" / "a.md", "# A\n\n![[gone.png]]\n")
    write(project / ".rubi" / "notes" / "b.md", "# B\n\n![[gone.png]]\n")
    code, out = doctor(project / ".rubi")
    assert code == 1
    assert "attachment gone.png missing (embedded in notes/a and 1 more)" in out.splitlines()
    assert "1 missing attachment," in out


def test_no_vault_is_one_clear_line(tmp_path: Path) -> None:
    code, out = doctor(tmp_path / "nowhere")
    assert code != 0
    assert len(out.strip().splitlines()) == 1 and "nowhere" in out
