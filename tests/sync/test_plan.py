"""Planning from a watcher's paths: the changed files only, or None for a full scan."""

from __future__ import annotations

from pathlib import Path

from rubi.sync.manifest import FileEntry, VaultState
from rubi.sync.plan import plan_from_changes

from helpers import write


def _state(vault: Path, *names: str) -> VaultState:
    files = {}
    for name in names:
        info = (vault / name).stat()
        files[name] = FileEntry(info.st_mtime_ns, info.st_size, "x", name[:-3])
    return VaultState(files=files, attachments=["img.png"])


def test_changed_paths_make_the_plan_without_listing_the_vault(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "# A\n")
    write(tmp_path / "b.md", "# B\n")
    write(tmp_path / "sub/c.md", "# C\n")
    old = _state(tmp_path, "a.md", "b.md", "sub/c.md")
    write(tmp_path / "a.md", "# A changed\n")
    (tmp_path / "b.md").unlink()
    write(tmp_path / "new.md", "# New\n")
    write(tmp_path / "pic.jpg", b"\xff")
    planned = plan_from_changes(
        tmp_path, old, ["a.md", "b.md", "new.md", "pic.jpg", "img.png", ".obsidian/x.json"]
    )
    assert planned is not None
    plan, attachments = planned
    assert [s.path for s in plan.to_read] == ["a.md", "new.md"]
    assert plan.removed_paths == ["b.md"]
    assert set(plan.kept) == {"sub/c.md"}
    assert plan.attachments_added == ["pic.jpg"] and plan.attachments_removed == ["img.png"]
    assert attachments == ["pic.jpg"]


def test_folders_need_a_scan(tmp_path: Path) -> None:
    write(tmp_path / "sub/c.md", "# C\n")
    old = _state(tmp_path, "sub/c.md")
    assert plan_from_changes(tmp_path, old, ["sub"]) is None  # a folder event
    (tmp_path / "sub/c.md").unlink()
    (tmp_path / "sub").rmdir()
    assert plan_from_changes(tmp_path, old, ["sub"]) is None  # a folder went away


def test_a_name_with_a_line_break_needs_the_scan_that_skips_it(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "# A\n")
    old = _state(tmp_path, "a.md")
    write(tmp_path / "forged\nline.md", "# Forged\n")
    assert plan_from_changes(tmp_path, old, ["forged\nline.md"]) is None
