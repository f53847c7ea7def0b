"""Helpers shared by tests: paths of the real data, copying vaults, writing files."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("RUBI_SHARED_DATA", REPO.parent / "shared" / "data"))
VAULTS = SHARED_DATA / "vaults"


TEARDOWN_MARKS = """
import atexit, sys
marks = sys.argv[1]

class TornDown:
    def __init__(self):
        self.write = open(marks, "a", encoding="utf-8").write

    def __del__(self):  # runs when the interpreter frees this module's globals
        self.write("teardown\\n")

atexit.register(lambda: open(marks, "a", encoding="utf-8").write("atexit\\n"))
"""
"""The start of a ``python -c`` script that tells how its process ended, in the file
named by its first argument: ``atexit`` when the exit functions ran, ``teardown`` when
the interpreter freed a ``TornDown`` object kept in the script's globals (its usual
exit; not after :func:`rubi.core.quickexit.leave`)."""


def load_script(rel: str) -> ModuleType:
    """The repository's script at ``rel`` (``bench/locomo.py``) imported as a module
    named after its file (registered in ``sys.modules``: dataclasses look their module
    up there)."""
    import importlib.util
    import sys

    name = Path(rel).stem
    spec = importlib.util.spec_from_file_location(name, REPO / rel)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def require_data(path: Path) -> Path:
    """``path`` from the shared data; a test without it is skipped on a developer's
    machine and fails in CI (``CI`` set), so the suite cannot shrink quietly."""
    if path.exists():
        return path
    message = f"{path} not present (set RUBI_SHARED_DATA to the shared data folder)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def copy_vault(name: str, dest: Path) -> Path:
    """Copy a real vault from the shared data into ``dest`` (writable)."""
    src = require_data(VAULTS / name)
    target = dest / name
    shutil.copytree(src, target)
    for p in [target, *target.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    return target


def write(path: Path, text: str | bytes) -> Path:
    """Write a file, creating folders (bytes as they are, text as UTF-8)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def language_vault(
    tmp_path: Path, pages: dict[str, str], filler: str, count: int, prefix: str = "p"
) -> Path:
    """A vault folder ``tmp_path / "v"`` of ``pages`` (name → text) and ``count`` pages
    of the vault's common words (``{prefix}00.md`` …), each ``filler`` formatted with
    its number ``i``: the shape of the floor's and the compounds' language tests."""
    vault = tmp_path / "v"
    for name, text in pages.items():
        write(vault / f"{name}.md", text)
    for i in range(count):
        write(vault / f"{prefix}{i:02d}.md", filler.format(i=i))
    return vault


def rubi_project(root: Path, files: dict[str, str]) -> Path:
    """A committed git repository holding ``files`` (path → text), with ``rubi init``
    done: the shape of every project test."""
    from codemap.codemap_helpers import git
    from rubi import app

    for rel, text in files.items():
        write(root / rel, text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    app.init_project(root)
    return root


# Folders of the repository that tools (not tests) write to: the venv, caches of
# Python, pytest, ruff, mypy and the benchmarks, and git's own.
_TOOL_DIRS = frozenset(
    {
        ".git",
        ".venv",
        "__pycache__",
        ".pytest_cache",
        ".ruff_cache",
        ".mypy_cache",
        ".benchmarks",
        ".hypothesis",
        "htmlcov",
    }
)
# Outside CI, colleagues edit, save, add and delete files here while the suite runs.
_SOURCE_DIRS = ("src/", "tests/", "docs/", "bench/")


def store_generation(paths: Any) -> int:
    """The generation of the vault's row store (``paths``: its
    :class:`rubi.core.paths.VaultPaths`); the store must exist."""
    from rubi.sync.rows import open_store

    store = open_store(paths.store_file, create=False)
    assert store is not None
    try:
        return store.gen()
    finally:
        store.close()


def notes_vault(root: Path, notes: dict[str, str]) -> Any:
    """A plain vault (no project) at ``root`` holding ``notes`` (path relative to
    ``root`` → markdown), located: its :class:`rubi.core.paths.VaultPaths`."""
    from rubi import app

    for rel, text in notes.items():
        write(root / rel, text)
    return app.locate(root)


def filler_notes(count: int) -> dict[str, str]:
    """``count`` notes about nothing a test asks (``cmd{i}.md``: "Command number i
    copies folders."), for :func:`notes_vault`: the bulk that makes a word rare."""
    return {f"cmd{i}.md": f"# cmd{i}\n\nCommand number {i} copies folders.\n" for i in range(count)}


def login_project(root: Path, code: str = "def login():\n    pass\n") -> Path:
    """A project at ``root`` with ``src/auth.py`` (``code``), a gotcha about login
    tokens that names it and a decision, indexed: what the engine tests ask about."""
    from rubi import app

    write(root / "src" / "auth.py", code)
    app.init_project(root)
    app.register(
        app.locate(root / ".rubi"),
        [
            {
                "type": "gotcha",
                "title": "Login tokens expire at midnight UTC",
                "body": "Refresh the login token before midnight UTC or the session drops.",
                "files": ["src/auth.py"],
            },
            {"type": "decision", "title": "Use SQLite for the cache", "body": "No server."},
        ],
    )
    app.index(app.locate(root / ".rubi"))
    return root


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """(mtime in ns, size in bytes) of every file under ``root``, and every folder
    (recorded as present, (0, 0)), keyed by POSIX path relative to it, tool folders
    (``__pycache__``, caches) left out. Symlinks are recorded, not followed. A
    folder's own mtime is not compared: Python writing ``__pycache__/`` into a source
    folder (any subprocess importing rubi) changes it, and entries added or removed
    show up as paths anyway."""
    state: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root)
        dirnames[:] = [d for d in dirnames if d not in _TOOL_DIRS and not d.endswith(".egg-info")]
        for name in dirnames:
            state[(rel_dir / name).as_posix()] = (0, 0)
        for name in filenames:
            if name.startswith(".coverage"):  # pytest-cov's data file
                continue
            try:
                st = Path(dirpath, name).lstat()
            except OSError:
                continue
            state[(rel_dir / name).as_posix()] = (st.st_mtime_ns, st.st_size)
    return state


def tree_changes(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]], *, strict: bool
) -> list[str]:
    """What differs between two :func:`tree_state` readings: ``+ path``, ``- path`` and
    ``~ path`` lines, sorted. ``strict`` (CI: a fresh clone nobody else touches) counts
    everything; otherwise only the repository's own vault (``.rubi/``) and new files
    outside the source folders count, since colleagues edit, save, add and delete
    sources while the suite runs on a developer's machine."""

    def vault(path: str) -> bool:
        return strict or path == ".rubi" or path.startswith(".rubi/")

    def new(path: str) -> bool:
        return vault(path) or ("/" in path and not path.startswith(_SOURCE_DIRS))

    added = [f"+ {p}" for p in after.keys() - before.keys() if new(p)]
    removed = [f"- {p}" for p in before.keys() - after.keys() if vault(p)]
    changed = [f"~ {p}" for p in before.keys() & after.keys() if before[p] != after[p] and vault(p)]
    return sorted(added + removed + changed)


@contextmanager
def real_watcher(vault: Path, seconds: float = 10.0) -> Iterator[None]:
    """``rubi.watch.watch`` on the real file system in a thread for the block: started,
    its catch-up run done and its event source subscribed (its ``ready`` event, or at
    most ``seconds`` when the source never starts), stopped and joined after."""
    from rubi import app
    from rubi.watch import watch

    stop = threading.Event()
    ready = threading.Event()
    thread = threading.Thread(
        target=watch,
        args=(app.locate(vault),),
        kwargs={"stop_event": stop, "debounce_ms": 100, "ready": ready},
        daemon=True,
    )
    thread.start()
    try:
        ready.wait(seconds)
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def wait_until(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    """Poll ``check`` every 0.1 s until it holds or ``seconds`` pass; its last answer."""
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.1)
    return check()


def vault_text(project: Path) -> str:
    """Every markdown file of the project's vault (``.rubi/``), as git would see it, joined."""
    vault = project / ".rubi"
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(vault.rglob("*"))
        if p.is_file() and ".index" not in p.relative_to(vault).parts and p.suffix == ".md"
    )


def engine_answer(event: str, raw: str, **timeouts: float) -> str | None:
    """What ``rubi hook EVENT`` prints for stdin ``raw`` when the engine answers it,
    as the console script asks (:func:`rubi.engine.client.try_engine` on the decoded
    payload); None when the hook would run cold (``raw`` not JSON included).
    ``timeouts``: the client's ``connect_timeout_s``, ``reply_timeout_s``,
    ``ack_timeout_s``."""
    import json

    from rubi.engine.client import try_engine

    try:
        payload = json.loads(raw) if raw.strip() else None
    except ValueError:
        return None
    return try_engine(event, raw, payload, **timeouts)[0]


@contextmanager
def serving(project: Path) -> Iterator[Any]:
    """A resident engine for ``project``'s vault, in this process, ready (its search
    loaded) while the block runs; stopped after it."""
    from rubi import app
    from rubi.engine.server import Engine

    running = Engine(app.locate(project / ".rubi")).start()
    assert running.serving.wait(10) and running.ready.wait(30)
    try:
        yield running
    finally:
        running.stop()


CONSOLE_SCRIPT = """
import sys
sys.argv = ["rubi", *sys.argv[1:]]
from rubi import entry
entry.main()
"""
"""``rubi ARGS`` as the console script runs it (``python -c CONSOLE_SCRIPT ARGS``)."""


def run_rubi(args: list[str], cwd: Path, **env: str) -> tuple[bytes, bytes, int]:
    """``rubi ARGS`` run in a new Python process in ``cwd`` as the console script runs
    it, with ``env`` over this process's environment (UTF-8 streams): its stdout and
    stderr as bytes and its exit status. Raises ``subprocess.TimeoutExpired`` after
    120 s."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_SCRIPT, *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
        timeout=120,
    )
    return done.stdout, done.stderr, done.returncode


def graph_notes() -> dict[str, Any]:
    """Notes whose links exercise every kind of edge: aliases, a supersede, attachments
    (present and not), dangling targets, relative links, a ring of twelve."""
    from rubi.markdown import parse_note

    texts = {
        "plan": "---\naliases: [Roadmap]\n---\n# Plan\n\nSee [[alpha]], [[Missing one]].\n",
        "projects/plan": "# Plan\n\n- supersedes [[Plan]]\nand [[spec.pdf]] and [[gone.png]]\n",
        "alpha": "---\nid: a-1\nstatus: done\n---\n# Alpha\n\n[[Roadmap]] [[beta]] [[beta]]\n",
        "beta": "# Beta\n\n[[alpha]] [[Missing one]] [[Missing two]] [[#heading]]\n",
        "areas/gamma": "# Gamma\n\n[[../alpha]] [[plan]] [[Delta]]\n",
    }
    for i in range(12):
        texts[f"bulk/n{i}"] = f"# N{i}\n\n[[n{(i + 1) % 12}]] [[Beta]] [[Missing {i % 3}]]\n"
    return {k: parse_note(v, k + ".md") for k, v in texts.items()}


def random_link_graph(
    seed: int,
    *,
    most: int = 900,
    keys: tuple[str, ...] = (),
    seed_sizes: tuple[int, ...] = (1, 2, 5, 8, 8),
) -> tuple[Any, list[dict[str, float]]]:
    """A ``networkx.MultiDiGraph`` of 150 to ``most`` nodes whose links were added in
    random order (a node's successors are not in id order), with four hubs that link and
    are linked a lot, self and parallel links (each keyed by one of ``keys`` when given),
    and seed sets of ``seed_sizes`` nodes with weights in [0.1, 2.0]."""
    import random

    import networkx as nx

    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    names = [f"n{i:04d}" for i in range(rng.randint(150, most))]
    g.add_nodes_from(rng.sample(names, len(names)))
    hubs = rng.sample(names, 4)
    for _ in range(len(names) * 4):
        u, v = rng.choice(names), rng.choice(names)
        if rng.random() < 0.2:
            u = rng.choice(hubs)
        elif rng.random() < 0.2:
            v = rng.choice(hubs)
        if keys:
            g.add_edge(u, v, key=rng.choice(list(keys)))
        else:
            g.add_edge(u, v)
    sets = [{n: rng.uniform(0.1, 2.0) for n in rng.sample(names, k)} for k in seed_sizes]
    return g, sets


def counted_bodies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles whose near-duplicate fingerprints a search makes from their text
    (``rubi.search.duplicates.make_body`` counted), not reads from the store."""
    from rubi.search import duplicates

    made: list[str] = []
    real = duplicates.make_body

    def counted(title: str, text: str) -> duplicates.Body:
        made.append(title)
        return real(title, text)

    monkeypatch.setattr(duplicates, "make_body", counted)
    return made


@contextmanager
def listening(
    argv: list[str], port: int, env: dict[str, str], stderr: Path | None = None, seconds: float = 60
) -> Iterator[Any]:
    """``argv`` run until it accepts connections on loopback ``port`` (its process
    yielded), ended after the block (SIGTERM, then SIGKILL after 10 s). Fails the test
    when it exits first (its ``stderr`` file, if given, in the message) or does not
    listen within ``seconds``."""
    import socket
    import subprocess

    with stderr.open("wb") if stderr is not None else open(os.devnull, "wb") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"server exited: {stderr.read_text() if stderr else proc.returncode}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        else:
            pytest.fail(f"server did not listen within {seconds:g} s")
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def sleeps_in_read(task: Path) -> bool:
    """Whether the thread ``task`` (``/proc/<pid>/task/<tid>``) sleeps in the kernel in a
    read or a poll (not in the GIL's wait): Linux's ``stat`` state and ``wchan``."""
    try:
        state = task.joinpath("stat").read_text().rsplit(")", 1)[1].split()[0]
        wchan = task.joinpath("wchan").read_text()
    except OSError:
        return False
    return state == "S" and any(w in wchan for w in ("pipe", "poll", "select", "read"))


@contextmanager
def asgi_server(app: Any) -> Iterator[int]:
    """Serve the ASGI ``app`` with uvicorn on a free loopback port, in a thread, for the
    block; yields the port once the server has started."""
    import socket

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            threading.Event().wait(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def pickled_rows() -> Path:
    """A pickle of 1,000 dicts in the user's rubi cache (where rubi loads from): a load
    the collector tests watch."""
    import pickle

    from rubi.core.paths import cache_home

    path = cache_home() / "rows.pickle"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps([{"row": i} for i in range(1000)]))
    path.chmod(0o600)
    return path


def run_kept_code_script(script: str, file: Path) -> dict[str, Any]:
    """Run ``script`` (Python that prints one JSON object) in a fresh process without
    bytecode writes, in a working folder of its own beside ``file``'s folder (``''`` on
    the path is the working folder, whose stamp a kept-module file holds: the file is
    written elsewhere); its printed object."""
    import json
    import subprocess
    import sys

    work = file.parent.parent / "work"
    work.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=work,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result
