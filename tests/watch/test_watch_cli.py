"""``rubi watch`` from the command line: ``--once``, and a real process that picks up
a change, reports it and stops on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import write

STAMP = r"\d\d:\d\d:\d\d"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "v"
    write(v / "a.md", "# Alpha\n\nsee [[b]]\n")
    write(v / "b.md", "# Beta\n\nplain\n")
    return v


def hits(vault: Path, query: str) -> list[str]:
    return [h.id for h in app.search(app.locate(vault), query, refresh=False).hits]


def test_once_catches_up_and_reports_one_line(vault: Path) -> None:
    result = CliRunner().invoke(cli, ["watch", "--once", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        STAMP + r" catch-up: 2 added, 0 updated, 0 deleted notes \(\d+\.\d\d s\)", lines[0]
    )
    assert hits(vault, "plain")[0] == "b"

    write(vault / "c.md", "# Gamma\n\nokapi\n")
    (vault / "a.md").unlink()
    result = CliRunner().invoke(cli, ["watch", "--once", "--vault", str(vault)])
    assert result.exit_code == 0
    assert " catch-up: 1 added, 0 updated, 1 deleted notes (" in result.output
    assert hits(vault, "okapi") == ["c"]


def test_once_prints_index_warnings(vault: Path) -> None:
    write(vault / "bad.md", b"# Bad\n\n\xff\xfe\n")
    result = CliRunner().invoke(cli, ["watch", "--once", "--vault", str(vault)])
    assert result.exit_code == 0
    assert any(line.startswith("warning: bad.md") for line in result.output.splitlines()), (
        result.output
    )


def test_bad_arguments_are_one_clear_line(tmp_path: Path, vault: Path) -> None:
    result = CliRunner().invoke(cli, ["watch", "--debounce-ms", "5", "--vault", str(vault)])
    assert result.exit_code == 2 and "--debounce-ms" in result.output
    result = CliRunner().invoke(cli, ["watch", "--once", "--vault", str(tmp_path / "none")])
    assert result.exit_code != 0 and "none" in result.output


def _read_lines(stream: object, into: list[str]) -> None:
    for line in iter(stream.readline, ""):  # type: ignore[attr-defined]
        into.append(line.rstrip("\n"))


def _wait_for(lines: list[str], pattern: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in list(lines):
            if re.search(pattern, line):
                return line
        time.sleep(0.05)
    raise AssertionError(f"no line matching {pattern!r} in {seconds} s; got {lines}")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_running_watcher_picks_up_a_change_and_stops_on_sigterm(vault: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from rubi.entry import main; main()",
            "watch",
            "--debounce-ms",
            "100",
            "--vault",
            str(vault),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    reader = threading.Thread(target=_read_lines, args=(proc.stderr, lines), daemon=True)
    reader.start()
    try:
        _wait_for(lines, r"^Watching .*v \(Ctrl-C to stop\)$", 30)
        _wait_for(lines, STAMP + r" catch-up: 2 added, 0 updated, 0 deleted notes", 30)
        _wait_for(lines, r"^Listening for changes\.$", 30)
        write(vault / "live.md", "# Live\n\nplatypus\n")
        line = _wait_for(lines, STAMP + r" \d+ changes?: ", 30)
        assert re.fullmatch(
            STAMP + r" \d+ changes?: 1 added, 0 updated, 0 deleted notes \(\d+\.\d\d s\)", line
        ), line
        assert hits(vault, "platypus") == ["live"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=5)
        assert proc.stdout is not None and proc.stderr is not None
        stdout = proc.stdout.read()
        proc.stdout.close()
        proc.stderr.close()
    assert lines[-1] == "Stopped."
    assert stdout == ""


def test_a_batch_reports_its_own_files_warnings_not_the_vaults() -> None:
    from rubi.cli.watchcmds import MAX_WARNINGS_SHOWN, report_lines
    from rubi.core.model import ScanWarning
    from rubi.sync import IndexReport
    from rubi.watch import Batch

    old = [ScanWarning(f"old{i}.md", "not UTF-8") for i in range(30)]
    result = IndexReport(updated=1, warnings=[*old, ScanWarning("new.md", "bad frontmatter")])
    lines = report_lines(Batch({"new.md"}, events=1), result, "12:00:00")
    assert lines == [
        "12:00:00 1 change: 0 added, 1 updated, 0 deleted notes (0.00 s)",
        "warning: new.md: bad frontmatter",
    ]
    catch_up = report_lines(Batch(events=0), result, "12:00:00")
    assert len(catch_up) == 1 + MAX_WARNINGS_SHOWN + 1
    assert catch_up[-1] == "warning: … and 21 more; `rubi doctor` lists them all"
    code = IndexReport(code_changed=2, code_deleted=1)
    assert report_lines(Batch(events=3), code, "12:00:00") == [
        "12:00:00 3 changes: 0 added, 0 updated, 0 deleted notes; code files 2 changed, "
        "1 deleted (0.00 s)"
    ]
    gone = IndexReport(code_deleted=1)
    assert report_lines(Batch(events=2), gone, "12:00:00")[0].endswith(
        "; code files 1 deleted (0.00 s)"
    )


def test_the_echo_of_the_watchers_own_map_page_write_prints_nothing() -> None:
    """A decision saved rewrites ``map.md``; the event of that write comes back as a
    batch that changes nothing. It printed "1 change: 0 added, 0 updated, 0 deleted
    notes" after every such save; a user's edit of the page is still reported."""
    from rubi.cli.watchcmds import report_lines
    from rubi.sync import IndexReport
    from rubi.watch import Batch

    written: set[str] = set()
    saved = IndexReport(added=1, pages_written=["map.md"])
    first = report_lines(Batch({"notes/decision-a.md"}, events=1), saved, "12:00:00", None, written)
    assert first == ["12:00:00 1 change: 1 added, 0 updated, 0 deleted notes (0.00 s)"]
    assert report_lines(Batch({"map.md"}, events=1), IndexReport(), "12:00:01", None, written) == []
    edited = report_lines(
        Batch({"map.md"}, events=1), IndexReport(updated=1), "12:00:02", None, written
    )
    assert edited == ["12:00:02 1 change: 0 added, 1 updated, 0 deleted notes (0.00 s)"]
    other = report_lines(Batch({"notes/b.md"}, events=1), IndexReport(), "12:00:03", None, written)
    assert other == ["12:00:03 1 change: 0 added, 0 updated, 0 deleted notes (0.00 s)"]


def test_a_badly_named_file_is_warned_about_once_per_name(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A saved file whose name holds a line break or control character gets one warning
    line under its escaped name, however often it is saved, as `rubi index` says it."""
    import contextlib

    from watchfiles import Change

    import rubi.engine.server
    import rubi.watch

    app.index(app.locate(vault))
    broken = write(vault / "two\nlines.md", "# Two\n")
    escape = write(vault / "esc\x1b[31m.md", "# Esc\n")
    later = write(vault / "later\tname.md", "# Later\n")
    batches = [
        {(Change.added, str(broken)), (Change.added, str(escape))},
        {(Change.modified, str(broken))},
        {(Change.modified, str(escape)), (Change.added, str(later))},
        {(Change.modified, str(later))},
    ]
    real_watch = rubi.watch.watch

    def scripted(paths: object, **kwargs: object) -> int:
        kwargs.update(changes=batches, catch_up=False, once=False)
        return real_watch(paths, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rubi.watch, "watch", scripted)
    monkeypatch.setattr(rubi.engine.server, "running", lambda paths: contextlib.nullcontext())
    result = CliRunner().invoke(cli, ["watch", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    control = "file name holds a line break or control character; skipped: rename it"
    assert sorted(warnings) == sorted(
        f"warning: {name}: {control}"
        for name in ("two\\nlines.md", "esc\\x1b[31m.md", "later\\tname.md")
    )
    assert "\x1b" not in result.output
