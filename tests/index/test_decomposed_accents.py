"""An accented word is one term however its accents are written: composed (``é``,
one code point), decomposed (``e`` + U+0301, as macOS file names and some editors
save text), or with an accent no letter composes with (Turkish ``İ`` lower-cased is
``i`` + U+0307); a note written one way is found by a question written the other."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import analyze

from helpers import write


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de", "code"])
@pytest.mark.parametrize("text", ["crème brûlée au café", "Ça coûte très cher", "Ñandú año"])
def test_decomposed_text_has_the_terms_of_composed_text(text: str, lang: str) -> None:
    decomposed = unicodedata.normalize("NFD", text)
    assert decomposed != text
    assert analyze(decomposed, lang) == analyze(text, lang)


@pytest.mark.parametrize("lang", ["en", "tr", "code"])
def test_a_dotted_capital_i_folds_as_a_plain_i(lang: str) -> None:
    assert analyze("İstanbul DİYARBAKIR", lang) == analyze("istanbul diyarbakir", lang)


def test_a_decomposed_note_is_found_by_a_composed_question(tmp_path: Path) -> None:
    root = tmp_path / "v"
    body = unicodedata.normalize("NFD", "La pâtisserie sert une crème brûlée.\n")
    write(root / "notes" / "dessert.md", "# Dessert\n\n" + body)
    write(root / "notes" / "other.md", "# Other\n\nNothing sweet here at all.\n")
    write(root / "notes" / "trip.md", "# Trip\n\nA week in İstanbul.\n")
    paths = app.locate(root)
    app.index(paths)
    for question, found in (("crème brûlée", "notes/dessert"), ("istanbul", "notes/trip")):
        hits = app.search(paths, question, refresh=False).hits
        assert [h.id for h in hits][:1] == [found], question
