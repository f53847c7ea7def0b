"""Each private Whoosh attribute rubi reads or calls (:mod:`rubi.index.whooshinternals`)
exists in the installed Whoosh and has the shape rubi uses: a Whoosh upgrade that
changes one fails the test named after it."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as windex
from whoosh.fields import ID, TEXT, Schema
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import PostingPool, SegmentWriter

from rubi.index import whooshinternals as wi

BODIES = ["common apple", "common pear pear", "common plum plum plum", "lonely"]


def _schema() -> Schema:
    return Schema(id=ID(stored=True, unique=True), body=TEXT)


@pytest.fixture
def ix(tmp_path: Path) -> Iterator[Any]:
    """An index of :data:`BODIES` in one committed segment."""
    (tmp_path / "ix").mkdir()
    index = windex.create_in(str(tmp_path / "ix"), _schema())
    writer = index.writer()
    for n, body in enumerate(BODIES):
        writer.add_document(id=str(n), body=body)
    writer.commit()
    yield index
    index.close()


def _leaf(ix: Any) -> Any:
    reader = ix.reader()
    leaves = [leaf for leaf, _ in reader.leaf_readers()]
    assert len(leaves) == 1
    return leaves[0]


def test_the_posting_pool_hooks_rubi_overrides_exist_with_their_signatures() -> None:
    params = {
        name: list(inspect.signature(getattr(PostingPool, name)).parameters)
        for name in wi.POOL_HOOKS
    }
    assert params == {
        "_write_run": ["self", "f", "items"],
        "_read_run": ["self", "path"],
        "_merge_runs": ["self", "paths"],
    }


def test_temp_storage_is_where_a_writer_makes_its_run_files(ix: Any) -> None:
    writer = ix.writer()
    try:
        storage = wi.temp_storage(writer)
        assert callable(storage.create_file) and callable(storage.open_file)
    finally:
        writer.cancel()


def test_a_finalized_segment_committed_by_its_table_of_contents_is_searchable(ix: Any) -> None:
    writer = ix.writer()
    writer.add_document(id="9", body="common fig")
    old = list(writer.segments)
    segment = wi.finalize_segment(writer)
    assert segment.doc_count_all() == 1
    wi.commit_segments(writer, [*old, segment])
    wi.finish_writer(writer)
    assert writer.is_closed
    with ix.searcher() as searcher:
        assert searcher.doc_count() == len(BODIES) + 1


def test_finishing_a_writer_releases_its_lock_and_commits_nothing(ix: Any) -> None:
    writer = ix.writer()
    writer.add_document(id="9", body="common fig")
    wi.finalize_segment(writer)  # its files closed; no table of contents lists it
    wi.finish_writer(writer)
    assert ix.doc_count() == len(BODIES)
    ix.writer().cancel()  # the lock is free again


def test_segment_and_docnum_maps_an_index_document_to_its_segment(ix: Any) -> None:
    writer = ix.writer()
    writer.add_document(id="9", body="common fig")
    writer.commit(merge=False)  # a second segment
    writer = ix.writer()
    try:
        segment, local = wi.segment_and_docnum(writer, len(BODIES))
        assert (segment.doc_count_all(), local) == (1, 0)
        segment, local = wi.segment_and_docnum(writer, 2)
        assert (segment.doc_count_all(), local) == (len(BODIES), 2)
    finally:
        writer.cancel()


def test_field_length_totals_are_the_per_document_writers_running_sums(ix: Any) -> None:
    writer = ix.writer()
    assert isinstance(writer, SegmentWriter)
    try:
        writer.add_document(id="9", body="common fig fig")
        totals = wi.field_length_totals(writer.perdocwriter)
        assert totals["body"] == 3
    finally:
        writer.cancel()


def test_a_segment_keeps_its_field_length_totals(ix: Any) -> None:
    segment = _leaf(ix).segment()
    lengths = wi.segment_field_lengths(segment)
    assert lengths is not None
    assert lengths["body"] == sum(len(b.split()) for b in BODIES)
    assert wi.segment_field_lengths(object()) is None


def test_the_lengths_column_holds_a_byte_per_document(ix: Any) -> None:
    leaf = _leaf(ix)
    column = wi.lengths_column(leaf, "body")
    assert column is not None
    raw = wi.column_bytes(column)
    assert isinstance(raw, bytes) and len(raw) == len(BODIES)
    expected = [byte_to_length(length_to_byte(len(b.split()))) for b in BODIES]
    assert [byte_to_length(b) for b in raw] == expected
    assert wi.lengths_column(leaf, "nosuchfield") is None


def test_on_disk_postings_come_in_blocks_of_ids_and_weights(ix: Any) -> None:
    leaf = _leaf(ix)
    matcher = leaf.postings("body", "common")
    assert wi.has_blocks(matcher)
    ids, weights = wi.block_postings(matcher)
    assert list(ids) == [0, 1, 2] and list(weights) == [1.0, 1.0, 1.0]
    wi.next_block(matcher)
    assert not matcher.is_active()
    matcher = leaf.postings("body", "plum")
    matcher.block_min_id()  # decodes the block's ids
    assert list(wi.block_ids(matcher)) == [2]
    assert not wi.has_blocks(object())


OWN_PRIVATES = {"_ix"}
"""Private attributes of rubi's own classes that a module of rubi.index reads on another
object (``SearchIndex._ix``, set on the fresh index a rebuild makes)."""


def test_no_other_module_of_the_index_reaches_below_whoosh_s_api() -> None:
    """Outside :mod:`rubi.index.whooshinternals`, no module of ``rubi.index`` reads a
    private attribute of an object other than its own (``self``, ``cls``)."""
    import ast

    import rubi.index

    reaches = []
    for path in sorted(Path(rubi.index.__file__).parent.glob("*.py")):
        if path.name == "whooshinternals.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__") or node.attr in OWN_PRIVATES:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            reaches.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert reaches == []
