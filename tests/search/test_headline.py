"""A reduced query's headline: found, and its hits fused with the whole's."""

from rubi.search.headline import fuse_headline, headline
from rubi.search.hits import Hit, SearchResult, Snippet


def _hit(hit_id: str, score: float = 1.0) -> Hit:
    return Hit(hit_id, hit_id, hit_id, "file", "code", "", score, (), Snippet.of(""))


def _result(*ids: str) -> SearchResult:
    return SearchResult("q", (), [_hit(i) for i in ids], len(ids), coverage=0.4, relevant=True)


def test_the_headline_is_the_first_paragraph_of_a_titled_text() -> None:
    issue = "assoc() broken when slots=True\n\nit seems to me `attrs.assoc()` is broken ..."
    assert headline(issue) == "assoc() broken when slots=True"
    assert headline("## Title of a report\r\n\r\nbody") == "Title of a report"
    assert headline("a title\nwrapped on two lines\n\nbody") == "a title wrapped on two lines"


def test_no_headline_without_a_body_or_with_a_long_first_paragraph() -> None:
    assert headline("one paragraph, however long it is") == ""
    assert headline("a title\n\n   \n") == ""
    words = [a + b for a in "abcdefghijklmn" for b in "xyz"]  # 42 distinct words
    assert headline(" ".join(words[:32]) + "\n\nbody") != ""  # 32 written words: a question
    assert headline(" ".join(words[:40]) + "\n\nbody") == ""
    assert headline("```\n\ncode") == ""  # a fence marker alone holds no word


def test_fused_hits_rank_by_both_lists_and_keep_the_whole_results_judgement() -> None:
    whole = _result("a.py", "b.py", "c.py")
    head = SearchResult("t", (), [_hit("c.py"), _hit("d.py")], 2, coverage=0.9, relevant=False)
    fused = fuse_headline(whole, head, top_k=3)
    # c.py is in both lists (ranks 3 and 1): above a.py, first in one list only.
    assert [h.id for h in fused.hits] == ["c.py", "a.py", "b.py"]
    scores = [h.score for h in fused.hits]
    assert scores == sorted(scores, reverse=True)
    assert (fused.query, fused.coverage, fused.relevant) == ("q", 0.4, True)
    # Ties keep the whole query's order first: rank 2 in each list.
    tied = fuse_headline(_result("a.py", "b.py"), _result("x.py", "y.py"), top_k=4)
    assert [h.id for h in tied.hits] == ["a.py", "x.py", "b.py", "y.py"]
