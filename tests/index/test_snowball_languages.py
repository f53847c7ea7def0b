"""Turkish notes are detected and stemmed: whoosh has Turkish stop words but no
stemmer, so the Snowball stemmer comes from PyStemmer, and a question's suffixed words
(``dosyaları``, ``dizinleri``) meet the note's other forms of them."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.analysis import PROSE_LANGUAGES, analyze
from rubi.index.language import VOTING_LANGUAGES, detect_language
from rubi.index.snowball import extra_stemmer

from helpers import write

TURKISH = (
    "Dosyaları ve dizinleri bir arşivde toplar. Daha fazla bilgi için bu sayfaya bak, "
    "ya da yardım sayfasını oku."
)


def test_turkish_is_a_language_of_its_own() -> None:
    assert "tr" in PROSE_LANGUAGES and "tr" in VOTING_LANGUAGES
    assert detect_language(TURKISH) == "tr"


def test_turkish_words_are_stemmed_and_its_function_words_dropped() -> None:
    stem = extra_stemmer("tr")
    assert stem("dosyaları") == stem("dosyanın") == "dosya"
    terms = analyze("dosyaları ve dizinleri", "tr")
    assert "dosya" in terms and "dizin" in terms
    assert "ve" not in terms  # a Turkish stop word
    assert "dosyalari" in terms  # the English reading beside, as for every language


def test_a_turkish_question_finds_the_note_with_other_forms_of_its_words(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "tar.md", f"# tar\n\n{TURKISH}\n\n- Bir arşivi aç: `tar xf arşiv.tar`\n")
    write(vault / "ls.md", "# ls\n\nBu komut ve seçenekleri için bir liste verir, daha fazla.\n")
    write(vault / "cp.md", "# cp\n\nBir kopyası için ve daha fazla bilgi ile bu sayfa.\n")
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, "dosya ve dizinlerimi nasıl arşivlerim", refresh=False)
    assert result.hits and result.hits[0].id == "tar"
