"""What one UserPromptSubmit does, counted: in each process it runs in (the hook's own,
the engine's), the payload is decoded once and the vault walked once; the prompt is
analysed once for both of recall's searches; stale flags and notes' files are read for
the hits recall shows only."""

from __future__ import annotations

import io
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.core import jsonline, vaultwalk
from rubi.engine.server import Engine
from rubi.entry import _run_hook

from helpers import serving

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("runtime")]

PROMPT = "when do the login tokens expire? the session drops at midnight"


def payload(project: Path, prompt: str = PROMPT) -> str:
    return json.dumps({"session_id": "s1", "cwd": str(project), "prompt": prompt})


class Counts:
    """Calls counted per thread name and what was counted."""

    def __init__(self) -> None:
        self.seen: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def add(self, what: str) -> None:
        with self._lock:
            self.seen[(threading.current_thread().name, what)] += 1

    def of(self, what: str, *, engine: bool) -> int:
        """Calls of ``what`` in the engine's threads, or in this test's thread."""
        here = threading.current_thread().name
        return sum(
            n
            for (thread, name), n in self.seen.items()
            if name == what and (thread != here) == engine
        )


def counting(
    monkeypatch: pytest.MonkeyPatch,
    owner: Any,
    name: str,
    counts: Counts,
    what: str,
    when: Callable[..., bool] = lambda *a, **k: True,
) -> None:
    real = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if when(*args, **kwargs):
            counts.add(what)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Decodings of a hook payload (a JSON text holding ``"prompt"``) and vault walks."""
    found = Counts()
    for module in (json, jsonline):  # the hook process decodes through jsonline
        counting(
            monkeypatch,
            module,
            "loads",
            found,
            "decode",
            lambda s, *a, **k: isinstance(s, str) and s.startswith('{"session_id"'),
        )
    counting(monkeypatch, vaultwalk, "_up", found, "walk")
    return found


@pytest.fixture
def engine(project: Path) -> Iterator[Engine]:
    with serving(project) as running:
        yield running


def hook(raw: str) -> str:
    out = io.StringIO()
    assert _run_hook(["UserPromptSubmit"], io.StringIO(raw), out)[0] == 0
    return out.getvalue()


def test_a_cold_prompt_hook_decodes_its_payload_once_and_walks_to_its_vault_once(
    project: Path, counts: Counts
) -> None:
    answer = hook(payload(project))
    assert "Login tokens expire at midnight UTC" in answer
    assert counts.of("decode", engine=False) == 1
    assert counts.of("walk", engine=False) == 1


def test_a_prompt_hook_through_the_engine_decodes_and_walks_once_on_each_side(
    project: Path, engine: Engine, counts: Counts
) -> None:
    answer = hook(payload(project))
    assert "Login tokens expire at midnight UTC" in answer
    assert counts.of("decode", engine=False) == 1  # the client, to find the engine
    assert counts.of("walk", engine=False) == 1
    assert counts.of("decode", engine=True) == 1  # the engine, to check the request
    assert counts.of("walk", engine=True) == 1  # its check; the handler is given it


def test_the_engine_refuses_a_hook_whose_folder_belongs_to_a_nested_project(
    project: Path, engine: Engine
) -> None:
    """A folder inside the project whose own ``.rubi/`` is nearer is another vault's:
    refused, and the hook runs cold against that vault."""
    from rubi.engine.client import hook_request
    from rubi.engine.server import answer

    from helpers import engine_answer

    nested = project / "sub"
    nested.mkdir()
    app.init_project(nested)
    raw = payload(nested)
    line = json.dumps(hook_request(engine.vault, "UserPromptSubmit", raw)).encode()
    reply = answer(line, engine.vault, threading.Lock())
    assert reply == {"ok": False, "error": "the hook's folder is not this engine's project"}
    assert engine_answer("UserPromptSubmit", raw) is None  # no engine for sub/.rubi


CODE_PROMPT = "why does login() in src/auth.py drop the session token at midnight UTC?"
"""Writes a name of this project's code: recall searches the notes, then the code."""


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Each analysis of a whole query: the terms of one chain, or the words BM25F weighs
    (whose tokens :meth:`~rubi.index.analysis.TermAnalyzer.surface` gives), counted by
    chain and text."""
    from rubi.index.analysis import TermAnalyzer

    found = Counts()
    for method in ("terms", "surface"):
        real = getattr(TermAnalyzer, method)

        def wrapper(self: TermAnalyzer, text: str, _real: Any = real, _m: str = method) -> Any:
            if " " in text:  # a query, not one word of it
                found.add(f"{_m} {self.lang} {text}")
            return _real(self, text)

        monkeypatch.setattr(TermAnalyzer, method, wrapper)
    return found


@pytest.mark.parametrize("through", ["cold", "engine"])
def test_the_prompt_is_analysed_once_for_recalls_note_and_code_searches(
    project: Path, analyses: Counts, through: str, request: pytest.FixtureRequest
) -> None:
    if through == "engine":
        request.getfixturevalue("engine")
        analyses.seen.clear()  # what the engine's warm-up analysed is not this hook's
    answer = hook(payload(project, CODE_PROMPT))
    assert "Login tokens expire at midnight UTC" in answer
    assert "src/auth.py" in answer  # the code search ran too
    done = {what: n for (_, what), n in analyses.seen.items() if CODE_PROMPT in what}
    assert done, "the prompt was never analysed"
    assert {what: n for what, n in done.items() if n > 1} == {}


@pytest.fixture
def git_project(project: Path) -> Path:
    """The login project as a git repository with everything committed: a note's
    ``files:`` can be checked for staleness there (by asking git)."""
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=project,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "start")
    app.index(app.locate(project / ".rubi"))
    return project


def test_recall_checks_no_hit_for_staleness_and_reads_a_shown_note_at_most_twice(
    git_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall's lines show no stale flag: no hit's ``files:`` are checked (git never
    runs), so a note is read by the search (its body, for near-duplicates) and by recall
    (its snippet), not a third time for the check."""
    import os

    from rubi.core import gitrepo
    from rubi.knowledge import stale as stale_check

    checked: list[str] = []
    real_stale = stale_check.stale_files
    monkeypatch.setattr(
        stale_check,
        "stale_files",
        lambda root, notes, *a: checked.extend(n.id for n in notes) or real_stale(root, notes, *a),
    )
    git_runs: list[tuple[str, ...]] = []
    real_run = gitrepo._run
    monkeypatch.setattr(
        gitrepo, "_run", lambda root, args, *a: git_runs.append(args) or real_run(root, args, *a)
    )
    opened: Counter[str] = Counter()
    real_open = os.open

    def counting_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(".md"):
            opened[os.path.basename(str(path))] += 1
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_open)
    answer = hook(payload(git_project))
    assert "Login tokens expire at midnight UTC" in answer
    assert checked == []
    assert git_runs == []
    note = next(name for name in opened if name.startswith("gotcha-login-tokens"))
    assert opened[note] == 2
    assert max(opened.values()) <= 2


def test_a_search_still_flags_a_stale_note(git_project: Path) -> None:
    """What recall leaves out, ``rubi search`` shows: the note whose file changed after
    it is stale."""
    (git_project / "src" / "auth.py").write_text("def login():\n    return 1\n", encoding="utf-8")
    vault = app.locate(git_project / ".rubi")
    hits = app.search(vault, "login tokens expire midnight", refresh=False).hits
    assert any(h.stale == ("src/auth.py",) for h in hits)
