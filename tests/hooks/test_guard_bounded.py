"""The Read guard reads only what its answer needs: a huge (sparse) log, a file with no
newline, a long file under the byte limit are decided after a bounded read, and a FIFO
is never opened for a read that would wait."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi.claude.hooks import guard

pytestmark = pytest.mark.timeout(60)

HUGE = 4 * 1024**3
"""The size of the sparse files (bytes): reading one whole takes seconds."""
BOUND = 8 * 1024 * 1024
"""What a guard decision may read at most (bytes), with room for the hook's own files."""


def _bytes_read() -> int:
    """Bytes this process has read so far (``rchar`` of ``/proc/self/io``: every read
    system call, whatever its caller)."""
    with open("/proc/self/io", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def _sparse(path: Path, head: bytes, size: int) -> Path:
    """``head`` then a hole up to ``size`` bytes; skips when the file system stores the
    hole (it would fill the disk)."""
    path.write_bytes(head)
    os.truncate(path, size)
    if os.stat(path).st_blocks * 512 >= size // 2:
        path.unlink()
        pytest.skip("the file system of tmp_path has no sparse files")
    return path


def _read(project: Path, path: Path) -> dict[str, object] | None:
    payload = base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(path)})
    return hook("PreToolUse", payload)


needs_proc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists("/proc/self/io"),
    reason="counts the bytes read through /proc/self/io (Linux)",
)


@needs_proc
@pytest.mark.parametrize(
    "head",
    [b"2024-01-01 started\n" * 1000, b"{" + b'"key": "value", ' * 1000],
    ids=["log-with-lines", "no-newline"],
)
def test_a_huge_sparse_file_is_denied_after_a_bounded_read(
    project: Path, tmp_path: Path, head: bytes
) -> None:
    big = _sparse(tmp_path / "huge.log", head, HUGE)
    before = _bytes_read()
    out = _read(project, big)
    spent = _bytes_read() - before
    assert spent <= BOUND, f"read {spent:,} bytes of a {HUGE:,}-byte file"
    assert out is not None
    spec = out["hookSpecificOutput"]
    assert isinstance(spec, dict)
    assert spec["permissionDecision"] == "deny"
    assert "huge.log is large (4,294,967 KB)" in str(spec["permissionDecisionReason"])


def test_a_long_file_under_the_byte_limit_is_read_up_to_the_first_line_too_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = tmp_path / "many.txt"
    many.write_bytes(b"\n" * 70_000)  # 70 KB, 70,000 lines: over 800 lines, under 80 KB
    reads: list[int] = []
    real_read = os.read

    def counted(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        reads.append(len(data))
        return data

    monkeypatch.setattr(guard.os, "read", counted)
    measured = guard.measure(str(many), 800, 80_000)
    assert measured is not None
    size, lines = measured
    assert size == 70_000 and 800 < lines < 70_000
    assert sum(reads) < 70_000


def test_line_counts_are_exact_within_the_count_budget(tmp_path: Path) -> None:
    text = tmp_path / "big.py"
    text.write_bytes(b"x = 1\n" * 100_000)  # 600 KB
    assert guard.measure(str(text), 800, 80_000) == (600_000, 100_000)
    small = tmp_path / "small.py"
    small.write_bytes(b"x = 1\n" * 10)
    assert guard.measure(str(small), 800, 80_000) == (60, 0)  # too small to count


def test_a_fifo_is_passed_without_waiting_for_a_writer(project: Path, tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    assert guard.measure(str(fifo), 800, 80_000) is None
    assert _read(project, fifo) is None


def test_a_count_that_stopped_at_the_limit_is_said_as_a_lower_bound(project: Path) -> None:
    """Under the byte limit the guard stops counting past the line limit: the denial
    says "more than" the limit, never the partial count as the file's length."""
    long = project / "numbers.txt"
    long.write_text("".join(f"{i}\n" for i in range(1, 5001)), encoding="utf-8")
    (project / ".rubi" / "config.toml").write_text(
        "[hooks]\nguard_max_lines = 800\n", encoding="utf-8"
    )
    out = _read(project, long)
    assert out is not None
    spec = out["hookSpecificOutput"]
    assert isinstance(spec, dict)
    reason = str(spec["permissionDecisionReason"])
    assert "more than 800 lines" in reason and "5,000" not in reason
    assert not any(f"{n:,} lines" in reason for n in range(801, 5001))
