"""Patterns whose compile costs milliseconds are compiled when a text needs them: an
ASCII query analysed, tokenized for the dense channel and checked for CJK compiles
none of them, and the answers are those of the full patterns."""

from __future__ import annotations

import random
import re
import string

from rubi.core.lazyregex import Rx
from rubi.index import analysis, language
from rubi.semantic import wordpiece


def test_a_lazy_pattern_matches_as_the_compiled_one() -> None:
    lazy = Rx(r"(?P<w>[a-z]+)\d", re.I)
    assert lazy.pattern == r"(?P<w>[a-z]+)\d"
    assert lazy.findall("Ab1 cd2 x") == re.compile(lazy.pattern, re.I).findall("Ab1 cd2 x")
    assert lazy.sub("-", "Ab1 cd2") == "- -"
    assert lazy.groups == 1


def test_ascii_text_compiles_no_cjk_or_script_pattern() -> None:
    fresh = Rx(analysis._CJK_RE.pattern)
    original = analysis._CJK_RE
    analysis._CJK_RE = fresh
    try:
        assert not analysis.is_cjk("parse_config")
        assert analysis.text_analyzer is not None
        assert fresh._compiled is None
        assert analysis.is_cjk("日本")
        assert fresh._compiled is not None
    finally:
        analysis._CJK_RE = original
    assert all(isinstance(rx, Rx) for _, rx in language._SCRIPTS)


def test_the_ascii_split_gives_the_full_split_of_any_ascii_text() -> None:
    full = re.compile(wordpiece._SPLIT.pattern)
    rng = random.Random(7)
    alphabet = string.printable + "\x00\x01\x1f\x7f"
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert wordpiece._ASCII_SPLIT.findall(text) == full.findall(text)


def test_wordpiece_words_are_unchanged_for_accented_and_cjk_text() -> None:
    vocab = {"[UNK]": 0, "cafe": 1, "日": 2, "本": 3, ",": 4}
    piece = wordpiece.WordPiece(vocab)
    assert piece.words("Café, 日本 naïve!") == ["cafe", ",", "日", "本", "naive", "!"]


def test_a_recall_import_compiles_no_japanese_or_spelled_date_pattern() -> None:
    """Importing the recall's modules compiles neither the Japanese word patterns nor
    the date-in-words one; an ASCII text without a year compiles none of them, and the
    words and days found are those of the full patterns."""
    import subprocess
    import sys

    code = (
        "from rubi.index import japanese\n"
        "from rubi.dates import days\n"
        "lazy = (japanese._KANA, japanese._WORD, days._SPELLED_MD)\n"
        "print([rx._compiled is None for rx in lazy])\n"
        "japanese.japanese_words('how do I sync my vault?')\n"
        "days.day_keys('we met on Monday')\n"
        "print([rx._compiled is None for rx in lazy])\n"
        "print(japanese.japanese_words('ファイルの同期はどこ'))\n"
        "print(days.day_keys('we met on May 7th, 2023 and 7 May 2024'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, ascii_only, words, keys = done.stdout.splitlines()
    assert before == ascii_only == "[True, True, True]"
    assert words == "[('ファ', 'ァイ', 'イル'), ('同期',)]"
    assert keys == "['20230507', '20240507']"
