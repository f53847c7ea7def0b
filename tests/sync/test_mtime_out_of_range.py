"""A note dated outside what SQLite's 64-bit integers hold in nanoseconds (after 2262
or before 1678: an archive extracted with its dates, a synced folder, ``touch -d``)
is indexed and found like any other: its manifest row stopped the whole run with
``OverflowError: Python int too large to convert to SQLite INTEGER``."""

from __future__ import annotations

import os
from pathlib import Path

from rubi import app

from helpers import notes_vault

YEAR_33658 = 10**21  # 1e12 seconds after 1970, in nanoseconds
BEFORE_1678 = -(10**20)


def test_notes_dated_beyond_sqlite_integers_are_indexed_and_found(tmp_path: Path) -> None:
    paths = notes_vault(
        tmp_path / "v",
        {"zebra.md": "# Zebrafish\n\nZebrafish tanks.\n", "old.md": "# Old\n\nZebrafish of old.\n"},
    )
    os.utime(paths.root / "zebra.md", ns=(YEAR_33658, YEAR_33658))
    os.utime(paths.root / "old.md", ns=(BEFORE_1678, BEFORE_1678))
    app.index(paths)
    found = {h.path for h in app.search(paths, "zebrafish", refresh=False).hits}
    assert found == {"zebra.md", "old.md"}
    again = app.index(paths)  # read again (the stored date is clamped), and unchanged
    assert (again.added, again.updated, again.deleted) == (0, 0, 0)
