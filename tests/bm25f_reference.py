"""BM25F proper written out plainly, document by document: the reference the
term-at-a-time scorer's hits and scores must equal to the last bit.

Robertson, Zaragoza & Taylor 2004, "Simple BM25 extension to multiple weighted
fields": for each query word, ``tf~ = sum_f w_f * tf_f / ((1 - b_f) + b_f * len_f /
avglen_f)`` over its clauses, ``score = idf * tf~ / (k1 + tf~)``, summed over the
words; ``idf = log(N / (df + 1)) + 1`` with ``df`` the live documents holding the
word in any field, or, for a word of CJK bigrams (each clause two or fewer Han, kana
or Hangul characters), ``log(1 + (N - df + 0.5) / (df + 0.5))``. A clause ``alone``
is a word of its own whose boost multiplies its saturated score. Sums run in the
clauses' order, as the scorer's do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import log
from pathlib import Path

from whoosh import index as windex

from rubi.index.searchindex import BM25_B, BM25_FIELD_B, BM25_K1
from rubi.index.termscore import TermQuery


def reference_bm25f(
    directory: Path,
    clauses: Sequence[TermQuery],
    *,
    limit: int = 50,
    kind: str | None = None,
    exclude_status: tuple[str, ...] = (),
    B: float = BM25_B,
    K1: float = BM25_K1,
    field_B: Mapping[str, float] = BM25_FIELD_B,
    count_deleted: bool = False,
) -> list[tuple[str, float, dict[str, tuple[str, ...]]]]:
    """``(id, score, matched terms per field)`` of the best ``limit`` documents for
    ``clauses``, best first (the lower document number on a tie), then equal scores in
    id order. ``count_deleted``: ``N`` counts deleted documents too (a wrong
    statistic, to show that the live one matters)."""
    ix = windex.open_dir(str(directory))
    with ix.reader() as reader:
        n = reader.doc_count_all() if count_deleted else reader.doc_count()
        live = list(reader.all_doc_ids())
        freqs: dict[tuple[str, str], dict[int, float]] = {}
        for c in clauses:
            key = (c.field, c.text)
            if key not in freqs:
                found = {}
                if key in reader:
                    found = dict(reader.postings(c.field, c.text).items_as("weight"))
                freqs[key] = found
        words: dict[int, list[TermQuery]] = {}
        for c in clauses:
            words.setdefault(c.word, []).append(c)
        idf = {}
        for w, cs in words.items():
            df = sum(any(freqs[c.field, c.text].get(d) for c in cs) for d in live)
            if all(_cjk_piece(c.text) for c in cs):
                idf[w] = log(1 + (n - df + 0.5) / (df + 0.5))
            else:
                idf[w] = log(n / (df + 1)) + 1
        scored = []
        for d in live:
            stored = reader.stored_fields(d)
            if (kind and stored["kind"] != kind) or stored["status"] in exclude_status:
                continue
            score = 0.0
            matched: dict[str, set[str]] = {}
            for word, cs in words.items():
                tf = 0.0
                for c in cs:
                    f = freqs[c.field, c.text].get(d)
                    if not f:
                        continue
                    b = field_B.get(c.field, B)
                    avg = float(reader.field_length(c.field)) / (reader.doc_count() or 1) or 1
                    length = reader.doc_field_length(d, c.field)
                    w = 1.0 if c.alone else c.boost
                    tf = tf + (w * f) / ((1 - b) + b * length / avg)
                    matched.setdefault(c.field, set()).add(c.text)
                if tf:
                    scale = cs[0].boost if cs[0].alone else 1.0  # an alone clause's boost
                    score = score + scale * idf[word] * tf / (K1 + tf)
            if score:
                scored.append((-score, d, stored["id"], matched))
    ix.close()
    scored.sort()
    found = sorted(scored[:limit], key=lambda s: (s[0], s[2]))
    return [(i, -s, {f: tuple(sorted(ts)) for f, ts in m.items()}) for s, _, i, m in found]


def _cjk_piece(text: str) -> bool:
    """A CJK bigram or lone character: at most two Han, kana or Hangul characters."""
    return 0 < len(text) <= 2 and all(
        "\u3040" <= ch <= "\u30ff"
        or "\u3400" <= ch <= "\u4dbf"
        or "\u4e00" <= ch <= "\u9fff"
        or "\uf900" <= ch <= "\ufaff"
        or "\uac00" <= ch <= "\ud7af"
        for ch in text
    )
