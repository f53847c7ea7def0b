"""A flush that writes each term's postings at once writes the segment Whoosh's
posting-by-posting loop writes, to the byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh import index as windex
from whoosh.codec.base import OutOfOrderError
from whoosh.codec.whoosh3 import W3PostingsWriter
from whoosh.fields import ID, Schema

from rubi.core.paths import cache_home
from rubi.index.store import IndexDoc, SearchIndex
from rubi.index.termwriter import bulk_postings
from rubi.index.writing import new_writer


def _docs(count: int, offset: int = 0) -> list[IndexDoc]:
    """Terms in every document (several blocks of 128 postings each), in some, in
    one; frequencies above 255; empty fields."""
    return [
        IndexDoc(
            id=f"n{i}",
            kind="note",
            path=f"n{i}.md",
            type="note",
            status="active",
            fields={
                "title": f"note {i} {'rare' if i == 7 else ''}",
                "body": " ".join(f"w{j % 37}" for j in range(i * 7 % 400))
                + " common" * (1 + i % 300),
                "tags": "tag" if i % 3 else "",
            },
        )
        for i in range(offset, offset + count)
    ]


def _segment_files(directory: Path) -> list[dict[str, bytes]]:
    ix = windex.open_dir(str(directory))
    out: list[dict[str, bytes]] = []
    for segment in ix._segments():
        files = segment.open_compound_file(ix.storage)
        found: dict[str, bytes] = {}
        for name in files.list():
            f = files.open_file(name)
            found[name.replace(segment.segment_id(), "X")] = f.read()
            f.close()
        out.append(found)
    return out


def _build(name: str) -> Path:
    index = SearchIndex(cache_home() / "term-writer" / name)
    index.rebuild(_docs(700))
    index.apply(upserts=_docs(150, offset=650), deletes=["n3"])
    ix = windex.open_dir(str(index.directory))
    writer = new_writer(ix)
    writer.commit(optimize=True)  # the segments merged: their postings flushed again
    return index.directory


def test_segments_equal_whooshs_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    bulk = _segment_files(_build("bulk"))
    monkeypatch.setattr("rubi.index.writing.bulk_postings", lambda writer: None)
    plain = _segment_files(_build("plain"))
    assert len(bulk) == len(plain) == 1
    assert bulk[0].keys() == plain[0].keys() and bulk == plain


def test_a_term_is_added_a_block_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    added: list[int] = []
    original = W3PostingsWriter.add_posting

    def counting(self: W3PostingsWriter, *args: object, **kwargs: object) -> None:
        added.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(W3PostingsWriter, "add_posting", counting)
    index = SearchIndex(cache_home() / "term-writer" / "count")
    index.rebuild(_docs(300))
    assert index.doc_count() == 300
    assert added == []


def test_postings_out_of_order_are_refused(tmp_path: Path) -> None:
    ix = windex.create_in(str(tmp_path), Schema(a=ID, b=ID))
    writer = ix.writer()
    bulk_postings(writer)
    fieldwriter = writer.fieldwriter
    with pytest.raises(OutOfOrderError):
        fieldwriter.add_postings(
            ix.schema, None, [("b", b"x", 0, 1.0, b""), ("a", b"x", 0, 1.0, b"")]
        )
    writer.cancel()
    writer = ix.writer()
    bulk_postings(writer)
    with pytest.raises(OutOfOrderError):
        writer.fieldwriter.add_postings(
            ix.schema, None, [("a", b"y", 0, 1.0, b""), ("a", b"x", 1, 1.0, b"")]
        )
    writer.cancel()
