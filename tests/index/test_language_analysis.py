"""Each language's prose gets its own stop words and Snowball stems; a note's language
is stored and searched in."""

from __future__ import annotations

import pytest
from whoosh.support.charset import accent_map

from rubi.core.paths import cache_home
from rubi.index import snowball
from rubi.index.analysis import PROSE_LANGUAGES, analyze, function_words_only, query_words
from rubi.index.indexdoc import IndexDoc
from rubi.index.language import query_chain
from rubi.index.searchindex import SearchIndex


@pytest.mark.parametrize(
    ("lang", "text", "kept"),
    [
        ("es", "la casa de papel para todos", ["cas", "papel"]),
        ("fr", "le chat et la souris dans une maison", ["chat", "sour", "maison"]),
        ("de", "die Katze und der Hund mit einem Ball", ["katz", "hund", "ball"]),
        ("it", "il gatto e la casa della nonna", ["gatt", "cas", "nonn"]),
        ("en", "how does the cache work", ["cach", "work"]),
    ],
)
def test_each_language_drops_its_own_function_words(lang: str, text: str, kept: list[str]) -> None:
    # Each word that is no function word gives its language's stem (then, when it
    # differs, its English one).
    terms = analyze(text, lang)
    assert [t for t in terms if t in kept] == kept
    assert not {"la", "de", "para", "le", "et", "die", "und", "il", "the"} & set(terms)


def test_a_non_english_word_is_also_read_as_english() -> None:
    assert analyze("casa", "es") == ["cas", "casa"]
    assert analyze("Häuser", "de") == ["haus", "hauser"]
    assert analyze("canciones", "es") == ["cancion"]  # one term when both agree
    assert analyze("casa", "en") == ["casa"]


def test_function_words_of_one_language_are_words_in_another() -> None:
    # Portuguese "os" is a Python module; Spanish "de" is kept by English.
    assert "os" in analyze("import os", "en")
    assert "os" not in analyze("os gatos", "pt")


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("es", ["canción", "canciones"]),
        ("fr", ["élément", "éléments"]),
        ("de", ["Häuser", "Häusern"]),
        ("it", ["funzione", "funzioni"]),
        ("pt", ["informação", "informações"]),
        ("nl", ["boeken", "boek"]),
        ("sv", ["bilar", "bilen"]),
    ],
)
def test_a_words_inflections_meet_in_its_languages_stem(lang: str, forms: list[str]) -> None:
    stems = {analyze(f, lang)[0] for f in forms}
    assert len(stems) == 1, stems


def test_a_query_written_without_accents_meets_the_accented_note() -> None:
    assert analyze("cancion", "es") == analyze("canción", "es")
    assert not analyze("mas esta", "es")  # "más", "está": stop words, accents or not


def test_cyrillic_words_are_russian_in_every_chain() -> None:
    for lang in ("en", "es", "code"):
        assert analyze("как настроить диск для", lang) == ["настро", "диск"]


def test_persian_words_are_stemmed_as_persian_in_its_chain_alone() -> None:
    # ISRI, an Arabic root extractor, cut "a function" to a root of other letters
    assert analyze("تابعی کتاب", "fa") == ["تابعی", "کتاب"]
    assert analyze("تابعی کتاب", "en") == ["بعی", "کتب"]
    assert analyze("the callbacks", "fa") == ["callback"]


def test_a_persian_question_reads_its_words_as_persian_in_every_chain() -> None:
    question = "چطور فرستاده و فرستادن"  # "how", "sent", "to send"
    words = query_words(question, ["en", "fa"])
    # ISRI's one root joined the two verbs: each is its own word, as the index has them
    assert len(words) == 3  # "و" ("and"), one letter, is no term
    assert all(w["en"] == w["fa"] for w in words)
    # without Persian notes in the index, ISRI as before
    assert len(query_words(question, ["en"])) == 2
    # too few of Persian's own letters to tell: each chain's reading
    assert len(query_words("فرستاده فرستادن", ["en", "fa"])) == 1
    # an Arabic question in an index with Persian notes keeps each chain's reading
    arabic = query_words("الكتب", ["en", "fa"])
    assert arabic[0]["en"] != arabic[0]["fa"]


def test_persians_chain_drops_english_stop_words_as_function_words() -> None:
    assert analyze("the", "fa") == []
    assert function_words_only("the of", ["fa"])
    assert not function_words_only("کتاب", ["fa"])


def test_a_persian_question_is_read_in_persians_chain() -> None:
    assert query_chain("چطور تابعی را بنویسم", ["en", "fa"]) == "fa"
    assert query_chain("كيف أكتب دالة", ["en", "fa"]) == "en"
    assert query_chain("چطور تابعی را بنویسم", ["en"]) == "en"


def test_latin_words_of_a_russian_note_are_english() -> None:
    assert analyze("the callbacks", "ru") == analyze("the callbacks", "en") == ["callback"]


def test_cjk_is_cut_into_bigrams_in_every_language() -> None:
    for lang in ("en", "fr", "zh"):
        assert analyze("使用闭包", lang) == ["使用", "用闭", "闭包"]


def test_a_query_word_carries_its_term_in_each_language_of_the_index() -> None:
    assert query_words("canciones", ["en", "es"]) == [{"en": ["cancion"], "es": ["cancion"]}]
    assert query_words("casas", ["en", "es"]) == [{"en": ["casa"], "es": ["cas", "casa"]}]
    assert query_words("élément", ["en", "fr"]) == [{"en": ["element"], "fr": ["element"]}]
    assert query_words("the", ["en", "fr"]) == [{"fr": ["the"]}]


def _doc(doc_id: str, title: str, body: str, lang: str) -> IndexDoc:
    return IndexDoc(
        id=doc_id,
        kind="note",
        path=f"{doc_id}.md",
        type="note",
        status="active",
        fields={"title": title, "body": body},
        lang=lang,
    )


@pytest.fixture
def mixed_index() -> SearchIndex:
    index = SearchIndex(cache_home() / "mixed" / "whoosh")
    index.rebuild(
        [
            _doc("es-songs", "Canciones", "Una lista de la música que escuchamos en casa.", "es"),
            _doc("en-readme", "Readme", "This project stores notes. See the de facto guide.", "en"),
            _doc("fr-maison", "La maison", "Les éléments de la maison et leurs couleurs.", "fr"),
        ]
    )
    return index


def test_the_index_stores_each_documents_language(mixed_index: SearchIndex) -> None:
    assert mixed_index.languages() == ["en", "es", "fr"]
    with mixed_index._open().searcher() as searcher:
        stored = {f["id"]: f["lang"] for f in searcher.all_stored_fields()}
    assert stored == {"es-songs": "es", "en-readme": "en", "fr-maison": "fr"}
    with mixed_index._open().searcher() as searcher:
        title = next(f["title"] for f in searcher.all_stored_fields() if f["id"] == "es-songs")
    assert type(title) is str and title == "Canciones"


def test_a_note_is_found_by_its_languages_inflections(mixed_index: SearchIndex) -> None:
    assert [h.id for h in mixed_index.bm25("canción")] == ["es-songs"]
    assert [h.id for h in mixed_index.bm25("élément")] == ["fr-maison"]


def test_the_questions_own_function_words_match_no_note(mixed_index: SearchIndex) -> None:
    # "de" is kept by English analysis (the English note has "de facto"), but in a
    # Spanish question it is a function word: it matches nothing.
    assert [h.id for h in mixed_index.bm25("de")] == ["en-readme"]
    hits = mixed_index.bm25("¿dónde está la lista de la música?")
    assert [h.id for h in hits] == ["es-songs"]
    assert set(hits[0].matched["body"]) == {"list", "lista", "music", "musica"}


def test_a_note_of_a_new_language_joins_the_querys_languages(mixed_index: SearchIndex) -> None:
    mixed_index.apply(
        [_doc("de-haus", "Das Haus", "Die Häuser der Stadt und ihre Farben.", "de")], ()
    )
    assert mixed_index.languages() == ["de", "en", "es", "fr"]
    assert [h.id for h in mixed_index.bm25("Häusern")] == ["de-haus"]


@pytest.mark.parametrize("lang", PROSE_LANGUAGES)
def test_every_snowball_language_drops_its_stop_words_and_stems_as_snowball(lang: str) -> None:
    """Each Snowball language with a stop-word list drops all of its stop words, and
    its first term of a word is Snowball's stem of it, accent-folded."""
    stops = [w for w in snowball.stop_words(lang) if w.isalpha() and len(w) > 1]
    assert stops and all(analyze(w, lang) == [] for w in stops)
    stem = snowball.stemmer(lang)
    for word in ("administrations", "nationales", "computers", "informationen"):
        want = stem(word).translate(accent_map)
        if word in stops:
            continue
        assert analyze(word, lang)[0] == want, (lang, word)
