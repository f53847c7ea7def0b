"""File names in either Unicode form: macOS hands names over decomposed (NFD), links
are typed composed (NFC). Notes are found either way, by one NFC id, and the files on
disk keep their bytes."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from rubi import app
from rubi.core.errors import NoteNotFoundError
from rubi.vault.resolve import LinkResolver, NoteNames, lookup_keys, names_keys

from helpers import write

RESUME = "Résumé"
NFC = unicodedata.normalize("NFC", RESUME)
NFD = unicodedata.normalize("NFD", RESUME)


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A vault whose ``Résumé.md`` is named in NFD bytes, ``Café.md`` in NFC, each
    linked from ``Index.md`` in the other form."""
    root = tmp_path / "vault"
    write(root / f"{NFD}.md", "Work history.\n")
    write(root / unicodedata.normalize("NFC", "Café.md"), "# Café\n\nCoffee.\n")
    cafe_nfd = unicodedata.normalize("NFD", "Café")
    write(root / "Index.md", f"# Index\n\n[[{NFC}]] and [[{cafe_nfd}]] and [[{NFC.upper()}]].\n")
    write(root / "img" / f"{unicodedata.normalize('NFD', 'Plan-é')}.png", b"\x89PNG")
    write(root / "Plans.md", f"![[{unicodedata.normalize('NFC', 'Plan-é')}.png]]\n")
    return root


def test_names_on_disk_keep_their_bytes(vault: Path) -> None:
    assert f"{NFD}.md".encode() in os.listdir(os.fsencode(vault))
    app.index(app.locate(vault))
    assert f"{NFD}.md".encode() in os.listdir(os.fsencode(vault))
    assert f"{NFC}.md".encode() not in os.listdir(os.fsencode(vault))


def test_links_resolve_whatever_the_form(vault: Path) -> None:
    paths = app.locate(vault)
    app.index(paths)
    report = app.doctor(paths)
    assert report.missing == [] and report.ambiguous == [] and report.missing_attachments == []
    linked = {lv.id for lv in app.links(paths, "Index")}
    assert linked == {NFC, "Café"}
    assert {lv.id for lv in app.backlinks(paths, NFC)} == {"Index"}


def test_a_note_added_later_is_linked_by_the_incremental_index(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write(root / "Index.md", f"[[{NFC}]]\n")
    paths = app.locate(root)
    app.index(paths)
    assert [p.target for p in app.doctor(paths).missing] == [NFC]
    write(root / f"{NFD}.md", "Work history.\n")
    app.index(paths)
    assert app.doctor(paths).missing == []
    assert {lv.id for lv in app.links(paths, "Index")} == {NFC}


@pytest.mark.parametrize("ref", [NFC, NFD, f"{NFD}.md", NFC.lower()])
def test_read_by_either_form(vault: Path, ref: str) -> None:
    paths = app.locate(vault)
    app.index(paths)
    view = app.read_note(paths, ref)
    assert view.id == NFC and view.note.title == NFC
    assert view.note.path == f"{NFD}.md"  # the name on disk
    assert "Work history." in view.text


def test_an_unknown_name_suggests_each_note_once(vault: Path) -> None:
    paths = app.locate(vault)
    app.index(paths)
    with pytest.raises(NoteNotFoundError) as err:
        app.read_note(paths, "Résumée")
    assert str(err.value).count(repr(NFC)) == 1


def test_search_hit_is_the_nfc_id(vault: Path) -> None:
    paths = app.locate(vault)
    hits = app.search(paths, "work history").hits
    assert hits and hits[0].id == NFC


def test_two_files_differing_only_in_form_are_one_note_and_a_warning(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write(root / f"{NFC}.md", "Composed.\n")
    write(root / f"{NFD}.md", "Decomposed.\n")  # possible on Linux file systems
    paths = app.locate(root)
    app.index(paths)
    report = app.doctor(paths)
    assert [w.path for w in report.files] == [f"{NFD}.md"]
    assert "another Unicode form" in report.files[0].message
    assert "Composed." in app.read_note(paths, NFC).text


def test_resolver_keys_agree_across_forms() -> None:
    """The keys a link reads and the keys a note is filed under match in any form,
    which is what lets the live graph re-resolve only the links a change affects."""
    note = NoteNames(NFD, NFD)
    for target in (NFC, NFD, NFC.upper(), f"{NFD}.md"):
        assert lookup_keys(target, "Index") & names_keys(note), target
        assert LinkResolver([note]).resolve(target).target == NFD
    resolver = LinkResolver([note])
    resolver.remove_note(note)
    assert resolver.resolve(NFC).status == "missing"
