"""A search index with a segment file gone for good (not replaced by a commit): the
search fails at once with the one line that names the fix, instead of trying again
for the seconds a commit in another process would take (a hook's budget is 5 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rubi.index.searchindex as searchindex
from rubi import app
from rubi.core.errors import IndexCorruptError
from rubi.index.searchindex import SearchIndex


def test_a_segment_file_deleted_fails_the_search_at_once_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    for i in range(5):
        (root / f"n{i}.md").write_text(f"# Note {i}\n\ncache index graph {i}\n", encoding="utf-8")
    paths = app.locate(root)
    app.index(paths)
    segments = sorted(Path(paths.whoosh_dir).glob("*.seg"))
    assert segments
    for segment in segments:
        segment.unlink()
    tries: list[int] = []

    def counted(attempt: int, started: float) -> bool:
        tries.append(attempt)
        return attempt < 2  # as try_again, without its pauses

    monkeypatch.setattr(searchindex, "try_again", counted)
    index = SearchIndex(paths.whoosh_dir)
    try:
        with pytest.raises(IndexCorruptError, match=r"rubi index --full"):
            index.bm25("cache index", limit=5)
    finally:
        index.close()
    assert tries == []  # the generation never changed: no commit was replacing it
