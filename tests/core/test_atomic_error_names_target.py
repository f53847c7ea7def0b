"""A write that fails names the file being written, not its hidden temp file: a user
on a read-only `.rubi/` read `.gotcha-ro-test.md.rubi-24338-5bce98-46eb781e.tmp:
Read-only file system`."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from rubi.core import atomic
from rubi.core.errors import os_error_line


def test_a_failed_write_names_the_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "notes" / "gotcha-ro-test.md"
    real_open = os.open

    def read_only(name: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(name).endswith(".tmp"):
            raise OSError(errno.EROFS, "Read-only file system", os.fspath(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", read_only)
    with pytest.raises(OSError) as raised:
        atomic.atomic_write_text(target, "x")
    assert os_error_line(raised.value) == f"{target}: Read-only file system"
    assert not target.exists()


def test_another_file_named_in_the_error_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*_args: Any, **_kwargs: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", "/elsewhere/journal")

    monkeypatch.setattr(atomic.os, "open", failing)
    with pytest.raises(OSError) as raised:
        atomic.atomic_write_text(tmp_path / "a.md", "x")
    assert raised.value.filename == "/elsewhere/journal"


def test_a_full_disk_names_the_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk fails the write (or fsync), whose error names no file: the user
    read a bare `No space left on device`."""
    target = tmp_path / "a.md"

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError) as raised:
        atomic.atomic_write_text(target, "x")
    assert os_error_line(raised.value) == f"{target}: No space left on device"
    assert not target.exists() and list(tmp_path.iterdir()) == []  # no temp file left
