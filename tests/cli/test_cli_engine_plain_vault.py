"""A plain Obsidian vault (no project) gets the warm CLI too: ``rubi watch --vault V``
hosts an engine for V, and ``rubi search --vault V`` / ``rubi read --vault V`` are
answered by it (the same bytes and status as cold), cold when it is absent. Its engine
answers no hooks: a hook finds a project's ``.rubi/``, never a plain vault."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.core.commandcalls import SearchArgs, vault_fields
from rubi.core.paths import VaultPaths
from rubi.engine.client import call_via_engine, hook_request
from rubi.engine.server import Engine, answer, running

from helpers import notes_vault, write
from helpers import run_rubi as rubi

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]

NOTES = {
    "Embed files.md": "# Embed files\n\nEmbed a note with ![[Aliases]] in any note.\n",
    "Aliases.md": "---\naliases: [Other names]\n---\n# Aliases\n\nA note may have aliases.\n",
    "sub/Linking notes.md": "# Linking notes\n\nLink with [[Embed files]] or [[Aliases]].\n",
}


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """An indexed plain vault (no ``.rubi/``, no project) at ``tmp_path/vault``."""
    vault = tmp_path / "vault"
    paths = notes_vault(vault, NOTES)
    assert paths.project_root is None
    app.index(paths)
    return vault


@pytest.fixture
def engine(plain: Path) -> Iterator[Engine]:
    with running(app.locate(plain)) as started:
        assert started is not None  # a plain vault gets an engine too
        assert started.serving.wait(10) and started.ready.wait(30)
        yield started


ANSWERED = [
    ["search", "embed", "note"],
    ["search", "--json", "--top-k", "2", "aliases"],
    ["search", "--since", "2026-02-01", "--until", "2026-01-01", "embed"],  # an error
    ["read", "Aliases"],
    ["read", "--json", "sub/Linking notes"],
    ["read", "no-such-note"],
]


def test_a_plain_vault_s_commands_are_answered_by_its_engine(
    plain: Path, engine: Engine, calls: list[str], tmp_path: Path
) -> None:
    link = tmp_path / "link"
    link.symlink_to(plain)
    for args in ANSWERED:
        for named in (str(plain), "vault", str(link)):  # absolute, relative, a link to it
            before = len(calls)
            via = rubi([*args, "--vault", named], tmp_path)
            assert len(calls) == before + 1, (args, named)
            cold = rubi([*args, "--vault", named], tmp_path, RUBI_ENGINE="0")
            assert len(calls) == before + 1
            assert via == cold, (args, named)
    out, _, code = rubi(["search", "--vault", str(plain), "embed"], tmp_path)
    assert code == 0 and b"Embed files" in out
    _, err, code = rubi(["read", "--vault", str(plain), "no-such-note"], tmp_path)
    assert code == 1 and err.startswith(b"Error: ")


def test_without_its_engine_a_plain_vault_answers_itself(
    plain: Path, calls: list[str], tmp_path: Path
) -> None:
    out, _, code = rubi(["search", "--vault", str(plain), "embed"], tmp_path)
    assert code == 0 and b"Embed files" in out and not calls
    fields = vault_fields(app.locate(plain))
    assert call_via_engine(fields, "search", SearchArgs("embed").wire()) is None


def test_a_plain_vault_inside_a_project_is_its_own(tmp_path: Path, calls: list[str]) -> None:
    """A plain vault in a project's folder has its own engine: a search of the project
    is not sent to it, nor a search of the vault to the project's."""
    project = tmp_path / "proj"
    project.mkdir()
    app.init_project(project)
    docs = notes_vault(project / "docs", NOTES)
    app.index(docs)
    with running(docs) as started:
        assert started is not None and started.ready.wait(30)
        rubi(["search", "embed"], project)
        assert calls == []
        rubi(["search", "--vault", "docs", "embed"], project)
        assert calls == ["SearchArgs"]


def _hook_request(vault: str, cwd: Path) -> bytes:
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s1",
        "cwd": str(cwd),
        "prompt": "how do I embed a note?",
    }
    return json.dumps(hook_request(vault, "UserPromptSubmit", json.dumps(payload))).encode()


def test_a_plain_vault_s_engine_answers_no_hooks(plain: Path, tmp_path: Path) -> None:
    """A project whose ``.rubi`` links out of it to the plain vault: its hook walks to
    the link, whose real folder is the plain vault's, so it reaches that engine's
    socket. Cold, such a vault is refused (:func:`rubi.core.paths.find_vault`); the
    plain vault's engine refuses the hook, and the hook runs cold as before."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".rubi").symlink_to(plain)
    vault = os.path.realpath(plain)
    paths = app.locate(plain)
    reply = answer(_hook_request(vault, project), vault, threading.Lock(), None, paths)
    assert reply == {"ok": False, "error": "a plain vault's engine answers no hooks"}


def test_a_watched_plain_vault_shows_a_saved_note_at_the_next_search(
    plain: Path, calls: list[str], tmp_path: Path
) -> None:
    """``rubi watch --vault V``'s way (its engine while the watcher runs, here in a
    thread): a note saved while watching is found by the next ``rubi search --vault
    V``, answered by the engine, with the cold answer's bytes."""
    from rubi.watch import watch

    paths: VaultPaths = app.locate(plain)
    stop, listening = threading.Event(), threading.Event()
    started: list[Engine | None] = []

    def host() -> None:
        with running(paths) as engine:
            started.append(engine)
            watch(paths, stop_event=stop, ready=listening, debounce_ms=50)

    thread = threading.Thread(target=host, daemon=True)
    thread.start()
    try:
        assert listening.wait(60)
        engine = started[0]
        assert engine is not None and engine.ready.wait(30)
        write(plain / "Platypus.md", "# Platypus\n\nA platypus lays eggs.\n")
        query = ["search", "--vault", str(plain), "platypus"]
        for _ in range(100):  # the watcher applies the save within its debounce
            out, _, _ = rubi(query, tmp_path)
            if b"Platypus" in out:
                break
        assert b"Platypus" in out and calls and set(calls) == {"SearchArgs"}
        assert rubi(query, tmp_path) == rubi(query, tmp_path, RUBI_ENGINE="0")
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
