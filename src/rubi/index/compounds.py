"""A question's compound that no document holds, searched and read by the relevance
floor as the words it is made of.

Languages that write compounds as one word (German, Dutch, Swedish, Norwegian, Danish,
Finnish, Hungarian) ask about ``beheeromgeving`` (admin environment) or
``mediabibliotheek`` (media library) where English asks in two words. When the vault
never writes that compound, the floor (:func:`rubi.index.querymatch.coverage`) counted
it as a word no document holds, at the highest IDF, "the vault has nothing on it",
though the vault holds both its parts; an English question of the same words is
measured by two ordinary words. :func:`unseen_parts` splits such a word into two parts
the index holds (Koehn & Knight 2003, "Empirical methods for compound splitting": the
split whose parts are most frequent, by their geometric mean, a linking element
allowed after the first part), and :class:`CompoundParts` gives the floor its
readings with the parts as the question's words in its place, and the text list the
parts as query words of their own (:func:`searched_parts`; Braschler & Ripplinger
2004 for decompounding a query), so the page writing ``beheer`` and ``omgeving``
apart is scored for them.

A word no document holds that is no compound (or is asked in another language) is read
by the words that begin like it instead (:func:`rubi.index.truncation.family`: the
asker's ``skopiować`` where the page writes ``Skopiuj``), a word of one part in the
same reading.

Measured on the development halves of the seven compounding-language sets: top-10
answers the floor hid 12 → 9 (lang-commerce-nl, the set it was designed on, react-de
and tldr-de one each), one off-topic question answered more (commerce-nl's "laptop
… videobewerking": the guide holds ``video`` and ``bewerking``), the same top 10
everywhere (``docs/benchmarks-history.md``, "issue 28: Dutch below its BM25, and the
relevance floor on compounds, twenty-fifth pass"). In ranking, on the development
halves of nine compounding-language sets: ``docs/benchmarks-history.md``, "issue 28:
compounds in ranking, twenty-sixth pass".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from rubi.index.analysis import is_cjk, text_analyzer
from rubi.index.language import query_chain, query_language
from rubi.index.schema import FIELD_BOOSTS
from rubi.index.termscore import TermQuery
from rubi.index.truncation import family, terms_beginning

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "COMPOUNDING",
    "LINKS",
    "MAX_LETTERS",
    "MIN_PART",
    "CompoundParts",
    "best_split",
    "searched_parts",
    "unseen_parts",
]

COMPOUNDING = frozenset({"da", "de", "fi", "hu", "nl", "no", "sv"})
"""Languages that write a compound as one word (a property of the language)."""
LINKS = ("s", "e", "n", "en", "es", "er")
"""Linking elements a first part may end with (German and Dutch ``-s-``, ``-en-``,
``-e-``, ``-n-``, ``-es-``, ``-er-``; Swedish, Norwegian and Danish ``-s-``, ``-e-``):
``gebruiks|recht`` is ``gebruik`` and ``recht``."""
MIN_PART = 3
"""Letters a part has at least (after its linking element is taken off)."""
PART_FIELD = "body"
"""The field a part is looked for in: a note's text, analysed in the question's
language."""
MAX_LETTERS = 40
"""Letters of the longest word split (German's long compounds are 20–30): the split
reads every cut, so a longer token (a hash, a pasted blob) is left whole."""


def best_split(word: str, frequency: Callable[[str], int]) -> tuple[str, str] | None:
    """The two parts ``word`` splits into, each of at least :data:`MIN_PART` letters
    and of ``frequency`` above 0 (a first part with one of :data:`LINKS` taken off),
    the pair of the highest geometric mean of frequencies (Koehn & Knight 2003), the
    shorter first part on a tie; None when no split has two known parts or ``word``
    is longer than :data:`MAX_LETTERS`."""
    best: tuple[float, tuple[str, str]] | None = None
    if len(word) > MAX_LETTERS:
        return None
    for cut in range(MIN_PART, len(word) - MIN_PART + 1):
        tail = word[cut:]
        tail_df = frequency(tail)
        if tail_df <= 0:
            continue
        head = word[:cut]
        heads = [head] + [
            head[: -len(link)]
            for link in LINKS
            if head.endswith(link) and len(head) - len(link) >= MIN_PART
        ]
        for first in heads:
            head_df = frequency(first)
            if head_df > 0:
                mean = math.sqrt(head_df * tail_df)
                if best is None or mean > best[0]:
                    best = (mean, (first, tail))
    return None if best is None else best[1]


@dataclass(frozen=True, slots=True)
class CompoundParts:
    """The floor's reading of a query whose unseen compounds were split: ``replaced``
    each compound's query word (``origin``) to its parts' numbers (new ones, after
    the query's own), ``docs`` the documents holding each part (any of its terms, in
    the fields the compound was searched in), ``dfs`` and ``idfs`` each part's."""

    replaced: Mapping[int, tuple[int, ...]]
    docs: Mapping[int, frozenset[int]]
    dfs: Mapping[int, int]
    idfs: Mapping[int, float]
    loose: frozenset[int] = frozenset()
    """The query words of :attr:`replaced` read by a truncation's terms, not a split."""

    terms: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Each split compound's part → its terms, searched by :meth:`clauses` (a
    truncation's reading is the floor's alone: no terms here)."""

    def clauses(
        self, fields: Mapping[str, float], first_word: int, have: Collection[str] = ()
    ) -> list[TermQuery]:
        """The clauses that search each part as a query word of its own (numbered
        from ``first_word``): each of its :attr:`terms` in each of ``fields`` (a field
        -> its BM25F weight), of ``origin`` -1 (the floor measures the parts through
        :meth:`measure`, not through the clauses). A part whose terms are all in
        ``have`` (the query's own terms) or an earlier part's is left out: the
        question asks that word already."""
        out: list[TermQuery] = []
        seen = set(have)
        word = first_word
        for part in sorted(self.terms):
            terms = self.terms[part]
            if not terms or seen.issuperset(terms):
                continue
            seen.update(terms)
            for name, boost in fields.items():
                for term in terms:
                    out.append(TermQuery(name, term, boost, word))
            word += 1
        return out

    def measure(
        self,
        dfs: Mapping[int, int],
        idfs: Mapping[int, float],
        groups: Sequence[set[int]],
        loose: bool | int = True,
    ) -> tuple[dict[int, int], dict[int, float], list[set[int]]]:
        """The query words' document frequencies, IDFs and groups
        (:func:`rubi.index.querymatch.word_groups`) with each split compound's parts
        in its place, and with ``loose`` each truncated word's terms in its place too
        (without: the word stays, as a word no document holds)."""
        replaced = {w: p for w, p in self.replaced.items() if loose or w not in self.loose}
        new_dfs = {w: df for w, df in dfs.items() if w not in replaced}
        new_idfs = {w: v for w, v in idfs.items() if w not in replaced}
        for parts in replaced.values():
            new_dfs |= {p: self.dfs[p] for p in parts}
            new_idfs |= {p: self.idfs[p] for p in parts}
        new_groups = []
        for group in groups:
            held = {p for w in group & replaced.keys() for p in replaced[w]}
            new_groups.append((group - replaced.keys()) | held)
        return new_dfs, new_idfs, new_groups

    def held(self, docnum: int) -> set[int]:
        """The parts document ``docnum`` holds."""
        return {p for p, docs in self.docs.items() if docnum in docs}


def unseen_parts(
    text: str,
    clauses: Sequence[TermQuery],
    dfs: Mapping[int, int],
    langs: Sequence[str],
    frequency: Callable[[str, str], int],
    documents: Callable[[TermQuery], Sequence[int]],
    idf: Callable[[int], float],
    reader: Any = None,
) -> CompoundParts | None:
    """The parts of the query words of ``text`` no document holds (``dfs`` 0): two
    words the index holds that it splits into (:func:`best_split`), when ``text`` is
    written in a language of :data:`COMPOUNDING` among the index's chains ``langs``
    (:func:`rubi.index.language.query_language`); else, in any language, one part:
    the terms that begin like it (:func:`rubi.index.truncation.family`); None when
    there is none (most queries: no word unseen; nothing read).

    ``frequency(field, term)``: documents holding ``term`` in ``field``;
    ``documents(clause)``: a clause's document numbers; ``idf(df)``: the scorer's
    IDF; ``reader``: the index's reader, whose terms a truncation reads
    (:func:`rubi.index.truncation.terms_beginning`; None: no truncation read). A part
    is read in the question's language's chain alone (its
    :func:`rubi.index.language.query_chain` when its language is not told), in
    :data:`PART_FIELD`: known when one of its terms is there, held by the documents
    holding any of them.

    Why the truncation (``docs/benchmarks-history.md``, "issue 28: the relevance floor
    on many languages, twenty-sixth pass"): on 37 development halves, top-10 answers
    the floor hid 50 → 44 (46 → 40 on the 35 it was not designed on), off-topic
    questions silenced 133 of 159 before and after; read in the coverage too, 131.
    """
    if not any(df == 0 for df in dfs.values()) or is_cjk(text):
        return None
    lang = query_language(text, langs)
    compounding = lang in COMPOUNDING
    if lang is None:
        lang = query_chain(text, langs)
    chain = text_analyzer(lang)

    def part_df(part: str) -> int:
        return max((frequency(PART_FIELD, t) for t in chain.terms_of(part)), default=0)

    def held_by(terms: Iterable[str]) -> frozenset[int]:
        found = (documents(TermQuery(PART_FIELD, t, 1.0, 0)) for t in terms)
        return frozenset(d for held in found for d in held)

    replaced: dict[int, tuple[int, ...]] = {}
    docs: dict[int, frozenset[int]] = {}
    loose: set[int] = set()
    terms: dict[int, tuple[str, ...]] = {}
    number = max(dfs) + 1
    for origin, word in _written(
        text, lang, clauses, {w for w, df in dfs.items() if not df}
    ).items():
        split = best_split(word, part_df) if compounding else None
        if split is not None:
            replaced[origin] = (number, number + 1)
            for part in split:
                terms[number] = tuple(chain.terms_of(part))
                docs[number] = held_by(terms[number])
                number += 1
            continue
        # not a compound: the words that begin like it (truncation)
        held = held_by(family(word, partial(_beginning, reader))) if reader else frozenset()
        if held:
            replaced[origin] = (number,)
            docs[number] = held
            loose.add(origin)
            number += 1
    if not replaced:
        return None
    part_dfs = {p: len(d) for p, d in docs.items()}
    part_idfs = {p: idf(df) for p, df in part_dfs.items()}
    return CompoundParts(replaced, docs, part_dfs, part_idfs, frozenset(loose), terms)


def searched_parts(
    text: str,
    clauses: Sequence[TermQuery],
    dfs: Mapping[int, int],
    langs: Sequence[str],
    fields: Iterable[str] | None,
    frequency: Callable[[str, str], int],
    documents: Callable[[TermQuery], Sequence[int]],
    idf: Callable[[int], float],
    reader: Any = None,
) -> tuple[list[TermQuery], CompoundParts | None]:
    """The clauses a search scores for ``clauses``, and the floor's parts: the query's
    own clauses, then, for each unseen compound :func:`unseen_parts` splits, each of
    its parts as a query word of its own in :data:`PART_FIELD` (where the split found
    it; when the search reads that field: ``fields``, else all), in the question's
    chain (:meth:`CompoundParts.clauses`); a word read by truncation adds no clause (the
    floor's alone). Other arguments as for :func:`unseen_parts`.

    Why: a compound no page writes matched nothing, so the question was ranked by its
    other words alone, while the page writing ``beheer`` and ``omgeving`` apart
    answers ``beheeromgeving``. Splitting a question's compounds into their parts is
    what decompounding for retrieval does (Braschler & Ripplinger 2004, "How effective
    is stemming and decompounding for German text retrieval?"), here only for the
    compounds the index proves unseen, so a word it holds keeps its own reading.
    In every prose field instead, the ranks were the same on the development halves
    and the text list of a cold Dutch question on a 7,164-note vault cost 2–4 ms more
    (in ``body`` alone, about 1 ms: 3.4 million instructions). Measured on the
    development halves of nine compounding-language sets: ``docs/benchmarks-history.md``,
    "issue 28: compounds in ranking, twenty-sixth pass"."""
    parts = unseen_parts(text, clauses, dfs, langs, frequency, documents, idf, reader)
    if parts is None:
        return list(clauses), None
    if fields is not None and PART_FIELD not in fields:
        return list(clauses), parts
    first = max(c.word for c in clauses) + 1
    weights = {PART_FIELD: FIELD_BOOSTS[PART_FIELD]}
    return [*clauses, *parts.clauses(weights, first, {c.text for c in clauses})], parts


def _beginning(reader: Any, start: str) -> list[str]:
    """The terms of :data:`PART_FIELD` that begin with ``start``."""
    return [t.decode("utf-8") for t in terms_beginning(reader, PART_FIELD, start)]


def _written(
    text: str, lang: str, clauses: Sequence[TermQuery], unseen: set[int]
) -> dict[int, str]:
    """The written form (lower-cased, in ``lang``'s chain) of each query word of
    ``text`` in ``unseen``, by ``origin``: the first token whose terms are its."""
    analyzer = text_analyzer(lang)
    written: dict[int, str] = {}
    for surface in analyzer.surface(text):
        terms = set(analyzer.terms_of(surface))
        for c in clauses:
            if c.origin in unseen and c.text in terms:
                written.setdefault(c.origin, surface)
    return written
