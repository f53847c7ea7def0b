"""BM25F's parameters: saturation ``k1``, length normalisation ``b``, and the fields
whose length normalisation is their own (Robertson & Zaragoza 2009, "The Probabilistic
Relevance Framework: BM25 and Beyond", for BM25F's per-field ``b``). Read by
:class:`rubi.index.searchindex.SearchIndex`'s scorer; kept apart so the figures behind
each value stay beside it."""

from __future__ import annotations

__all__ = [
    "BM25_B",
    "BM25_CODE_QUESTION_FIELD_B",
    "BM25_FIELD_B",
    "BM25_K1",
    "BM25_PROSE_FIELD_B",
    "BM25_PROSE_K1",
]

BM25_K1 = 1.2
"""Term-frequency saturation (the usual 1.2; Robertson & Zaragoza 2009): of a search of
code alone, where it was measured (code search, issue -> files), of captured sessions
(LoCoMo), and of a name or a few keywords; a plain-words question of notes uses
:data:`BM25_PROSE_K1` (:func:`rubi.search.notewindow.question_k1`)."""
BM25_PROSE_K1 = 3.0
"""Term-frequency saturation of a plain-words question of notes (6 to 20 content
terms, the ones the note window reorders), with :data:`BM25_PROSE_FIELD_B`. The
window (:mod:`rubi.search.notewindow`) already rewards a note where many of the
question's words meet, so BM25F may let a note's score follow how much it is about
each word: at 1.2 a long page naming every word once saturated nearly as high as the
page about them. 2.0 (the top of the usual range, Robertson & Zaragoza 2009) was
chosen in the fourteenth pass among 0.9 to 5.0 with the body's ``b`` at 0.75; with
the body's ``b`` at 0.9, 3.0 was chosen on eight knowledge-base development halves
(k6, OpenTelemetry, hugo, nushell, the RFCs, the handbook, simonw, jbranchaud) among
2.0, 2.5 and 3.0 and checked on the others: ``docs/benchmarks-history.md``, "issue
28: knowledge bases, seventeenth pass"."""
BM25_PROSE_FIELD_B: dict[str, float] = {"body": 0.9}
"""The body's length normalisation for a plain-words question of notes (with
:data:`BM25_PROSE_K1`; the other fields and every other search keep
:data:`BM25_B`): a long page's words weigh less for its length, so a guide naming
each of a question's words once no longer rises above the short page about them
(the text list's losses to bm25s on the knowledge-base development halves were such
pages). ``b`` 0.9 without the higher saturation, and ``k1`` 3.0 without it, each did
less (same section)."""
BM25_B = 0.75
"""Length normalisation (the usual 0.75)."""
BM25_FIELD_B: dict[str, float] = {"symbols": 0.3, "docs": 0.3}
"""Length normalisation of the fields that have their own (the others: :data:`BM25_B`):
a code file's symbols and comments, at 0.3. A module that defines and documents more
is not padded, as a long text is: the central file of a library (a 2,800-line
``command.js``) holds the answer to more questions, and at 0.75 its definitions
weighed a third of a small file's. Measured on code search (NDCG@10): the
code-unseen development half 0.713 -> 0.732 (bm25s 0.563), the public benchmark
0.915 -> 0.919; issue -> files development halves (MRR@10, 31 tasks) 0.705 -> 0.729
with the whole issue, 0.791 -> 0.776 with its title. Tried beside it (same order of
figures, code-unseen by query-time runs): 0.2 gave 0.734 and 0.917, 0.5 0.728 and
0.915, 0.1 0.726 and 0.906; 0.3 for symbols alone 0.710 and 0.919, for comments alone
0.732 and 0.910; ``docs/benchmarks-history.md``, "issue 28: code search on unseen
repositories". Notes have neither field."""
BM25_CODE_QUESTION_FIELD_B: dict[str, float] = {"symbols": 1.0, "docs": 1.0}
"""A code file's symbols and comments fully length-normalised for a plain-words
question of code (6 to 20 content words, the questions :mod:`rubi.search.codecoverage`
and :mod:`rubi.search.codewindow` reorder; :func:`rubi.search.codecoverage.question_field_b`):
what counts is how much of its definitions and comments the question's words are,
not how many of them a large module holds. Names, keywords and whole issues keep
:data:`BM25_FIELD_B`. At 0.3 a large module's many definitions and comments named,
each somewhere, most words of a question, and it came above the small file that
answers it in 39 of the 46 development questions whose answer was not first (the
file above it was the larger). Chosen among 0.5, 0.75, 0.9 and 1.0 on the Go,
JavaScript and Python repositories of the three unseen sets' development halves
(0.820 before; 0.816, 0.826, 0.832, 0.833) and checked on their Rust, PHP, Ruby and
Java repositories (0.838; 0.849, 0.854, 0.857, 0.862): code-unseen, code-unseen2,
code-unseen3 0.750 / 0.857 / 0.880 -> 0.797 / 0.857 / 0.889 NDCG@10, the public
benchmark 0.915 -> 0.914, issue -> files titles 0.814 -> 0.811 MRR@10 (whole issues
unchanged); ``docs/benchmarks-history.md``, "issue 28: code search on unseen
repositories, seventeenth pass"."""
