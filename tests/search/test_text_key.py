"""A search digests each file it reads once (rubi.search.textkey.text_key): the
near-duplicate fingerprint and the layout of a shown note are keyed by the same
digest, made by the search's FileText; a changed note is a new key."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.search import layout, passages, textkey
from rubi.search.duplicates import forget_bodies
from rubi.search.hittext import FileText

from helpers import write

NOTES = {
    "sync.md": "# Sync\n\nSync your vault across devices with a sync service.\n\n## Setup\n\n"
    "Turn sync on in the settings, then pick the vault to sync.\n",
    "devices.md": "# Devices\n\nEvery device keeps a copy; sync merges the edits.\n",
    "plugins.md": "# Plugins\n\nA [[Sync|sync]] plugin and a **backup** plugin.\n",
}


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[bytes]:
    """Count every text digested, by its bytes."""
    seen: Counter[bytes] = Counter()

    def blake2b(data: bytes, **kw: Any) -> Any:
        seen[data] += 1
        return hashlib.blake2b(data, **kw)

    monkeypatch.setattr(textkey, "_blake2b", blake2b)
    return seen


def _rendered(paths: app.VaultPaths, query: str) -> str:
    found = app.search(paths, query, top_k=20)
    return app.render_search(found, 1500, open_hint="read(ids)")


def test_a_search_digests_each_file_it_reads_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for rel, text in NOTES.items():
        write(tmp_path / rel, text)
    paths = app.locate(tmp_path)
    app.index(paths)
    forget_bodies()
    monkeypatch.setattr(passages, "layout_of", layout.Layouts(layout.LAYOUT_MEMO_CHARS).get)
    seen = _counting(monkeypatch)
    text = _rendered(paths, "sync devices")
    assert "Sync" in text and "Devices" in text
    assert seen and max(seen.values()) == 1


def test_the_digest_is_the_text_key_of_the_text_read(tmp_path: Path) -> None:
    note = write(tmp_path / "a.md", "# A\n\nsome words é here\n")
    file = FileText(tmp_path, note)
    assert file.digest == textkey.text_key(file.text) == file.digest
    assert layout.text_key is textkey.text_key


def test_a_changed_note_is_cut_and_compared_anew(tmp_path: Path) -> None:
    for rel, text in NOTES.items():
        write(tmp_path / rel, text)
    paths = app.locate(tmp_path)
    app.index(paths)
    assert "merges the edits" in _rendered(paths, "devices copy")
    write(tmp_path / "devices.md", "# Devices\n\nEvery device keeps a copy; sync overwrites.\n")
    app.index(paths)
    again = _rendered(paths, "devices copy")
    assert "sync overwrites" in again and "merges the edits" not in again
