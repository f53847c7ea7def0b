"""The note window finds an Arabic-script term wherever the index found it.

Arabic script writes its article, conjunctions and prepositions against the word
(``الأعداد``, ``والعدد``), and the index's stemmer (ISRI) takes them off down to the
root, whose letters need not even be a substring of the word (``أعداد`` → ``عدد``). A
key looked for where a word starts found only the words written bare, so the window saw
a fraction of what BM25F matched and lowered the answers BM25F ranked first
(``docs/benchmarks-history.md``, "issue 28: Arabic below its BM25 in the note window,
twenty-eighth pass"). Each Arabic-script word of the note is analysed instead.
"""

from __future__ import annotations

from rubi.index.analysis import analyze
from rubi.search.notewindow import note_question, note_window_share


def _idf(terms: list[str]) -> dict[str, float]:
    return dict.fromkeys(terms, 1.0)


def test_a_root_is_found_in_the_words_written_with_a_prefix() -> None:
    asked = note_question("الأعداد الصحيحة", ["en"], _idf)
    assert set(asked.terms) == {"عدد", "صحح"}
    # neither word of the note starts with its root, nor holds it as a substring
    text = "تتعامل اللغة مع أعداد صحيحة كبيرة."
    assert set(analyze(text)) >= {"عدد", "صحح"}
    assert note_window_share(text, asked) == 1.0


def test_a_bare_question_word_finds_the_note_word_with_a_conjunction() -> None:
    asked = note_question("عدد", ["en"], _idf)
    assert asked.terms == ("عدد",)
    assert note_window_share("نحسب والعدد بالأعداد", asked) == 1.0


def test_a_word_the_note_does_not_hold_is_not_found() -> None:
    asked = note_question("الأعداد الصحيحة", ["en"], _idf)
    share = note_window_share("نص عن الدوال والمتغيرات فقط.", asked)
    assert share == 0.0


def test_words_of_other_scripts_in_the_question_are_found_as_before() -> None:
    asked = note_question("الأعداد bigint", ["en"], _idf)
    assert asked.terms == ("عدد", "bigint")
    assert note_window_share("bigint و أعداد", asked) == 1.0
    assert note_window_share("bigint only", asked) == 0.5
