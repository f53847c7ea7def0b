"""What a query becomes in the index, and what a hit holds of it.

:func:`query_clauses`: the BM25F clauses of a query (each word's terms in each field
and language, what saturates together); :func:`word_groups`, :func:`coverage` and
:func:`significance`: the evidence the relevance floor reads of a hit (the share of the
query's IDF mass it holds; how unlikely its words are to meet by chance);
:class:`BM25Hit`: a scored hit with that evidence. The index that scores the clauses
is :mod:`rubi.index.searchindex`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rubi.index.analysis import is_cjk, text_analyzer
from rubi.index.language import query_language
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.schema import (
    CODE_SCOPE_FIELDS,
    DOCUMENT_LANGUAGE_FIELDS,
    FIELD_BOOSTS,
    SOLO_FIELDS,
    field_language,
)
from rubi.index.snowball import function_bigram
from rubi.index.termscore import TermQuery
from rubi.index.wordparts import mixed_case_parts

__all__ = [
    "BM25Hit",
    "FloorMeasure",
    "cjk_share",
    "coverage",
    "floor_measure",
    "query_clauses",
    "significance",
    "word_groups",
]


@dataclass(frozen=True, slots=True)
class BM25Hit:
    """A BM25F match: document id, score, the query terms it matched per field, and
    ``coverage``: the share of the query's IDF mass its matched words hold (0 to 1:
    the sum of the IDFs of the query's content words it holds in any field over that
    of all of them, a word no document holds counting with the highest IDF; the
    question's words and the caller's extra terms each measured alone, the larger
    share kept), the
    scale-free evidence the relevance floor reads (:func:`rubi.search.reweighting.relevant`).
    In a Japanese query the words measured are its content words, not its bigrams
    (:func:`floor_measure`). ``cjk``: the share of that mass in CJK bigrams, whose
    coverage the floor cannot read (a Korean query's; 0.0 for a Japanese or Chinese
    one, measured by its words), the same for every hit of a query. ``significance``: how
    unlikely it is that one
    document holds the query's content words this hit holds by chance, in nats
    (:func:`significance`), the floor's second reading. ``words``: how many of the
    query's measured words (Japanese, Chinese, Korean: its units) the hit holds.
    ``most``: the significance of a document of average length holding every word
    of the query some document holds, the most the vault could show (the same for
    every hit of a query).
    """

    id: str
    score: float
    matched: dict[str, tuple[str, ...]]
    kind: str
    path: str
    title: str
    type: str = "note"
    status: str = "active"
    coverage: float = 0.0
    cjk: float = 0.0
    significance: float = 0.0
    words: int = 0
    most: float = 0.0


def query_clauses(
    text: str,
    *,
    extra_terms: Iterable[str] = (),
    kind: str | None = None,
    fields: Iterable[str] | None = None,
    languages: Iterable[str] = ("en",),
    analysis: QueryAnalysis | None = None,
) -> list[TermQuery]:
    """The clauses :meth:`SearchIndex.bm25` scores for a query: each wanted field (in
    :data:`FIELD_BOOSTS` order) with its weight, times each term of each query word
    (:func:`rubi.index.analysis.query_words` of ``text`` and ``extra_terms``). A
    field of :data:`~rubi.index.schema.DOCUMENT_LANGUAGE_FIELDS` gets the word's terms
    in each of ``languages`` (the analysis chains of the index's documents, as
    :meth:`SearchIndex.languages` gives them); another field its own chain's. The
    clause's ``word`` numbers what saturates together: a word's clauses in every field
    and language, but in a search of code alone (``kind="file"``) a clause in one of
    :data:`~rubi.index.schema.SOLO_FIELDS`, alone. Outside a search of code alone a
    word written with capitals inside it (``JavaScript``) is one word with its pieces,
    which the index holds beside it on every page that writes it: its pieces' clauses
    are ``reading`` (their documents no part of its IDF); as words of their own they
    counted that page's one word three times (lang-doka-ru, tldr-ru, tldr-pt).
    Other arguments as for :meth:`SearchIndex.bm25`."""
    query_text = " ".join([text, *extra_terms])
    wanted = set(fields) if fields is not None else set(FIELD_BOOSTS) - set(CODE_SCOPE_FIELDS)
    prose = list(dict.fromkeys(languages)) or ["en"]
    langs = sorted(
        {field_language(f) for f in wanted - DOCUMENT_LANGUAGE_FIELDS}
        | (set(prose) if wanted & DOCUMENT_LANGUAGE_FIELDS else set())
    )
    notes = kind != "file"  # a search of code keeps an identifier's pieces as words
    words = QueryAnalysis.of(query_text, analysis).words(query_text, langs, notes)
    readings = _readings(query_text, langs) if notes else frozenset()
    words = _without_stop_words(words, query_text, prose)
    if kind == "file":
        # A code-only search: programming abbreviations, in every field, as more
        # terms of the word they abbreviate or spell out. In notes, or in a search
        # of both kinds, words stay as written: there "info" is the info callout,
        # and code would gain a second match per concept over notes.
        _add_abbreviations(words, langs)
    ids: dict[tuple[int, str, str], int] = {}  # what saturates together -> its number
    # A word some chain drops (a stop word of one of the index's languages or code)
    # is a function word of one of the query's possible languages: it is scored where
    # it is kept, but is no part of the query's IDF mass (TermQuery.origin -1), else
    # the English "where" kept by the Spanish chain would count as a word no note
    # holds.
    content = [all(word.get(lang) for lang in langs) for word in words]
    clauses: list[TermQuery] = []
    for field_name, boost in FIELD_BOOSTS.items():
        if field_name not in wanted:
            continue
        # Code's own fields saturate apart only in a search of code alone (measured
        # there: folded in, code search fell 0.915 -> 0.854). In a search of notes and
        # code together every document gets one saturation per word (BM25F proper), or
        # a code file whose symbols and comments repeat one common word outranks the
        # note that holds every word of the question (the README's first question put
        # the answer 14th). Cost measured: code search with --scope all 0.871 -> 0.842.
        solo = field_name in SOLO_FIELDS and kind == "file"
        chains = prose if field_name in DOCUMENT_LANGUAGE_FIELDS else [field_language(field_name)]
        for i, word in enumerate(words):
            for term in _field_terms(word, chains):
                key = (i, field_name, term) if solo else (i, "", "")
                word_id = ids.setdefault(key, len(ids))
                clauses.append(
                    TermQuery(
                        field_name,
                        term,
                        boost,
                        word_id,
                        alone=solo,
                        origin=i if content[i] else -1,
                        reading=term in readings,
                    )
                )
    return clauses


def _readings(text: str, langs: Sequence[str]) -> frozenset[str]:
    """The terms, in any of ``langs``, of the pieces of ``text``'s words written with
    capitals inside them (:func:`rubi.index.wordparts.mixed_case_parts`)."""
    pieces = mixed_case_parts(text)
    return frozenset(t for p in pieces for c in langs for t in text_analyzer(c).terms_of(p))


def _without_stop_words(
    words: list[dict[str, list[str]]], text: str, prose: Sequence[str]
) -> list[dict[str, list[str]]]:
    """The query ``words`` of ``text`` that are no stop word of its language among the
    index's ``prose`` chains (:func:`rubi.index.language.query_language`), or, when
    that language is uncertain, of any of them (unless nothing else is left).

    Why: a stop word of the question's language, dropped by that chain, was searched in
    every chain that keeps it: the Spanish "de" and "un" matched every note analysed as
    English (a note of code and a line of prose, an English README) as rare words.
    When no language wins (no stop word, or two languages' as many: "receta de
    tortilla" in an index of Spanish, French and Catalan notes), the word that is a
    stop word of one of them is as likely a function word: kept, "de" and "cómo"
    (read as Catalan "com") matched notes of the other chains."""
    words = _without_function_bigrams(words, text)
    asked = query_language(text, prose)
    if asked is not None:
        return [word for word in words if word.get(asked)]
    if len(prose) < 2:
        return words
    kept = [word for word in words if all(word.get(lang) for lang in prose)]
    return kept or words


def _without_function_bigrams(
    words: list[dict[str, list[str]]], text: str
) -> list[dict[str, list[str]]]:
    """``words`` without the function-word bigrams of a Chinese or Japanese ``text``,
    unless nothing else is left: in a Chinese text the bigrams of two Chinese function
    characters (:func:`rubi.index.snowball.function_bigram`: ``如何``, ``怎么``,
    ``可以``), in a Japanese one (kana) the hiragana bigrams and lone hiragana
    (:func:`rubi.index.japanese.grammar_piece`: ``って``, ``すか``, ``ている``'s
    ``てい`` and ``いる``, ``で`` of ``Pythonで``). A Japanese text keeps its Han
    bigrams (Han there is not Chinese grammar).

    Why, Chinese: ``如何`` ("how") is on many pages of a Chinese vault, so an
    off-topic question ("如何做蛋糕", how to bake a cake) matched them on it alone, and
    a question word counted in the floor's evidence like a topic. Why, Japanese: a
    question's particles and endings are a quarter of its bigrams, each on most pages, and
    together they outweighed its content words on long pages of chat or interviews
    (development halves, MRR@10: lang-otel-ja 0.650 -> 0.682, lang-tldr-ja 0.971 ->
    0.978; ``docs/benchmarks-history.md``, "issue 28: Japanese grammar bigrams,
    nineteenth pass"). The floor never read them (:func:`floor_measure` measures a
    Japanese question by its katakana and Han words)."""
    if text.isascii():
        return words
    from rubi.index.japanese import grammar_piece, japanese_words  # kana or Han only

    grammar = grammar_piece if japanese_words(text) else function_bigram
    kept = [word for word in words if not all(grammar(t) for terms in word.values() for t in terms)]
    return kept or words


def _add_abbreviations(words: list[dict[str, list[str]]], langs: Iterable[str]) -> None:
    """Add to each query word, in each chain of ``langs``, the programming
    abbreviations of its terms and the words they abbreviate
    (:func:`rubi.index.abbreviations.expansions`), each term once in the query. A
    search of code alone asks it: the table is imported here, not by every search."""
    from rubi.index.abbreviations import expansions

    for lang in langs:
        have = {t for word in words for t in word.get(lang, ())}
        for word in words:
            for other in expansions(word.get(lang, [])):
                if other not in have:
                    word.setdefault(lang, []).append(other)
                    have.add(other)


def _field_terms(word: Mapping[str, list[str]], chains: Sequence[str]) -> Iterable[str]:
    """A query word's terms in a field analysed by ``chains`` (one, or each document
    language's), each once, in the chains' order."""
    if len(chains) == 1:
        return word.get(chains[0], [])
    return dict.fromkeys(t for c in chains for t in word.get(c, []))


def word_groups(
    clauses: Sequence[TermQuery],
    text: str,
    extra_terms: Iterable[str],
    kind: str | None,
    fields: Iterable[str] | None,
    idfs: Mapping[int, float],
    languages: Sequence[str],
    analysis: QueryAnalysis | None = None,
) -> list[set[int]]:
    """The query words (``origin`` numbers with an IDF) of ``text`` and, apart, those
    of ``extra_terms`` (the caller's expansion: alternatives to the question's words,
    so a hit may cover either), each group non-empty (``analysis``: ``text``'s)."""
    extra = " ".join(extra_terms)
    if not extra.strip():  # the question alone (recall, most searches): analysed once
        group = {c.origin for c in clauses if c.origin in idfs}
        return [group] if group else []
    out = []
    for part in (text, extra):
        if not part.strip():
            continue
        clauses_of_part = query_clauses(
            part, kind=kind, fields=fields, languages=languages, analysis=analysis
        )
        terms = {c.text for c in clauses_of_part}
        group = {c.origin for c in clauses if c.origin in idfs and c.text in terms}
        if group:
            out.append(group)
    return out


def coverage(held: set[int], groups: Sequence[set[int]], idfs: Mapping[int, float]) -> float:
    """The largest share of one group's IDF mass (:func:`word_groups`) in ``held``."""
    shares = [sum(idfs[w] for w in g & held) / (sum(idfs[w] for w in g) or 1.0) for g in groups]
    return max(shares, default=0.0)


def cjk_share(clauses: Sequence[TermQuery], idfs: Mapping[int, float]) -> float:
    """The share of the query's IDF mass (``idfs`` by ``origin``) in CJK bigrams:
    :attr:`BM25Hit.cjk` (before a Japanese query's is set to 0)."""
    mass = sum(idfs.values()) or 1.0
    bigrams = {c.origin for c in clauses if c.origin >= 0 and is_cjk(c.text)}
    return sum(v for w, v in idfs.items() if w in bigrams) / mass


def significance(
    held: Collection[int], dfs: Mapping[int, int], docs: int, length: float = 1.0
) -> float:
    """Minus the log (nats) of how many of ``docs`` documents would hold every query
    word in ``held`` by chance, corrected for which of the query's words they are.

    Were words independent, a document holds words of document frequencies ``df_i``
    with probability ``prod(df_i / N)``, so ``N * prod(df_i / N)`` documents are
    expected to hold all ``k`` of them; a hit was free to hold any ``k`` of the
    query's ``m`` content words (``dfs``: each word's document frequency, by
    ``origin``, a word no document holds included), so the expectation is multiplied
    by ``C(m, k)`` (Bonferroni). The result is ``-log`` of that: above ``log 20`` the
    chance expectation is below 0.05 (:data:`rubi.search.reweighting.SIGNIFICANCE_FLOOR`).
    It reads document frequencies only, not the scorer's IDF, and needs no constant of
    the vault. One word held never exceeds 0 (``N * df / N >= 1``); no word held is
    ``-log N``. Held words no document holds (impossible for a hit) are ignored.

    ``length``: the hit's length over the vault's average document's
    (:meth:`rubi.index.termscore.TermScorer.length_shares`). A document shorter than
    the average (``length < 1``) is held to the chance that a document of its length
    holds each word, ``1 - (1 - df / N) ** length`` (each of its tokens a draw: the
    Poisson reading of ``df / N`` as the average document's chance), below ``df / N``:
    a few-line note that holds the question's rare words together is more than the
    vault's rate of those words would give by chance. A longer document keeps
    ``df / N``: read the same way it hid 34 more answered questions of the
    development halves (an answer page is 1.3–2 times the average length, and a vault's words are
    not spread evenly, so a long page is not proportionally likelier to hold a rare
    one). One word held is read at ``df / N`` whatever the length (a stub note titled
    by one rare word of the question is chance, not an answer). Why: the short notes
    of a "today I learned" vault (a few lines each) held their question's words at a
    significance below the floor; on the 32 development halves this keeps 4 more
    answered questions above it (kb-jbranchaud-til 2, and on sets not looked at while
    designing it kb-hugo-docs and lang-astro-zh 1 each) and answers no more off-topic
    ones (``docs/benchmarks-history.md``, "issue 28: tenth pass, the relevance floor").
    """
    n = max(docs, 1)
    kept = [dfs[w] for w in held if dfs.get(w, 0) > 0]
    if len(kept) < 2:
        length = 1.0  # one word is chance however short the note: never above 0
    expected = math.log(math.comb(len(dfs), len(kept))) + math.log(n)
    expected += sum(_log_chance(df, n, length) for df in kept)
    return -expected


def _log_chance(df: int, docs: int, length: float) -> float:
    """The log of the chance a document of ``length`` times the average length holds
    a word of document frequency ``df`` among ``docs`` (:func:`significance`)."""
    rate = min(df / docs, 1.0)
    if length >= 1.0 or rate >= 1.0:
        return math.log(rate)
    return math.log(-math.expm1(length * math.log1p(-rate)))


@dataclass(frozen=True, slots=True)
class FloorMeasure:
    """What the relevance floor measures of a query's hits: its words, or in a
    Japanese or Korean query its content words (:func:`floor_measure`). ``units[i]``:
    the query words (``origin`` numbers) that make up unit ``i`` (``None``: each word
    its own unit), ``dfs`` and ``idfs`` per unit, ``groups`` :func:`word_groups` in
    units, ``docs`` the index's document count. ``partial``: a unit is held when a
    hit holds any of its words, at the document frequency of the rarest it holds
    (``word_dfs``: each query word's); else when it holds all of them, at the unit's
    ``dfs``. ``words_read``: the units are the query's words (Japanese, Chinese), so
    its coverage is read too (:attr:`BM25Hit.cjk` 0.0)."""

    units: tuple[frozenset[int], ...] | None
    dfs: Mapping[int, int]
    idfs: Mapping[int, float]
    groups: Sequence[set[int]]
    docs: int
    partial: bool = False
    word_dfs: Mapping[int, int] | None = None
    words_read: bool = False

    def held(self, words: Collection[int]) -> set[int]:
        """The units a hit holding the query words ``words`` holds: those whose every
        word is among them (any word, when ``partial``)."""
        if self.units is None:
            return set(words)
        if self.partial:
            return {i for i, unit in enumerate(self.units) if not unit.isdisjoint(words)}
        return {i for i, unit in enumerate(self.units) if unit.issubset(words)}

    def coverage(self, words: Collection[int]) -> float:
        """:func:`coverage` of a hit holding the query words ``words``."""
        return coverage(self.held(words), self.groups, self.idfs)

    def significance(self, words: Collection[int], length: float = 1.0) -> float:
        """:func:`significance` of a hit holding the query words ``words``, of
        ``length`` times the average document's length."""
        held = self.held(words)
        if not self.partial or self.units is None or self.word_dfs is None:
            return significance(held, self.dfs, self.docs, length)
        word_dfs, units = self.word_dfs, self.units
        dfs = dict(self.dfs)
        for i in held:
            dfs[i] = min(word_dfs[w] for w in units[i] if w in words)
        return significance(held, dfs, self.docs, length)


def floor_measure(
    text: str,
    clauses: Sequence[TermQuery],
    dfs: Mapping[int, int],
    idfs: Mapping[int, float],
    groups: Sequence[set[int]],
    docs: int,
) -> FloorMeasure:
    """The floor's measure of the query ``text``: its words as they are, or, when
    ``text`` is Japanese (:func:`rubi.index.japanese.japanese_words` finds kana) or
    holds Korean words (:func:`rubi.index.cjkwords.korean_words`), regrouped into its content words
    (``units`` set).

    Japanese: each katakana or Han word of two or more characters is one unit made of
    its bigrams' query words (skipped when a bigram is no query word); each query word
    that is no CJK bigram (``Linux``, ``ed25519``) is a unit alone; the other bigrams
    (hiragana, across scripts) are no unit. A unit's document frequency is its rarest
    bigram's (no page can hold the word more often) and its IDF that bigram's, so an
    unseen bigram makes the word count with the highest IDF, as an unseen word does.
    Why: a bigram across a word boundary or of grammar is held by pages that say
    nothing about the question, and the bigrams of one word always meet, so scored as
    words every Japanese off-topic question of the development half passed the floor
    (``docs/benchmarks-history.md``, "issue 28: eighth pass").

    Korean spaces its words, each a stem with particles and endings (``파일을``,
    ``압축하려면``): each word between spaces is one unit of its bigrams, held when a
    hit holds any of them (``partial``: the stem shares a bigram with the page's own
    inflection, ``파일`` of ``파일을``), at the document frequency of the rarest it
    holds. Why: read as words, the bigrams of one Korean word always meet, so their
    co-occurrence proved little, and Korean was left out of the floor (every Korean
    off-topic question answered); as words, it labels 8 of the 10 Korean off-topic
    questions of the development halves nothing relevant and 2 of 25 answered ones
    (``docs/benchmarks-history.md``, "issue 28: tenth pass, the relevance floor").

    Chinese (Han without kana or Hangul): the query's words are the stretches of
    :func:`~rubi.index.cjkwords.chinese_units`, held when a hit holds any of their
    bigrams (``partial``), and its coverage is read too (``words_read``). Why: measured
    by bigrams, a short question's cross-boundary bigrams (``何压`` of ``如何压缩``, ``成表`` of
    ``转换成表格``) counted as words no page holds, and the bigrams of one word as several,
    so its answer ("JSON 转换成表格": a page of JSON printed as a table) was labelled nothing
    relevant; on the Chinese development halves it hides no answer and answers one
    off-topic question fewer (``docs/benchmarks-history.md``, "issue 28: tenth pass,
    nothing relevant and short questions").

    An ASCII ``text`` has no kana, Hangul nor Han: its words as they are, without
    importing the CJK modules (most prompts)."""
    if text.isascii():
        return FloorMeasure(None, dfs, idfs, groups, docs)
    from rubi.index.cjkwords import chinese_units, japanese_units, korean_units, korean_words
    from rubi.index.japanese import japanese_words

    words = japanese_words(text)
    if words:
        units = japanese_units(words, clauses, dfs)
        return FloorMeasure(
            units,
            {i: min(dfs[w] for w in unit) for i, unit in enumerate(units)},
            {i: max(idfs[w] for w in unit) for i, unit in enumerate(units)},
            _unit_groups(units, groups),
            docs,
            words_read=True,
        )
    korean = korean_words(text)
    units = korean_units(korean, clauses, dfs) if korean else chinese_units(text, clauses, dfs)
    if not units:
        return FloorMeasure(None, dfs, idfs, groups, docs)
    return FloorMeasure(
        units,
        {i: min(dfs[w] for w in unit) for i, unit in enumerate(units)},
        {i: max(idfs[w] for w in unit) for i, unit in enumerate(units)},
        _unit_groups(units, groups, partial=True),
        docs,
        partial=True,
        word_dfs=dfs,
        words_read=not korean,
    )


def _unit_groups(
    units: Sequence[frozenset[int]], groups: Sequence[set[int]], *, partial: bool = False
) -> list[set[int]]:
    """:func:`word_groups` in units: each group's units (those inside it, or with
    ``partial`` those it shares a word with), empty groups left out."""
    out = []
    for group in groups:
        inside = {
            i for i, u in enumerate(units) if (not u.isdisjoint(group) if partial else u <= group)
        }
        if inside:
            out.append(inside)
    return out
