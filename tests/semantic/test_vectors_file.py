"""The vectors file as a cold reader meets it: the documents' rows open without a
passage vector being read, from the flat documents file once one reader wrote it; an
older vectors file is converted in place, a damaged one built anew by a full run, a
planted one refused; a bad or stale documents file is refused (in one line when bad)
and written again."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from rubi import app, semantic
from rubi.semantic import vectors
from rubi.semantic.dense import DenseIndex, DenseRanking, dense_index_for, query_vector
from rubi.semantic.docmatrix import docs_file
from rubi.semantic.sync import vectors_file
from rubi.semantic.vectors import VECTORS_FORMAT, open_vectors

from helpers import copy_vault

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

QUERIES = ["a new journal page for each day", "colored boxes for warnings and tips"]

_FORMAT_2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, digest TEXT NOT NULL,
    headings TEXT NOT NULL, gen INTEGER NOT NULL, vecs BLOB NOT NULL);
CREATE INDEX docs_gen ON docs (gen);
CREATE TABLE gone (id TEXT PRIMARY KEY, gen INTEGER NOT NULL);
"""


def _indexed(tmp_path: Path) -> tuple[app.VaultPaths, Path]:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    return paths, vectors_file(paths.index_dir)


def _rankings(path: Path, *, on_demand: bool) -> list[DenseRanking]:
    index = DenseIndex(path, on_demand=on_demand)
    index.refresh()
    return [index.ranked(query_vector(q, []), lambda _: True, 30) for q in QUERIES]


def _write_format_2(path: Path) -> dict[str, str]:
    """Rewrite ``path`` as format 2 wrote it (one blob per document: its whole vector,
    then its passages'), rows in the order of a scan; the meta it had."""
    store = open_vectors(path, create=False)
    assert store is not None
    rows, _ = store.changes_since(-1)
    digests = store.digests()
    meta = {k: v for k in ("model", "dims", "gen", "base") if (v := store.meta(k))}
    store.close()
    path.unlink()
    conn = sqlite3.connect(path)
    conn.executescript(_FORMAT_2)
    with conn:
        conn.executemany(
            "INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?)",
            [(r.id, r.kind, digests[r.id], _json(r.headings), r.gen, r.vecs) for r in rows],
        )
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [("format", "2"), *meta.items()])
    conn.close()
    path.chmod(0o600)
    return meta


def _json(heads: tuple[str, ...]) -> str:
    import json

    return json.dumps(list(heads))


def _lazy_load(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[DenseIndex, list[tuple[str, str]]]:
    """An index loaded on demand, and the (table, column) pairs SQLite read for it."""
    reads: list[tuple[str, str]] = []
    opened = vectors.open_vectors

    def traced(at: Path, **kwargs: bool) -> vectors.VectorStore | None:
        store = opened(at, **kwargs)
        if store is not None:

            def note(action: int, table: str | None, column: str | None, *_: object) -> int:
                if action == sqlite3.SQLITE_READ and table and column:
                    reads.append((table, column))
                return sqlite3.SQLITE_OK

            store._conn.set_authorizer(note)
        return store

    with monkeypatch.context() as patch:
        patch.setattr(vectors, "open_vectors", traced)
        lazy = DenseIndex(path, on_demand=True)
        lazy.refresh()
    assert lazy._lazy and len(lazy) > 16
    return lazy, reads


def _lazy_rankings(lazy: DenseIndex) -> list[DenseRanking]:
    return [lazy.ranked(query_vector(q, []), lambda _: True, 30) for q in QUERIES[:1]]


def test_loading_the_documents_reads_no_passage_vector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a one-shot process reads on its load: every document's row, none of the
    passages' vectors (those of its candidates it reads when it searches)."""
    _, path = _indexed(tmp_path)
    docs_file(path).unlink(missing_ok=True)
    _, reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") in reads
    assert not [r for r in reads if r[0] == "passages" or r[1] == "vecs"], reads


def test_the_next_cold_reader_opens_the_documents_file_and_ranks_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, path = _indexed(tmp_path)
    expected = _rankings(path, on_demand=False)[:1]
    first, first_reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") in first_reads and docs_file(path).is_file()
    assert _lazy_rankings(first) == expected
    second, reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") not in reads and ("docs", "headings") not in reads
    assert np.array_equal(second._docs, first._docs) and second._ids == first._ids
    assert _lazy_rankings(second) == expected
    assert docs_file(path).stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("harm", ["damaged", "planted", "cut short", "not ours"])
def test_a_bad_documents_file_is_refused_in_one_line_and_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, harm: str
) -> None:
    _, path = _indexed(tmp_path)
    expected = _rankings(path, on_demand=False)[:1]
    _lazy_load(path, monkeypatch)
    flat = docs_file(path)
    good = flat.read_bytes()
    if harm == "damaged":
        flat.write_bytes(good[:-9] + bytes([good[-9] ^ 0xFF]) + good[-8:])
    elif harm == "planted":
        flat.chmod(0o666)
    elif harm == "cut short":
        flat.write_bytes(good[: len(good) // 2])
    else:
        flat.write_bytes(b"\x80\x04pickle" + good[13:])
    with caplog.at_level(logging.WARNING):
        lazy, reads = _lazy_load(path, monkeypatch)
    lines = [r.getMessage() for r in caplog.records if "semantic documents" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0], lines
    assert ("docs", "doc") in reads  # read from the vectors file instead
    assert _lazy_rankings(lazy) == expected
    assert flat.read_bytes() == good and flat.stat().st_mode & 0o777 == 0o600


def test_a_documents_file_of_another_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After a save (a new gen) or with a vectors file built anew (a new token) the
    documents file is behind: read from SQLite, quietly, and written again."""
    paths, path = _indexed(tmp_path)
    _lazy_load(path, monkeypatch)
    note = next(p for p in sorted(paths.root.rglob("*.md")) if p.stat().st_size > 500)
    note.write_text("# Soup\n\nA slow cooker recipe for lentil soup.\n", encoding="utf-8")
    app.index(paths)
    expected = _rankings(path, on_demand=False)[:1]
    with caplog.at_level(logging.WARNING):
        lazy, reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") in reads and not caplog.records
    assert _lazy_rankings(lazy) == expected
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'token'", ("00" * 16,))
    conn.close()
    _, reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") in reads
    _, reads = _lazy_load(path, monkeypatch)
    assert ("docs", "doc") not in reads


def test_a_format_2_file_is_converted_in_place_and_ranks_alike(tmp_path: Path) -> None:
    paths, path = _indexed(tmp_path)
    expected = _rankings(path, on_demand=False)
    meta = _write_format_2(path)
    assert _rankings(path, on_demand=True) == expected
    assert _rankings(path, on_demand=False) == expected
    store = open_vectors(path, create=False)
    assert store is not None
    assert store.meta("format") == str(VECTORS_FORMAT)
    assert {k: store.meta(k) for k in meta} == meta  # the same gen: readers catch up
    gens = store.gens()
    store.close()
    app.index(paths, full=True)  # nothing is embedded again: the digests were kept
    store = open_vectors(path, create=False)
    assert store is not None
    assert store.gens() == gens
    store.close()


def test_a_file_of_an_unknown_format_is_emptied_and_a_full_run_fills_it(tmp_path: Path) -> None:
    paths, path = _indexed(tmp_path)
    expected = _rankings(path, on_demand=False)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
    conn.close()
    assert dense_index_for(paths.index_dir) is None  # nothing to rank: the channel is off
    app.index(paths, full=True)
    assert _rankings(path, on_demand=True) == expected


def test_a_damaged_file_is_skipped_with_one_line_and_built_anew_by_a_full_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    paths, path = _indexed(tmp_path)
    expected = _rankings(path, on_demand=False)
    path.write_bytes(b"not a database " * 400)
    with caplog.at_level(logging.WARNING):
        assert dense_index_for(paths.index_dir) is None
    skipped = [r.getMessage() for r in caplog.records if "semantic channel" in r.getMessage()]
    assert len(skipped) == 1 and "not a database" in skipped[0]
    app.index(paths)  # an incremental run would leave most notes unembedded: it leaves it
    assert path.read_bytes().startswith(b"not a database")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        app.index(paths, full=True)
    assert any("damaged" in r.getMessage() for r in caplog.records)
    assert _rankings(path, on_demand=True) == expected
    assert _rankings(path, on_demand=False) == expected


def test_a_vectors_file_others_can_write_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    paths, path = _indexed(tmp_path)
    path.chmod(0o666)
    with caplog.at_level(logging.WARNING):
        assert dense_index_for(paths.index_dir) is None
    assert any("another user" in r.getMessage() for r in caplog.records)


def test_vectors_that_are_not_whole_rows_are_not_written(tmp_path: Path) -> None:
    _, path = _indexed(tmp_path)
    store = open_vectors(path, create=False)
    assert store is not None
    gen, dims, model = store.gen(), int(store.meta("dims") or 0), store.meta("model") or ""
    with pytest.raises(ValueError, match="whole"):
        store.write(
            [("x", "note", "d", ["a"], b"\0" * (2 * dims + 3))], (), model_id=model, dims=dims
        )
    assert store.gen() == gen and store.digest("x") is None
    store.close()
