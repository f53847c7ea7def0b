"""``rubi serve``'s background watch and the edits of a server's first seconds (issue
29): the watcher listens before it catches up, so a code edit made while its catch-up
runs is seen (it was lost: the catch-up had listed the files, the source subscribed
after), and ``rubi serve`` starts it once its first answers are out, not 20 s later."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from rubi import app
from rubi.cli import serverun
from rubi.cli.servewatch import in_background
from rubi.core.latch import Latch
from rubi.core.paths import VaultPaths
from rubi.sync import forget_vault_syncs

from helpers import rubi_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": "def dispatch_request(req):\n    return req\n",
}


def _found(paths: VaultPaths, word: str, deadline_s: float) -> list[str]:
    """The hits of a refreshing search for ``word``, polled until the code file is
    among them or the deadline passes."""
    deadline = time.monotonic() + deadline_s
    hits: list[str] = []
    while time.monotonic() < deadline:
        hits = [h.id for h in app.search(paths, word).hits]
        if "pkg/app.py" in hits:
            break
        time.sleep(0.1)
    return hits


@pytest.mark.timeout(90)
def test_a_code_edit_made_while_the_watcher_catches_up_is_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = rubi_project(tmp_path / "proj", FILES)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    forget_vault_syncs()
    edited = threading.Event()

    def edit_after(real):  # type: ignore[no-untyped-def]
        def run(*args, **kwargs):  # type: ignore[no-untyped-def]
            result = real(*args, **kwargs)  # the catch-up has listed the files
            if not edited.is_set():
                edited.set()
                with open(root / "pkg" / "app.py", "a", encoding="utf-8") as f:
                    f.write("\n\ndef quokkafrobnicate():\n    return None\n")
            return result

        return run

    monkeypatch.setattr(app, "catch_up", edit_after(app.catch_up))
    monkeypatch.setattr(app, "catch_up_if_changed", edit_after(app.catch_up_if_changed))
    after = Latch()
    with in_background(paths, after) as thread:
        assert thread is not None
        after.set()  # the server's first answers are out
        assert edited.wait(30)
        assert "pkg/app.py" in _found(paths, "quokkafrobnicate", 30)


def test_a_bare_serve_watches_from_its_first_answers_and_a_write_not_its_unasked_spell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review's edit at 6 s into a session, unseen: ``rubi serve`` gave its watcher
    the 20 s ``UNASKED`` latch, and a search's own scan sees notes, not code. Now it
    waits for the first answers, then for a tool that may write, the first idle spell
    or ``SOON_S`` (5 s), whichever comes first."""
    from rubi.cli import servewatch
    from rubi.mcp import startup

    seen: list[tuple[tuple[object, ...], dict[str, object]]] = []

    class Stop(Exception):
        pass

    def fake_in_background(*args: object, **kwargs: object) -> object:
        seen.append((args, kwargs))
        raise Stop

    monkeypatch.setattr(servewatch, "in_background", fake_in_background)
    with pytest.raises(Stop):
        serverun.run_serve(serverun.ServeOptions(project=Path("/nonexistent-project")))
    assert len(seen) == 1
    (_, after, *idle), kwargs = seen[0]
    assert after is startup.STARTED
    assert idle in ([], [None])
    assert kwargs.get("soon") is startup.WATCH_WANTED
    assert servewatch.SOON_S <= 6.0  # before the review's edit at 6 s
