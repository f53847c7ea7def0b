"""In a search of code alone, a long question finds first the file where its words meet
in a few lines, not the large module that mentions each of them somewhere; a short
question keeps BM25F's order."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.index.querymatch import BM25Hit
from rubi.search.codecoverage import COVERAGE_MAX_WORDS, COVERAGE_MIN_WORDS
from rubi.search.codewindow import (
    MIN_SHARE,
    WINDOW_LINES,
    QuestionTerms,
    by_window,
    question_terms,
    window_share,
)

from helpers import rubi_project

WORDS = ("cookie", "signed", "session", "expire", "browser", "keeps")


def _scattered() -> str:
    """A large module defining and naming every word of the question, each far from
    the others, and more often than the small file does."""
    blocks = []
    for n, word in enumerate(WORDS * 2):
        filler = "".join(f"    step_{n}_{i} = {i}\n" for i in range(WINDOW_LINES + 5))
        blocks.append(f"def {word}_{n}():\n    # the {word} part\n    {word} = 1\n{filler}")
    return "\n".join(blocks)


SMALL = (
    "def signed_cookie(data, key):\n"
    "    # a signed cookie keeps the session in the browser until it should expire\n"
    "    return sign(data, key)\n"
)


def _hit(doc: str, score: float) -> BM25Hit:
    return BM25Hit(doc, score, {}, "file", doc, doc)


def _question(*terms: str) -> QuestionTerms:
    return QuestionTerms(terms, terms, tuple(1.0 for _ in terms))


def test_a_long_question_puts_the_file_where_its_words_meet_first(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "proj",
        {"src/app.py": _scattered(), "src/store.py": SMALL, "src/other.py": "y = 2\n"},
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    question = "signed cookie that keeps the session in the browser until it should expire"
    hits = app.search(paths, question, scope="code", top_k=3).hits
    assert hits[0].id == "src/store.py"
    short = app.search(paths, "cookie session", scope="code", top_k=3).hits
    assert short[0].id == "src/app.py"


def test_window_share_is_the_best_window_share_of_the_idf_mass() -> None:
    together = "x = 1\nsigned cookie\nsession = 2\n"
    assert window_share(together, _question("sign", "cooki", "session")) == 1.0
    apart = "signed\n" + "pass\n" * WINDOW_LINES + "cookie session\n"
    assert window_share(apart, _question("sign", "cooki", "session")) == 2 / 3
    weighed = QuestionTerms(("sign", "cooki"), ("sign", "cooki"), (3.0, 1.0))
    assert window_share("signed\n" + "pass\n" * WINDOW_LINES + "cookie\n", weighed) == 0.75
    assert window_share("nothing here\n", _question("sign")) == 0.0
    assert window_share("anything\n", QuestionTerms((), (), ())) is None


def test_a_chinese_term_is_found_inside_its_run() -> None:
    found = question_terms("读取配置文件", lambda terms: {})
    assert "配置" in found.terms
    text = "# 程序启动时读取配置文件\nx = 1\n"
    assert window_share(text, found) == 1.0


def test_a_term_is_found_at_a_word_or_an_identifier_part_only() -> None:
    question = _question("middlewar", "sign")
    assert window_share("app = SessionMiddleware(app)\n", question) == 0.5
    assert window_share("the design of it\n", question) == 0.0
    assert window_share("SIGNED = True\nsign_in()\n", question) == 0.5


def test_question_terms_are_the_code_chain_terms_with_their_keys() -> None:
    asked: list[list[str]] = []

    def idf_of(terms: list[str]) -> dict[str, float]:
        asked.append(terms)
        return {"happi": 2.0}

    found = question_terms("happy SessionMiddleware", idf_of)
    assert "happi" in found.terms
    assert found.keys[found.terms.index("happi")] == "happ"
    assert "middlewar" in found.terms
    assert found.idfs[found.terms.index("happi")] == 2.0
    assert set(found.idfs) == {2.0}  # a term the index does not know weighs the most
    assert asked == [list(found.terms)]


def test_reordering_uses_the_square_root_of_the_window_share_for_a_question() -> None:
    module = _hit("module.py", 10.0)  # 10 * sqrt(0.25) = 5.0
    small = _hit("small.py", 7.0)  # 7 * 1.0 = 7.0
    gone = _hit("gone.py", 6.0)  # unreadable: kept at 6.0
    named = _hit("named.py", 9.0)  # none of the question in its text: 9 * sqrt(0.01)
    shares = {"module.py": 0.25, "small.py": 1.0, "gone.py": None, "named.py": 0.0}
    both = [module, small, gone, named]
    long = by_window(both, COVERAGE_MIN_WORDS, lambda h: shares[h.id])
    assert [h.id for h in long] == ["small.py", "gone.py", "module.py", "named.py"]
    assert [round(h.score, 6) for h in long] == [7.0, 6.0, 5.0, round(9.0 * MIN_SHARE**0.5, 6)]
    assert by_window([module, small], COVERAGE_MAX_WORDS, lambda h: shares[h.id])[0] == small
    short = by_window([module, small], COVERAGE_MIN_WORDS - 1, lambda h: shares[h.id])
    assert short == [module, small]
    assert by_window([module, small], COVERAGE_MAX_WORDS + 1, lambda h: 0.0) == [module, small]
