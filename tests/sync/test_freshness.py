"""The check a search makes before it reads the index: an unchanged vault is told by a
listing and the store's rows (no run), and every kind of change, an edit that keeps a
note's size and mtime among them, still reaches the index before the answer."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.sync import forget_vault_syncs, load_state
from rubi.sync.freshness import caught_up, files_unchanged, list_vault
from rubi.sync.manifest import RACY_MARGIN_NS, racy
from rubi.vault.scan import scan_vault

HOUR_NS = 3600 * 10**9


def _vault(tmp_path: Path, *, saved_ns: int | None = None) -> VaultPaths:
    """A small plain vault whose files were saved at ``saved_ns`` (an hour ago by
    default), indexed."""
    vault = tmp_path / "vault"
    (vault / "sub").mkdir(parents=True)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "app.json").write_text("{}", encoding="utf-8")
    (vault / "Alpha.md").write_text("# Alpha\n\nAbout apples. [[Beta]]\n", encoding="utf-8")
    (vault / "sub" / "Beta.md").write_text("# Beta\n\nAbout bananas.\n", encoding="utf-8")
    (vault / "sub" / "picture.png").write_bytes(b"\x89PNG")
    (vault / ".hidden.md").write_text("# Hidden\n", encoding="utf-8")
    when = saved_ns if saved_ns is not None else time.time_ns() - HOUR_NS
    for path in (vault / "Alpha.md", vault / "sub" / "Beta.md", vault / "sub" / "picture.png"):
        os.utime(path, ns=(when, when))
    paths = app.locate(vault)
    app.index(paths)
    return paths


def _ids(paths: VaultPaths, query: str) -> list[str]:
    """The hits' ids, best first (a linked note may follow the one that matches)."""
    return [h.id for h in app.search(paths, query).hits]


def test_the_listing_is_the_scans(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    listing = list_vault(str(paths.root))
    assert listing is not None
    notes, attachments = listing
    scanned = scan_vault(paths.root)
    assert notes == {f.path: (f.mtime_ns, f.size) for f in scanned.notes}
    assert attachments == set(scanned.attachments) == {"sub/picture.png"}


def test_an_indexed_vault_left_alone_is_unchanged(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    assert files_unchanged(paths)


@pytest.mark.parametrize(
    "change",
    ["edit", "new note", "deleted note", "new attachment", "gone attachment", "new folder note"],
)
def test_each_kind_of_change_is_seen(tmp_path: Path, change: str) -> None:
    paths = _vault(tmp_path)
    vault = paths.root
    if change == "edit":
        (vault / "Alpha.md").write_text("# Alpha\n\nAbout apricots now.\n", encoding="utf-8")
    elif change == "new note":
        (vault / "Gamma.md").write_text("# Gamma\n", encoding="utf-8")
    elif change == "deleted note":
        (vault / "sub" / "Beta.md").unlink()
    elif change == "new attachment":
        (vault / "doc.pdf").write_bytes(b"%PDF")
    elif change == "gone attachment":
        (vault / "sub" / "picture.png").unlink()
    else:
        (vault / "deeper" / "down").mkdir(parents=True)
        (vault / "deeper" / "down" / "Delta.md").write_text("# Delta\n", encoding="utf-8")
    assert not files_unchanged(paths)


def test_hidden_and_skipped_files_are_not_changes(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    (paths.root / ".hidden.md").write_text("# Hidden, edited\n", encoding="utf-8")
    (paths.root / ".obsidian" / "workspace.json").write_text("{}", encoding="utf-8")
    (paths.root / "node_modules").mkdir()
    (paths.root / "node_modules" / "Readme.md").write_text("# no\n", encoding="utf-8")
    assert files_unchanged(paths)


def test_a_symlink_leaves_the_decision_to_the_scan(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    (paths.root / "Link.md").symlink_to(paths.root / "Alpha.md")
    assert list_vault(str(paths.root)) is None
    assert not files_unchanged(paths)


def test_a_damaged_or_missing_store_is_not_trusted(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    forget_vault_syncs()
    for suffix in ("-wal", "-shm"):
        paths.store_file.with_name(paths.store_file.name + suffix).unlink(missing_ok=True)
    paths.store_file.write_bytes(b"not a database" * 100)
    assert not files_unchanged(paths)
    paths.store_file.unlink()
    assert not files_unchanged(paths)


def test_an_edit_keeping_size_and_mtime_is_found(tmp_path: Path) -> None:
    # Saved in the same clock tick as the index's listing: the stat shows nothing.
    now = time.time_ns()
    paths = _vault(tmp_path, saved_ns=now)
    alpha = paths.root / "Alpha.md"
    before = alpha.stat()
    text = alpha.read_text(encoding="utf-8")
    alpha.write_text(text.replace("apples", "cherry"), encoding="utf-8")
    os.utime(alpha, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (alpha.stat().st_size, alpha.stat().st_mtime_ns) == (
        before.st_size,
        before.st_mtime_ns,
    )
    assert not files_unchanged(paths)
    assert _ids(paths, "cherry")[:1] == ["Alpha"]
    forget_vault_syncs()  # another process, the same answer
    assert _ids(paths, "cherry")[:1] == ["Alpha"]
    assert "Alpha" not in _ids(paths, "apples")


def test_a_later_run_clears_notes_saved_near_its_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path, saved_ns=time.time_ns())
    # too close to the listing to trust a stat: trusted by their bytes
    assert files_unchanged(paths)
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + RACY_MARGIN_NS + 10**9)
    app.index(paths)  # reads them again, records its own listing
    state = load_state(paths)
    assert state is not None and state.listed_ns is not None
    assert state.listed_ns > real() + RACY_MARGIN_NS
    assert files_unchanged(paths)


def test_a_store_without_a_listing_time_gets_one(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    import sqlite3

    with sqlite3.connect(paths.store_file) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'listed_ns'")
    forget_vault_syncs()
    assert not files_unchanged(paths)
    assert _ids(paths, "bananas")[:1] == ["sub/Beta"]
    assert files_unchanged(paths)


def _settled_project(tmp_path: Path, *, git: bool = False) -> VaultPaths:
    """A small project whose files were all saved an hour ago, indexed since; with
    ``git``, a git repository (its files then listed by ``git ls-files``)."""
    from helpers import login_project

    root = login_project(tmp_path / "proj")
    if git:
        import subprocess

        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    when = time.time_ns() - HOUR_NS
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(when, when))
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def test_a_project_left_alone_is_caught_up_and_an_edit_of_a_note_or_code_is_not(
    tmp_path: Path,
) -> None:
    paths = _settled_project(tmp_path)
    assert paths.project_root is not None
    assert caught_up(paths)
    code = paths.project_root / "src" / "auth.py"
    code.write_text("def login():\n    return 1\n", encoding="utf-8")
    assert files_unchanged(paths)  # the notes alone say nothing of the code
    assert not caught_up(paths)
    app.index(paths)
    note = next((paths.root / "notes").rglob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    assert not caught_up(paths)


def test_a_projects_first_run_leaves_it_caught_up(tmp_path: Path) -> None:
    # The run writes the map pages after its listing began: their stats cannot tell
    # an edit (racy), so they are compared by content, and a server started after a
    # first `rubi index` runs no second one (issue 29, eighteenth pass).
    from helpers import login_project

    root = login_project(tmp_path / "proj")
    paths = app.locate(root / ".rubi")
    app.index(paths)
    state = load_state(paths)
    assert state is not None and state.listed_ns is not None
    pages = [p for p in state.files if p == "map.md" or p.startswith("modules/")]
    assert pages and all(racy(state.files[p].mtime_ns, state.listed_ns) for p in pages)
    assert caught_up(paths)
    assert not app.catch_up_if_changed(paths, lock_timeout_s=1.0)
    page = paths.root / pages[-1]
    before = page.stat()
    text = page.read_text(encoding="utf-8")
    page.write_text(text[:-2] + "X\n", encoding="utf-8")  # a hand edit, same size
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not caught_up(paths)


def test_a_project_whose_code_map_is_gone_is_not_caught_up(tmp_path: Path) -> None:
    paths = _settled_project(tmp_path)
    paths.codemap_file.unlink()
    assert not caught_up(paths)


@pytest.mark.parametrize("damage", ["folder gone", "folder emptied"])
def test_a_vault_whose_search_index_is_gone_is_not_caught_up(tmp_path: Path, damage: str) -> None:
    # The run rebuilds a missing Whoosh index (rubi.sync.vaultsync: index.exists());
    # a check that said "caught up" left a cold SessionStart on an index every search
    # refused ("no index; run `rubi index --full`"), where its run used to rebuild it.
    import shutil

    paths = _settled_project(tmp_path)
    assert caught_up(paths)
    shutil.rmtree(paths.whoosh_dir)
    if damage == "folder emptied":
        paths.whoosh_dir.mkdir()
    assert not caught_up(paths)
    assert app.catch_up_if_changed(paths, lock_timeout_s=1.0)
    assert caught_up(paths)


def _with_record(tmp_path: Path) -> VaultPaths:
    """A small vault with a session record in ``sessions/``, indexed an hour after
    its files were saved."""
    paths = _vault(tmp_path, saved_ns=time.time_ns() - 2 * HOUR_NS)
    record = paths.root / "sessions" / "2026-01-02-abc.md"
    record.parent.mkdir()
    record.write_text("# Session\n\nFirst turn.\n", encoding="utf-8")
    when = time.time_ns() - HOUR_NS
    os.utime(record, ns=(when, when))
    app.index(paths)
    return paths


@pytest.mark.parametrize("change", ["extended record", "new record"])
def test_records_under_a_pending_folder_count_as_unchanged_only_when_asked(
    tmp_path: Path, change: str
) -> None:
    paths = _with_record(tmp_path)
    sessions = paths.root / "sessions"
    if change == "extended record":
        record = sessions / "2026-01-02-abc.md"
        record.write_text(record.read_text(encoding="utf-8") + "Second turn.\n", encoding="utf-8")
    else:
        (sessions / "2026-01-03-def.md").write_text("# Another\n", encoding="utf-8")
    assert not files_unchanged(paths)
    assert files_unchanged(paths, pending=("sessions/",))
    assert not files_unchanged(paths, pending=("notes/",))


@pytest.mark.parametrize("change", ["deleted record", "edit elsewhere"])
def test_a_deleted_record_or_an_edit_elsewhere_is_seen_through_a_pending_folder(
    tmp_path: Path, change: str
) -> None:
    paths = _with_record(tmp_path)
    (paths.root / "sessions" / "2026-01-03-def.md").write_text("# Another\n", encoding="utf-8")
    if change == "deleted record":
        (paths.root / "sessions" / "2026-01-02-abc.md").unlink()
    else:
        alpha = paths.root / "Alpha.md"
        alpha.write_text("# Alpha\n\nAbout apricots now.\n", encoding="utf-8")
        when = time.time_ns() - HOUR_NS // 2  # long before the listing: not racy
        os.utime(alpha, ns=(when, when))
    assert not files_unchanged(paths, pending=("sessions/",))


def test_a_refreshing_reader_of_an_unchanged_vault_makes_no_vault_sync(tmp_path: Path) -> None:
    """The check alone: the process keeps no vault sync, so a one-shot reader then
    opens the flat graph without one (``rubi.sync.oneshot.current_flat``)."""
    from rubi.app.searching import ensure_index
    from rubi.sync.run import has_vault_sync

    paths = _vault(tmp_path, saved_ns=time.time_ns() - 2 * HOUR_NS)
    app.index(paths)  # files saved long before this listing: none is racy
    forget_vault_syncs()
    assert ensure_index(paths, refresh=True) is None
    assert not has_vault_sync(paths)
    (paths.root / "Gamma.md").write_text("# Gamma\n", encoding="utf-8")
    assert ensure_index(paths, refresh=True) is not None  # a change still runs


_CHECK_ALONE = """
import json, sys
from pathlib import Path
from rubi import app
ran = app.catch_up_if_changed(app.locate(Path(sys.argv[1])), lock_timeout_s=1.0)
print(json.dumps([ran, sorted({m.split(".")[0] for m in sys.modules})]))
"""


def test_a_caught_up_check_of_a_project_loads_no_library_its_answer_does_not_use(
    tmp_path: Path,
) -> None:
    """A server that never searches asks only whether its project changed: the answer
    (a listing, one query, ``git ls-files``) needs neither Whoosh, networkx nor numpy,
    nor the ``.gitignore`` matcher of folders without git (pathspec), nor OpenSSL for
    the code's digest (tens of ms of imports)."""
    import json
    import subprocess
    import sys

    paths = _settled_project(tmp_path, git=True)
    run = subprocess.run(
        [sys.executable, "-c", _CHECK_ALONE, str(paths.root)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    ran, loaded = json.loads(run.stdout)
    assert ran is False
    assert not {"whoosh", "networkx", "numpy", "pathspec", "_hashlib"} & set(loaded)
