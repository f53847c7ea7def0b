"""The freshness check's vault listing (:func:`rubi.sync.freshness.list_vault`) takes
printable ASCII names on a short path; every other name is asked the questions the
scan asks (control characters, bytes that are not UTF-8). The listing equals the
reference (each name asked every question, as before the short path) for a tree of
odd names, one odd name at a time."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from rubi.core.safeio import has_control_chars, has_surrogates
from rubi.core.treerules import vault_file_skipped, vault_folder_skipped
from rubi.sync.freshness import list_vault

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="names of any bytes")


def reference(root: str) -> tuple[dict[str, tuple[int, int]], set[str]] | None:
    """The listing with every name asked every question."""
    notes: dict[str, tuple[int, int]] = {}
    attachments: set[str] = set()
    folders = [(root, "")]
    while folders:
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if entry.is_dir(follow_symlinks=False):
                    if not vault_folder_skipped(name) and not has_control_chars(name):
                        if has_surrogates(name):
                            return None
                        folders.append((entry.path, prefix + name + "/"))
                    continue
                if vault_file_skipped(name):
                    continue
                if has_control_chars(name) and name.lower().endswith(".md"):
                    continue
                if has_surrogates(name) or entry.is_symlink():
                    return None
                if not name.lower().endswith(".md"):
                    attachments.add(prefix + name)
                    continue
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    return None
                notes[prefix + name] = (info.st_mtime_ns, info.st_size)
    return notes, attachments


ODD = [
    b"tab\there.md",
    b"line\nbreak.md",
    b"del\x7fname.md",
    "c1\u0085name.md".encode(),
    "café.md".encode(),
    "日本語.md".encode(),
    b"not-utf8-\xff.md",
    b"not-utf8-\xff.png",
    b"tab\tpicture.png",
    b"UPPER.MD",
    b".hidden.md",
    b"space name.md",
    "line\u2028sep.md".encode(),
]


def _tree(root: Path, odd: bytes | None) -> None:
    (root / "notes" / "sub").mkdir(parents=True)
    (root / "notes" / "a.md").write_text("a\n", encoding="utf-8")
    (root / "notes" / "sub" / "b.md").write_text("b\n", encoding="utf-8")
    (root / "notes" / "pic.png").write_bytes(b"x")
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "c.md").write_text("c\n", encoding="utf-8")
    if odd is not None:
        for where in (b"notes/", b"notes/sub/"):
            path = os.fsencode(root) + b"/" + where + odd
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            os.write(fd, b"odd\n")
            os.close(fd)
        folder = os.fsencode(root) + b"/notes/dir-" + odd.replace(b".", b"_")
        os.mkdir(folder)
        fd = os.open(folder + b"/inside.md", os.O_WRONLY | os.O_CREAT, 0o644)
        os.close(fd)


@pytest.mark.parametrize("odd", [None, *ODD], ids=lambda o: repr(o))
def test_the_listing_is_the_references(tmp_path: Path, odd: bytes | None) -> None:
    _tree(tmp_path, odd)
    assert list_vault(str(tmp_path)) == reference(str(tmp_path))


def test_a_symlinked_note_is_left_to_the_scan(tmp_path: Path) -> None:
    _tree(tmp_path, None)
    (tmp_path / "notes" / "link.md").symlink_to(tmp_path / "notes" / "a.md")
    assert list_vault(str(tmp_path)) is None
    assert reference(str(tmp_path)) is None
