"""Shared fixtures: every test gets its own HOME, cache and working folder, and real
vaults to copy; the session fails if a test wrote into the repository, and a test
fails if it left an engine or server thread running."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import REPO, copy_vault, tree_changes, tree_state


@pytest.fixture(scope="session", autouse=True)
def repository_untouched() -> Iterator[None]:
    """Fail the session when a test created, changed or removed anything in the
    repository tree (the repository's own ``.rubi/`` vault included)."""
    before = tree_state(REPO)
    yield
    changes = tree_changes(before, tree_state(REPO), strict=bool(os.environ.get("CI")))
    if changes:
        shown = "\n".join(changes[:20]) + ("\n…" if len(changes) > 20 else "")
        pytest.fail(f"the test suite wrote into the repository {REPO}:\n{shown}")


@pytest.fixture(scope="session", autouse=True)
def isolated_session_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """HOME and the XDG folders of the whole session, for what runs before a test's own
    (:func:`isolated_home`): a module's or the session's fixtures (an indexed copy of a
    vault shared by a module's tests indexed into the user's own cache before)."""
    users = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rubi"
    before = _listing(users)
    home = tmp_path_factory.mktemp("session-home")
    (home / "run").mkdir(mode=0o700)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        patch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        patch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
        patch.setenv("XDG_RUNTIME_DIR", str(home / "run"))
        yield home
    added = sorted(_listing(users) - before)
    if added and os.environ.get("CI"):  # elsewhere the user's own rubi may write there
        pytest.fail(f"the test suite wrote into the user's cache {users}: {', '.join(added[:10])}")


def _listing(cache: Path) -> set[str]:
    """The derived-data folders in a rubi cache folder (its ``indexes/``)."""
    try:
        return {entry.name for entry in os.scandir(cache / "indexes")}
    except OSError:
        return set()


LOADING_THREADS = frozenset({"rubi-engine", "rubi-engine-warm", "rubi-warmup"})
"""The threads a resident engine (:mod:`rubi.engine.server`, its loading) and the stdio
server's warm-up (:mod:`rubi.mcp.startup`) run in: a test that starts one stops it."""

LEFT_THREAD_WAIT_S = 5.0
"""How long a thread the test started may take to end after its teardown."""


@pytest.fixture(autouse=True)
def no_thread_left_running() -> Iterator[None]:
    """Fail a test that leaves a :data:`LOADING_THREADS` thread it started alive once
    its fixtures are torn down (this one is torn down after them): such a thread goes
    on loading, searching or setting the process's events in later tests. Costs two
    ``threading.enumerate()`` calls per test when nothing is left."""
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t.name in LOADING_THREADS and t not in before]
    deadline = time.monotonic() + LEFT_THREAD_WAIT_S
    for thread in left:
        thread.join(max(deadline - time.monotonic(), 0.0))
    alive = sorted(t.name for t in left if t.is_alive())
    if alive:
        pytest.fail(f"the test left {', '.join(alive)} running: stop what it starts")


@pytest.fixture(autouse=True)
def one_shot_settings_stay_in_the_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts as a fresh process does: not marked as one that runs once (an
    in-process ``rubi index``, ``rubi search`` or hook marks it: the flat graph written
    by its index runs, the vectors read on demand, the graph read frozen, the index
    segments mapped, no CPU spent scanning for changes), and the marks a test makes end
    with it, the cyclic collector's pause by a server it started too. Modules not
    imported yet hold their defaults."""
    defaults = {
        "rubi.sync.oneshot": ("_ONE_SHOT", list),
        "rubi.semantic.demand": ("_ON_DEMAND", bool),
        "rubi.app.searching": ("_READY_PROCESS", bool),
        "rubi.graph.readmode": ("_frozen", bool),
        "rubi.core.collector": ("_FREEZE", list),
        "rubi.core.segmentreads": ("_MAPPED", list),
        # the CPU a process spent scanning for changes: a server starts its watcher
        # once it passes what the watcher's start costs
        "rubi.core.scancost": ("_SCANS", lambda: sys.modules["rubi.core.scancost"].ScanCost()),
    }
    for name, (attribute, default) in defaults.items():
        module = sys.modules.get(name)
        if module is not None:
            monkeypatch.setattr(module, attribute, default())
    kept = sys.modules.get("rubi.index.keptstops")
    if kept is not None:  # the stop-word sets a one-shot search read or made
        for attribute, value in (("_KEPT", None), ("_NEW", {}), ("_PATH", [])):
            monkeypatch.setattr(kept, attribute, value)
    collecting = gc.isenabled()
    yield
    gc.unfreeze()  # what a one-shot run froze in the test is collected again
    # A server started in the test (stdio or HTTP) pauses the cyclic collector until
    # its warm-up ends; a test that stops it earlier leaves the pause to later tests.
    collector = sys.modules.get("rubi.core.collector")
    if collector is not None:
        collector.resume_collector()
        collector._SETTLE.clear()  # a server served in the test settled this process
    if collecting and not gc.isenabled():
        gc.enable()


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point HOME and the XDG cache, config, state and runtime folders at a fresh folder so no
    test touches the user's (an engine a test starts listens under the test's home)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    (home / "run").mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(home / "run"))
    monkeypatch.delenv("RUBI_VAULT", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)  # the user's own would be read
    from rubi.index.warm import forget_indexes
    from rubi.search.printstore import forget_kept_stores
    from rubi.sync import forget_vault_syncs
    from rubi.sync.keptsymbols import forget_kept_symbols

    forget_vault_syncs()  # each test starts as a fresh process would
    forget_kept_symbols()
    forget_indexes()
    forget_kept_stores()
    return home


@pytest.fixture(autouse=True)
def isolated_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run every test in its ``tmp_path``, outside the repository, so a command that
    falls back to the working folder never finds (or writes) the repository's own
    vault. A test that needs another folder chdirs there itself."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder for resident engines (Unix socket paths are
    limited to ~104 bytes, too short for ``tmp_path``), with ``RUBI_ENGINE`` unset."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="rt"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.delenv("RUBI_ENGINE", raising=False)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def help_vault(tmp_path: Path) -> Path:
    """A writable copy of the English Obsidian Help vault (173 notes)."""
    return copy_vault("obsidian-help-en", tmp_path)


@pytest.fixture(scope="module")
def help_vault_indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed copy of the Obsidian Help vault shared by a module's read-only tests."""
    from rubi import app

    vault = copy_vault("obsidian-help-en", tmp_path_factory.mktemp("help"))
    app.index(app.locate(vault))
    return vault


@pytest.fixture
def kepano_vault(tmp_path: Path) -> Path:
    """A writable copy of kepano's personal vault template (103 notes)."""
    return copy_vault("kepano-obsidian", tmp_path)
