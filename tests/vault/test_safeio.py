"""rubi.core.safeio, the one door for reading files of a vault or project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi.core import safeio
from rubi.core.safeio import UnsafeFileError, escaped_name, read_bytes, read_text, refusal

from helpers import write


@pytest.fixture(autouse=True, params=["fast", "careful"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every rule holds both ways: the Linux fast path (where the open descriptor
    leads) and the careful one (every folder resolved first)."""
    if request.param == "careful":
        monkeypatch.setattr(safeio, "_FAST_OPEN_FLAGS", None)
    elif safeio._FAST_OPEN_FLAGS is None:
        pytest.skip("no /proc/self/fd here")
    return str(request.param)


def test_a_plain_read_takes_the_fast_path(
    tmp_path: Path, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if way != "fast":
        pytest.skip("the fast path only")
    root = tmp_path / "root"
    write(root / "deep" / "er" / "a.md", "text")
    (root / "link").symlink_to(root / "deep")

    def careful(*args: object) -> None:
        raise AssertionError("the careful path was taken")

    monkeypatch.setattr(safeio, "_check", careful)
    assert read_text(root, "deep/er/a.md", limit=10) == "text"
    assert read_text(root, "link/er/a.md", limit=10) == "text"  # a link inside
    monkeypatch.undo()
    write(tmp_path / "outside.md", "secret")
    (root / "out.md").symlink_to(tmp_path / "outside.md")
    with pytest.raises(UnsafeFileError) as err:
        read_bytes(root, "out.md", limit=10)
    assert "outside" in str(err.value)


def test_reads_up_to_the_limit_and_says_when_there_was_more(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", b"0123456789")
    got = read_bytes(tmp_path, "a.txt", limit=4)
    assert (got.data, got.truncated, got.size) == (b"0123", True, 10)
    whole = read_bytes(tmp_path, tmp_path / "a.txt", limit=10)
    assert (whole.data, whole.truncated) == (b"0123456789", False)
    write(tmp_path / "bom.md", "\ufeffcaf\xe9".encode() + b"\xff")
    assert read_text(tmp_path, "bom.md", limit=100) == "caf\xe9\ufffd"


def test_links_inside_the_root_are_followed(tmp_path: Path) -> None:
    write(tmp_path / "docs" / "real.md", "real text")
    (tmp_path / "link.md").symlink_to(tmp_path / "docs" / "real.md")
    (tmp_path / "folder").symlink_to(tmp_path / "docs")
    assert read_text(tmp_path, "link.md", limit=100) == "real text"
    assert read_text(tmp_path, "folder/real.md", limit=100) == "real text"


def test_links_out_of_the_root_are_refused_with_one_line(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(tmp_path / "secret" / "key", "secret")
    write(root / "keep.md", "x")
    (root / "key.md").symlink_to(tmp_path / "secret" / "key")
    (root / "out").symlink_to(tmp_path / "secret")
    with pytest.raises(UnsafeFileError) as err:
        read_bytes(root, "key.md", limit=100)
    assert str(err.value) == (
        "key.md: a symlink to a file outside the project; rubi does not read it: "
        "replace the link with the file itself"
    )
    with pytest.raises(UnsafeFileError) as err:
        read_bytes(root, "out/key", limit=100, where="the vault", label="notes/out/key")
    assert str(err.value) == (
        "notes/out/key: inside a symlinked folder that leads outside the vault; rubi does "
        "not read it: replace the link with the folder itself"
    )
    with pytest.raises(UnsafeFileError):
        read_bytes(root, "../secret/key", limit=100)


def test_devices_and_folders_are_refused(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert refusal(Path("/dev"), "zero") == (
        "is a character device, not a regular file; rubi does not read it: remove it"
    )
    (tmp_path / "zero").symlink_to("/dev/zero")
    assert refusal(Path("/"), tmp_path / "zero") == (
        "a symlink to a character device, not a regular file; rubi does not read it: "
        "remove the link"
    )
    (tmp_path / "dir.md").mkdir()
    with pytest.raises(UnsafeFileError, match="is a folder, not a regular file"):
        read_bytes(tmp_path, "dir.md", limit=10)


def test_missing_files_raise_file_not_found(tmp_path: Path) -> None:
    assert refusal(tmp_path, "nope.md") is None
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path, "nope.md", limit=10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.timeout(10)
def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check before the open passes (as if the FIFO appeared in between): the open
    does not wait for a writer (O_NONBLOCK) and fstat refuses it."""
    os.mkfifo(tmp_path / "pipe.md")
    assert refusal(tmp_path, "pipe.md") == (
        "is a FIFO (named pipe), not a regular file; rubi does not read it: remove it"
    )
    monkeypatch.setattr(safeio, "refusal", lambda *a, **k: None)
    with pytest.raises(UnsafeFileError, match=r"pipe\.md: is a FIFO"):
        read_bytes(tmp_path, "pipe.md", limit=10)


def test_escaped_name_shows_the_bytes() -> None:
    name = os.fsdecode(b"notes/caf\xe9-\xff.md")
    assert safeio.has_surrogates(name)
    assert escaped_name(name) == "notes/caf\\xe9-\\xff.md"
    assert not safeio.has_surrogates("notes/café.md")


def test_a_root_link_that_follows_its_moved_project_is_resolved_again(tmp_path: Path) -> None:
    """The root is a link (``current -> x/project``); the project moves to ``y/`` and
    the link follows it, while another folder takes the project's old place. A link
    of the project into that folder leads outside it: the real path remembered for the
    root must not let it through."""
    write(tmp_path / "x" / "project" / "a.md", "inside")
    root = tmp_path / "current"
    root.symlink_to(tmp_path / "x" / "project")
    assert read_text(root, "a.md", limit=100) == "inside"  # the root's real path is known
    (tmp_path / "x").rename(tmp_path / "y")
    root.unlink()
    root.symlink_to(tmp_path / "y" / "project")
    write(tmp_path / "x" / "project" / "secret.txt", "SECRET")  # someone else's folder
    (tmp_path / "y" / "project" / "leak.md").symlink_to(tmp_path / "x" / "project" / "secret.txt")
    with pytest.raises(UnsafeFileError, match=r"^leak\.md: a symlink to a file outside"):
        read_bytes(root, "leak.md", limit=100)
    assert read_text(root, "a.md", limit=100) == "inside"
