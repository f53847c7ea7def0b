"""Re-weighting rules applied to fused scores, each with the measurement that kept it.

After Reciprocal Rank Fusion a candidate's score is multiplied by its node's own
weight (:mod:`rubi.search.nodeweights`: tests, generated pages, declaration files,
variants). Before fusion, a candidate list votes only with evidence from this query and this
vault: an exact-name match counts only when the name is rare in the vault's text and
holds most of the question, or is written as an identifier (:func:`name_votes`); the
link graph brings in neighbours only when its seeds are linked to one another
(:func:`graph_votes`). The rules and
the development-half figures that kept them are in ``docs/benchmarks-history.md``,
"issue 28: lists that vote only with evidence". After it, the relevance floor
(:func:`relevant`) says whether any list had real evidence.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.index.querymatch import BM25Hit

__all__ = [
    "CJK_UNMEASURED",
    "GRAPH_MIN_LINKED_SEEDS",
    "NAME_MIN_IDF",
    "NAME_MIN_SHARE",
    "RELEVANCE_FLOOR",
    "SIGNIFICANCE_FLOOR",
    "SIGNIFICANCE_MIN_WORDS",
    "graph_votes",
    "identifier_like",
    "in_code_span",
    "linked_seeds",
    "name_evidence",
    "name_idf",
    "name_seconded",
    "name_share",
    "name_votes",
    "relevant",
    "text_evidence",
]

NAME_MIN_IDF = 1.0 + math.log(20)
"""A name written as plain words names a note only when its words, IDFs summed
(``log(N / (df + 1)) + 1`` each, :meth:`rubi.index.searchindex.SearchIndex.term_idf`), are
at least as rare as one word found in 1 document in 20: a note titled with a word
every twentieth note uses ("Engineering", "Product", "Tools") is not what a question
using that word is about."""

GRAPH_MIN_LINKED_SEEDS = 3
"""Seeds (top text hits and named notes) that must each link to another seed before
the graph list may bring in their neighbours: at least two links among the seeds, so
more than one pair of the text's matches agree on a neighbourhood."""

_IDENTIFIER = re.compile(r"[^\W_]*[_./\\:#@$-][^\W_]|[a-z0-9][A-Z]|\d")
"""Signs that a word was written as a name, not as prose: inner punctuation
(``binding.go``, ``dispatch_request``), an inner capital (``RouterGroup``), a digit."""


def identifier_like(written: str) -> bool:
    """Whether ``written`` (a name as the caller wrote it) looks like an identifier or
    a file name rather than dictionary words (:data:`_IDENTIFIER`), or is a code span
    (`` `log` ``: the caller marked it as a name, :func:`in_code_span`)."""
    text = written.strip()
    if len(text) > 2 and text[0] == text[-1] == "`":
        return True
    return bool(_IDENTIFIER.search(text))


def name_idf(terms: Iterable[str], idf: Mapping[str, float]) -> float:
    """How rare a name is in the vault: the sum of its analysed terms' IDFs (a term the
    index does not know counts as rare: ``inf``). 0.0 for a name made of stop words
    only."""
    return sum(idf.get(t, math.inf) for t in dict.fromkeys(terms))


NAME_MIN_SHARE = 0.5
"""The share of the question's IDF mass (:func:`name_share`) a name written in plain
words must hold to name a note: the question must be more about the name than about
its other words, the bar the relevance floor sets a text hit
(:data:`RELEVANCE_FLOOR`)."""


def name_share(
    name_terms: Iterable[str], query_terms: Iterable[str], idf: Mapping[str, float]
) -> float:
    """The share of a question's IDF mass its name holds, 0 to 1: the IDFs of the
    name's analysed terms found among ``query_terms`` (the question's content terms,
    each once) over the IDFs of all of them; 1.0 for a question with no content term
    (nothing else to be about). ``idf`` must hold every term of ``query_terms``."""
    asked = dict.fromkeys(query_terms)
    total = sum(idf[t] for t in asked)
    if total <= 0:
        return 1.0
    held = sum(idf[t] for t in dict.fromkeys(name_terms) if t in asked)
    return min(1.0, held / total)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def in_code_span(name: str, texts: Iterable[str], normalize: Callable[[str], str]) -> bool:
    """Whether ``name`` (normalized) is the whole of a code span (`` `log` ``) in one of
    ``texts``: the caller wrote it as a name, not as a word of the sentence."""
    return any(normalize(span) == name for t in texts for span in _CODE_SPAN.findall(t))


def name_votes(
    written: str, idf: float, kind: str, *, whole: bool = False, share: float = 1.0
) -> bool:
    """Whether an exact-name match votes: a file's name (a file or symbol name: an
    identifier by nature), a name written as an identifier (:func:`identifier_like`,
    or a code span: the caller passes it as ``written``) and a name that is the whole
    query or one whole term the caller gave (``whole``: ``Aliases`` asked alone)
    always do; any other note named in plain words only when the name is rare in the
    vault (its :func:`name_idf` at least :data:`NAME_MIN_IDF`) and holds at least
    :data:`NAME_MIN_SHARE` of the question's IDF mass (``share``, :func:`name_share`).

    Why rarity: the names list fired on dictionary words that happen to title a note
    ("engineering", "product", "python" inside a longer question) and its vote put
    those notes above the answer. Measured on the development halves (MRR@10, plain /
    semantic): sourcegraph handbook 0.188 / 0.258 → 0.219 / 0.347, nikitavoloboev wiki
    0.282 / 0.257 → 0.338 / 0.285, ru 0.318 → 0.361, zh 0.566 / 0.381 → 0.608 / 0.385,
    es unchanged; code search unchanged (0.915); notes-qa 0.751 / 0.775 → 0.734 /
    0.792 (``docs/benchmarks-history.md``, "issue 28: lists that vote only with evidence").

    Why the share: rarity is measured against the vault, not the question. In a vault
    of one page per shell command a command's name is rare as a word (``log``: idf
    4.5, ``flatpak``, ``ansible``), yet a task question that uses it as one word among
    many ("follow the log of my PHP project") is about the task, and the page named by
    that one word came first. On the first twelve development halves a plain-words
    name voted on 21 questions: on 20 tldr task questions it held 6–13% of the
    question and its page came first, the answer never; on one notes-qa question
    ("open a random note") it held 80% and was the answer. Measured on all seventeen
    development halves (305 on-topic questions): pooled MRR@10 0.691 → 0.742, 35
    questions up and none down, 8 sets up and none down, among them the five added
    after the rule was chosen (tldr en 0.386 → 0.706, ja 0.884 → 0.971, nl 0.850 →
    0.875, dendron 0.437 → 0.442, tldr ru unchanged); any share from 1/3 to 2/3 gave
    the same ranks ("issue 28: names that vote with evidence").
    """
    if kind == "file" or whole or identifier_like(written):
        return True
    return idf >= NAME_MIN_IDF and share >= NAME_MIN_SHARE


def name_seconded(node: str, text_first: Sequence[str]) -> bool:
    """Whether a note named by an identifier inside a longer question (``TypeScript``,
    ``PlatformIO``, ``2022``, ``Base64``; not the whole query, not a code span) keeps its
    vote: when the text list also ranks it among its first hits (``text_first``: the
    graph's seeds, :data:`rubi.search.lists.SEED_COUNT`), so its text matches the rest
    of the question too, not only the name.

    Why seconded: an identifier in a question says what the question is *in* (a
    language, a tool, a year), and its note is the hub of that topic, not the answer;
    voting whatever the text said, it came first above the text's answer. On all
    seventeen development halves (305 on-topic questions) notes named by an identifier
    voted on 6 questions; on the 3 where the text list ranked none of the named notes
    among its first 8 (``JavaScript`` 23rd, ``PlatformIO`` 28th, a year's page no text
    hit held) it came first and pushed the answer, the text's first, to second. Pooled
    MRR@10 0.742 → 0.746 (wiki 0.488 → 0.508, dendron 0.442 → 0.464, tldr-nl 0.875 →
    0.900), 3 questions up, none down (``docs/benchmarks-history.md``, "issue 28: what
    bm25s still wins, development halves"); on the 15 development halves added after
    it (269 questions) it holds: +0.0020 pooled (the Guide 0.633 → 0.673).

    A second clause (tenth pass: the named note must also hold as much of the
    question as every text hit above it) moved no answer on the 15 development halves
    added after it was chosen and was taken back (``docs/benchmarks-history.md``,
    "issue 28: ranking rules on sets they were not designed on, eighteenth pass")."""
    return node in text_first


def name_evidence(df: int, idf: float, share: float, votes: bool) -> str:
    """What a plain-words name match was weighed on, for the why-line, in a reader's
    words: ``rare: in 3 documents, 80% of the question`` when it voted; ``not counted:
    common word, in 312 documents`` or ``not counted: 18% of the question`` when it did
    not (the first failed test of :func:`name_votes`). ``df``: the live documents
    holding the name's rarest word in their body; ``idf``: its :func:`name_idf`;
    ``share``: its :func:`name_share`."""
    pct = f"{round(share * 100)}% of the question"
    where = f"in {df} document{'' if df == 1 else 's'}"
    if votes:
        return f"rare: {where}, {pct}"
    if idf < NAME_MIN_IDF:
        return f"not counted: common word, {where}"
    return f"not counted: {pct}"


def linked_seeds(seeds: Iterable[str], neighbours: Callable[[str], Iterable[str]]) -> int:
    """How many of ``seeds`` link (either way: ``neighbours``) to another seed."""
    chosen = set(seeds)
    return sum(1 for s in chosen if any(o != s and o in chosen for o in neighbours(s)))


def graph_votes(linked: int, seeds: int) -> bool:
    """Whether the graph list may bring in the neighbours of its ``seeds`` (how many):
    when at least :data:`GRAPH_MIN_LINKED_SEEDS` of them (all of them, when fewer)
    link to another seed (:func:`linked_seeds`), or when there is one seed (nothing
    to disagree with: a lone match's links are all the graph knows); otherwise the
    list ranks the seeds alone.

    Why: on a thinly linked vault the top text hits are often unrelated notes whose
    titles share a word with the question; walking from them brought their index
    pages and neighbours, which say nothing about the question. Seeds that link to
    one another are evidence that the walk is in the right neighbourhood. Measured
    on the development halves (MRR@10 semantic): handbook 0.347 → 0.354, wiki
    0.285 → 0.286, the others and code search unchanged (``docs/benchmarks-history.md``,
    "issue 28: lists that vote only with evidence").
    """
    return seeds <= 1 or linked >= min(GRAPH_MIN_LINKED_SEEDS, seeds)


RELEVANCE_FLOOR = 0.5
"""The share of a query's IDF mass (:attr:`rubi.index.querymatch.BM25Hit.coverage`) one
text hit must match for a search to count as having found something: the best hit
must hold more of the query's distinctive words, IDF-weighted, than it misses. On the
development halves it labels 4 of 8 off-topic questions of the alphabetic sets and
none of their 80 on-topic ones (``docs/benchmarks-history.md``, "issue 28: a
relevance floor")."""
CJK_UNMEASURED = 0.5
"""Share of a query's IDF mass in CJK bigrams above which coverage is not read and the
query is measured by its co-occurrence significance alone: overlapping bigrams of
unsegmented text include bigrams across word boundaries, so a Chinese question's best
answer holds 16–59% of its mass, no more than some off-topic questions do
(``docs/benchmarks-history.md``, "issue 28: a relevance floor"): there the share does
not tell them apart. The significance does: an off-topic Chinese question's best page
holds one or a few bigrams (``过期``, ``里的``), an answer many rare ones together. On
the development halves of lang-tldr-zh and lang-jsinfo-zh (before: not measured at
all, every off-topic question answered) it labels 7 of 8 off-topic questions nothing
relevant and keeps all 32 on-topic ones (lowest answer 5.1 nats against the floor's
3.0; the off-topic one kept, "build an index to speed up queries" in MySQL, is asked
of a tutorial with an IndexedDB chapter on indexes; ``docs/benchmarks-history.md``,
"issue 28: ninth pass"). A Chinese query is now measured by its words (the
stretches of bigrams the vault holds, cut at boundaries: a bigram no page holds
between held ones), its coverage read too, so its share is 0 here
(:func:`rubi.index.querymatch.floor_measure`; ``docs/benchmarks-history.md``, "issue
28: tenth pass, nothing relevant and short questions"). A Korean query is measured
by significance, its words (a
stem with its particles, between spaces) as units rather than their bigrams
(:func:`rubi.index.querymatch.floor_measure`): measured by bigrams, the bigrams of one
word always meet, and it labelled 3 of 17 answered questions of lang-tldr-ko nothing
relevant, so Korean was left out of the floor (every Korean off-topic question
answered); by words, on the development halves of lang-tldr-ko and lang-astro-ko, 8 of
10 off-topic questions are labelled nothing relevant and 2 of 25 answered ones
(``docs/benchmarks-history.md``, "issue 28: tenth pass, the relevance floor"). A
Japanese query is measured in full (its share is 0): its katakana and Han words, cut
where the script changes, are the floor's words
(:func:`rubi.index.querymatch.floor_measure`). On the Japanese development half that
labels 5 of 6 off-topic questions nothing relevant (0 before) and keeps 21 of 23
on-topic ones (``docs/benchmarks-history.md``, "issue 28: eighth pass")."""


SIGNIFICANCE_FLOOR = math.log(20)
"""The co-occurrence significance (nats, :func:`rubi.index.querymatch.significance`)
above which one text hit counts as having found something whatever its coverage: the
query words it holds would be held together by fewer than 0.05 documents by chance
(words taken as independent, corrected for which of the query's words they are; the
usual 5% level, not a figure read off a set). It reads document frequencies only, so
a change of the scorer's IDF formula does not move it. Why: a long question asked of
short pages (a tldr page is a line and a few examples) is answered by a page holding
a third of its words, rare ones together; coverage alone hid 35 of 95 such answers
on the tldr development halves. Measured on every development half (202 on-topic, 41
off-topic questions): on-topic questions labelled relevant 167 → 191 (tldr 60 → 84 of
95), off-topic ones silenced 31 → 30 (how to centre an element "horizontalement et
verticalement" in CSS: an ImageMagick page holds both adverbs), precision of the
label 0.944 → 0.946, recall 0.827 → 0.946 (``docs/benchmarks-history.md``, "issue
28: relevance floor, sixth pass")."""


SIGNIFICANCE_MIN_WORDS = 3
"""Query words (or units: :func:`rubi.index.querymatch.floor_measure`) a text hit must
hold for its significance alone to make a search relevant
(``co_occurrence`` of :func:`relevant`). The significance treats words as independent,
and a pair is where that is least true: two words of one idea (``horizontal`` and
``vertical``, an antonym pair of one ImageMagick page) meet far more often than their
rates multiply. On the 28 development halves of the thirteenth pass (522 on-topic, 129
off-topic questions) no answer in the top 10 rests on a pair, and the three off-topic
questions it let through with 2 ("centre an element horizontally and vertically in
CSS", tldr de, fr, it) are labelled nothing relevant now; 3 was set before looking,
and leave-one-set-out chose it on every fold
(``docs/benchmarks-history.md``, "issue 28: nothing relevant, thirteenth pass")."""
WHOLE_QUESTION = 1.0 - 1e-9
"""Coverage from which a hit holds every word of the question (the sums of the same
IDFs, in another order)."""


def relevant(
    coverage: float,
    named: int,
    cjk: float = 0.0,
    *,
    code: bool = False,
    significance: float = 0.0,
    co_occurrence: float | None = None,
    most: float = 1.0,
) -> bool:
    """Whether a search found something worth showing: a text hit matching at least
    :data:`RELEVANCE_FLOOR` of the query's IDF mass, or one holding query words that
    would rarely meet in one document by chance (``significance`` above
    :data:`SIGNIFICANCE_FLOOR`), or a note or file the query
    names (a name match that voted, :func:`name_votes`); a query mostly of CJK
    bigrams (``cjk`` > :data:`CJK_UNMEASURED`) by its significance and names alone
    (its coverage does not tell answers from chance; a Korean query's significance
    counts its words, not their bigrams: :func:`rubi.index.querymatch.floor_measure`);
    a search of code
    alone (``code``: not measured; a question in words shares few of them with the
    file that answers it: on the development halves the floor labelled 7 of the code
    search benchmark's 160 questions and 4 of 9 issues whose files ranked 1–5, and
    no off-topic code question exists to measure a gain on). Both readings are
    scale-free (a share of the query; a chance expectation from document
    frequencies), not raw scores, so one floor holds in any vault; it labels a result
    and never drops a hit.

    Significance alone counts only for a hit holding at least
    :data:`SIGNIFICANCE_MIN_WORDS` of the query's words (``co_occurrence``: the best
    significance of such a hit; None: ``significance``). Coverage counts only when
    some hit's words are also more than chance would put in one note (``significance``
    above 0: fewer than one note expected to hold them), unless a hit holds the whole
    question (a one-word search of words every note has is what was asked), or the
    vault could not show it (``most``, :attr:`rubi.index.querymatch.BM25Hit.most`, at
    most 0: even a note holding every word of the question some note holds would be
    chance, as in a project of four notes whose generated pages repeat every title).
    Why: an off-topic question whose best note holds half its IDF mass in words common
    there ("train" and "weeks" for a marathon plan, in a vault of 699 pages on
    telemetry) was labelled relevant; on the 28 development halves of the thirteenth
    pass this labels 3 more of 129 off-topic questions nothing relevant (en, fr, ja),
    and one on-topic question whose answer is not in the top 10; no answer in the top
    10 is hidden (``docs/benchmarks-history.md``, "issue 28: nothing relevant,
    thirteenth pass")."""
    if code or named > 0:
        return True
    several = significance if co_occurrence is None else co_occurrence
    if several > SIGNIFICANCE_FLOOR:
        return True
    if coverage < RELEVANCE_FLOOR or cjk > CJK_UNMEASURED:
        return False
    return significance > 0.0 or coverage >= WHOLE_QUESTION or most <= 0.0


def text_evidence(bm25: Sequence[BM25Hit], named: int, *, code: bool) -> dict[str, Any]:
    """The text list's evidence and the relevance label (:func:`relevant`) as
    :class:`SearchResult` fields: the best ``coverage`` and ``significance`` of one
    hit (0.0 without hits) and the query's ``cjk`` share; the label also reads the best
    significance of a hit holding several words and the most the vault could show."""
    coverage = max((h.coverage for h in bm25), default=0.0)
    significance = max((h.significance for h in bm25), default=0.0)
    several = [h.significance for h in bm25 if h.words >= SIGNIFICANCE_MIN_WORDS]
    co = max(several, default=0.0)
    cjk, most = (bm25[0].cjk, bm25[0].most) if bm25 else (0.0, 0.0)
    label = relevant(
        coverage, named, cjk, code=code, significance=significance, co_occurrence=co, most=most
    )
    return {
        "coverage": round(coverage, 6),
        "cjk": round(cjk, 6),
        "significance": round(significance, 6),
        "relevant": label,
    }
