"""A repository whose committed ``.rubi/`` is hostile, cloned and used as a user would.

The committed tree holds a malicious pickle under every derived-data file name rubi
has ever read from ``.rubi/.index/`` (and a Whoosh table of contents, itself a
pickle), plus two notes whose ``commit:`` values would make ``git show`` write a
``core.fsmonitor`` command into ``.git/config``. Every surface runs on the clone:
``rubi search``, ``rubi index``, the SessionStart hook, one MCP call over stdio and a
short ``rubi watch``. Nothing may run: no marker file appears, ``.git/config`` is
byte-identical, and search still answers.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from codemap.codemap_helpers import git
from mcp import Client, StdioServerParameters

from helpers import write

RUBI = str(Path(sys.executable).with_name("rubi"))

LEGACY_DERIVED = (
    "manifest.pickle",
    "state.pickle",
    "notes.pickle",
    "graph.pickle",
    "codemap.pickle",
    "stale.pickle",
    "whoosh/_MAIN_1.toc",
    "whoosh/_MAIN_7.toc",
)
"""Every file name rubi ever unpickled from ``<vault>/.index/`` (from the history of
``paths.py``), and the Whoosh tables of contents."""


class _Exploit:
    """Unpickling this runs ``exec(code)``."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __reduce__(self) -> tuple[Any, ...]:
        return (exec, (self.code,))


def _payload(marker: Path, name: str) -> bytes:
    code = f"open({str(marker)!r} + '-' + {name!r}.replace('/', '_'), 'w').write('pwned')"
    return pickle.dumps(_Exploit(code))


@pytest.fixture
def hostile_clone(tmp_path: Path) -> tuple[Path, Path]:
    """(the clone, the folder where markers would appear)."""
    markers = tmp_path / "markers"
    markers.mkdir()
    origin = tmp_path / "origin"
    write(origin / "src" / "app.py", "def serve_requests():\n    return 'ok'\n")
    write(
        origin / ".rubi" / "notes" / "decision-serve.md",
        "---\ntype: decision\nfiles: [src/app.py]\ncommit: --output=.git/config\n---\n"
        "# Serve requests with a thread pool\n\nThreadpoolword keeps latency flat.\n",
    )
    fsmonitor = f"touch {markers / 'fsmonitor'}"
    write(
        origin / ".rubi" / "notes" / "gotcha-format.md",
        "---\ntype: gotcha\nfiles: [src/app.py]\n"
        f'commit: "--format=[core]%n\\tfsmonitor = {fsmonitor}%n"\n---\n'
        "# Requests time out under load\n\nRaise the pool size.\n",
    )
    write(origin / ".rubi" / ".gitignore", "")  # a repository that commits .index/ anyway
    for name in LEGACY_DERIVED:
        write(origin / ".rubi" / ".index" / name, _payload(markers / "pickle", name))
    write(origin / ".rubi" / ".index" / "hooks" / "s1.json", json.dumps({"explorations": 99}))
    git(origin, "init", "-q")
    git(origin, "add", "-A", "-f")
    git(origin, "commit", "-qm", "hostile")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True, timeout=60)
    assert (clone / ".rubi" / ".index" / "graph.pickle").is_file()
    return clone, markers


def _rubi(clone: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RUBI, *args],
        cwd=clone,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_every_surface_on_a_hostile_clone_runs_nothing(hostile_clone: tuple[Path, Path]) -> None:
    clone, markers = hostile_clone
    config_before = (clone / ".git" / "config").read_bytes()

    found = _rubi(clone, "search", "thread pool latency", "--json")
    assert found.returncode == 0, found.stderr
    assert "decision-serve" in found.stdout  # search still answers

    indexed = _rubi(clone, "index")
    assert indexed.returncode == 0, indexed.stderr

    payload = {
        "session_id": "s1",
        "transcript_path": str(clone / "none.jsonl"),
        "cwd": str(clone),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    hooked = _rubi(clone, "hook", "SessionStart", stdin=json.dumps(payload))
    assert hooked.returncode == 0 and hooked.stderr == ""

    async def one_call() -> Any:
        params = StdioServerParameters(command=RUBI, args=["serve", "--project", str(clone)])
        async with Client(params, mode="legacy") as client:
            return await client.call_tool("search", {"query": "requests time out"})

    result = asyncio.run(asyncio.wait_for(one_call(), 60))
    assert "gotcha-format" in json.dumps(result.model_dump(mode="json"))

    write(clone / ".rubi" / "notes" / "note-new.md", "# Fresh note\n\nwatchword\n")
    watcher = subprocess.Popen(
        [RUBI, "watch"], cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        time.sleep(4)
    finally:
        watcher.send_signal(signal.SIGINT)
        try:
            watcher.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            watcher.kill()
            watcher.communicate()
    assert "note-new" in _rubi(clone, "search", "watchword", "--json").stdout

    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""  # no committed file was changed (map pages are new files)
    assert sorted(os.listdir(markers)) == []
    assert (clone / ".git" / "config").read_bytes() == config_before

    doctor = _rubi(clone, "doctor")
    assert ".index/" in doctor.stdout and "delete" in doctor.stdout


@pytest.mark.timeout(120)
def test_a_committed_index_is_never_opened_in_process(
    hostile_clone: tuple[Path, Path],
) -> None:
    from rubi import app

    clone, markers = hostile_clone
    paths = app.locate(clone / ".rubi")
    assert not paths.index_dir.is_relative_to(clone)
    assert [h.id for h in app.search(paths, "threadpoolword").hits][:1] == ["notes/decision-serve"]
    assert os.listdir(markers) == []


@pytest.mark.timeout(60)
def test_load_pickle_refuses_anything_outside_the_user_cache(tmp_path: Path) -> None:
    from rubi.core.paths import cache_home
    from rubi.core.picklefiles import UntrustedCacheError, load_pickle

    marker = tmp_path / "m"
    planted = write(tmp_path / "vault" / ".index" / "graph.pickle", _payload(marker, "x"))
    with pytest.raises(UntrustedCacheError, match="never loaded"):
        load_pickle(planted)
    # A symlink inside the cache that points at a planted file is outside too.
    link = cache_home() / "indexes" / "v-1" / "graph.pickle"
    link.parent.mkdir(parents=True)
    link.symlink_to(planted)
    with pytest.raises(UntrustedCacheError):
        load_pickle(link)
    # A file in the cache that others may write is refused as well.
    shared = write(cache_home() / "indexes" / "v-2" / "graph.pickle", _payload(marker, "y"))
    shared.chmod(0o666)
    with pytest.raises(UntrustedCacheError, match="another user"):
        load_pickle(shared)
    assert not list(tmp_path.glob("m-*"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.timeout(60)
def test_load_pickle_refuses_a_fifo_in_the_user_cache_without_blocking() -> None:
    from rubi.core.paths import cache_home
    from rubi.core.picklefiles import UntrustedCacheError, load_pickle

    fifo = cache_home() / "indexes" / "v-3" / "graph.pickle"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo, 0o600)  # opening it to read would wait for a writer forever
    with pytest.raises(UntrustedCacheError, match="not a regular file"):
        load_pickle(fifo)


@pytest.mark.timeout(60)
def test_git_never_gets_an_option_from_a_note(tmp_path: Path) -> None:
    from rubi.core.gitrepo import changes_since

    repo = tmp_path / "r"
    write(repo / "a.txt", "a\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    before = (repo / ".git" / "config").read_bytes()
    sha = git(repo, "rev-parse", "HEAD").strip()
    hostile = ["--output=.git/config", "--format=[core]%n\tfsmonitor = touch x%n", "-p", "HEAD~0"]
    assert changes_since(repo, hostile) == {}
    assert changes_since(repo, [*hostile, sha[:10]]) == {sha[:10]: set()}
    assert (repo / ".git" / "config").read_bytes() == before
    assert not (repo / "x").exists()
