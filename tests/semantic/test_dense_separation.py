"""Whether the dense list votes in a vault: measured on its own titles when indexed,
stored beside the vectors, read by every search (rubi.semantic.separation)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi import app, semantic
from rubi.core.cachefolder import cache_home
from rubi.semantic.separation import (
    SEPARATION_FORMAT,
    Separation,
    Tally,
    list_may_vote,
    needs_measuring,
    read_separation,
    separation_file,
    text_script,
    write_separation,
)
from rubi.semantic.status import status_line

needs_extra = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

WRONG = Separation("m", "t", 100, {"latin": Tally(100, 20, 6), "cjk": Tally(100, 40, 5)})
RIGHT = Separation("m", "t", 100, {"latin": Tally(100, 70, 60)})


def _index_dir(name: str = "vault-0") -> Path:
    folder = cache_home() / "indexes" / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_query_s_script_is_the_one_most_of_its_letters_are_in() -> None:
    assert text_script("how do I embed a file") == "latin"
    assert text_script("Việt Nam tiếng") == "latin"
    assert text_script("как встроить файл") == "cyrillic"
    assert text_script("如何嵌入文件 in Obsidian") == "cjk"
    assert text_script("ファイルを埋め込む") == "cjk"
    assert text_script("123 -- ?") is None


def test_the_list_votes_only_where_its_votes_were_mostly_right() -> None:
    assert Tally(100, 70, 60).votes
    assert Tally(100, 25, 12).votes  # about half right: the mixed-language vault's Latin
    assert not Tally(100, 20, 6).votes  # speaks, but wrong most of the time
    assert not Tally(100, 4, 4).votes  # right, but almost never stands out
    assert not Tally(100, 0, 0).votes


def test_a_vault_never_measured_keeps_the_list_per_query() -> None:
    assert list_may_vote(_index_dir(), "how do I embed a file")


def test_the_stored_measurement_decides_per_script() -> None:
    folder = _index_dir()
    write_separation(folder, WRONG)
    assert not list_may_vote(folder, "how do I embed a file")
    assert not list_may_vote(folder, "如何嵌入文件")
    write_separation(folder, RIGHT)
    assert list_may_vote(folder, "how do I embed a file")
    # no title of the vault is in Cyrillic: too few to tell, the list decides per query
    assert list_may_vote(folder, "как встроить файл")
    write_separation(folder, Separation("m", "t", 10, {"latin": Tally(10, 9, 1)}))
    assert list_may_vote(folder, "how do I embed a file")  # a small vault: too few
    assert os.stat(separation_file(folder)).st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        json.dumps({"format": SEPARATION_FORMAT + 1, "scripts": {}}).encode(),
        json.dumps({"format": SEPARATION_FORMAT, "model": "m"}).encode(),
        json.dumps(
            {
                "format": SEPARATION_FORMAT,
                "model": "m",
                "token": "t",
                "documents": 1,
                "scripts": {"latin": {"sampled": "x"}},
            }
        ).encode(),
    ],
)
def test_a_damaged_or_foreign_measurement_is_read_as_never_taken(
    body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _index_dir()
    separation_file(folder).write_bytes(body)
    os.chmod(separation_file(folder), 0o600)
    with caplog.at_level(logging.WARNING):
        assert read_separation(folder) is None
    assert list_may_vote(folder, "how do I embed a file")
    assert len(caplog.records) == 1 and "\n" not in caplog.records[0].getMessage()


def test_a_measurement_another_user_may_write_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = _index_dir()
    write_separation(folder, WRONG)
    os.chmod(separation_file(folder), 0o666)
    with caplog.at_level(logging.WARNING):
        assert read_separation(folder) is None
    assert "another user" in caplog.text


def test_a_measurement_outside_the_cache_is_never_read(tmp_path: Path) -> None:
    write_separation(tmp_path, WRONG)
    assert read_separation(tmp_path) is None


def test_the_list_is_measured_again_when_its_vectors_change() -> None:
    folder = _index_dir()
    assert needs_measuring(folder, model="m", token="t", documents=100)
    write_separation(folder, WRONG)
    assert not needs_measuring(folder, model="m", token="t", documents=120)
    assert needs_measuring(folder, model="m", token="t", documents=126)
    assert needs_measuring(folder, model="m", token="t", documents=74)
    assert needs_measuring(folder, model="m2", token="t", documents=100)
    assert needs_measuring(folder, model="m", token="t2", documents=100)


@needs_extra
def test_an_index_run_measures_the_list_on_the_vault_s_own_titles(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    found = read_separation(paths.index_dir)
    assert found is not None and set(found.scripts) == {"latin"}
    latin = found.scripts["latin"]
    assert latin.sampled == 100 and latin.votes  # Obsidian Help: its votes are right
    line = status_line(paths.index_dir)
    assert line.startswith("on: 173 documents embedded") and "latin votes" in line


@needs_extra
def test_a_vault_whose_list_votes_wrongly_is_searched_without_the_vectors(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    question = "formulas in my writing"  # the list votes on it when measured right
    voted = app.search(paths, question, scope="notes", refresh=False).hits[0].why
    assert any(w.startswith("close in meaning") for w in voted)
    write_separation(paths.index_dir, WRONG)
    line = status_line(paths.index_dir)
    # Latin and CJK measured and shut; a Cyrillic query still scores the list
    assert "left out of queries in latin, cjk" in line and "left out of every search" not in line
    assert "another script decides per query" in line
    assert list_may_vote(paths.index_dir, "как встроить формулу")

    def no_vectors(*args: object, **kwargs: object) -> None:
        raise AssertionError("the vectors were loaded")

    monkeypatch.setattr("rubi.semantic.dense.dense_index_for", no_vectors)
    hits = app.search(paths, question, scope="notes", refresh=False).hits
    assert hits and not any(w.startswith("close in meaning") for h in hits for w in h.why)


@needs_extra
def test_a_cold_search_where_the_list_is_left_out_never_imports_numpy(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    write_separation(paths.index_dir, WRONG)
    code = (
        "import sys; from pathlib import Path; from rubi import app;"
        "from rubi.app.searching import one_search; one_search();"
        f"r = app.search(app.locate(Path({str(help_vault)!r})), 'formulas in my writing',"
        " scope='notes', refresh=False);"
        "print(len(r.hits), 'numpy' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    ).stdout.split()
    assert int(out[0]) > 0 and out[1] == "False"


@needs_extra
def test_a_save_keeps_the_measurement_and_a_full_run_takes_it_again(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    taken = read_separation(paths.index_dir)
    assert taken is not None
    marked = Separation(taken.model, taken.token, taken.documents, {"latin": Tally(100, 1, 1)})
    write_separation(paths.index_dir, marked)  # the same vectors file: it stands
    stored = separation_file(paths.index_dir).read_bytes()
    note = next(help_vault.rglob("Formulas.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    app.index(paths)  # one note re-embedded: the figure stands
    assert separation_file(paths.index_dir).read_bytes() == stored
    app.index(paths, full=True)
    found = read_separation(paths.index_dir)
    assert found is not None and found.scripts["latin"] == taken.scripts["latin"]
