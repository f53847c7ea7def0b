"""A note's language is guessed from its function words (Latin script) or its script,
on real short texts; English when there is too little to tell."""

from __future__ import annotations

import pytest

from rubi.index.language import detect_language, query_language

from helpers import VAULTS, require_data

SAMPLES = {
    "en": "To publish a note, open the command palette and choose the option that "
    "uploads it. The changes are visible to everyone with the link.",
    "es": "Para guardar varios datos bajo un mismo nombre usamos un objeto. Cada "
    "propiedad tiene una clave y un valor, y podemos comprobar si existe con el operador in.",
    "fr": "Pour créer un nouvel élément, on utilise la méthode createElement, puis on "
    "l'insère dans la page avec append. Il est aussi possible de le retirer.",
    "de": "Mit einem Objekt kann man mehrere Werte unter einem Namen speichern. Jeder "
    "Wert hat einen Schlüssel, und wir können prüfen, ob er existiert.",
    "it": "Per salvare più dati sotto lo stesso nome si usa un oggetto. Ogni proprietà "
    "ha una chiave e un valore, e si può controllare se esiste con l'operatore in.",
    "pt": "Para guardar vários dados com o mesmo nome usamos um objeto. Cada "
    "propriedade tem uma chave e um valor, e podemos verificar se ela existe.",
    "nl": "Met een object kun je meerdere gegevens onder één naam bewaren. Elke "
    "eigenschap heeft een sleutel en een waarde, en je kunt controleren of die bestaat.",
    "sv": "Med ett objekt kan man spara flera värden under ett namn. Varje egenskap "
    "har en nyckel och ett värde, och vi kan kontrollera om den finns.",
    "ru": "Объект позволяет хранить несколько значений под одним именем. У каждого "
    "свойства есть ключ и значение.",
    "zh": "对象可以在一个名字下存储多个值。每个属性都有一个键和一个值。",
    "ja": "オブジェクトを使うと、複数の値をひとつの名前で保存できます。",
    "ko": "객체를 사용하면 여러 값을 하나의 이름으로 저장할 수 있습니다.",
    "el": "Ένα αντικείμενο αποθηκεύει πολλές τιμές κάτω από ένα όνομα.",
    "ar": "يمكن للكائن أن يخزن عدة قيم تحت اسم واحد.",
    "fa": "یک شیء می‌تواند چند مقدار را زیر یک نام نگه دارد.",
}


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_a_short_paragraph_is_detected_in_its_language(lang: str) -> None:
    assert detect_language(SAMPLES[lang]) == lang


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Kubernetes",
        "de la",  # two function words are not a language
        "# GreptimeDB\n\n- [Greptime Docs](https://docs.greptime.com/) ([Code](https://github.com/x/y))",
    ],
)
def test_too_little_text_or_links_alone_is_english(text: str) -> None:
    # ".com" is Portuguese "com": link targets and domain names do not vote.
    assert detect_language(text) == "en"


def test_code_does_not_vote_when_the_prose_can() -> None:
    prose = SAMPLES["es"]
    code = "```js\nfor (let key in user) {\n  if (key in other) return the;\n}\n```\n" * 5
    assert detect_language(prose + "\n\n" + code) == "es"


def test_a_note_of_code_alone_is_voted_on_by_its_comments() -> None:
    note = (
        "```js\nfunction pow(x, n) { // <- sin espacio entre los argumentos\n"
        "  // el contenido de la llave debe estar en una nueva línea\n"
        "  return x ** n; // pero es mejor que sean dos líneas\n}\n```\n"
    )
    assert detect_language(note) == "es"


def test_html_tags_do_not_vote() -> None:
    # Markdown documentation anchors its headings with <a name=...> and lays tables out
    # with <ul><li>: "a" and "li" are stop words of Italian (and of English, Romanian,
    # Portuguese). Counted, they read this Finnish page as Italian.
    page = (
        '# <a name="overview"></a>Kassaraportit\n\n'
        "Raportit näyttävät yrityksen kassavirran ja pankkitilien saldot valuutoittain.\n\n"
        '## <a name="setup"></a>Asetukset\n\n'
        "Määritä kirjanpitovaluutta ja vaihtokurssit ennen raporttien avaamista.\n\n"
        '## <a name="reports"></a>Raporttisivut\n\n'
        "| Raportti | Sisältö |\n|---|---|\n"
        "| Yhteenveto | <ul><li>Saapuvat kassavirrat</li><li>Lähtevät kassavirrat</li>"
        "<li>Pankkitilin saldo</li></ul> |\n"
        "| Ennuste | <ul><li>Päivittäinen ennuste</li><li>Ennusteen tiedot</li></ul> |\n\n"
        "Tämä sivu on tarkoitettu henkilöille, jotka vastaavat yrityksen käteisvaroista, ja "
        "se kertoo, mistä tiedoista raportit muodostetaan.\n"
    )
    assert detect_language(page) == "fi"
    # a comparison is no tag: its words still vote
    assert detect_language("if a < b and c > d then " + SAMPLES["en"]) == "en"


def test_a_query_is_read_against_the_languages_of_its_index() -> None:
    assert query_language("¿cómo guardo un dato para usarlo más tarde?", ["en", "es"]) == "es"
    assert query_language("how do I keep the value for later", ["en", "es"]) == "en"
    assert query_language("map set", ["en", "es"]) is None  # no function word
    assert query_language("de la casa", ["es", "fr"]) is None  # both: a tie
    assert query_language("la casa de papel", ["en"]) is None  # Spanish is not indexed


def test_every_note_of_a_real_english_vault_is_english() -> None:
    # Real notes, short ones included: link lists, tables, callouts, code, frontmatter.
    vault = require_data(VAULTS / "obsidian-help-en")
    found = {p.name: detect_language(p.read_text(encoding="utf-8")) for p in vault.rglob("*.md")}
    assert len(found) > 100
    assert {name for name, lang in found.items() if lang != "en"} == set()


def test_the_whoosh_languages_are_whooshs_own_without_importing_its_lists() -> None:
    """The languages written out are those whoosh has a stemmer and stop words for, in
    its order (Russian told by its script); importing the module reads no list."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from whoosh.lang import has_stemmer, has_stopwords, languages

    from rubi.index import language

    asked = tuple(
        lang for lang in languages if has_stopwords(lang) and has_stemmer(lang) and lang != "ru"
    )
    assert asked == language.WHOOSH_LANGUAGES
    src = str(Path(language.__file__).parents[2])  # this tree's rubi, wherever the test runs
    code = "import sys; import rubi.index.language; print('whoosh.lang.stopwords' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": src},
    )
    assert done.stdout.strip() == "False"


def test_persian_is_told_from_arabic_by_the_letters_only_it_writes() -> None:
    # Farsi yeh and keheh (U+06CC, U+06A9) where Arabic writes U+064A and U+0643
    assert detect_language("کتاب یک") == "fa"
    assert detect_language("كتاب يك") == "ar"
    # Urdu shares Persian's six letters and writes its own: it stays with ISRI
    assert detect_language("یہ ایک کتاب ہے اور وہ بڑی ہے") == "ar"
    # ... also where its shared letters outnumber its own (a paragraph of plain Urdu:
    # 27 of Persian's six against 25 of Urdu's seven)
    urdu = (
        "اردو برصغیر کی ایک اہم زبان ہے۔ یہ پاکستان کی قومی زبان ہے اور بھارت میں بھی بولی"
        " جاتی ہے۔ اس زبان میں بہت سے الفاظ فارسی اور عربی سے آئے ہیں۔ فائل کو کھولنے کے"
        " لیے یہ کمانڈ چلائیں۔"
    )
    assert detect_language(urdu) == "ar"
