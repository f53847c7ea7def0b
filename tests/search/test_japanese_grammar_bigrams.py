"""Japanese grammar is no part of a question: the hiragana bigrams of a Japanese
question (particles, endings, auxiliaries: ``って``, ``ですか``, ``している``) are
dropped from its query like stop words, so a long page of conversation that shares
the question's grammar does not outrank the short page that holds its words; Han,
katakana and the bigrams across scripts stay, and a question of hiragana alone keeps
them."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.japanese import grammar_piece
from rubi.index.querymatch import query_clauses

from helpers import write

QUESTION = "ファイルを圧縮してから送りたいのですが、どうすればいいですか？"


def _terms(text: str) -> set[str]:
    return {c.text for c in query_clauses(text, fields=["body"])}


def test_grammar_pieces_are_hiragana_alone() -> None:
    assert grammar_piece("して") and grammar_piece("です") and grammar_piece("で")
    assert not grammar_piece("圧縮") and not grammar_piece("ファ")
    assert not grammar_piece("縮し")  # Han with its ending: the verb's stem
    assert not grammar_piece("をフ") and not grammar_piece("ab") and not grammar_piece("")


def test_a_japanese_question_drops_its_hiragana_bigrams() -> None:
    terms = _terms(QUESTION)
    assert {"ファ", "ァイ", "イル", "圧縮", "縮し", "送り"} <= terms
    assert not {"して", "てか", "から", "たい", "です", "すか", "どう"} & terms
    assert "で" not in _terms("Pythonで圧縮する")  # a particle against a Latin word


def test_hiragana_alone_and_chinese_keep_their_bigrams() -> None:
    assert _terms("ありがとう") == {"あり", "りが", "がと", "とう"}
    assert _terms("压缩文件") == {"压缩", "缩文", "文件"}  # Han alone: Chinese


def test_a_page_of_grammar_does_not_outrank_the_answer(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "gzip.md", "# gzip\n\nファイルを圧縮します。\n\n- 圧縮して送る: `gzip -c`\n")
    chat = (
        "# インタビュー\n\n"
        + "どうすればいいですか、と聞いてから、送りたいのですが、とよく言っていました。"
        "してからでいいですか。どうですか。ファイルのことですか。\n" * 6
    )
    write(vault / "chat.md", chat)
    for i in range(8):  # pages that share only the grammar
        write(vault / f"p{i}.md", f"# メモ{i}\n\nそれでいいですか。してから考えたいのですが。\n")
    paths = app.locate(vault)
    app.index(paths)
    hits = app.search(paths, QUESTION, refresh=False).hits
    assert [h.id for h in hits][:1] == ["gzip"]
