"""rubi.core.safepaths and rubi.core.safetext: values from untrusted input made safe before a
path join, a git call or a write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi.core.safepaths import (
    UnsafePathError,
    is_commit_id,
    is_inside,
    project_relative,
    relative_path,
    require_inside,
    safe_child,
)
from rubi.core.safetext import (
    UnsafeTextError,
    check_text,
    has_lone_surrogate,
    link_target,
    one_line,
    replace_surrogates,
)

from helpers import write


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    write(project / "src" / "x.py", "x = 1\n")
    write(project / "docs" / "a.md", "# a\n")
    write(tmp_path / "secret.txt", "s3cret\n")
    return project


# -- project_relative ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "cwd", "expected"),
    [
        ("src/x.py", None, "src/x.py"),
        ("./src/x.py", None, "src/x.py"),
        ("src//x.py", None, "src/x.py"),
        ("src/./x.py", None, "src/x.py"),
        ("docs/../src/x.py", None, "src/x.py"),
        ("src/x.py/", None, "src/x.py"),
        ("  src/x.py  ", None, "src/x.py"),
        ("src/new-file.py", None, "src/new-file.py"),  # need not exist
        ("./x.py", "src", "src/x.py"),  # typed in a subfolder
        ("x.py", "src", "src/x.py"),
        ("../docs/a.md", "src", "docs/a.md"),
        (".", None, "."),
        ("..", "src", "."),
        # Windows spellings of relative paths
        ("src\\x.py", None, "src/x.py"),
        (".\\src\\x.py", None, "src/x.py"),
        ("..\\docs\\a.md", "src", "docs/a.md"),
    ],
)
def test_project_relative_spells_paths_as_git_does(
    root: Path, value: str, cwd: str | None, expected: str
) -> None:
    assert project_relative(root, value, cwd=root / cwd if cwd else None) == expected


def test_absolute_paths_inside_the_project_become_relative(root: Path) -> None:
    assert project_relative(root, str(root / "src" / "x.py")) == "src/x.py"
    assert project_relative(root, str(root / "src" / ".." / "docs" / "a.md")) == "docs/a.md"
    assert project_relative(root, str(root)) == "."


@pytest.mark.parametrize(
    "value",
    [
        "../../etc/passwd",
        "../secret.txt",
        "src/../../secret.txt",
        "/etc/passwd",
        "~/.ssh/id_rsa",
        # Windows spellings that leave, or are absolute in another dialect
        "..\\..\\etc\\passwd",
        "src\\..\\..\\secret.txt",
        "C:\\Windows\\System32\\drivers\\etc\\hosts",
        "C:/Users/me/.ssh/id_rsa",
        "c:relative-to-drive.txt",
        "\\\\server\\share\\x.txt",
        "//server/share/x.txt",
        "\\etc\\passwd",
    ],
)
def test_paths_that_leave_the_project_are_refused(root: Path, value: str) -> None:
    with pytest.raises(UnsafePathError) as err:
        project_relative(root, value, what="--file")
    message = str(err.value)
    assert message.startswith("--file ") and "\n" not in message


def test_a_relative_path_from_a_subfolder_may_not_leave_the_project(root: Path) -> None:
    with pytest.raises(UnsafePathError, match="outside the project"):
        project_relative(root, "../../secret.txt", cwd=root / "src")


@pytest.mark.parametrize(
    "value", ["", "   ", "src/x\x00.py", "src/x.py\n- [[evil]]", "a\rb", "\x1b[2J"]
)
def test_empty_and_control_characters_are_refused(root: Path, value: str) -> None:
    with pytest.raises(UnsafePathError, match="not a usable path") as err:
        project_relative(root, value, what="files:")
    assert "\n" not in str(err.value)


def test_a_symlink_that_leads_out_is_refused(root: Path, tmp_path: Path) -> None:
    (root / "link").symlink_to(tmp_path / "secret.txt")
    (root / "outdir").symlink_to(tmp_path, target_is_directory=True)
    (root / "inlink").symlink_to(root / "src" / "x.py")
    for value in ("link", "outdir/secret.txt"):
        with pytest.raises(UnsafePathError, match="symlink"):
            project_relative(root, value)
    assert project_relative(root, "inlink") == "inlink"  # named as typed, not resolved


def test_a_root_reached_through_a_symlink_accepts_physical_paths(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write(real / "src" / "x.py", "")
    alias = tmp_path / "alias"
    alias.symlink_to(real, target_is_directory=True)
    # the root was found through the alias; the shell's cwd is the physical folder
    assert project_relative(alias, "x.py", cwd=real / "src") == "src/x.py"
    assert project_relative(alias, str(real / "src" / "x.py")) == "src/x.py"
    assert project_relative(real, str(alias / "src" / "x.py")) == "src/x.py"


def test_a_drive_path_is_never_joined_to_the_working_folder(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(root / "src")  # a relative reading of "C:x" would land inside
    with pytest.raises(UnsafePathError, match="outside the project"):
        project_relative(root, "C:x.py")


# -- relative_path (no root at hand) ----------------------------------------------------
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("src/x.py", "src/x.py"),
        ("./src/x.py", "src/x.py"),
        ("src\\x.py", "src/x.py"),
        ("tests/", "tests/"),
        ("a/../b", "b"),
    ],
)
def test_relative_path_normalises(value: str, expected: str) -> None:
    assert relative_path(value) == expected


@pytest.mark.parametrize(
    "value",
    ["..", "../x", "a/../../x", "/etc/passwd", "C:\\x", "\\\\srv\\share", "~/x", ".", "", "a\nb"],
)
def test_relative_path_refuses(value: str) -> None:
    with pytest.raises(UnsafePathError):
        relative_path(value, what="files[0]")


# -- safe_child ----------------------------------------------------------------------------
def test_safe_child_joins_names_inside_the_root(root: Path) -> None:
    assert safe_child(root, "src/x.py") == root / "src" / "x.py"
    assert safe_child(root, "src\\x.py") == root / "src" / "x.py"
    assert safe_child(root, "module-page.md") == root / "module-page.md"


@pytest.mark.parametrize(
    "name",
    [
        "",
        ".",
        "..",
        "../secret.txt",
        "a/../../secret.txt",
        "/etc/passwd",
        "C:\\Windows",
        "..\\secret.txt",
        "\\\\server\\share",
        "x\x00y",
        "x\ny",
    ],
)
def test_safe_child_refuses_names_that_leave(root: Path, name: str) -> None:
    with pytest.raises(UnsafePathError):
        safe_child(root, name, what="module page")


def test_safe_child_refuses_a_symlink_out(root: Path, tmp_path: Path) -> None:
    (root / "out").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(UnsafePathError, match="leads outside"):
        safe_child(root, "out/secret.txt")


def test_is_inside_resolves_symlinks(root: Path, tmp_path: Path) -> None:
    (root / "out").symlink_to(tmp_path, target_is_directory=True)
    assert is_inside(root, root / "src" / "x.py")
    assert is_inside(root, root)
    assert not is_inside(root, root / "out" / "secret.txt")
    assert not is_inside(root, Path(os.path.dirname(root)))


# -- commit ids --------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["a1b2", "a1b2c3d", "0" * 40, "f" * 64])
def test_commit_ids(value: str) -> None:
    assert is_commit_id(value)


@pytest.mark.parametrize(
    "value", ["--output=.git/config", "abc", "A1B2C3D", "a1b2c3d\n", "g123", "0" * 65, 1234, None]
)
def test_not_commit_ids(value: object) -> None:
    assert not is_commit_id(value)


# -- safetext ---------------------------------------------------------------------------------
def test_text_checks() -> None:
    assert check_text("line one\n\tline two\r\n", "body") == "line one\n\tline two\r\n"
    assert one_line("  a\nb\u2028c\t d  ", "title") == "a b c d"
    assert link_target("  concept-auth  ", "target") == "concept-auth"
    assert link_target("Use JWT (v2)", "target") == "Use JWT (v2)"
    assert has_lone_surrogate("a\ud800") and not has_lone_surrogate("a😀")
    assert replace_surrogates("caf\udce9") == "caf\ufffd"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a\x00b", "NUL byte"),
        ("a\ud800b", "lone surrogate"),
        ("a\udce9", "lone surrogate"),
        ("\x1b[31mred", r"U\+001B"),
        ("a\x7fb", r"U\+007F"),
        ("a\x85b", r"U\+0085"),
    ],
)
def test_text_that_is_not_plain_unicode_is_refused(value: str, message: str) -> None:
    with pytest.raises(UnsafeTextError, match=message) as err:
        check_text(value, "notes[0].body")
    assert str(err.value).startswith("notes[0].body: ") and "\n" not in str(err.value)


@pytest.mark.parametrize(
    "value",
    [
        "x]]\n## Links\n- supersedes [[victim",
        "victim]] and [[other",
        "a|alias",
        "a#heading",
        "a^block",
        "two\nlines",
        "two\u2028lines",
        "nul\x00",
    ],
)
def test_link_targets_that_would_forge_structure_are_refused(value: str) -> None:
    with pytest.raises(UnsafeTextError) as err:
        link_target(value, "notes[0].links[0].target")
    assert "\n" not in str(err.value)


def test_a_linked_file_is_refused_with_the_advice_for_a_file(root: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.md").write_text("theirs\n")
    (root / "map.md").symlink_to(tmp_path / "elsewhere.md")
    with pytest.raises(UnsafePathError) as refused:
        require_inside(root, root / "map.md", what="map.md")
    assert str(refused.value).endswith("replace the link with a file of its own")


def test_a_linked_folder_is_refused_with_the_advice_for_a_folder(
    root: Path, tmp_path: Path
) -> None:
    (root / "handoffs").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(UnsafePathError) as refused:
        require_inside(root, root / "handoffs", what="handoffs/")
    assert str(refused.value).endswith("replace the link with a folder of its own")
