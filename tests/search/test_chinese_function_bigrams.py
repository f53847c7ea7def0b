"""Chinese question words are no part of a question: a bigram of two Chinese
function characters (``如何`` "how", ``怎么``, ``一个``) is dropped from a Chinese
query like a stop word, so an off-topic question matches no page on it alone; a
Japanese query and a query of nothing else keep it."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.querymatch import query_clauses
from rubi.index.snowball import function_bigram

from helpers import write


def _terms(text: str) -> set[str]:
    return {c.text for c in query_clauses(text, fields=["body"])}


def test_function_bigrams_are_two_function_characters() -> None:
    assert function_bigram("如何") and function_bigram("怎么") and function_bigram("一个")
    assert not function_bigram("压缩") and not function_bigram("文件")
    assert not function_bigram("何压")  # one function character beside a content one
    assert not function_bigram("ab")


def test_a_chinese_question_drops_its_function_bigrams() -> None:
    assert _terms("如何压缩文件") == {"何压", "压缩", "缩文", "文件"}
    assert _terms("怎么用公钥加密一个文件") >= {"公钥", "加密", "文件"}
    assert not {"怎么", "一个"} & _terms("怎么用公钥加密一个文件")


def test_a_question_of_function_words_alone_and_japanese_keep_them() -> None:
    assert _terms("如何") == {"如何"}
    assert "如何" in _terms("如何にファイルを圧縮する")  # kana: Japanese


def test_an_off_topic_question_matches_no_page_on_its_question_word(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "open.md", "# open\n\n如何打开文件或者目录。\n")
    write(vault / "zip.md", "# zip\n\n压缩文件到一个归档。\n")
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, "如何做蛋糕", refresh=False)
    assert not result.hits and not result.relevant
    assert [h.id for h in app.search(paths, "如何压缩文件", refresh=False).hits][:1] == ["zip"]
