"""SessionStart run by rubi's Claude Code plugin, whose ``rubi serve`` catches the index
up itself: the hook gives the same map without indexing first; anywhere else (no
plugin, a plugin that starts no server, a malformed plugin folder) it brings the index
up to date as before answering; a vault never indexed is indexed in the background
in every case (``tests/hooks/test_first_index.py``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.claude.hooks.pluginserver import MAX_CONFIG_BYTES, plugin_serves

from helpers import REPO, login_project, write

WORD = "quokkaborealis"
"""A word only the note written during a test holds."""


def _plugin(folder: Path, servers: object) -> Path:
    write(folder / ".mcp.json", json.dumps({"mcpServers": servers}))
    return folder


def _rubi_plugin(tmp_path: Path) -> Path:
    return _plugin(
        tmp_path / "plugin", {"rubi": {"type": "stdio", "command": "rubi", "args": ["serve"]}}
    )


def _indexed(project: Path) -> bool:
    paths = app.locate(project / ".rubi")
    found = app.search(paths, WORD, scope="notes", refresh=False, personal=False)
    return any(WORD in h.id or WORD in h.title.lower() for h in found.hits)


def _new_note(project: Path) -> None:
    write(
        project / ".rubi" / "notes" / f"{WORD}.md",
        f"---\ntype: note\ntitle: {WORD} habitat\n---\nWhere {WORD} live.\n",
    )


def test_the_shipped_plugin_starts_rubi_serve() -> None:
    assert plugin_serves({"CLAUDE_PLUGIN_ROOT": str(REPO)})


def test_session_start_in_the_plugin_gives_the_same_map_and_leaves_the_refresh_to_the_server(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = base(project, "SessionStart", source="startup")
    expected = hook("SessionStart", payload)
    assert expected is not None and "# Code map" in json.dumps(expected)
    _new_note(project)
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", str(_rubi_plugin(tmp_path)))
    assert hook("SessionStart", payload) == expected
    assert not _indexed(project)  # the server's catch-up does it
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT")
    assert hook("SessionStart", payload) == expected
    assert _indexed(project)  # no plugin: the hook brought the index up to date


@pytest.mark.parametrize(
    "servers",
    [
        {},
        {"other": {"command": "node", "args": ["server.js"]}},
        {"rubi": {"type": "http", "url": "http://127.0.0.1:8765/mcp", "args": ["serve"]}},
        {"rubi": {"command": "rubi", "args": "serve"}},
        ["rubi", "serve"],
    ],
    ids=["none", "another-server", "http", "args-not-a-list", "not-a-table"],
)
def test_session_start_refreshes_in_a_plugin_that_starts_no_rubi_server(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch, servers: object
) -> None:
    _new_note(project)
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", str(_plugin(tmp_path / "plugin", servers)))
    assert hook("SessionStart", base(project, "SessionStart", source="startup")) is not None
    assert _indexed(project)


def test_a_vault_never_indexed_is_not_indexed_by_the_hook_in_the_plugin_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to the twenty-fifth pass the hook indexed a vault never indexed itself (28 s
    on rubi's own clone, past Claude Code's 30 s timeout): now it gives the committed
    map at once and starts the background run (``tests/hooks/test_first_index.py``)."""
    from rubi.app import firstindex

    project = login_project(tmp_path / "fresh")
    paths = app.locate(project / ".rubi")
    shutil.rmtree(paths.index_dir)  # as on a machine that never indexed it
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", str(_rubi_plugin(tmp_path)))
    started: list[Path] = []
    monkeypatch.setattr(firstindex, "start_first_index", lambda p: started.append(p.root) or 1)
    out = hook("SessionStart", base(project, "SessionStart", source="startup"))
    assert out is not None and "# Code map" in out["hookSpecificOutput"]["additionalContext"]
    assert firstindex.INDEX_BUILDING_LINE in out["hookSpecificOutput"]["additionalContext"]
    assert started == [paths.root]
    assert not paths.store_file.exists()


def test_an_untrusted_plugin_folder_means_no_server(tmp_path: Path) -> None:
    def serves(root: str) -> bool:
        return plugin_serves({"CLAUDE_PLUGIN_ROOT": root})

    good = _rubi_plugin(tmp_path)
    assert serves(str(good))
    assert not plugin_serves({})
    assert not serves("")
    assert not serves("plugin")  # relative: resolved against whatever cwd the hook has
    assert not serves(str(good) + "\0x")
    assert not serves(str(tmp_path / "missing"))
    bad = tmp_path / "bad"
    write(bad / ".mcp.json", "{not json")
    assert not serves(str(bad))
    write(bad / ".mcp.json", '"a string"')
    assert not serves(str(bad))
    (bad / ".mcp.json").write_bytes(b"\xff\xfe{}")
    assert not serves(str(bad))
    big = json.dumps({"mcpServers": {"rubi": {"args": ["serve"]}}, "pad": "x" * MAX_CONFIG_BYTES})
    write(bad / ".mcp.json", big)
    assert not serves(str(bad))
    folder = tmp_path / "folder"
    (folder / ".mcp.json").mkdir(parents=True)
    assert not serves(str(folder))


_COLD = """
import io, json, sys
before = set(sys.modules)
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["SessionStart"], sys.stdin, out)
print(json.dumps([out.getvalue(), sorted({m.split(".")[0] for m in set(sys.modules) - before})]))
"""


def _cold(project: Path, env: dict[str, str]) -> tuple[str, list[str]]:
    """A SessionStart hook in a fresh process: its output and the top-level packages it
    loaded."""
    run = subprocess.run(
        [sys.executable, "-c", _COLD],
        input=json.dumps(base(project, "SessionStart", source="startup")),
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=project,
    )
    output, loaded = json.loads(run.stdout)
    return output, loaded


def test_a_cold_session_start_in_the_plugin_loads_no_index_nor_yaml(
    tmp_path: Path, project: Path
) -> None:
    plugin = _rubi_plugin(tmp_path)
    env = {**os.environ, "RUBI_ENGINE": "0", "CLAUDE_PLUGIN_ROOT": str(plugin)}
    output, loaded = _cold(project, env)
    assert "# Code map" in json.loads(output)["hookSpecificOutput"]["additionalContext"]
    assert set(loaded) & {"whoosh", "filelock", "networkx", "numpy", "yaml", "frontmatter"} == set()


_LOADED = """
import io, json, sys
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["SessionStart"], sys.stdin, out)
print(json.dumps([out.getvalue(), "rubi.knowledge.handoff" in sys.modules]))
"""


def test_a_session_start_reads_the_handoff_module_only_when_a_handoff_may_exist(
    tmp_path: Path, project: Path
) -> None:
    """No handoff page and no other worktree: the map alone, without the handoff
    module (its git and author helpers); once a handoff is saved, the context points
    to it as before."""
    plugin = _rubi_plugin(tmp_path)

    def start() -> tuple[str, bool]:
        run = subprocess.run(
            [sys.executable, "-c", _LOADED],
            input=json.dumps(base(project, "SessionStart", source="startup")),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "RUBI_ENGINE": "0", "CLAUDE_PLUGIN_ROOT": str(plugin)},
            cwd=project,
        )
        output, loaded = json.loads(run.stdout)
        return json.loads(output)["hookSpecificOutput"]["additionalContext"], loaded

    context, loaded = start()
    assert "# Code map" in context and "handoff" not in context
    assert loaded is False
    app.save_handoff(app.locate(project / ".rubi"), "ship the login fix", "tests pass")
    context, loaded = start()
    assert "A handoff from an earlier session is in .rubi/handoffs/" in context
    assert loaded is True


def test_a_cold_session_start_with_nothing_changed_makes_no_index_run(
    tmp_path: Path, project: Path
) -> None:
    """Without a plugin the hook brings the index up to date itself, as a server's
    catch-up does: when nothing changed (a listing, one query, ``git ls-files`` say
    so) it loads neither Whoosh nor the index lock (at 6,500 notes 310 → 200 ms of
    CPU); a new note is indexed; a session record alone makes no run."""
    env = {**os.environ, "RUBI_ENGINE": "0"}
    env.pop("CLAUDE_PLUGIN_ROOT", None)

    def loaded() -> set[str]:
        return set(_cold(project, env)[1])

    payload = base(project, "SessionStart", source="startup")
    assert hook("SessionStart", payload) is not None  # the index caught up
    assert loaded() & {"whoosh", "filelock"} == set()
    write(project / ".rubi" / "sessions" / "2026-12-06-a.md", "# Session\n\nrecorded\n")
    assert loaded() & {"whoosh", "filelock"} == set()
    _new_note(project)
    assert {"whoosh", "filelock"} <= loaded()
    assert _indexed(project)


def test_a_cold_session_start_rebuilds_a_search_index_that_is_gone(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before its freshness check the hook's run rebuilt a deleted Whoosh index; the
    check, seeing only files as recorded, left every later search refusing."""
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    paths = app.locate(project / ".rubi")
    shutil.rmtree(paths.whoosh_dir)
    assert hook("SessionStart", base(project, "SessionStart", source="startup")) is not None
    found = app.search(paths, "login tokens", scope="notes", refresh=False, personal=False)
    assert found.hits


def test_only_the_index_lock_timing_out_is_taken_for_another_run(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``refresh_index`` answers False when another run held the index lock
    (``filelock.Timeout``); any other TimeoutError (an OSError: ETIMEDOUT on a network
    file system) is raised, as before its freshness check, for the hook to log."""
    import errno

    import filelock

    import rubi.app.updates as updates

    paths = app.locate(project / ".rubi")

    def held(*args: object, **kwargs: object) -> bool:
        raise filelock.Timeout(str(paths.lock_file))

    monkeypatch.setattr(updates, "catch_up_if_changed", held)
    assert app.refresh_index(paths, lock_timeout_s=0.1) is False

    def timed_out(*args: object, **kwargs: object) -> bool:
        raise TimeoutError(errno.ETIMEDOUT, "Connection timed out", str(paths.store_file))

    monkeypatch.setattr(updates, "catch_up_if_changed", timed_out)
    with pytest.raises(TimeoutError, match="timed out"):
        app.refresh_index(paths, lock_timeout_s=0.1)
