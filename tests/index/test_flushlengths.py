"""A flush that reads field lengths once per field writes the same segment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from whoosh import index as windex

from rubi.core.paths import cache_home
from rubi.index.flushlengths import CachedLengths
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex


def _docs() -> list[IndexDoc]:
    return [
        IndexDoc(
            id=f"n{i}",
            kind="note",
            path=f"n{i}.md",
            type="note",
            status="active",
            fields={
                "title": f"note {i}",
                "body": " ".join(f"w{j % 37}" for j in range(i * 7)),  # empty for n0
                "tags": "tag" if i % 3 else "",
            },
        )
        for i in range(120)
    ]


def _segment_files(directory: Path) -> dict[str, bytes]:
    ix = windex.open_dir(str(directory))
    out: dict[str, bytes] = {}
    for segment in ix._segments():
        files = segment.open_compound_file(ix.storage)
        for name in files.list():
            f = files.open_file(name)
            out[name.replace(segment.segment_id(), "X")] = f.read()
            f.close()
    return out


def test_same_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    cached = SearchIndex(cache_home() / "lengths-test" / "cached")
    cached.rebuild(_docs())
    monkeypatch.setattr("rubi.index.writing.cache_flush_lengths", lambda writer: None)
    plain = SearchIndex(cache_home() / "lengths-test" / "plain")
    plain.rebuild(_docs())
    got, want = _segment_files(cached.directory), _segment_files(plain.directory)
    assert got.keys() == want.keys() and got == want


class _Reader:
    def __init__(self) -> None:
        self.asked: list[tuple[int, str, int]] = []

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> Any:
        self.asked.append((docnum, fieldname, default))
        return None if docnum % 2 else docnum * 10

    def close(self) -> None:
        self.asked.append((-1, "closed", 0))


def test_answers_from_one_read_per_field() -> None:
    reader = _Reader()
    lengths = CachedLengths(reader, 4)
    assert [lengths.doc_field_length(d, "body") for d in (0, 1, 2, 3, 2)] == [0, None, 20, None, 20]
    assert len(reader.asked) == 4  # each document once
    assert lengths.doc_field_length(7, "body") is None  # out of range: the reader's answer
    lengths.close()
    assert reader.asked[-1] == (-1, "closed", 0)
