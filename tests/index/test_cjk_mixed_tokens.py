"""A Latin word written against CJK text is its own word: Korean and Japanese attach
particles to a Latin word (``API로``, ``CMS의``, ``Pythonで``), and read as one run the
whole token was a single term no page or question wrote apart (``api로``), and its CJK
part gave no bigram."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.analysis import analyze
from rubi.index.cjkwords import korean_units, korean_words
from rubi.index.termscore import TermQuery

from helpers import write


def test_a_latin_word_before_a_particle_is_its_own_term() -> None:
    assert analyze("CMS의 REST API로") == ["cms", "의", "rest", "api", "로"]
    assert analyze("JSON을 파싱") == ["json", "을", "파싱"]


def test_japanese_after_a_latin_word_is_cut_into_bigrams() -> None:
    assert analyze("Pythonで使っている") == ["python", "で使", "使っ", "って", "てい", "いる"]
    assert analyze("HTTPクライアント")[:2] == ["http", "クラ"]
    assert analyze("在VS Code里装") == ["在", "vs", "code", "里装"]


def test_words_without_cjk_are_cut_as_before() -> None:
    assert analyze("plain text_here") == ["plain", "text_her", "text"]
    assert analyze("parseWikiLinks") == ["parsewikilink", "pars", "wiki", "link"]


def test_a_lone_particle_is_no_unit_of_the_korean_floor() -> None:
    clauses = [
        TermQuery("body", "api", 1.0, 0, origin=0),
        TermQuery("body", "로", 1.0, 1, origin=1),
        TermQuery("body", "배포", 1.0, 2, origin=2),
    ]
    dfs = {0: 3, 1: 40, 2: 2}
    units = korean_units(korean_words("API로 배포"), clauses, dfs)
    assert frozenset({0}) in units and frozenset({2}) in units
    assert frozenset({1}) not in units  # 로 is grammar, not a word of the question


def test_a_question_with_particles_on_latin_words_finds_the_page(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "python.md", "# トレース\n\nPython でトレースを送る方法。\n")
    write(vault / "other.md", "# 別のページ\n\nまったく関係のない話。\n")
    write(vault / "rest.md", "# REST\n\nREST API 사용법과 인증 키.\n")
    paths = app.locate(vault)
    app.index(paths)
    ja = app.search(paths, "Pythonでトレースを送りたい", refresh=False).hits
    assert [h.id for h in ja][:1] == ["python"]
    ko = app.search(paths, "REST API로 인증하려면", refresh=False).hits
    assert [h.id for h in ko][:1] == ["rest"]
