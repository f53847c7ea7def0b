"""A segment's postings are read with one look-up of the term in its term table
(:func:`rubi.index.segmentdata._read_postings`): a term it holds is not looked up a
second time by asking ``(field, term) in leaf`` first; a term or field it does not
hold gives no postings."""

from __future__ import annotations

from typing import Any

from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex
from rubi.index.segmentdata import SegmentData


class _Counting:
    """A segment reader that counts its term look-ups."""

    def __init__(self, leaf: Any) -> None:
        self._leaf = leaf
        self.contains = 0
        self.postings_calls = 0

    def __contains__(self, term: object) -> bool:
        self.contains += 1
        return term in self._leaf

    def postings(self, *args: Any, **kwargs: Any) -> Any:
        self.postings_calls += 1
        return self._leaf.postings(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._leaf, name)


def test_a_held_term_is_looked_up_once_and_a_missing_one_gives_nothing() -> None:
    index = SearchIndex(cache_home() / "lookups" / "whoosh", keep_open=True)
    docs = [
        IndexDoc(f"n{i}", "note", f"n{i}.md", "note", "active", {"body": body})
        for i, body in enumerate(["alpha beta", "beta gamma", "alpha alpha", "gamma"])
    ]
    index.rebuild(docs)
    assert index.bm25("alpha")
    scorer = index._scorer
    assert scorer is not None
    leaf = scorer._leaves[0][0]
    want = {
        text: [(d, w) for d, w in leaf.postings("body", text).items_as("weight")]
        for text in ("alpha", "beta")
    }
    counting = _Counting(leaf)
    data = SegmentData()
    for text in ("alpha", "beta"):
        ids, weights = data.postings("s", counting, "body", text)
        assert list(zip(ids, weights, strict=True)) == want[text]
    assert counting.postings_calls == 2
    assert counting.contains == 0  # no second look-up of a held term
    for field, text in (("body", "quokka"), ("no_such_field", "alpha")):
        ids, weights = data.postings("s", counting, field, text)
        assert len(ids) == 0 and len(weights) == 0
    assert counting.contains == 0
    index.close()


def test_whooshs_length_table_shares_one_divisor_list_across_segments_and_fields() -> None:
    """The divisors of Whoosh's length table follow from ``B`` and the average alone:
    one list for every segment and field, the same floats as computed for each; another
    table's are its segment's and field's; :meth:`SegmentData.keep` drops both."""
    from rubi.index.segmentdata import _LENGTHS

    data = SegmentData()
    shared = data.divisors("s1", "body", 0.75, 12.5, _LENGTHS)
    assert data.divisors("s2", "title", 0.75, 12.5, _LENGTHS) is shared
    assert shared == [(1 - 0.75) + 0.75 * n / 12.5 for n in _LENGTHS]
    assert data.divisors("s1", "body", 0.75, 13.0, _LENGTHS) is not shared
    other = range(4)
    own = data.divisors("s1", "body", 0.75, 12.5, other)
    assert own == [(1 - 0.75) + 0.75 * n / 12.5 for n in other]
    assert data.divisors("s2", "body", 0.75, 12.5, other) is not own
    data.keep({"s1"})
    assert data.divisors("s1", "body", 0.75, 12.5, other) is own
    assert data.divisors("s1", "body", 0.75, 12.5, _LENGTHS) is not shared
