"""The words of a CJK query, as the relevance floor measures them.

The index cuts Chinese, Japanese and Korean into overlapping bigrams; the floor
(:func:`rubi.index.querymatch.floor_measure`) measures a query by its words instead:
Korean words between spaces (:func:`korean_words`, :func:`korean_units`), Japanese
katakana and Han words (:func:`japanese_units`), Chinese stretches of bigrams the
vault holds (:func:`chinese_units`). Each unit is a set of query words (``origin``
numbers of :class:`rubi.index.termscore.TermQuery`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rubi.index.analysis import is_cjk
from rubi.index.termscore import TermQuery

__all__ = ["chinese_units", "japanese_units", "korean_units", "korean_words"]


def _is_hangul(ch: str) -> bool:
    """Whether ``ch`` is a Hangul syllable (U+AC00-U+D7AF). A comparison, not a
    character class: a compiled pattern here cost every cold recall its compile."""
    return "\uac00" <= ch <= "\ud7af"


def _hangul_runs(text: str) -> Iterable[str]:
    """The Korean words of ``text`` as the index cuts them: each run of two or more
    Hangul syllables, in order."""
    start = -1
    for i, ch in enumerate(text):
        if _is_hangul(ch):
            if start < 0:
                start = i
        else:
            if start >= 0 and i - start > 1:
                yield text[start:i]
            start = -1
    if start >= 0 and len(text) - start > 1:
        yield text[start:]


def _all_hangul(text: str) -> bool:
    """Whether ``text`` is a Hangul bigram or a lone syllable (a particle written
    against a Latin word, ``로`` of ``API로``): a piece of a Korean word, no unit alone."""
    return bool(text) and all(_is_hangul(ch) for ch in text)


def korean_words(text: str) -> list[tuple[str, ...]]:
    """The Korean words of ``text``, each as the overlapping bigrams the index cuts it
    into (``"파일을"`` → ``("파일", "일을")``), in order, each word once; ``[]`` when
    ``text`` has none."""
    if text.isascii():
        return []
    found: dict[tuple[str, ...], None] = {}
    for run in _hangul_runs(text):
        found.setdefault(tuple(run[i : i + 2] for i in range(len(run) - 1)), None)
    return list(found)


def korean_units(
    words: Sequence[tuple[str, ...]], clauses: Sequence[TermQuery], dfs: Mapping[int, int]
) -> tuple[frozenset[int], ...]:
    """The units of :func:`rubi.index.querymatch.floor_measure` for Korean: each
    query word of ``dfs`` that is no Hangul bigram alone, then each of ``words``
    (bigrams) made of those of its bigrams that are query words (a word with none is
    no unit)."""
    of_bigram = {c.text: c.origin for c in clauses if c.origin in dfs and _all_hangul(c.text)}
    bigrams = set(of_bigram.values())
    units = {frozenset({w}): None for w in dfs if w not in bigrams}
    for word in words:
        unit = frozenset(of_bigram[b] for b in word if b in of_bigram)
        if unit:
            units.setdefault(unit, None)
    return tuple(units)


def _han_runs(text: str) -> list[str]:
    """Each run of two or more Han characters of ``text``, in order (the runs the
    index cuts into bigrams)."""
    runs, start = [], -1
    for i, ch in enumerate(text):
        if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf":
            if start < 0:
                start = i
            continue
        if start >= 0 and i - start > 1:
            runs.append(text[start:i])
        start = -1
    if start >= 0 and len(text) - start > 1:
        runs.append(text[start:])
    return runs


def chinese_units(
    text: str, clauses: Sequence[TermQuery], dfs: Mapping[int, int]
) -> tuple[frozenset[int], ...]:
    """The units of :func:`rubi.index.querymatch.floor_measure` for a Chinese ``text``
    (``()`` when it has no Han run): each query word of ``dfs`` that is no CJK bigram
    alone, then, along each Han run, each stretch of consecutive bigrams that some
    document holds (a word or a phrase the vault uses), and each stretch of bigrams none
    holds (a word the vault does not know). A bigram none holds between two that are
    held (or a dropped function bigram, or the run's end) is a word boundary and no unit
    (``何压`` of ``如何压缩``); a function bigram dropped from the query
    (:func:`~rubi.index.snowball.function_bigram`) cuts the run."""
    runs = _han_runs(text) if not text.isascii() else []
    if not runs:
        return ()
    of_bigram = {c.text: c.origin for c in clauses if c.origin in dfs and is_cjk(c.text)}
    bigrams = set(of_bigram.values())
    units: dict[frozenset[int], None] = {frozenset({w}): None for w in dfs if w not in bigrams}
    for run in runs:
        for stretch in _stretches(
            [of_bigram.get(run[i : i + 2]) for i in range(len(run) - 1)], dfs
        ):
            units.setdefault(frozenset(stretch), None)
    return tuple(units)


def _stretches(seq: Sequence[int | None], dfs: Mapping[int, int]) -> list[list[int]]:
    """:func:`chinese_units`' stretches of one run's bigrams (``None``: a dropped
    function bigram), in order."""
    held = [o is None or dfs[o] > 0 for o in seq]  # a dropped bigram reads as held
    out: list[list[int]] = []
    current: list[int] = []
    for i, o in enumerate(seq):
        boundary = (
            o is not None
            and not held[i]
            and len(seq) > 1
            and (i == 0 or held[i - 1])
            and (i == len(seq) - 1 or held[i + 1])
        )
        if o is None or boundary or (current and held[i] != held[i - 1]):
            if current:
                out.append(current)
            current = []
        if o is not None and not boundary:
            current.append(o)
    if current:
        out.append(current)
    return out


def japanese_units(
    words: Sequence[tuple[str, ...]], clauses: Sequence[TermQuery], dfs: Mapping[int, int]
) -> tuple[frozenset[int], ...]:
    """The units of :func:`rubi.index.querymatch.floor_measure` for Japanese: each
    query word of ``dfs`` that is no CJK bigram alone, then each of ``words``
    (bigrams) whose bigrams are all query words."""
    of_bigram = {c.text: c.origin for c in clauses if c.origin in dfs and is_cjk(c.text)}
    bigrams = set(of_bigram.values())
    units = {frozenset({w}): None for w in dfs if w not in bigrams}
    for word in words:
        if all(b in of_bigram for b in word):
            units.setdefault(frozenset(of_bigram[b] for b in word), None)
    return tuple(units)
