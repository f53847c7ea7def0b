"""A CJK bigram is no word: one that nearly every note holds (the kana of grammar,
``する``, ``こと``, ``でき``; Korean endings) adds next to nothing to a note's score,
so a note holding the question's rare bigrams outranks one holding many common ones.
Whoosh's IDF, ``log(N / (df + 1)) + 1``, never falls below 1, which makes the common
bigrams count as one word each; CJK pieces are weighed by Robertson–Spärck Jones's
IDF instead (:meth:`rubi.index.termscore.TermScorer.piece_idf`), as the CJK bigram
baselines do, while whole words keep Whoosh's."""

from __future__ import annotations

from math import log
from pathlib import Path

from rubi import app

from helpers import write

FILLER = "それはすることができます。ここでもすることができますし、あとですることもできます。"


def _vault(tmp_path: Path, answer: str, filler: str) -> Path:
    vault = tmp_path / "v"
    write(vault / "answer.md", answer)
    for i in range(19):
        write(vault / f"note{i:02d}.md", f"# note {i}\n\n{filler}\n")
    return vault


def test_common_bigrams_of_grammar_do_not_outweigh_a_rare_one(tmp_path: Path) -> None:
    vault = _vault(tmp_path, "# 設定\n\n設定のファイル。\n", FILLER)
    paths = app.locate(vault)
    app.index(paths)
    hits = app.search(paths, "設定はどうすることができますか", refresh=False).hits
    assert [h.id for h in hits][:1] == ["answer"]


def test_korean_endings_held_everywhere_do_not_outweigh_a_rare_word(tmp_path: Path) -> None:
    filler = "이것은 할 수 있습니다. 저것도 할 수 있습니다. 그렇게 하려면 어떻게 하나요?"
    vault = _vault(tmp_path, "# 배포\n\n배포 방법.\n", filler)
    paths = app.locate(vault)
    app.index(paths)
    hits = app.search(paths, "배포하려면 어떻게 하나요 할 수 있습니다", refresh=False).hits
    assert [h.id for h in hits][:1] == ["answer"]


def test_a_whole_word_keeps_whoosh_idf_and_pieces_are_cjk_only() -> None:
    from rubi.index.termscore import _is_cjk_piece

    assert _is_cjk_piece("する") and _is_cjk_piece("設定") and _is_cjk_piece("배포")
    assert _is_cjk_piece("の")  # a lone kana between other scripts
    assert not _is_cjk_piece("sync") and not _is_cjk_piece("синк")
    assert not _is_cjk_piece("設定する")  # not a bigram: a name or a whole term


class _Reader:
    def doc_count(self) -> int:
        return 20

    def leaf_readers(self) -> list[object]:
        return []


def test_piece_idf_is_rsj_and_tends_to_zero() -> None:
    from rubi.index.termscore import TermScorer

    scorer = TermScorer(_Reader(), B=0.75, K1=1.2)
    assert scorer.piece_idf(20) == log(1 + 0.5 / 20.5)  # near 0: held everywhere
    assert scorer.piece_idf(20) < 0.03 < 0.95 < scorer.idf(20)  # a word still counts
    assert scorer.piece_idf(1) == log(1 + 19.5 / 1.5)
