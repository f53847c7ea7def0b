"""A stemmer can strip a whole word (Turkish ``leri``, the suffix left of
``commit'leri``): the analysis never yields an empty term, and a question holding
such a word is answered (an empty term's key was found at every offset of a note's
text, and the note window's search for it never moved on: every search read as
Turkish with 6-20 terms hung)."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest

from rubi import app
from rubi.index.analysis import text_analyzer
from rubi.search.codewindow import question_terms
from rubi.search.notewindow import _offsets_of

from helpers import rubi_project, write

LANGS = ["en", "code", "tr", "de", "fr", "es", "pt", "it", "nl", "id", "pl", "ru", "fi", "hu"]
SUFFIXES = ["leri", "ları", "ler", "lar", "dir", "dır", "nin", "sini", "ing", "ed", "es", "en"]


@pytest.mark.parametrize("lang", LANGS)
def test_no_word_of_two_or_three_letters_or_a_suffix_becomes_an_empty_term(lang: str) -> None:
    terms_of = text_analyzer(lang).terms_of
    letters = "abcdefgilmnorstuyıü"
    words = ["".join(p) for n in (2, 3) for p in itertools.product(letters, repeat=n)]
    for word in [*SUFFIXES, *words, "commit'leri", "'leri"]:
        assert "" not in terms_of(word), (lang, word)


def test_an_empty_key_is_found_nowhere() -> None:
    assert _offsets_of("bir metin", "bir metin", "x", "", "tr") == []
    assert "" not in question_terms("commit'leri leri", lambda terms: {}).terms


def test_a_turkish_question_with_a_bare_suffix_is_answered(tmp_path: Path) -> None:
    repo = rubi_project(tmp_path / "p", {"README.md": "# p\n"})
    notes = {
        "git-log": "# git log\n\nBir depodaki commit'leri listeler ve gösterir. Klasördeki "
        "dosyaların geçmişini görmek için kullanılır.\n",
        "git-status": "# git status\n\nÇalışma klasöründeki değişiklikleri gösterir ve "
        "listeler; commit'leri değiştirmez.\n",
        "ls": "# ls\n\nBir klasördeki dosyaları ve dizinleri listeler.\n",
    }
    for name, text in notes.items():
        write(repo / ".rubi" / "notes" / f"{name}.md", text)
    paths = app.locate(repo / ".rubi")
    found: list[list[str]] = []

    def ask() -> None:
        question = "Klasördeki commit'leri nasıl görürüm ve listelerim?"
        found.append([h.id for h in app.search(paths, question, scope="notes").hits])

    worker = threading.Thread(target=ask, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the search never returned"
    assert found and found[0][:1] == ["notes/git-log"]
