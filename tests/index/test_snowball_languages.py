"""Turkish and Indonesian notes are detected and stemmed: whoosh has no Snowball
stemmer for them (and no stop words for Indonesian), so the stemmers come from
PyStemmer and the missing stop words from the stop-words package, and a question's
inflected words meet the note's other forms of them. English notes that use a few
words Polish lists as stop words (``go``, ``to``, ``pod``) stay English."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import PROSE_LANGUAGES, analyze
from rubi.index.language import VOTING_LANGUAGES, detect_language
from rubi.index.snowball import extra_stemmer, has_stop_words, stop_words_for

from helpers import write

TURKISH = (
    "Dosyaları ve dizinleri bir arşivde toplar. Daha fazla bilgi için bu sayfaya bak, "
    "ya da yardım sayfasını oku."
)
INDONESIAN = (
    "Menampilkan daftar berkas di dalam direktori dan ukurannya. Informasi lebih lanjut "
    "ada di halaman ini, yang juga bisa dibuka untuk bantuan."
)


@pytest.mark.parametrize(("lang", "text"), [("tr", TURKISH), ("id", INDONESIAN)])
def test_each_is_a_language_of_its_own(lang: str, text: str) -> None:
    assert lang in PROSE_LANGUAGES and lang in VOTING_LANGUAGES
    assert has_stop_words(lang) and stop_words_for(lang)
    assert detect_language(text) == lang


def test_their_words_are_stemmed_and_their_function_words_dropped() -> None:
    assert extra_stemmer("tr")("dosyaları") == extra_stemmer("tr")("dosyanın") == "dosya"
    assert extra_stemmer("id")("ditampilkan") == extra_stemmer("id")("tampilkan")
    terms = analyze("dosyaları ve dizinleri", "tr")
    assert "dosya" in terms and "dizin" in terms
    assert "ve" not in terms  # a Turkish stop word
    assert "dosyalari" in terms  # the English reading beside, as for every language
    assert not {"di", "dan", "yang"} & set(analyze("di direktori dan yang", "id"))


def test_english_notes_with_go_and_pod_stay_english() -> None:
    # Voted against Polish's list (go, to, pod, a, z are Polish stop words) this was Polish.
    text = "Go Up Hierarchy. Go Down Hierarchy. Go To Parent. Export Pod. Import Pod."
    assert detect_language(text) == "en"
    assert "pl" not in PROSE_LANGUAGES


def test_a_turkish_question_finds_the_note_with_other_forms_of_its_words(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "tar.md", f"# tar\n\n{TURKISH}\n\n- Bir arşivi aç: `tar xf arşiv.tar`\n")
    write(vault / "ls.md", "# ls\n\nBu komut ve seçenekleri için bir liste verir, daha fazla.\n")
    write(vault / "cp.md", "# cp\n\nBir kopyası için ve daha fazla bilgi ile bu sayfa.\n")
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, "dosya ve dizinlerimi nasıl arşivlerim", refresh=False)
    assert result.hits and result.hits[0].id == "tar"
