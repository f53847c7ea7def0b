"""An index another version of rubi built is rebuilt once, and the user is told why the
first search takes longer, in one line; the searches after it say nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rubi import app
from rubi.core.indexformat import SCHEMA_VERSION
from rubi.core.paths import VaultPaths
from rubi.index.warm import forget_indexes
from rubi.sync import forget_vault_syncs
from rubi.sync.rows import open_store

from helpers import write


def _indexed_by_an_older_rubi(tmp_path: Path) -> VaultPaths:
    """A one-note vault indexed, its store then marked as an older rubi wrote it (the
    index format before this one), and this process's caches forgotten (a new
    process)."""
    root = tmp_path / "vault"
    write(root / "alpha.md", "# Alpha\n\nThe zanzibarish release checklist.\n")
    paths = app.locate(root)
    app.index(paths)
    store = open_store(paths.store_file, create=False)
    assert store is not None
    with store.transaction():
        store.set_meta({"schema": SCHEMA_VERSION - 1})
    store.close()
    forget_vault_syncs()
    forget_indexes()
    return paths


def test_an_index_of_another_format_is_rebuilt_once_with_one_line_saying_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    paths = _indexed_by_an_older_rubi(tmp_path)
    with caplog.at_level(logging.WARNING, logger="rubi"):
        assert [h.id for h in app.search(paths, "zanzibarish").hits] == ["alpha"]
        assert [h.id for h in app.search(paths, "zanzibarish").hits] == ["alpha"]
    lines = [r.getMessage() for r in caplog.records if "another version of rubi" in r.getMessage()]
    assert lines == [
        "this vault's index was built by another version of rubi (index format "
        f"{SCHEMA_VERSION - 1}, now {SCHEMA_VERSION}); rebuilding it once, which takes longer "
        "than a search"
    ]


def test_a_first_index_says_nothing_about_versions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "vault"
    write(root / "alpha.md", "# Alpha\n\nText.\n")
    with caplog.at_level(logging.WARNING, logger="rubi"):
        app.index(app.locate(root))
    assert not [r for r in caplog.records if "another version of rubi" in r.getMessage()]


def test_status_of_an_index_of_another_format_rebuilds_it_instead_of_saying_never(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``rubi status`` read the old graph's counts beside "indexed at never" (the
    manifest of another version reads as none) and rebuilt nothing; it now rebuilds
    the index once, as a search does, with the same one line."""
    paths = _indexed_by_an_older_rubi(tmp_path)
    with caplog.at_level(logging.WARNING, logger="rubi"):
        shown = app.status(paths)
        again = app.status(paths)
    assert shown.indexed_at > 0 and again.indexed_at == shown.indexed_at
    assert shown.notes == 1
    lines = [r.getMessage() for r in caplog.records if "another version of rubi" in r.getMessage()]
    assert len(lines) == 1
