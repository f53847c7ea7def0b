"""A vault's cache folder is named readably after the vault, in any script, and its
name is always one safe path component whatever the vault folder is called."""

from __future__ import annotations

import hashlib
import os
import unicodedata
from pathlib import Path

import pytest

from rubi.core.paths import cache_slug, index_dir_for


def _folder(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Заметки été", "Заметки-été"),
        ("笔记 本", "笔记-本"),
        ("ノート", "ノート"),
        ("μέρος_2", "μέρος-2"),
        ("my_app.v2", "my-app-v2"),
        ("--notes--", "notes"),
        ("हिंदी नोट्स", "हिंदी-नोट्स"),
        ("குறிப்புகள்", "குறிப்புகள்"),
        ("บันทึก", "บันทึก"),
    ],
)
def test_a_vault_name_in_any_script_stays_readable(tmp_path: Path, name: str, slug: str) -> None:
    folder = index_dir_for(_folder(tmp_path, name))
    digest = hashlib.sha256(os.fsencode(str(tmp_path / name))).hexdigest()[:12]
    assert folder.name == f"{slug}-{digest}"


def test_ascii_names_keep_their_cache_folder(tmp_path: Path) -> None:
    """The folder of an ASCII-named vault is the one earlier releases used (no rebuild)."""
    name = "Project Notes (2024) " + "x" * 40
    folder = index_dir_for(_folder(tmp_path, name)).name
    assert folder.startswith("Project-Notes-2024-" + "x" * 21 + "-")


def test_a_project_vault_is_named_after_its_project(tmp_path: Path) -> None:
    vault = _folder(_folder(tmp_path, "Проект"), ".rubi")
    assert index_dir_for(vault).name.startswith("Проект-")


def test_decomposed_accents_give_the_composed_name(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "café")
    assert index_dir_for(_folder(tmp_path, decomposed)).name.startswith("café-")


@pytest.mark.parametrize(
    "name",
    [
        "a\\b",
        "..",
        "...",
        "line\nbreak",
        "tab\there",
        "esc\x1b[31mred",
        "del\x7f",
        "rlo\u202eevil",
        "zero\u200bwidth",
        "div\u2215slash",
        "full\uff0fwidth",
        "colon:star*pipe|",
        "\u0301\u0301",
        "emoji\U0001f600",
        "-\u0301mark after a dash",
        "vs\ufe0f\U000e0100cgj\u034fmongolian\u180b",
        "\U000e0041tag",
        "bad\udcffbyte",
    ],
)
def test_a_hostile_vault_name_gives_one_plain_path_component(name: str) -> None:
    slug = cache_slug(name)
    assert slug
    assert all(
        unicodedata.category(c)[0] in "LN" or c == "-" or _mark(slug, i) for i, c in enumerate(slug)
    )
    assert not slug.startswith("-") and not slug.endswith("-") and "--" not in slug
    assert Path(slug).name == slug and slug not in {".", ".."}


def _mark(slug: str, i: int) -> bool:
    """Whether ``slug[i]`` is a visible combining mark on a letter, digit or mark."""
    return (
        unicodedata.category(slug[i]) in {"Mn", "Mc"}
        and i > 0
        and unicodedata.category(slug[i - 1])[0] in "LNM"
        and slug[i] not in INVISIBLE_MARKS
    )


INVISIBLE_MARKS = "\ufe0f\U000e0100\u034f\u180b"
"""Marks that show nothing (variation selectors, the grapheme joiner)."""


def test_a_long_name_is_cut_to_a_bounded_component() -> None:
    slug = cache_slug("𠜎" * 500)
    assert len(slug) == 40 and len(slug.encode("utf-8")) <= 160


def test_a_name_with_nothing_readable_is_called_vault() -> None:
    assert cache_slug("\n\t..\u202e") == "vault"
