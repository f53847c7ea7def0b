"""An index an older rubi built, whose parse kept a link target holding a NUL (a
wikilink around a code span), is repaired by the next incremental ``rubi index``: the
first cold reader that cannot write the flat graph says so once, naming that command,
and records the notes to parse again; later readers stay quiet; the run re-parses
them though their bytes did not change, and the flat graph is written."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest

import rubi.markdown
from rubi import app
from rubi.core.paths import VaultPaths
from rubi.graph import readmode
from rubi.graph.flat import read_flat
from rubi.sync import forget_vault_syncs
from rubi.sync.reparse import marked
from rubi.sync.vaultsync import VaultSync

from helpers import write

OLD_TARGET = "the \x00 command"
"""What a parse before the fix made of ``[[the `run` command]]``."""


@pytest.fixture
def old_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> VaultPaths:
    """A vault indexed by a parse that keeps the NUL target (the older rubi's)."""
    root = tmp_path / "vault"
    write(root / "notes" / "a.md", "# A\n\nSee [[the `run` command]] and [[beta]].\n")
    write(root / "notes" / "beta.md", "# Beta\n\n[[a]]\n")
    real = rubi.markdown.parse_note

    def older(text: str, path: str, **kwargs: Any) -> Any:
        note = real(text, path, **kwargs)
        if path == "notes/a.md":
            kept = dataclasses.replace(note.links[0], target=OLD_TARGET)
            note = dataclasses.replace(note, links=[*note.links, kept])
        return note

    with monkeypatch.context() as patch:
        patch.setattr(rubi.markdown, "parse_note", older)
        paths = app.locate(root)
        app.index(paths, full=True)
    forget_vault_syncs()
    paths.graph_file.with_name("reparse.json").unlink()  # the older rubi wrote none
    return paths


def _cold_read(paths: VaultPaths, caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    forget_vault_syncs()
    caplog.clear()
    with pytest.MonkeyPatch.context() as patch, caplog.at_level(logging.INFO, logger="rubi"):
        patch.setattr(readmode, "_frozen", True)
        VaultSync(paths).graph()
    forget_vault_syncs()
    return [r for r in caplog.records if "graph.flat" in r.getMessage()]


def test_the_first_incremental_index_repairs_an_older_parse(
    old_index: VaultPaths, caplog: pytest.LogCaptureFixture
) -> None:
    paths = old_index
    flat = paths.graph_file.with_name("graph.flat")
    reparse = paths.graph_file.with_name("reparse.json")
    first = _cold_read(paths, caplog)
    assert [r.levelno for r in first] == [logging.WARNING]
    assert "`rubi index`" in first[0].getMessage() and "--full" not in first[0].getMessage()
    assert marked(reparse) == {"notes/a"}
    later = _cold_read(paths, caplog)
    assert [r.levelno for r in later] == [logging.INFO]  # not on stderr again
    assert not flat.exists()

    report = app.index(paths)  # incremental: the note's bytes did not change
    assert report.updated == 1 and not report.full
    _cold_read(paths, caplog)
    assert flat.exists() and not reparse.exists()
    assert all("\x00" not in node for node in read_flat(flat)[0].graph)
    assert _cold_read(paths, caplog) == []


def test_a_mark_that_is_not_a_list_of_ids_is_ignored(tmp_path: Path) -> None:
    for text in ("{", '{"a": 1}', "[1, 2]", '"notes/a"'):
        write(tmp_path / "reparse.json", text)
        assert marked(tmp_path / "reparse.json") == frozenset()
    assert marked(tmp_path / "absent.json") == frozenset()


def test_a_mark_whose_notes_parse_the_same_is_read_once(tmp_path: Path) -> None:
    """A mark naming notes whose parse changes no link (ids of notes parsed since, a
    file left by another process): the run that reads them commits no graph change,
    and the mark goes with it, or every incremental run would read them again."""
    root = tmp_path / "vault"
    write(root / "notes" / "a.md", "# A\n\nSee [[beta]].\n")
    write(root / "notes" / "beta.md", "# Beta\n\n[[a]]\n")
    paths = app.locate(root)
    app.index(paths, full=True)
    forget_vault_syncs()
    reparse = paths.graph_file.with_name("reparse.json")
    write(reparse, '["notes/a", "../../outside", "/etc/passwd"]')
    assert app.index(paths).updated == 1  # read once
    assert not reparse.exists()
    assert app.index(paths).updated == 0
