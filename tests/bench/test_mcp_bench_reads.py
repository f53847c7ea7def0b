"""bench/mcp_bench.py reads back each search's first hit by the id the answer gives,
whatever characters its file name holds (obsidian-hub's weekly roundups are named
``2021-11-20  Live Preview Updates.md``, with two spaces: the bench's text parser cut
the id there and reported "read (130 calls, 2 failed)")."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from rubi import app
from rubi.core.errors import RubiError

from helpers import REPO


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))
    import mcp_bench

    return mcp_bench


def test_the_first_hit_of_a_file_named_with_two_spaces_reads_back(
    bench: ModuleType, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    (vault / "Roundup").mkdir(parents=True)
    name = "Roundup/2021-11-20  Live Preview Updates.md"
    (vault / name).write_text(
        "# Live preview updates\nLive preview shows fancy checkboxes.\n", encoding="utf-8"
    )
    (vault / "Other.md").write_text("# Other\nNothing about it.\n", encoding="utf-8")
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, "live preview fancy checkboxes")
    _, data = app.search_answer(result, 1500, open_hint="read")

    hit = bench.first_hit(data)
    assert hit == name.removesuffix(".md")
    assert app.read_note(paths, hit).note.path == name  # the id the bench sends to `read`


def test_an_answer_without_hits_or_data_gives_no_hit(bench: ModuleType) -> None:
    assert bench.first_hit({"query": "x", "relevant": False, "ids": []}) is None
    assert bench.first_hit(None) is None
    assert bench.first_hit("1. [note] Title — a.md") is None


def test_reading_the_cut_id_fails(tmp_path: Path) -> None:
    """What the failed reads were: the id cut at the two spaces names no note."""
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "2021-11-20  Live Preview Updates.md").write_text("# Live\ntext\n", encoding="utf-8")
    paths = app.locate(vault)
    app.index(paths)
    with pytest.raises(RubiError):
        app.read_note(paths, "2021-11-20")
