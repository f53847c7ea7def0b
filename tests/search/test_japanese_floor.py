"""The relevance floor on Japanese: measured by content words, not by bigrams.

A Japanese question shares its grammar with every page (``するには``, ``ください``) and
bigrams across word boundaries with many; measured as its katakana and Han words, an
off-topic question is labelled nothing relevant and recall stays silent, while a
question a page answers is not labelled. Chinese, written in Han alone, has no such
cue: it is measured by significance alone (``tests/search/test_chinese_floor.py``).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rubi import app
from rubi.app.recall import LONG_PROMPT_TERMS, prompt_words
from rubi.index.japanese import japanese_words
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.searchindex import SearchIndex

from helpers import write

OFF_TOPIC = "サッカーのオフサイドのルールを教えてください。"
ON_TOPIC = "ディレクトリの中のファイルを一覧表示するには？"

PAGES = {
    "ls": "# ls\n\nディレクトリの中のファイルを一覧表示します。\n\n- 隠しファイルも: `ls -a`\n",
    "rm": "# rm\n\nファイルを削除します。ルールに従ってください。\n\n- 確認して: `rm -i`\n",
    "cp": "# cp\n\nファイルをコピーします。\n\n- ディレクトリを再帰的にコピーするには: `cp -r`\n",
    "tar": "# tar\n\nアーカイブを作成してください。\n\n- ファイルを展開するには: `tar xf`\n",
    "git": "# git\n\nバージョン管理システムです。ルールを設定してください。\n",
    "ps": "# ps\n\nプロセスを表示します。\n\n- すべてのプロセスを表示するには: `ps aux`\n",
}


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    for name, text in PAGES.items():
        write(vault / f"{name}.md", text)
    for i in range(20):  # pages that share only the grammar
        write(vault / f"p{i:02d}.md", f"# cmd{i}\n\n設定を変更してください。するには。\n")
    return vault


def test_japanese_words_are_the_katakana_and_han_runs_as_bigrams() -> None:
    assert japanese_words(OFF_TOPIC) == [
        ("サッ", "ッカ", "カー"),
        ("オフ", "フサ", "サイ", "イド"),
        ("ルー", "ール"),
    ]  # 教 alone between kana has no bigram; the hiragana are grammar
    loan = [("住宅",), ("ロー", "ーン"), ("固定", "定金", "金利")]
    assert japanese_words("住宅ローンの固定金利") == loan
    assert japanese_words("怎么在 Linux 上配置防火墙") == []  # Han alone: not Japanese
    assert japanese_words("plain English") == []


def test_an_off_topic_japanese_question_is_labelled_nothing_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, OFF_TOPIC, refresh=False)
    assert result.hits  # its grammar and ルール match pages: labelled, not dropped
    assert not result.relevant
    assert result.cjk == 0.0  # measured, by its words
    assert app.recall(paths, OFF_TOPIC, max_tokens=700) is None


def test_a_japanese_question_a_page_answers_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ON_TOPIC, refresh=False)
    assert result.hits[0].id == "ls"
    assert result.relevant and result.coverage >= 0.5
    block = app.recall(paths, ON_TOPIC, max_tokens=700)
    assert block is not None and "(id ls)" in block


def test_a_page_holds_a_japanese_word_only_with_all_its_bigrams(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    index = SearchIndex(paths.whoosh_dir)
    # Two words: サッカー on no page (its IDF the highest), ルール on two; the
    # bigrams ーの and のル (across scripts) are no part of the measure.
    hits = index.bm25("サッカーのルール", kind="note")
    assert hits and hits[0].id in {"rm", "git"}
    docs = len(PAGES) + 20
    unseen, rule = math.log(docs / 1) + 1, math.log(docs / 3) + 1
    assert hits[0].coverage == pytest.approx(rule / (unseen + rule))


def test_a_short_japanese_prompt_counts_its_words_not_its_bigrams() -> None:
    terms = set(QueryAnalysis(OFF_TOPIC).terms(OFF_TOPIC))
    assert len(terms) > LONG_PROMPT_TERMS  # as bigrams it looked long
    assert prompt_words(OFF_TOPIC, terms) == 3
    english = "how do I list the files"
    assert prompt_words(english, set(QueryAnalysis(english).terms(english))) == len(
        set(QueryAnalysis(english).terms(english))
    )
