"""What "no such note" suggests: a part of a long id finds it, a far name finds
nothing (a trial user typed ``gotcha-redirect`` and got no suggestion, and
``nonexistent-note`` got ``modules/tests-models``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.app.reading import close_names
from rubi.core.errors import NoteNotFoundError

from helpers import write

NOTES = [
    "notes/gotcha-redirects-are-not-followed-by-default",
    "notes/decision-use-one-client-per-process",
    "modules/tests-models",
    "map",
]
TITLES = {
    "Redirects are not followed by default": NOTES[0],
    "Use one Client per process": NOTES[1],
    "tests/models": NOTES[2],
    "Code map": NOTES[3],
}


def test_the_start_of_a_long_id_suggests_it() -> None:
    assert close_names("gotcha-redirect", NOTES, TITLES) == [NOTES[0]]


def test_a_word_of_a_title_suggests_the_title() -> None:
    assert close_names("redirect", NOTES, TITLES) == ["Redirects are not followed by default"]


def test_a_far_name_suggests_nothing() -> None:
    assert close_names("nonexistent-note", NOTES, TITLES) == []


def test_a_near_miss_is_still_suggested_once() -> None:
    assert close_names("Use one client per proces", NOTES, TITLES) == ["Use one Client per process"]


def test_a_short_reference_is_not_looked_for_inside_names() -> None:
    assert close_names("es", NOTES, TITLES) == []  # in four names, close to none


def test_at_most_three_names(tmp_path: Path) -> None:
    notes = [f"notes/client-{i}" for i in range(6)]
    assert len(close_names("client", notes, {})) == 3


def test_read_names_the_note_a_part_of_its_id_points_to(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write(
        root / "notes" / "gotcha-redirects-are-not-followed-by-default.md", "# Redirects\n\nOff.\n"
    )
    write(root / "notes" / "other.md", "# Other\n\nText.\n")
    paths = app.locate(root)
    app.index(paths)
    with pytest.raises(NoteNotFoundError) as err:
        app.read_note(paths, "gotcha-redirect")
    assert "did you mean 'notes/gotcha-redirects-are-not-followed-by-default'?" in str(err.value)
