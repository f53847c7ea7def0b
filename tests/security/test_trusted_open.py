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


def test_the_index_files_are_checked_one_by_one_as_a_whole_check_would(tmp_path: Path) -> None:
    """``check_trusted_files`` resolves the folder once and checks each plain file's own
    status; each refusal is still :func:`check_trusted`'s: a FIFO, a file others may
    write, a symlink leading out of the cache (a symlink inside it is followed)."""
    from rubi.core.paths import cache_home
    from rubi.core.picklefiles import UntrustedCacheError, check_trusted_files

    folder = cache_home() / "indexes" / "v-files" / "whoosh"
    folder.mkdir(parents=True)
    for name in ("_MAIN_1.toc", "MAIN_a.seg", "notes.txt"):
        (folder / name).write_bytes(b"x")
        (folder / name).chmod(0o600)
    (folder / "MAIN_b.seg").symlink_to(folder / "MAIN_a.seg")
    check_trusted_files(folder, (".toc", ".seg"))

    (folder / "notes.txt").chmod(0o666)  # not an index file: never looked at
    check_trusted_files(folder, (".toc", ".seg"))

    (folder / "MAIN_a.seg").chmod(0o620)
    with pytest.raises(UntrustedCacheError, match="another user"):
        check_trusted_files(folder, (".toc", ".seg"))
    (folder / "MAIN_a.seg").chmod(0o600)

    os.mkfifo(folder / "MAIN_c.seg", 0o600)
    with pytest.raises(UntrustedCacheError, match="not a regular file"):
        check_trusted_files(folder, (".toc", ".seg"))
    (folder / "MAIN_c.seg").unlink()

    outside = tmp_path / "elsewhere.seg"
    outside.write_bytes(b"x")
    outside.chmod(0o600)
    (folder / "MAIN_d.seg").symlink_to(outside)
    with pytest.raises(UntrustedCacheError, match="outside the rubi cache"):
        check_trusted_files(folder, (".toc", ".seg"))
    (folder / "MAIN_d.seg").unlink()

    away = tmp_path / "away"
    away.mkdir()
    (away / "_MAIN_1.toc").write_bytes(b"x")
    (away / "_MAIN_1.toc").chmod(0o600)
    with pytest.raises(UntrustedCacheError, match="outside the rubi cache"):
        check_trusted_files(away, (".toc", ".seg"))
    check_trusted_files(away, (".pickle",))  # nothing of its kind there: nothing refused
