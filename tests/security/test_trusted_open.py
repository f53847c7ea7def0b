"""Derived files are trusted on the file opened, not on a name checked earlier: a FIFO
or another user's file swapped in between a check and the open is refused without
blocking."""

from __future__ import annotations

import logging
import os
import pickle
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")

_FIFOS: list[Path] = []  # FIFOs a blocked reader may wait on


def _swap_to_fifo_after_the_name_check(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make every name check (``os.stat``) see a regular file while ``path`` is a FIFO:
    the state a swap between the check and the open leaves."""
    regular = path.with_name("regular")
    regular.write_bytes(pickle.dumps("fine"))
    regular.chmod(0o600)
    os.mkfifo(path, 0o600)
    _FIFOS.append(path)
    real_stat = os.stat

    def stat_as_if_regular(p: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(p) == str(path):
            return real_stat(regular)
        return real_stat(p, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat_as_if_regular)


def _call_without_blocking(fn: object, arg: object) -> BaseException | object:
    """Call ``fn(arg)`` in a thread; a reader left blocked on the FIFO is released by
    opening its writing end, so the test fails instead of hanging."""
    result: list[object] = []

    def run() -> None:
        try:
            result.append(fn(arg))  # type: ignore[operator]
        except BaseException as exc:  # handed back to the test
            result.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5.0)
    if thread.is_alive():
        for fifo in _FIFOS:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        thread.join(5.0)
        pytest.fail(f"{fn!r} blocked on a FIFO swapped in after the check")
    return result[0]


def test_load_pickle_refuses_a_fifo_swapped_in_after_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rubi.core.paths import cache_home
    from rubi.core.picklefiles import UntrustedCacheError, load_pickle

    path = cache_home() / "indexes" / "v-swap" / "graph.pickle"
    path.parent.mkdir(parents=True)
    _swap_to_fifo_after_the_name_check(monkeypatch, path)
    outcome = _call_without_blocking(load_pickle, path)
    assert isinstance(outcome, UntrustedCacheError)
    assert outcome.reason == "not a regular file"


def test_the_code_map_memory_is_not_read_from_a_fifo_swapped_in_after_the_check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from rubi import app
    from rubi.sync.memorystore import load_memory, memory_file

    (tmp_path / "project" / ".rubi").mkdir(parents=True)
    paths = app.locate(tmp_path / "project" / ".rubi")
    path = memory_file(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    _swap_to_fifo_after_the_name_check(monkeypatch, path)
    with caplog.at_level(logging.WARNING, logger="rubi"):
        assert _call_without_blocking(load_memory, paths) is None
    assert "not a regular file" in caplog.text


def test_open_trusted_reads_and_writes_a_user_cache_file() -> None:
    from rubi.core.paths import cache_home
    from rubi.core.picklefiles import open_trusted

    path = cache_home() / "indexes" / "v-ok" / "graph.flat"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"abc")
    path.chmod(0o600)
    with open_trusted(path) as fh:
        assert fh.read() == b"abc"
    with open_trusted(path, write=True) as fh:
        fh.seek(1)
        fh.write(b"X")
    assert path.read_bytes() == b"aXc"
    with pytest.raises(FileNotFoundError):
        open_trusted(path.with_name("missing"))
