"""The index progress bar: one stage at a time, with a rate and an estimate."""

from __future__ import annotations

import pytest

from rubi.cli.common import PROGRESS_AFTER_NOTES, progress_bar


def test_stages_replace_each_other_and_small_ones_stay_quiet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with progress_bar(True) as update:
        assert update is not None
        update(5, 10, "Reading notes")  # too small for a bar
        assert capsys.readouterr().err == ""
        total = PROGRESS_AFTER_NOTES * 2
        for done in range(0, total + 1, 50):
            update(done, total, "Reading notes")
        for done in range(0, total + 1, 100):
            update(done, total, "Indexing text")


def test_disabled_gives_no_callback() -> None:
    with progress_bar(False) as update:
        assert update is None
