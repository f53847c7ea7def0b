"""A watcher of real file events catches up once its event source listens; the code
map's memory it makes in the background is made of what that catch-up left, so it
is made after it (made before, the vault sync held no listing yet and made none: the
first shape edit then paid for it, about 2 s of CPU on spring-framework)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rubi import app

from helpers import login_project


@pytest.mark.timeout(90)
def test_a_watcher_of_real_events_makes_the_code_memory_after_its_catch_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.watch as watch_module

    project = login_project(tmp_path / "proj")
    paths = app.locate(project / ".rubi")
    order: list[str] = []
    made = threading.Event()
    real_catch_up = watch_module.app.catch_up

    def catch_up(vault: object, *args: object, **kwargs: object) -> object:
        report = real_catch_up(vault, *args, **kwargs)  # type: ignore[arg-type]
        order.append("catch-up")
        return report

    def remember(vault: object) -> bool:
        order.append("memory")
        made.set()
        return True

    monkeypatch.setattr(watch_module.app, "catch_up", catch_up)
    monkeypatch.setattr(watch_module.app, "remember_code", remember)
    monkeypatch.setattr(watch_module.app, "import_ahead", lambda: None)
    stop = threading.Event()
    thread = threading.Thread(
        target=watch_module.watch, args=(paths,), kwargs={"stop_event": stop}, daemon=True
    )
    thread.start()
    try:
        assert made.wait(60)
    finally:
        stop.set()
        thread.join(30)
    assert order == ["catch-up", "memory"]


def test_a_watch_once_makes_no_code_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rubi.watch as watch_module

    project = login_project(tmp_path / "proj")
    paths = app.locate(project / ".rubi")
    made = threading.Event()
    monkeypatch.setattr(watch_module.app, "remember_code", lambda vault: made.set())
    monkeypatch.setattr(watch_module.app, "import_ahead", lambda: None)
    assert watch_module.watch(paths, once=True) == 1
    assert not made.wait(1.0)
