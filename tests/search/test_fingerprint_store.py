"""A one-shot search takes its candidates' near-duplicate fingerprints from the store
the index run wrote (:mod:`rubi.search.printstore`), and collapses them as it did from
their text: a note edited since is made from its text, a damaged store is read around
with one warning, and every run keeps the store in step with the notes."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from rubi import app
from rubi.app.searching import searching_once
from rubi.search import duplicates, printstore
from rubi.search.duplicates import Fingerprint, clean_body, forget_bodies, words_of
from rubi.search.hittext import FileText
from rubi.search.printstore import PRINTS_FILE
from rubi.search.printwriter import print_row
from rubi.search.textkey import text_key

from helpers import counted_bodies, notes_vault, write

GUIDE = (
    "# Dataview\n\nDataview turns your notes into a database you can query with a small "
    "query language. Install it from the community plugins, then write a code block that "
    "lists pages by tag.\n"
)
MENTAL_HEALTH = (
    "# Mental health\n\nWe offer every teammate free sessions with a licensed therapist or "
    "coach through our mental health partner. Sessions are confidential and the company "
    "never sees who used them. You can book up to twelve sessions a year, and more with a "
    "referral. Reach the partner through the app or the website, any time of day.\n"
)
FILES = {
    "Hub/Dataview.md": "---\ntags: [plugin]\naliases: [DV]\n---\n",
    "Guides/Dataview.md": GUIDE,
    "benefits/mental-health.md": MENTAL_HEALTH,
    "people/mental-health.md": MENTAL_HEALTH.replace("any time of day", "at any time"),
    "benefits/time-off.md": "# Time off\n\nTake the dataview sessions off you need.\n",
    "Неделя.md": "# Неделя\n\nСессии терапевта: dataview и ещё раз dataview, «план» на неделю.\n",
}
QUERIES = ("dataview", "therapist sessions", "sessions dataview неделя")


def _vault(root: Path) -> app.VaultPaths:
    """The notes of :data:`FILES` as a plain vault at ``root``, indexed."""
    paths: app.VaultPaths = notes_vault(root, FILES)
    app.index(paths)
    return paths


def _shown(paths: app.VaultPaths, once: bool) -> list[list[tuple[str, tuple[str, ...]]]]:
    forget_bodies()  # each search makes or reads its fingerprints anew
    out = []
    for query in QUERIES:
        if once:
            with searching_once():
                result = app.search(paths, query, refresh=False)
        else:
            result = app.search(paths, query, refresh=False)
        out.append([(h.id, h.also) for h in result.hits])
    return out


def _rows(paths: app.VaultPaths) -> dict[str, tuple[bytes, int, str]]:
    conn = sqlite3.connect(paths.index_dir / PRINTS_FILE)
    try:
        rows = conn.execute("SELECT path, digest, words, vocabulary FROM prints").fetchall()
    finally:
        conn.close()
    return {p: (d, w, v) for p, d, w, v in rows}


@pytest.mark.parametrize("text", [*FILES.values(), "", "a b c d", "x_1 y\u00e9 z" * 9])
def test_a_stored_fingerprint_is_the_one_made_from_the_text(text: str) -> None:
    made = duplicates.make_body("A  Title", text).print
    digest, count, vocabulary = print_row(text)
    assert digest == text_key(text) and count == len(words_of(clean_body(text)))
    kept = Fingerprint.stored("A  Title", count, frozenset(vocabulary.split()))
    assert (kept.title, kept.stub, kept.size, kept.vocabulary) == (
        made.title,
        made.stub,
        made.size,
        made.vocabulary,
    )


def test_a_one_shot_search_collapses_from_the_store_without_making_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    plain = _shown(paths, once=False)
    assert any(also for hits in plain for _, also in hits)  # something was collapsed
    made = counted_bodies(monkeypatch)
    assert _shown(paths, once=True) == plain
    assert made == []  # every candidate's fingerprint came from the store


COMMENTED = {
    "templates/Daily.md": (
        "# Daily\n\n%% Hub template: keep the headings %%\nPlan the day with the templater "
        "plugin and review it each evening.\n<!-- written for the daily review -->\n"
    ),
    "copies/Daily.md": (
        "# Daily\n\n%% another hint %%\nPlan the day with the templater plugin and "
        "review it each evening.\n"
    ),
}


def test_a_note_holding_comments_takes_its_fingerprint_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows are of the text a search reads, its comments blanked: rows of the raw
    text (format 1) were digests no search asked for, so every note holding a comment
    was cleaned and split again in every search."""
    paths: app.VaultPaths = notes_vault(tmp_path, {**FILES, **COMMENTED})
    app.index(paths)
    rows = _rows(paths)
    for rel in COMMENTED:
        read = FileText(tmp_path, tmp_path / rel, markdown=True)
        assert rows[rel][0] == read.digest != text_key((tmp_path / rel).read_text("utf-8"))
    forget_bodies()
    plain = [(h.id, h.also) for h in app.search(paths, "templater daily", refresh=False).hits]
    assert ("templates/Daily", ("copies/Daily",)) in plain  # the copy collapsed into it
    forget_bodies()
    made = counted_bodies(monkeypatch)
    with searching_once():
        once = app.search(paths, "templater daily", refresh=False)
    assert [(h.id, h.also) for h in once.hits] == plain
    assert made == []  # every candidate's fingerprint came from the store


def test_a_store_of_the_former_format_is_read_as_missing_and_written_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A store an older rubi wrote (format 1: the raw text's digests) is not read, with
    no warning, and the next index run that changes a note writes it anew from every
    note, as a search reads them."""
    paths: app.VaultPaths = notes_vault(tmp_path, {**FILES, **COMMENTED})
    app.index(paths)
    plain = _shown(paths, once=False)
    conn = sqlite3.connect(paths.index_dir / PRINTS_FILE)
    with conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
        conn.execute("UPDATE prints SET digest = x'00'")  # rows no search would find
    conn.close()
    made = counted_bodies(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="rubi.search.printstore"):
        assert _shown(paths, once=True) == plain
    assert made  # made from the text: the store was not read
    assert not [r for r in caplog.records if r.name == "rubi.search.printstore"]
    write(tmp_path / "new.md", "# New\n\nA new note.\n")
    app.index(paths)
    rows = _rows(paths)
    assert set(rows) == {*FILES, *COMMENTED, "new.md"}
    for rel in COMMENTED:
        assert rows[rel][0] == FileText(tmp_path, tmp_path / rel, markdown=True).digest


def test_a_note_edited_after_indexing_is_made_from_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    # the copy now differs: no longer a near-duplicate, and its stored row is stale
    write(tmp_path / "people/mental-health.md", "# Mental health\n\nAsk your lead.\n")
    plain = _shown(paths, once=False)
    made = counted_bodies(monkeypatch)
    assert _shown(paths, once=True) == plain
    assert made == ["Mental health"]  # the edited note only, from its text


def test_a_damaged_store_is_read_around_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    paths = _vault(tmp_path)
    plain = _shown(paths, once=False)
    (paths.index_dir / PRINTS_FILE).write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    monkeypatch.setattr(printstore, "_WARNED", False)
    with caplog.at_level(logging.WARNING, logger="rubi.search.printstore"):
        assert _shown(paths, once=True) == plain
        assert _shown(paths, once=True) == plain
    warned = [r for r in caplog.records if r.name == "rubi.search.printstore"]
    assert len(warned) == 1 and "not read" in warned[0].getMessage()


def test_a_row_of_the_wrong_shape_is_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    paths = _vault(tmp_path)
    plain = _shown(paths, once=False)
    conn = sqlite3.connect(paths.index_dir / PRINTS_FILE)
    with conn:
        conn.execute("UPDATE prints SET words = 1")  # fewer words than its vocabulary
    conn.close()
    monkeypatch.setattr(printstore, "_WARNED", False)
    with caplog.at_level(logging.WARNING, logger="rubi.search.printstore"):
        assert _shown(paths, once=True) == plain
    assert sum(r.name == "rubi.search.printstore" for r in caplog.records) == 1


def test_each_index_run_keeps_the_store_in_step_with_the_notes(tmp_path: Path) -> None:
    paths = _vault(tmp_path)
    rows = _rows(paths)
    assert set(rows) == set(FILES)
    for rel, (digest, count, vocabulary) in rows.items():
        made = print_row((tmp_path / rel).read_text("utf-8"))
        assert (digest, count, set(vocabulary.split())) == (*made[:2], set(made[2].split()))

    write(tmp_path / "benefits/time-off.md", "# Time off\n\nTwenty days a year.\n")
    (tmp_path / "people/mental-health.md").unlink()
    write(tmp_path / "new.md", "# New\n\nA new note.\n")
    app.index(paths)
    after = _rows(paths)
    assert set(after) == set(FILES) - {"people/mental-health.md"} | {"new.md"}
    assert after["benefits/time-off.md"][0] == text_key("# Time off\n\nTwenty days a year.\n")
    assert after["Guides/Dataview.md"] == rows["Guides/Dataview.md"]

    # missing, then damaged: the next run that changes a note makes it anew from all
    for spoil in (lambda f: f.unlink(), lambda f: f.write_bytes(b"not a database" * 100)):
        spoil(paths.index_dir / PRINTS_FILE)
        write(tmp_path / "new.md", f"# New\n\nEdited {spoil!r}.\n")
        app.index(paths)
        again = _rows(paths)
        assert set(again) == set(after)
        assert again["Guides/Dataview.md"] == rows["Guides/Dataview.md"]


def test_the_store_opens_read_only_under_any_folder_name(tmp_path: Path) -> None:
    folder = tmp_path / "a b%20c?d#é&=+"
    folder.mkdir()
    conn = sqlite3.connect(folder / "x.sqlite")
    with conn:
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES (1)")
    conn.close()
    read = sqlite3.connect(printstore.read_only_uri(folder / "x.sqlite"), uri=True)
    try:
        assert read.execute("SELECT v FROM t").fetchall() == [(1,)]
        with pytest.raises(sqlite3.OperationalError):
            read.execute("INSERT INTO t VALUES (2)")
    finally:
        read.close()
    assert sorted(p.name for p in folder.iterdir()) == ["x.sqlite"]


def test_a_store_others_may_write_is_not_read_and_is_made_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    paths = _vault(tmp_path)
    plain = _shown(paths, once=False)
    store = paths.index_dir / PRINTS_FILE
    store.chmod(0o666)
    made = counted_bodies(monkeypatch)
    monkeypatch.setattr(printstore, "_WARNED", False)
    with caplog.at_level(logging.WARNING, logger="rubi.search.printstore"):
        assert _shown(paths, once=True) == plain
    assert made  # made from the text, the store refused
    assert sum(r.name == "rubi.search.printstore" for r in caplog.records) == 1
    write(tmp_path / "new.md", "# New\n\nA new note.\n")
    app.index(paths)
    assert store.stat().st_mode & 0o022 == 0 and "new.md" in _rows(paths)
