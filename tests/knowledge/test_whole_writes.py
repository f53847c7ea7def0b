"""Notes appear whole; kills leave nothing a restart does not clean; retries make no twin."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.markdown import parse_note

posix_only = pytest.mark.skipif(os.name == "nt", reason="SIGKILL and pids are POSIX here")

ITEM = {"type": "gotcha", "title": "Pool exhaustion under load", "body": "Raise the pool. END"}

KILLED_REGISTER = """
import os, signal, sys
from rubi import app
from rubi.core import atomic
def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
if sys.argv[2] == "publish":
    atomic.os.link = die           # the note's temp file is complete, not yet published
else:
    atomic._fsync_dir = die         # published; its temp name not yet removed
app.register(app.locate(sys.argv[1]), [ITEM])
""".replace("ITEM", repr(ITEM))


def _debris(vault: VaultPaths) -> list[str]:
    """Temp files and build folders anywhere in the vault or its index folder."""
    found = []
    for base in (vault.root, vault.index_dir):
        for p in base.rglob("*"):
            if p.name.endswith(".tmp") or re.search(r"\.(building|old)-", p.name):
                found.append(str(p))
    return found


def _killed_register(vault: VaultPaths, where: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", KILLED_REGISTER, str(vault.root), where])
    assert proc.wait(timeout=120) == -signal.SIGKILL


@posix_only
@pytest.mark.timeout(120)
def test_a_register_killed_before_publishing_is_retried_into_one_note(vault: VaultPaths) -> None:
    _killed_register(vault, "publish")
    assert list((vault.root / "notes").glob("*.md")) == []  # no empty or partial note
    assert _debris(vault)  # the complete temp file the kill left
    [r] = app.register(vault, [ITEM])
    assert r.action == "created"
    assert [p.name for p in (vault.root / "notes").glob("*.md")] == [Path(r.path).name]
    assert "Raise the pool. END" in (vault.root / r.path).read_text(encoding="utf-8")
    assert _debris(vault) == []


@posix_only
@pytest.mark.timeout(120)
def test_a_register_killed_after_publishing_is_retried_without_a_twin(vault: VaultPaths) -> None:
    _killed_register(vault, "linked")
    [written] = (vault.root / "notes").glob("*.md")
    parse_note(written.read_text(encoding="utf-8"), written.name)  # whole
    [r] = app.register(vault, [ITEM])
    assert r.action == "merged" and r.path == f"notes/{written.name}"
    assert [p.name for p in (vault.root / "notes").glob("*.md")] == [written.name]
    assert _debris(vault) == []


def test_an_empty_note_left_by_an_older_rubi_is_filled_not_twinned(vault: VaultPaths) -> None:
    [r] = app.register(vault, [ITEM])
    path = vault.root / r.path
    path.write_bytes(b"")  # what a kill inside the old claim-then-fill left
    [again] = app.register(vault, [ITEM])
    assert again.path == r.path and again.action == "created"
    assert "Raise the pool. END" in path.read_text(encoding="utf-8")
    assert [p.name for p in path.parent.glob("*.md")] == [path.name]


WRITER = """
import secrets, sys
from rubi import app
vault = app.locate(sys.argv[1])
while True:
    title = f"Entry {secrets.token_hex(6)} of writer {sys.argv[2]} done"
    [r] = app.register(vault, [{"type": "note", "title": title, "body": f"Body of {title}. END"}])
    print(r.path, flush=True)
"""

APPENDER = """
import os, sys, time
folder, stop = sys.argv[1], sys.argv[2]
seen = set()
os.makedirs(folder, exist_ok=True)
deadline = time.monotonic() + 200
while time.monotonic() < deadline and not os.path.exists(stop):
    for entry in os.scandir(folder):
        if entry.name.endswith(".md") and entry.name not in seen:
            seen.add(entry.name)
            with open(entry.path, "a", encoding="utf-8") as fh:  # the moment it appears
                fh.write("\\nappended by a sync tool\\n")
            print(entry.name, flush=True)
"""


@posix_only
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_writers_appender_and_kills_leave_whole_notes_and_no_debris(vault: VaultPaths) -> None:
    notes = vault.root / "notes"
    stop = vault.root.parent / "STOP"
    appender = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(notes), str(stop)], stdout=subprocess.PIPE, text=True
    )

    def writer(n: int) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", WRITER, str(vault.root), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    app.index(vault)  # the first index run is a full one: not part of the race
    rng = random.Random(5)
    writers = [writer(n) for n in range(3)]
    finished: list[subprocess.Popen[str]] = []
    kills = 0
    # At least 8 kills and 12 notes (a loaded machine starts writers slowly), at most 90 s.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (kills < 8 or len(list(notes.glob("*.md"))) < 12):
        time.sleep(rng.uniform(0.3, 1.2))
        victim = writers.pop(rng.randrange(len(writers)))
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        finished.append(victim)
        kills += 1
        writers.append(writer(len(finished) + 3))
    for w in writers:
        w.send_signal(signal.SIGKILL)
        w.wait(timeout=30)
        finished.append(w)
    confirmed = [line for w in finished for line in w.communicate(timeout=30)[0].split()]

    # The restart: a new process registers one more note.
    restart = subprocess.run(
        [
            sys.executable,
            "-c",
            WRITER.replace("while True", "for _ in range(1)"),
            str(vault.root),
            "R",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restart.returncode == 0, restart.stderr
    confirmed += restart.stdout.split()
    time.sleep(0.3)  # let the appender see the last note
    stop.touch()
    appended = set(appender.communicate(timeout=60)[0].split())

    files = {p.name: p.read_text(encoding="utf-8") for p in notes.glob("*.md")}
    assert kills >= 8 and len(files) >= 12 and confirmed
    for rel in confirmed:
        assert Path(rel).name in files, rel  # nothing confirmed was lost
    for name, text in files.items():
        note = parse_note(text, name)  # strict: every note is whole and parses
        assert note.title.startswith("Entry ") and f"Body of {note.title}. END" in text, name
        assert not re.search(r"-\d+\.md$", name), name  # no twin
    assert appended == set(files)  # the appender saw every note...
    for name in appended:  # ...and no append was lost to a later rename
        assert files[name].count("appended by a sync tool") == 1, name
    assert _debris(vault) == []


def test_a_handoff_saved_again_after_a_crash_is_one_file(vault: VaultPaths) -> None:
    from rubi.knowledge.handoff import save_handoff

    first = save_handoff(vault, "Ship login", "Tests green", ["Open the PR"], now=1_800_000_000)
    again = save_handoff(vault, "Ship login", "Tests green", ["Open the PR"], now=1_800_000_000)
    other = save_handoff(vault, "Ship login", "Tests red", now=1_800_000_000)
    assert again.path == first.path and other.path != first.path
    assert len(list((vault.root / "handoffs").glob("*.md"))) == 2
