"""Opening the store while another process closes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.core.paths import cache_home
from rubi.core.picklefiles import check_trusted
from rubi.sync import rows as store_module
from rubi.sync.rows import open_store


def test_a_journal_removed_between_its_check_and_its_stat_is_no_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SQLite removes store.sqlite-wal when the last connection closes: a reader that
    # saw the file a moment before must open the store all the same (`rubi links`
    # failed with "store.sqlite-wal: No such file or directory" beside a watcher).
    path = cache_home() / "indexes" / "v" / "store.sqlite"
    path.parent.mkdir(parents=True)
    writer = open_store(path, create=True)
    assert writer is not None
    real = check_trusted

    def vanishing(part: Path) -> None:
        if part.name.endswith(("-wal", "-shm")):
            raise FileNotFoundError(2, "No such file or directory", str(part))
        real(part)

    monkeypatch.setattr(store_module, "check_trusted", vanishing)
    reader = open_store(path, create=False)
    assert reader is not None
    reader.close()
    writer.close()
