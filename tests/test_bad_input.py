"""Every kind of bad input: a one-line warning naming the file, the rest indexed,
nothing modified."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import VaultNotFoundError
from rubi.vault import scan

from helpers import write


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    v = tmp_path / "messy"
    write(v / "good.md", "# Good\n\nfindme here [[cycle-a]]\n")
    write(v / "broken-yaml.md", "---\ntitle: [unclosed\n---\nbrokenbody words\n")
    write(v / "binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00binary")
    write(v / "empty.md", "")
    write(v / "latin1.md", "caf\xe9 cr\xe8me latinword".encode("latin-1"))
    write(v / "crlf.md", "---\r\ntitle: Windows note\r\n---\r\ncrlfword [[good]]\r\n")
    write(v / "bom.md", "\ufeff# Bom title\n\nbomword\n".encode())
    write(v / "cycle-a.md", "[[cycle-b]]")
    write(v / "cycle-b.md", "[[cycle-a]] cycleword")
    write(v / "dangling.md", "[[nowhere at all]]")
    return v


def test_messy_vault_indexes_the_rest_with_warnings(messy: Path) -> None:
    before = {p: p.read_bytes() for p in messy.rglob("*.md")}
    rep = app.index(app.locate(messy))
    by_path = {w.path: w.message for w in rep.warnings}
    assert set(by_path) == {"broken-yaml.md", "binary.md", "latin1.md"}
    assert "broken YAML" in by_path["broken-yaml.md"]
    assert "binary" in by_path["binary.md"]
    assert "UTF-8" in by_path["latin1.md"]
    paths = app.locate(messy)
    for word, note in [
        ("findme", "good"),
        ("brokenbody", "broken-yaml"),
        ("latinword", "latin1"),
        ("crlfword", "crlf"),
        ("bomword", "bom"),
        ("cycleword", "cycle-b"),
    ]:
        assert app.search(paths, word, refresh=False).hits[0].id == note, word
    assert app.read_note(paths, "Windows note").note.id == "crlf"
    assert app.read_note(paths, "Bom title").note.id == "bom"
    assert before == {p: p.read_bytes() for p in messy.rglob("*.md")}
    # Warnings persist for files that did not change, so they are never silently lost.
    assert {w.path for w in app.index(paths).warnings} == set(by_path)


def test_huge_note_is_cut_not_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = tmp_path / "v"
    monkeypatch.setattr(scan, "MAX_NOTE_BYTES", 10_000)
    write(v / "huge.md", "startword\n" + ("filler line of text\n" * 1_000_000) + "endword\n")
    rep = app.index(app.locate(v))
    assert [w.path for w in rep.warnings] == ["huge.md"]
    assert "only the start" in rep.warnings[0].message
    paths = app.locate(v)
    assert [h.id for h in app.search(paths, "startword", refresh=False).hits] == ["huge"]
    assert app.search(paths, "endword", refresh=False).hits == []


def test_huge_note_of_one_long_line_keeps_its_first_megabyte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = tmp_path / "v"
    monkeypatch.setattr(scan, "MAX_NOTE_BYTES", 10_000)
    write(v / "huge.md", "# Huge\n\n" + "startword " + "filler " * 100_000 + "endword\n")
    rep = app.index(app.locate(v))
    assert [w.message for w in rep.warnings] == ["larger than 0 MB; only the start is indexed"]
    paths = app.locate(v)
    assert [h.id for h in app.search(paths, "startword", refresh=False).hits] == ["huge"]
    assert app.search(paths, "endword", refresh=False).hits == []
    text = app.read_note(paths, "huge").text
    assert "startword" in text and 9_000 < len(text.encode()) <= 10_000


def test_huge_note_without_spaces_is_cut_between_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = tmp_path / "v"
    monkeypatch.setattr(scan, "MAX_NOTE_BYTES", 10_000)  # byte 10,000 is inside an "é"
    write(v / "huge.md", "x" + "é" * 20_000)
    rep = app.index(app.locate(v))
    assert [w.message for w in rep.warnings] == ["larger than 0 MB; only the start is indexed"]
    text = app.read_note(app.locate(v), "huge").text
    assert text == "x" + "é" * 4_999


def test_file_vanishing_mid_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = tmp_path / "v"
    write(v / "a.md", "alpha")
    write(v / "b.md", "beta")
    real = scan.read_note_text

    def flaky(root: Path, rel: str, project_root: Path | None = None) -> scan.ReadResult:
        if rel == "b.md":
            os.unlink(root / rel)
        return real(root, rel, project_root)

    monkeypatch.setattr("rubi.sync.notes.read_note_text", flaky)
    rep = app.index(app.locate(v))
    assert rep.added == 1
    assert [w.path for w in rep.warnings] == ["b.md"]
    assert rep.warnings[0].message == scan.GONE


def test_link_cycle_and_self_link(tmp_path: Path) -> None:
    v = tmp_path / "v"
    write(v / "a.md", "[[b]] [[a]] loopword")
    write(v / "b.md", "[[c]]")
    write(v / "c.md", "[[a]]")
    paths = app.locate(v)
    assert app.search(paths, "loopword").hits[0].id == "a"
    assert [lv.id for lv in app.links(paths, "a")] == ["b"]


def test_missing_vault_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(VaultNotFoundError, match="no such folder"):
        app.locate(tmp_path / "nope")
    result = CliRunner().invoke(cli, ["search", "x", "--vault", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert "no such folder" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_no_project_vault_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["search", "x"])
    assert result.exit_code == 1
    assert "rubi init" in result.output


def test_read_only_vault_indexes_into_the_user_cache(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = tmp_path / "ro"
    write(v / "a.md", "readonlyword")
    real_access = os.access
    # Simulate a read-only mount even when the tests run as root.
    monkeypatch.setattr(
        "rubi.core.paths.os.access",
        lambda p, mode: False if Path(p).is_relative_to(v) else real_access(p, mode),
    )
    paths = app.locate(v)
    assert paths.index_dir.is_relative_to(isolated_home / ".cache" / "rubi" / "indexes")
    assert app.search(paths, "readonlyword").hits[0].id == "a"
    assert not (v / ".index").exists()
