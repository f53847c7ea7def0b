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


def test_the_arabic_stemmer_is_whooshs_isri_made_on_the_first_arabic_word() -> None:
    """``arabic_stem`` gives ISRI's root as before, but a process makes the stemmer (and
    imports ``whoosh.lang.isri``) only for its first Arabic-script word: the language
    lists no longer ask whoosh for Arabic's stemmer, having no stop words for it."""
    import subprocess
    import sys

    script = (
        "import sys\nfrom rubi.index import language, stemming\n"
        "print('whoosh.lang.isri' in sys.modules, language.WHOOSH_LANGUAGES)\n"
        "from whoosh.lang.isri import ISRIStemmer\n"
        "words = ['المكتبات', 'يكتبون', 'والكتاب']\n"
        "isri = ISRIStemmer()\n"
        "print([stemming.arabic_stem(w) for w in words] == [isri.stem(w) for w in words])\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    first, same = run.stdout.splitlines()
    assert first == (
        "False ('da', 'nl', 'en', 'fi', 'fr', 'de', 'hu', 'it', 'no', 'pt', 'es', 'sv')"
    )
    assert same == "True"
