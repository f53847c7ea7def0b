"""A process that searches once reads the index's segments through a memory map: the
same postings, stored fields and scores as plain reads, over several segments and
deleted documents, and after a merge removed the segment a reader has mapped."""

from __future__ import annotations

import io
import mmap
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rubi.core.segmentreads as segmentreads
import rubi.index.deletions as deletions
from index.test_termscore import _compare, _doc
from rubi.core.paths import cache_home
from rubi.index.mappedstorage import MappedFile, MappedStorage
from rubi.index.searchindex import SearchIndex


@pytest.fixture
def mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's indexes map their segments, as a one-shot process's do."""
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])


@pytest.mark.usefixtures("mapped")
def test_mapped_reads_score_as_the_reference_over_segments_and_deletions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    rng = random.Random(11)
    index = SearchIndex(cache_home() / "mapped" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(300))
    _compare(index)
    assert isinstance(index._open().storage, MappedStorage)
    for version in range(1, 3):
        index.apply([_doc(i, version, rng) for i in rng.sample(range(300), 40)], ["d011"])
        _compare(index)
    index.close()


def test_plain_and_mapped_readers_read_the_same_postings_and_stored_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    directory = cache_home() / "both" / "whoosh"
    writer = SearchIndex(directory)
    writer.rebuild(_doc(i, 0, rng) for i in range(200))
    writer.apply([_doc(i, 1, rng) for i in range(0, 200, 7)], ["d003"])
    writer.close()

    def everything() -> list[object]:
        index = SearchIndex(directory)
        with index._open().reader() as reader:
            out: list[object] = [list(reader.all_stored_fields())]
            for field, text in reader.all_terms():
                m = reader.postings(field, text)
                out.append((field, text, list(m.all_ids()), reader.doc_frequency(field, text)))
            storage = type(index._open().storage)
        index.close()
        return [storage, *out]

    plain = everything()
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    mapped = everything()
    assert plain[0] is not MappedStorage and mapped[0] is MappedStorage
    assert plain[1:] == mapped[1:] and len(plain) > 100


@pytest.mark.skipif(sys.platform == "win32", reason="a mapped file cannot be removed there")
def test_a_mapped_reader_reads_on_after_a_merge_removes_its_segments(tmp_path: Path) -> None:
    from whoosh import fields, index

    schema = fields.Schema(id=fields.ID(stored=True), body=fields.TEXT)
    ix = index.create_in(str(tmp_path), schema)
    for batch in range(3):  # three segments
        with ix.writer() as w:
            for i in range(20):
                w.add_document(id=f"{batch}-{i}", body=f"alpha beta{i}")
    reader = MappedStorage(str(tmp_path)).open_index().reader()
    assert reader.is_atomic() is False  # one mapped file per segment
    mapped = set(tmp_path.glob("*.seg"))
    ix.optimize()  # one new segment; the three mapped ones are deleted
    assert mapped and mapped.isdisjoint(tmp_path.glob("*.seg"))
    ids = {reader.stored_fields(d)["id"] for d in reader.postings("body", "alpha").all_ids()}
    assert len(ids) == 60
    reader.close()


def test_a_window_reads_as_a_file_does(tmp_path: Path) -> None:
    data = b"first line\nsecond\n" + pickle.dumps({"k": [1, 2]}) + b"tail"
    path = tmp_path / "f.bin"
    path.write_bytes(b"XX" + data + b"YY")
    with open(path, "rb") as fh:
        source = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    window = MappedFile(source, 2, len(data), "f", owner=True)
    plain = io.BytesIO(data)
    assert window.readline() == plain.readline() == b"first line\n"
    assert window.read(3) == plain.read(3) == b"sec"
    assert window.tell() == plain.tell()
    assert window.readline() == plain.readline()
    assert window.read_pickle() == pickle.load(plain) == {"k": [1, 2]}
    assert window.read() == plain.read() == b"tail"
    assert window.read(5) == plain.read(5) == b""
    assert window.seek(-4, 2) == plain.seek(-4, 2)
    assert window.read() == plain.read()
    assert window.get(0, 5) == data[:5] and window.get(len(data) - 2, 10) == b"il"
    part = window.subset(11, 7)
    assert part.read() == b"second\n" and part.get(0, 3) == b"sec"
    window.close()
    with pytest.raises(ValueError):
        source[0:1]


def test_a_one_shot_search_maps_segments_and_a_long_lived_process_does_not() -> None:
    code = (
        "from rubi.core.segmentreads import segments_mapped\n"
        "print(segments_mapped())\n"
        "from rubi.app.searching import one_search\n"
        "one_search()\n"
        "print(segments_mapped())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
