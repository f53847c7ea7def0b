"""``rubi serve``'s background watch: the process learns changes from file events,
so a refreshing search finds a new note without scanning the vault."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import rubi.sync.vaultsync as session_module
from rubi import app
from rubi.sync import vault_sync_for
from rubi.vault.scan import VaultListing
from rubi.watch import in_background

from helpers import write


@pytest.mark.timeout(60)
def test_a_watched_process_searches_without_scanning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n\nThe first note.\n")
    paths = app.locate(vault)
    app.index(paths)
    with in_background(paths):
        deadline = time.monotonic() + 30
        while not vault_sync_for(paths).watched and time.monotonic() < deadline:
            time.sleep(0.02)
        assert vault_sync_for(paths).watched
        scans: list[Path] = []
        real = session_module.scan_vault

        def counting_scan(root: Path, project: Path | None = None) -> VaultListing:
            scans.append(root)
            return real(root, project)

        monkeypatch.setattr(session_module, "scan_vault", counting_scan)
        write(vault / "beta.md", "# Beta\n\nA zanzibarish word.\n")
        found: list[str] = []
        while time.monotonic() < deadline:
            found = [h.id for h in app.search(paths, "zanzibarish").hits]
            if found:
                break
            time.sleep(0.05)
        assert found == ["beta"]
        assert scans == []  # the watcher read the one changed file; searches never scanned
    assert not vault_sync_for(paths).watched


def test_a_background_watch_given_an_event_starts_once_it_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import rubi.watch as watch_module

    started = threading.Event()

    def fake_watch(vault: object, *, stop_event: threading.Event) -> int:
        started.set()
        stop_event.wait(10)
        return 0

    monkeypatch.setattr(watch_module, "watch", fake_watch)
    after = threading.Event()
    with in_background(app.locate(tmp_path), after):
        assert not started.wait(0.3)  # the server is still starting: no catch-up yet
        after.set()
        assert started.wait(5)


def test_a_background_watch_stopped_before_its_event_never_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import rubi.watch as watch_module

    calls: list[object] = []
    monkeypatch.setattr(watch_module, "watch", lambda vault, **kw: calls.append(vault))
    with in_background(app.locate(tmp_path), threading.Event()) as thread:
        pass
    assert thread is not None
    thread.join(5)
    assert not thread.is_alive() and calls == []
