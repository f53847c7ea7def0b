"""The relevance floor on Korean: measured by its words, not by their bigrams.

Korean spaces its words, each a stem with particles and endings (``파일을``,
``해제하려면``); the index cuts each into overlapping bigrams. Read as words, the
bigrams of one Korean word always meet, so their co-occurrence proved nothing and
Korean was left out of the floor: every off-topic Korean question was answered and
recall spoke on it. Each word between spaces is now one unit, held when a page holds
any of its bigrams (the stem it shares with the page's own inflection). A question
whose words a page holds together is relevant; one that shares a word or two with
the vault by chance is labelled nothing relevant (hits kept) and recall stays silent.
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.recall import LONG_PROMPT_TERMS, cjk_run_words, prompt_words
from rubi.index.cjkwords import korean_words
from rubi.index.queryanalysis import QueryAnalysis
from rubi.search.reweighting import CJK_UNMEASURED, SIGNIFICANCE_FLOOR

from helpers import write

OFF_TOPIC = "여권 파일을 잃어버렸는데 어디로 가야 해요?"
ON_TOPIC = "압축된 아카이브를 해제하고 암호를 확인하려면 어떻게 하나요?"

PAGES = {
    "unzip": "# unzip\n\n압축 아카이브를 해제합니다. 암호를 확인합니다.\n\n- 해제: `unzip a.zip`\n",
    "ls": "# ls\n\n디렉터리의 파일 목록을 보여 줍니다.\n",
}


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    for name, text in PAGES.items():
        write(vault / f"{name}.md", text)
    for i in range(24):  # pages that share only common words
        write(vault / f"p{i:02d}.md", f"# cmd{i}\n\n명령을 실행합니다. 결과를 보여 줍니다.\n")
    return vault


def test_a_korean_word_is_its_bigrams_in_order() -> None:
    assert korean_words("압축 파일을 README.md 에서") == [("압축",), ("파일", "일을"), ("에서",)]
    assert korean_words("plain English") == []


def test_an_off_topic_korean_question_is_labelled_nothing_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, OFF_TOPIC, refresh=False)
    assert result.hits  # 파일 is on a page: labelled, not dropped
    assert result.cjk > CJK_UNMEASURED
    assert not result.relevant
    assert app.recall(paths, OFF_TOPIC, max_tokens=700) is None


def test_a_korean_question_a_page_answers_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ON_TOPIC, refresh=False)
    assert result.hits[0].id == "unzip"
    assert result.relevant and result.significance > SIGNIFICANCE_FLOOR
    block = app.recall(paths, ON_TOPIC, max_tokens=700)
    assert block is not None and "(id unzip)" in block


def test_a_short_korean_prompt_counts_its_words() -> None:
    question = "축구에서 오프사이드는 정확히 언제 선언되나요?"
    assert cjk_run_words(question) == 5  # by characters it was 11: a long prompt
    terms = set(QueryAnalysis(question).terms(question))
    assert prompt_words(question, terms) == 5 <= LONG_PROMPT_TERMS
