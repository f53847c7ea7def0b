"""Languages Snowball stems beyond whoosh's: detected per note and per query, their
stop words dropped and their inflections stemmed; languages without a stemmer and a
list are analysed as English, CJK as bigrams."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rubi.core.paths import cache_home
from rubi.index.analysis import analyze
from rubi.index.indexdoc import IndexDoc
from rubi.index.language import detect_language, query_language
from rubi.index.searchindex import SearchIndex
from rubi.index.snowball import STOP_WORD_SOURCES, package_stop_words

PARAGRAPHS = {
    "tr": "Bu komut, bir dosyanın içeriğini ekrana yazdırır. Daha fazla bilgi için "
    "kılavuz sayfasına bakın ve dosyaları birleştirmek için de kullanın.",
    "id": "Perintah ini digunakan untuk menghapus berkas dari direktori yang ada. "
    "Anda juga dapat melihat daftar berkas dengan perintah lain.",
    "ro": "Această comandă afișează conținutul unui fișier și poate fi folosită pentru "
    "a copia fișierele dintr-un director în altul.",
    "ca": "Aquesta ordre mostra el contingut d'un fitxer i també es pot fer servir per "
    "copiar els fitxers d'un directori a un altre.",
    "cs": "Tento příkaz zobrazí obsah souboru a také je možné jej použít pro kopírování "
    "souborů z jednoho adresáře do jiného.",
    "pl": "To polecenie wyświetla zawartość pliku i może być także użyte do kopiowania "
    "plików z jednego katalogu do innego.",
    "el": "Αυτή η εντολή εμφανίζει τα περιεχόμενα ενός αρχείου στην οθόνη.",
    "hi": "यह कमांड किसी फ़ाइल की सामग्री को स्क्रीन पर दिखाता है।",
    "hy": "Այս հրամանը ցույց է տալիս ֆայլի պարունակությունը էկրանին։",
    "ta": "இந்த கட்டளை ஒரு கோப்பின் உள்ளடக்கத்தை திரையில் காட்டுகிறது.",
}


@pytest.mark.parametrize("lang", sorted(PARAGRAPHS))
def test_a_short_paragraph_of_a_snowball_language_is_detected(lang: str) -> None:
    assert detect_language(PARAGRAPHS[lang]) == lang


def test_a_latin_language_without_a_stemmer_and_list_is_analysed_as_english() -> None:
    estonian = (
        "See käsk näitab faili sisu ekraanil ja seda saab kasutada ka failide "
        "kopeerimiseks ühest kataloogist teise."
    )
    assert detect_language(estonian) == "en"
    assert analyze("kataloogist failide", "et") == analyze("kataloogist failide", "en")


def test_korean_is_still_cut_into_bigrams() -> None:
    assert detect_language("이 명령은 파일의 내용을 화면에 표시합니다.") == "ko"
    assert analyze("파일의 내용", "ko") == ["파일", "일의", "내용"]


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("tr", ["dosyalarımı", "dosyayı", "dosya"]),
        ("id", ["menghapus", "dihapus", "hapus"]),
        ("ro", ["fișierele", "fișierul"]),
        ("pl", ["katalogu", "katalog"]),
        ("cs", ["souborů", "soubor"]),
        ("ca", ["fitxers", "fitxer"]),
    ],
)
def test_a_words_inflections_meet_in_its_snowball_stem(lang: str, forms: list[str]) -> None:
    assert len({analyze(f, lang)[0] for f in forms}) == 1


@pytest.mark.parametrize(
    ("lang", "stop_words"),
    [("tr", "bir bu için"), ("id", "yang dengan dari"), ("ro", "și pentru"), ("pl", "się jest")],
)
def test_a_snowball_languages_function_words_are_dropped(lang: str, stop_words: str) -> None:
    assert analyze(stop_words, lang) == []


def test_scripts_with_a_snowball_stemmer_are_stemmed_in_every_chain() -> None:
    for chain in ("en", "tr", "code"):
        greek = analyze("υπολογιστές υπολογιστή", chain)
        assert len(greek) == 2 and greek[0] == greek[1]
        assert analyze("किताबें किताब", chain) == ["किताब", "किताब"]
    assert analyze("लड़कों", "en") == ["लड़क"]  # vowel signs are part of the word


def _note(doc_id: str, title: str, body: str) -> IndexDoc:
    return IndexDoc(
        id=doc_id,
        kind="note",
        path=f"{doc_id}.md",
        type="note",
        status="active",
        fields={"title": title, "body": body},
        lang=detect_language(title + "\n" + body),
    )


@pytest.fixture
def snowball_index() -> SearchIndex:
    index = SearchIndex(cache_home() / "snowball" / "whoosh")
    index.rebuild(
        [
            _note(
                "tr-gzip",
                "Dosya sıkıştırma",
                "Bu komut bir dosyayı gzip ile sıkıştırır ve daha küçük bir dosya yapar. "
                "Ayrıca sıkıştırılmış bir arşivi açmak için de kullanılır.",
            ),
            _note(
                "id-rm",
                "Menghapus berkas",
                "Perintah ini digunakan untuk menghapus berkas dan direktori yang tidak "
                "diperlukan lagi dari sistem dengan aman.",
            ),
            _note("en-readme", "Readme", "This project keeps its notes in a vault."),
        ]
    )
    return index


def test_notes_of_turkish_and_indonesian_are_stored_in_their_language(
    snowball_index: SearchIndex,
) -> None:
    assert snowball_index.languages() == ["en", "id", "tr"]


def test_a_turkish_note_is_found_by_an_inflected_question(snowball_index: SearchIndex) -> None:
    question = "dosyalarımı nasıl sıkıştırabilirim"
    assert query_language(question, snowball_index.languages()) == "tr"
    assert [h.id for h in snowball_index.bm25(question)][:1] == ["tr-gzip"]
    assert [h.id for h in snowball_index.bm25("dosyalarımı")] == ["tr-gzip"]


def test_an_indonesian_note_is_found_by_an_inflected_question(
    snowball_index: SearchIndex,
) -> None:
    question = "bagaimana berkas dihapus dari direktori"
    assert query_language(question, snowball_index.languages()) == "id"
    assert [h.id for h in snowball_index.bm25(question)][:1] == ["id-rm"]
    assert [h.id for h in snowball_index.bm25("dihapus")] == ["id-rm"]


def test_a_languages_stemmer_and_stop_words_load_only_when_a_note_or_query_needs_them() -> None:
    probe = (
        "import sys\n"
        "from rubi.index.analysis import analyze\n"
        "from rubi.index.language import query_language\n"
        "analyze('the files', 'en'); query_language('where are the files', ['en', 'de'])\n"
        "print('Stemmer' in sys.modules, 'stop_words' in sys.modules)\n"
        "analyze('dosyalar', 'tr')\n"
        "print('Stemmer' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["False False", "True"]


def test_a_why_line_of_an_english_index_loads_no_other_languages_lists() -> None:
    # A why-line maps the query in whoosh's languages always (their stemmers are
    # PyStemmer's now, whose import is about 1 ms); the added languages' stop-word
    # lists stay unread.
    probe = (
        "import sys\n"
        "from rubi.index.queryanalysis import word_map\n"
        "found, _ = word_map('how do I embed a file')\n"
        "print('stop_words' in sys.modules, found['embed'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "embed"]


def test_a_turkish_query_words_are_mapped_for_its_why_line(snowball_index: SearchIndex) -> None:
    from rubi.index.queryanalysis import word_map

    snowball_index.bm25("dosyalarımı")
    assert word_map("dosyalarımı")[0]["dosya"] == "dosyalarımı"


def test_each_chains_stop_words_hold_every_word_folded_and_fold_only_what_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chain's stop words are its list as written and accent-folded; the folding is
    asked only of the words it can change (not ASCII, or holding an ASCII capital
    Whoosh's map lower-cases)."""
    from rubi.index import wordterm
    from rubi.index.analysis import LANGUAGES
    from rubi.index.snowball import stop_words

    asked: list[str] = []
    real = wordterm.fold
    monkeypatch.setattr(wordterm, "fold", lambda w: asked.append(w) or real(w))
    for lang in dict.fromkeys("en" if lang == "code" else lang for lang in LANGUAGES):
        wordterm.chain_stop_words.cache_clear()
        words = stop_words(lang)
        asked.clear()
        assert wordterm.chain_stop_words(lang) == words | {real(w) for w in words}
        assert all(real(w) != w or not w.isascii() for w in asked), lang
    wordterm.chain_stop_words.cache_clear()


@pytest.mark.parametrize("name", [*sorted(set(STOP_WORD_SOURCES.values())), "chinese"])
def test_a_stop_words_list_is_read_as_the_package_gives_it(name: str) -> None:
    """The ``stop-words`` lists read from the package's files without importing it (its
    ``__init__`` imports ``typing``) are the package's own, word for word, in order."""
    from stop_words import get_stop_words

    assert package_stop_words(name) == get_stop_words(name)


def test_note_type_is_the_note_types_tuple_at_run_time() -> None:
    """``NoteType`` (the MCP ``register`` field's type), made on first use without
    ``typing`` at import, is the ``Literal`` of :data:`NOTE_TYPES`, in its order."""
    from typing import get_args

    from rubi.core import model

    assert get_args(model.NoteType) == model.NOTE_TYPES
