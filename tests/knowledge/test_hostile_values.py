"""Register and handoff with hostile values: paths that leave the project, text that is
not Unicode, link targets and titles that would forge a note's structure. Each is one
clear error, and nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import frontmatter
import pytest

from rubi import app
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths
from rubi.markdown import parse_note


def note(title: str = "Hostile", body: str = "Body.", **extra: Any) -> dict[str, Any]:
    return {"type": "gotcha", "title": title, "body": body, **extra}


def vault_files(vault: VaultPaths) -> dict[str, str]:
    return {
        p.relative_to(vault.root).as_posix(): p.read_text(encoding="utf-8")
        for folder in ("notes", "handoffs")
        for p in sorted((vault.root / folder).glob("*.md"))
    }


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (note(files=["../../etc/passwd"]), r"notes\[1\]\.files\[0\] \.\./\.\./etc/passwd: outside"),
        (note(files=["/etc/passwd"]), r"notes\[1\]\.files\[0\] /etc/passwd: outside"),
        (note(files=["src/../../x"]), r"notes\[1\]\.files\[0\]"),
        (note(files=["..\\..\\etc\\passwd"]), r"notes\[1\]\.files\[0\]"),
        (note(files=["C:\\Windows\\win.ini"]), r"notes\[1\]\.files\[0\]"),
        (note(files=["~/.ssh/id_rsa"]), r"notes\[1\]\.files\[0\]"),
        (note(files=["src/a.py\n- supersedes [[victim]]"]), r"notes\[1\]\.files\[0\]"),
        (note(files=["."]), r"notes\[1\]\.files\[0\]"),
        (note(title="x\x00y"), r"notes\[1\]\.title: holds a NUL byte"),
        (note(body="binary\x00body"), r"notes\[1\]\.body: holds a NUL byte"),
        (note(title="lone \ud800"), r"notes\[1\]\.title: holds a lone surrogate"),
        (note(body="lone \udce9"), r"notes\[1\]\.body: holds a lone surrogate"),
        (note(body="\x1b]0;pwned\x07"), r"notes\[1\]\.body: holds control character"),
        (
            note(links=[{"relation": "about", "target": "x]]\n## Links\n- supersedes [[victim"}]),
            r"notes\[1\]\.links\[0\]\.target",
        ),
        (note(links=[{"relation": "about", "target": "a|b"}]), r"links\[0\]\.target.*\|"),
        (note(links=[{"relation": "about", "target": "a#h"}]), r"links\[0\]\.target.*#"),
        (note(links=[{"relation": "about", "target": "[[a]]"}]), r"links\[0\]\.target"),
        (note(links=[{"relation": "x]] [[y", "target": "a"}]), r"links\[0\]\.relation"),
        (note(links=[{"relation": ["about"], "target": "a"}]), r"links\[0\]\.relation"),
        (note(links="about:x"), r"notes\[1\]\.links: expected a list"),
        (note(supersedes="victim]]\n## Links\n- supersedes [[other"), r"notes\[1\]\.supersedes"),
        (note(tags=["two words"]), r"notes\[1\]\.tags\[0\]"),
        (note(tags=["a\x00"]), r"notes\[1\]\.tags\[0\]"),
        (note(aliases=["a\ud800"]), r"notes\[1\]\.aliases\[0\]"),
        (note(files=[f"f{i}.py" for i in range(201)]), r"notes\[1\]\.files: 201 entries"),
    ],
)
def test_hostile_items_are_refused_and_nothing_is_written(
    vault: VaultPaths, item: dict[str, Any], field: str
) -> None:
    with pytest.raises(RubiError, match=field) as err:
        app.register(vault, [note("A fine note"), item])
    assert "\n" not in str(err.value)
    assert vault_files(vault) == {}


def test_files_are_stored_relative_to_the_project_root(vault: VaultPaths, repo: Path) -> None:
    [r] = app.register(
        vault,
        [
            note(
                files=[
                    str(repo / "src" / "auth.py"),  # absolute, inside the project
                    "./src/db.py",
                    "src\\db.py",
                    "src/../src/auth.py",
                    "tests/",
                ]
            )
        ],
    )
    meta = parse_note((vault.root / r.path).read_text(encoding="utf-8"), r.path).metadata
    assert meta["files"] == ["src/auth.py", "src/db.py", "tests/"]


def test_cli_files_are_taken_from_the_working_folder(vault: VaultPaths, repo: Path) -> None:
    [r] = app.register(vault, [note(files=["./auth.py", "../README.md"])], cwd=repo / "src")
    meta = parse_note((vault.root / r.path).read_text(encoding="utf-8"), r.path).metadata
    assert meta["files"] == ["src/auth.py", "README.md"]


def test_a_title_with_line_breaks_adds_no_heading_or_frontmatter(vault: VaultPaths) -> None:
    title = "Evil\n---\nstatus: superseded\n---\n## Links\n- supersedes [[victim]]"
    [victim] = app.register(vault, [note("victim", "The victim note.")])
    [r] = app.register(vault, [note(title)])
    text = (vault.root / r.path).read_text(encoding="utf-8")
    post = frontmatter.loads(text)
    assert post.metadata["status"] == "active" and "supersedes" not in post.metadata
    headings = [line for line in post.content.splitlines() if line.startswith("#")]
    assert headings == ["# Evil --- status: superseded --- ## Links - supersedes [[victim]]"]
    parsed = parse_note(text, r.path)
    assert not [lk for lk in parsed.links if lk.relation == "supersedes"]
    assert app.read_note(vault, victim.id).note.status == "active"


def test_link_targets_are_written_as_one_wikilink_each(vault: VaultPaths) -> None:
    app.register(vault, [note("Target note", "T.")])
    [r] = app.register(
        vault,
        [
            note(
                "Linker",
                links=[{"relation": "about", "target": "Target note"}, {"target": "ghost"}],
            )
        ],
    )
    parsed = parse_note((vault.root / r.path).read_text(encoding="utf-8"), r.path)
    assert [(lk.relation, lk.target) for lk in parsed.links] == [
        ("about", "gotcha-target-note"),
        ("relates_to", "ghost"),
    ]


def test_a_note_whose_file_name_cannot_be_linked_is_linked_by_the_name_given(
    vault: VaultPaths,
) -> None:
    # A hand-written (or cloned) note whose file name holds "#": its id cannot sit in [[...]].
    (vault.root / "notes").mkdir(exist_ok=True)
    (vault.root / "notes" / "c#-tips.md").write_text(
        "---\ntype: note\naliases: [csharp tips]\n---\n# CSharp tips\n", encoding="utf-8"
    )
    [r] = app.register(
        vault, [note("Linker", links=[{"relation": "about", "target": "csharp tips"}])]
    )
    text = (vault.root / r.path).read_text(encoding="utf-8")
    assert "- about [[csharp tips]]" in text and "[[c#" not in text
    with pytest.raises(RubiError, match=r"supersedes.*#"):
        app.register(vault, [note("New tips", supersedes="csharp tips")])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"files": ["../../etc/passwd"]}, r"files\[0\] \.\./\.\./etc/passwd: outside"),
        ({"files": ["/etc/passwd"]}, r"files\[0\] /etc/passwd: outside"),
        ({"files": ["a.py\n## Goal\nforged"]}, r"files\[0\]"),
        ({"notes": ["x]]\n## Links\n- supersedes [[victim"]}, r"notes\[0\]"),
        ({"notes": ["a|b"]}, r"notes\[0\]"),
        ({"next_steps": ["one\x00"]}, r"next_steps\[0\]: holds a NUL byte"),
        ({"goal": "g\ud800"}, r"goal: holds a lone surrogate"),
        ({"state": "s\x00"}, r"state: holds a NUL byte"),
        ({"next_steps": "do it"}, r"next_steps: expected a list"),
    ],
)
def test_hostile_handoffs_are_refused(
    vault: VaultPaths, kwargs: dict[str, Any], message: str
) -> None:
    args: dict[str, Any] = {"goal": "Ship", "state": "half done", **kwargs}
    with pytest.raises(RubiError, match=message) as err:
        app.save_handoff(vault, **args)
    assert "\n" not in str(err.value)
    assert vault_files(vault) == {}


def test_a_handoff_step_stays_one_line(vault: VaultPaths, repo: Path) -> None:
    written = app.save_handoff(
        vault,
        "Ship",
        "half done",
        ["fix it\n## Links\n- supersedes [[victim]]"],
        files=[str(repo / "src" / "db.py"), "src\\auth.py"],
        notes=["victim"],
    )
    post = frontmatter.loads(written.text)
    assert post.metadata["files"] == ["src/db.py", "src/auth.py"]
    assert "1. fix it ## Links - supersedes [[victim]]" in post.content
    links = parse_note(written.text, written.path).links
    assert ("relates_to", "victim") in [(lk.relation, lk.target) for lk in links]
    assert "supersedes" not in {lk.relation for lk in links}


@pytest.mark.parametrize("folder", ["notes", "handoffs"])
def test_a_folder_linked_out_of_the_project_is_never_written(
    vault: VaultPaths, repo: Path, tmp_path: Path, folder: str
) -> None:
    outside = tmp_path / "victim"
    outside.mkdir()
    target = vault.root / folder
    shutil.rmtree(target, ignore_errors=True)
    target.symlink_to(outside, target_is_directory=True)  # as a cloned tree may hold it
    with pytest.raises(RubiError, match=rf"{folder}/: a symlink that leads outside the project"):
        if folder == "notes":
            app.register(vault, [note("Goes nowhere")])
        else:
            app.save_handoff(vault, "Ship", "half done")
    assert list(outside.iterdir()) == []


def test_a_notes_folder_linked_inside_the_project_works(vault: VaultPaths, repo: Path) -> None:
    (repo / "docs" / "notes").mkdir(parents=True)
    notes_dir = vault.root / "notes"
    shutil.rmtree(notes_dir, ignore_errors=True)
    notes_dir.symlink_to(repo / "docs" / "notes", target_is_directory=True)
    [r] = app.register(vault, [note("Kept in docs")])
    assert (repo / "docs" / "notes" / "gotcha-kept-in-docs.md").is_file()
    assert r.path == "notes/gotcha-kept-in-docs.md"
