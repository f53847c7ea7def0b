"""The relevance floor on Chinese: measured by co-occurrence significance, not coverage.

Chinese has no spaces and no change of script between words, so the index cuts it
into overlapping bigrams, many across word boundaries: the page that answers a
question holds a small share of its bigrams, no more than a page that shares one
common word with an off-topic question. What tells them apart is how unlikely the
held bigrams are together: an answer holds many rare ones, an off-topic question's
best page one or two. A Chinese query is measured by its words: the stretches of
bigrams the vault holds, cut where a bigram no page holds lies between held ones (a
word boundary), so its coverage is read as an alphabetic query's. A search labels an
off-topic Chinese question nothing relevant (hits kept), recall stays silent on it,
and a question a page answers, short ones too, is not labelled. Korean, which spaces
its words, is measured by its words (``test_korean_floor.py``).
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.recall import LONG_PROMPT_TERMS, cjk_run_words, prompt_words
from rubi.index.queryanalysis import QueryAnalysis
from rubi.search.reweighting import (
    CJK_UNMEASURED,
    RELEVANCE_FLOOR,
    SIGNIFICANCE_FLOOR,
    relevant,
)

from helpers import write

OFF_TOPIC = "小狗总是咬人，应该怎么训练它？"
ON_TOPIC = "怎么用公钥加密一个文件，之后再用私钥解密？"

PAGES = {
    "gpg": "# gpg\n\n用公钥加密文件，用私钥解密文件。\n\n- 加密一个文件: `gpg -e`\n",
    "tar": "# tar\n\n打包和解包归档文件。\n\n- 解包一个文件: `tar xf`\n",
    "ls": "# ls\n\n列出目录里的文件。\n\n- 列出所有文件: `ls -a`\n",
    "chage": "# chage\n\n修改用户密码的过期时间。\n\n- 总是显示: `chage -l`\n",
}


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    for name, text in PAGES.items():
        write(vault / f"{name}.md", text)
    for i in range(24):  # pages that share only common words
        write(vault / f"p{i:02d}.md", f"# cmd{i}\n\n一个文件的命令。之后显示结果。\n")
    return vault


def test_a_cjk_query_is_measured_by_significance_not_coverage() -> None:
    cjk = CJK_UNMEASURED + 0.1
    assert not relevant(0.9, 0, cjk=cjk)  # a share of bigrams is no evidence
    assert not relevant(0.9, 0, cjk=cjk, significance=SIGNIFICANCE_FLOOR)
    assert relevant(0.1, 0, cjk=cjk, significance=SIGNIFICANCE_FLOOR + 0.01)
    assert relevant(0.0, 1, cjk=cjk)  # a note the query names


def test_an_off_topic_chinese_question_is_labelled_nothing_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, OFF_TOPIC, refresh=False)
    assert result.hits  # 总是 is on a page: labelled, not dropped
    assert result.cjk == 0.0  # measured by its words, coverage read
    assert not result.relevant and result.coverage < RELEVANCE_FLOOR
    assert app.recall(paths, OFF_TOPIC, max_tokens=700) is None


def test_a_chinese_question_a_page_answers_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ON_TOPIC, refresh=False)
    assert result.hits[0].id == "gpg"
    assert result.relevant and result.significance > SIGNIFICANCE_FLOOR
    block = app.recall(paths, ON_TOPIC, max_tokens=700)
    assert block is not None and "(id gpg)" in block


def test_a_short_chinese_prompt_counts_words_not_bigrams() -> None:
    terms = set(QueryAnalysis(OFF_TOPIC).terms(OFF_TOPIC))
    assert len(terms) > LONG_PROMPT_TERMS  # as bigrams it looked long
    assert cjk_run_words(OFF_TOPIC) == 3 + 4  # 小狗总是咬人 and 应该怎么训练它
    assert prompt_words(OFF_TOPIC, terms) == 7
    mixed = "怎么在 Linux 上配置防火墙"
    assert prompt_words(mixed, set(QueryAnalysis(mixed).terms(mixed))) == 1 + 2 + 3
    assert cjk_run_words("plain English") == 0


SHORT_PAGES = {
    "jtbl": "# jtbl\n\n以表格形式打印 JSON 数据。\n\n- 打印表格: `jtbl`\n",
    "json5": "# json5\n\n把 JSON5 转换为 JSON。\n",
    "iconv": "# iconv\n\n转换文件的字符编码。\n",
    "tr": "# tr\n\n把字符替换成别的字符。\n",
    "gzip": "# gzip\n\n压缩文件或者解压文件。\n",
}


def _short_vault(tmp_path: Path) -> Path:
    vault = tmp_path / "s"
    for name, text in SHORT_PAGES.items():
        write(vault / f"{name}.md", text)
    for i in range(24):
        write(vault / f"p{i:02d}.md", f"# cmd{i}\n\n一个命令。之后显示结果。\n")
    return vault


def test_a_short_chinese_question_a_page_answers_is_relevant(tmp_path: Path) -> None:
    """The vault holds 转换 and 换成 but not 成表 (across 转换成 | 表格): a boundary,
    so the question is three words, two of which the answer holds."""
    paths = app.locate(_short_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, "JSON 转换成表格", refresh=False)
    assert "jtbl" in [h.id for h in result.hits[:3]]
    assert result.cjk == 0.0 and result.coverage >= RELEVANCE_FLOOR
    assert result.relevant
    compress = app.search(paths, "如何压缩文件", refresh=False)
    assert compress.hits[0].id == "gzip" and compress.relevant


def test_a_short_off_topic_chinese_question_stays_labelled(tmp_path: Path) -> None:
    paths = app.locate(_short_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, "怎么把蛋糕烤得松软", refresh=False)
    assert not result.relevant
