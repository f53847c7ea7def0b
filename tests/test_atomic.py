"""Whole writes: a new file appears complete or not at all; dead writers' temp files go."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rubi.core import atomic
from rubi.core.atomic import (
    DEBRIS_AGE_S,
    atomic_write_text,
    create_exclusive,
    host_tag,
    owner_gone,
    sweep_temp_files,
)

posix_only = pytest.mark.skipif(os.name == "nt", reason="kills and pids are POSIX here")


def _temps(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".tmp"))


def _dead_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=30)
    return proc.pid


KILLED_AT = """
import os, signal, sys
from pathlib import Path
from rubi.core import atomic
where, path = sys.argv[1], Path(sys.argv[2])
def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
if where == "publish":
    atomic.os.link = die          # killed with the complete temp file written
else:
    atomic._fsync_dir = die        # killed after the link, before the temp file goes
atomic.create_exclusive(path, "# Complete\\n\\nevery byte of it\\n")
"""


def _killed(where: str, path: Path) -> int:
    """Run :data:`KILLED_AT` to its kill; the dead process's pid."""
    proc = subprocess.Popen([sys.executable, "-c", KILLED_AT, where, str(path)])
    assert proc.wait(timeout=30) == -signal.SIGKILL
    return proc.pid


@posix_only
@pytest.mark.timeout(60)
def test_a_kill_before_publishing_leaves_no_note_and_the_retry_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "notes" / "n.md"
    pid = _killed("publish", path)
    assert not path.exists()  # never an empty or partial note
    [tmp] = _temps(path.parent)
    assert tmp.name.startswith(f".n.md.rubi-{pid}-{host_tag()}-")  # names its owner
    assert create_exclusive(path, "# Complete\n\nevery byte of it\n")
    assert path.read_text(encoding="utf-8") == "# Complete\n\nevery byte of it\n"
    assert _temps(path.parent) == []  # the dead writer's temp file was swept
    assert sorted(p.name for p in path.parent.iterdir()) == ["n.md"]


@posix_only
@pytest.mark.timeout(60)
def test_a_kill_after_publishing_leaves_the_whole_note_and_a_retry_makes_no_twin(
    tmp_path: Path,
) -> None:
    path = tmp_path / "n.md"
    _killed("linked", path)
    assert path.read_text(encoding="utf-8") == "# Complete\n\nevery byte of it\n"
    assert len(_temps(tmp_path)) == 1  # the second name of the note, left by the kill
    # the retry finds its own note (same text): written, not a -2 twin
    assert create_exclusive(path, "# Complete\n\nevery byte of it\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.md"]


def test_a_name_taken_by_a_different_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "n.md"
    assert create_exclusive(path, "first\n")
    assert not create_exclusive(path, "second\n")
    assert path.read_text(encoding="utf-8") == "first\n"
    assert create_exclusive(path, "first\n")  # the same text again: a retry


def test_an_empty_claim_left_by_an_older_rubi_is_filled(tmp_path: Path) -> None:
    path = tmp_path / "n.md"
    path.write_bytes(b"")
    assert create_exclusive(path, "# Filled\n")
    assert path.read_text(encoding="utf-8") == "# Filled\n"


def test_without_hard_links_the_fallback_never_clobbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(atomic.os, "link", no_links)
    path = tmp_path / "n.md"
    assert create_exclusive(path, "one\n")
    assert not create_exclusive(path, "two\n")
    assert path.read_text(encoding="utf-8") == "one\n"
    assert _temps(tmp_path) == []


def test_a_link_error_that_is_not_about_links_is_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "link", full)
    with pytest.raises(OSError, match="No space"):
        create_exclusive(tmp_path / "n.md", "x\n")
    assert list(tmp_path.iterdir()) == []  # neither the note nor its temp file


@pytest.mark.timeout(60)
def test_new_files_are_never_seen_empty_or_partial(tmp_path: Path) -> None:
    """A reader polling the folder opens every new file the moment it appears."""
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time\n"
            "seen, bad, folder = set(), 0, sys.argv[1]\n"
            "end = time.monotonic() + 20\n"
            "while time.monotonic() < end and not os.path.exists(os.path.join(folder, 'STOP')):\n"
            "    for e in os.scandir(folder):\n"
            "        if e.name.endswith('.md') and e.name not in seen:\n"
            "            seen.add(e.name)\n"
            "            with open(e.path, 'rb') as fh:\n"
            "                if not fh.read().endswith(b'END\\n'): bad += 1\n"
            "print(len(seen), bad)\n",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    body = "line\n" * 20_000 + "END\n"  # 100 KB: a write in more than one piece
    for i in range(200):
        assert create_exclusive(tmp_path / f"n{i}.md", body)
    (tmp_path / "STOP").touch()
    out, _ = watcher.communicate(timeout=30)
    seen, bad = map(int, out.split())
    assert seen > 0 and bad == 0


@posix_only
def test_sweep_removes_dead_owners_files_only(tmp_path: Path) -> None:
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        dead = _dead_pid()
        host = host_tag()
        other = "000000" if host != "000000" else "ffffff"
        names = {
            "dead": f".n.md.rubi-{dead}-{host}-0a1b2c3d.tmp",
            "live": f".n.md.rubi-{live.pid}-{host}-0a1b2c3d.tmp",
            "mine": f".n.md.rubi-{os.getpid()}-{host}-0a1b2c3d.tmp",
            "other_host": f".n.md.rubi-{dead}-{other}-0a1b2c3d.tmp",
            "other_host_old": f".m.md.rubi-{dead}-{other}-0a1b2c3d.tmp",
            "legacy_new": ".n.md.abcd_123.tmp",
            "legacy_old": ".n.md.wxyz_123.tmp",
            "legacy_old_unknown_kind": ".n.txt.wxyz_123.tmp",
            "user": "notes.tmp",
        }
        for name in names.values():
            (tmp_path / name).write_text("x")
        old = time.time() - DEBRIS_AGE_S - 60
        for key in ("other_host_old", "legacy_old", "legacy_old_unknown_kind", "user"):
            os.utime(tmp_path / names[key], (old, old))
        removed = {p.name for p in sweep_temp_files(tmp_path, force=True)}
        assert removed == {names["dead"], names["other_host_old"], names["legacy_old"]}
        assert owner_gone(dead, host) and not owner_gone(live.pid, host)
        assert not owner_gone(dead, other)  # another machine's pid says nothing here
    finally:
        live.kill()
        live.wait(timeout=30)


def test_sweep_runs_once_a_minute_per_folder_unless_forced(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "a.md", "a")  # sweeps tmp_path
    stale = tmp_path / ".a.md.abcd_123.tmp"
    stale.write_text("x")
    old = time.time() - DEBRIS_AGE_S - 60
    os.utime(stale, (old, old))
    assert sweep_temp_files(tmp_path) == []  # swept moments ago
    assert sweep_temp_files(tmp_path, force=True) == [stale]


def test_temp_names_stay_within_name_max(tmp_path: Path) -> None:
    name = "é" * 120 + ".md"  # 243 bytes in UTF-8
    atomic_write_text(tmp_path / name, "x")
    assert (tmp_path / name).read_text(encoding="utf-8") == "x"
    assert create_exclusive(tmp_path / ("ü" * 120 + ".md"), "y")


@posix_only
def test_new_files_get_the_usual_mode_and_replaced_files_keep_theirs(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        assert create_exclusive(tmp_path / "new.md", "x")
        atomic_write_text(tmp_path / "other.md", "y")
    finally:
        os.umask(old)
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "other.md").stat().st_mode & 0o777 == 0o640
    (tmp_path / "other.md").chmod(0o604)
    atomic_write_text(tmp_path / "other.md", "z")
    assert (tmp_path / "other.md").stat().st_mode & 0o777 == 0o604


def test_a_replace_is_fsynced_unless_the_caller_says_it_need_not_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    target = tmp_path / "state.json"
    atomic.atomic_write_text(target, "one")
    assert target.read_text() == "one" and len(synced) == 1
    atomic.atomic_write_text(target, "two", durable=False)
    atomic.atomic_write_bytes(target, b"three", expect=b"two", durable=False)
    assert target.read_text() == "three" and len(synced) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]
