"""The index progress bar: one stage at a time, with a rate and an estimate."""

from __future__ import annotations

import io

import pytest

from rubi.cli import common
from rubi.cli.common import PROGRESS_AFTER_NOTES, progress_bar


def test_stages_replace_each_other_and_small_ones_stay_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr(common, "err_console", lambda: Console(file=screen, force_terminal=True))
    with progress_bar(True) as update:
        assert update is not None
        update(5, 10, "Reading notes")  # too small for a bar
        assert screen.getvalue() == ""
        total = PROGRESS_AFTER_NOTES * 2
        for done in range(0, total + 1, 50):
            update(done, total, "Reading notes")
        for done in range(0, total + 1, 100):
            update(done, total, "Indexing text")
    assert "Indexing text" in screen.getvalue()


def test_disabled_gives_no_callback() -> None:
    with progress_bar(False) as update:
        assert update is None


def test_output_that_is_no_terminal_gets_no_bar_and_no_blank_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # captured stderr is a pipe, as for an agent, a hook or CI: `rubi index` printed a
    # blank line before its report there when the transient bar stopped
    with progress_bar(True) as update:
        assert update is not None
        total = PROGRESS_AFTER_NOTES * 2
        for done in range(0, total + 1, 100):
            update(done, total, "Reading notes")
    assert capsys.readouterr().err == ""
