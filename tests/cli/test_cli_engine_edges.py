"""``rubi search`` and ``rubi read`` through the engine when things go wrong: a closed
pipe, Ctrl-C. Each ends with one line, as cold, never a traceback."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import entry
from rubi.engine import client

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder (Unix socket paths are limited to ~104 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="rt"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.delenv("RUBI_ENGINE", raising=False)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a ``.rubi`` vault (empty: only fake engines answer here), the
    current folder."""
    root = tmp_path / "proj"
    (root / ".rubi").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


class _Stream(io.TextIOWrapper):
    """A UTF-8 text stream over ``raw``, as ``sys.stdout`` is."""

    def __init__(self, raw: io.RawIOBase | io.BufferedIOBase) -> None:
        super().__init__(raw, encoding="utf-8", errors="strict")  # type: ignore[arg-type]


def _stderr() -> tuple[_Stream, io.BytesIO]:
    raw = io.BytesIO()
    return _Stream(raw), raw


def test_a_closed_pipe_is_one_line_as_cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rubi search ... | head``: cold says ``Error: Broken pipe`` with status 1."""
    monkeypatch.setattr(client, "cli_via_engine", lambda *a, **k: ("hits\n", "", 0))
    read_fd, write_fd = os.pipe()
    os.close(read_fd)  # the reader is gone: writing raises BrokenPipeError
    stderr, err = _stderr()
    with open(write_fd, "wb", buffering=0) as raw, _Stream(raw) as stdout:
        assert entry._command(["search", "x"], stdout, stderr) == 1
    assert err.getvalue() == b"Error: Broken pipe\n"


def test_ctrl_c_while_the_engine_works_says_aborted(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(client, "cli_via_engine", interrupted)
    stdout, out = _stderr()
    stderr, err = _stderr()
    assert entry._command(["search", "x"], stdout, stderr) == 1
    assert err.getvalue() == b"\nAborted!\n" and out.getvalue() == b""
