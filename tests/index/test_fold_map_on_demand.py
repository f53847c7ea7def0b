"""Accent folding without Whoosh's charset module until a word needs it: the written-out
ASCII characters are the map's, every word folds as with the whole map, and a
process that folds only plain ASCII words never imports the module."""

from __future__ import annotations

import subprocess
import sys

from whoosh.support.charset import accent_map

from rubi.index.wordterm import ASCII_FOLDED, fold

FULL = {**accent_map, **dict.fromkeys(range(0x300, 0x370))}


def test_the_written_out_ascii_characters_are_the_maps() -> None:
    changed = {c for c in map(chr, range(128)) if c.translate(FULL) != c}
    assert frozenset(changed) == ASCII_FOLDED


def test_every_word_folds_as_with_the_whole_map() -> None:
    words = [
        "sync",
        "Sync",
        "HTTP",
        "café",
        "İstanbul".lower(),
        "naïve",
        "straße",
        "Ærø",
        "résumé",
        "ﬁle",
        "x\u0301y",
        "",
        "вектор",
        "日本語",
        "Hello World",
        "a_b-c.d",
    ]
    words += [chr(c) for c in range(0x2000)]
    for word in words:
        assert fold(word) == word.translate(FULL), repr(word)


def test_plain_ascii_words_fold_without_the_charset_module() -> None:
    code = (
        "import sys\n"
        "from rubi.index.wordterm import fold\n"
        "assert fold('sync') == 'sync' and fold('vault') == 'vault'\n"
        "print('whoosh.support.charset' in sys.modules)\n"
        "assert fold('café') == 'cafe'\n"
        "print('whoosh.support.charset' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
