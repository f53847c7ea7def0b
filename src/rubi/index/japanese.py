"""Words of a Japanese query, as the relevance floor measures them.

Japanese text has no spaces, so the index cuts it into overlapping character bigrams
(:class:`rubi.index.analysis.CJKBigramFilter`). A bigram is a poor unit of evidence:
one across a word boundary (``の更``: a particle and the first character of a word) or
inside the kana of grammar (``てく``, ``くだ``, ``ださ``, ``さい`` of ``ください``; ``する``
in 461 of 492 pages) is held by a page that says nothing about the question, and the
bigrams of one word are not independent, so counting them as separate words of the
query inflates both the share of the query a page holds and how unlikely that looks.

The change of script is the classic cue for Japanese word boundaries (character-type
segmentation, the strongest feature of TinySegmenter and of Kudo et al. 2004's
unknown-word model): content words are written in katakana (loanwords: ``ファイル``,
``サッカー``) or Han (``更新``, ``住宅``), grammar in hiragana (``の``, ``を``, ``には``,
``ですか``). :func:`japanese_words` gives each katakana or Han run of two or more
characters as one word, made of the bigrams the index holds of it; a page holds the
word when it holds every one of them. Hiragana runs and bigrams across scripts are
left out of the measure. A text without kana is not Japanese here (Chinese text is Han
alone, where a run is a whole clause, not a word): it gives no words.
"""

from __future__ import annotations

from rubi.core.lazyregex import Rx

__all__ = ["grammar_piece", "japanese_words"]

_KANA = Rx(r"[\u3040-\u30ff]")
"""Hiragana and katakana (the blocks :data:`rubi.index.analysis._CJK_RE` holds);
this pattern and :data:`_WORD` are compiled for the first text that is not ASCII
(1.3 ms of CPU, which every cold recall paid at import)."""
_WORD = Rx(r"[\u30a0-\u30ff]{2,}|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
"""A run of two or more katakana (with the prolonged sound mark ``ー``), or of two or
more Han characters: the pieces of the index's CJK runs (``_CJK_RE``) that are
written in one content script."""


def japanese_words(text: str) -> list[tuple[str, ...]]:
    """The content words of a Japanese ``text``, each as the overlapping bigrams the
    index cuts it into (``"ファイル"`` → ``("ファ", "ァイ", "イル")``), in order, each
    word once; ``[]`` when ``text`` holds no kana (not Japanese, or no CJK at all).

    The bigrams are those :class:`rubi.index.analysis.CJKBigramFilter` makes of the
    run the word sits in, so each is a query term; a single katakana or Han character
    between kana has no bigram of its own and is no word here."""
    if text.isascii() or not _KANA.search(text):
        return []
    words: dict[tuple[str, ...], None] = {}
    for match in _WORD.finditer(text):
        run = match.group()
        words.setdefault(tuple(run[i : i + 2] for i in range(len(run) - 1)), None)
    return list(words)


def grammar_piece(term: str) -> bool:
    """Whether ``term`` is a bigram of two hiragana (U+3040-U+309F), or one hiragana
    alone (a particle written against a Latin word: ``で`` of ``Pythonで``): the grammar of a
    Japanese sentence (particles, endings, auxiliaries: ``って``, ``ます``, ``ている``'s
    ``てい`` and ``いる``), not a topic; the Japanese counterpart of a stop word, as
    :func:`rubi.index.snowball.function_bigram` is Chinese's. A comparison, not a
    character class (no pattern to compile).

    Content words are written in Han and katakana (the script change the module's
    docstring describes); a word spelled in hiragana alone is rare in technical text,
    and a question keeps such bigrams when it has nothing else
    (:func:`rubi.index.querymatch.query_clauses`)."""
    return 0 < len(term) <= 2 and all("\u3040" <= ch <= "\u309f" for ch in term)
