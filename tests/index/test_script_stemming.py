"""Russian and Arabic words are stemmed (Snowball Russian, ISRI
Arabic), so ``диск`` finds ``диске`` in notes and in code comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import analyze, stem_code, stem_en

from helpers import write


@pytest.mark.parametrize(
    ("forms", "lang"),
    [
        (["диск", "диске", "диски", "дисков", "диском"], "en"),
        (["сервер", "сервера", "серверы"], "code"),
        (["كتاب", "الكتاب", "والكتاب", "بالكتاب"], "en"),
    ],
)
def test_word_forms_share_a_stem(forms: list[str], lang: str) -> None:
    stems = {tuple(analyze(f, lang)) for f in forms}
    assert len(stems) == 1, stems


def test_english_is_unchanged() -> None:
    assert stem_en("recovery") == "recov" and stem_code("router") == stem_en("routing")
    assert analyze("диск routing") == [*analyze("диск"), *analyze("routing")]


def test_search_finds_the_inflected_form(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "ru.md", "# Заметка\n\nДанные хранятся на диске сервера.\n")
    write(vault / "ar.md", "# ملاحظة\n\nالبيانات محفوظة في الكتب القديمة.\n")
    write(vault / "en.md", "# Note\n\nNothing here.\n")
    paths = app.locate(vault)

    def matched(query: str) -> list[str]:  # by its words, not only its meaning
        hits = app.search(paths, query).hits
        return [h.id for h in hits if any(r.kind == "text" for r in h.reasons)]

    assert matched("диск") == ["ru"]
    assert matched("كتاب") == ["ar"]
