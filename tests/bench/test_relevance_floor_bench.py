"""The relevance-floor bench: a handmade set dumped end to end, and each rule's labels
counted from hand-built rows."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO, write

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def rf() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import relevance_floor

    return relevance_floor


def _row(on: bool, held: list[int], dfs: list[int], n: int = 100) -> dict[str, Any]:
    return {
        "set": "s",
        "id": f"q{len(held)}{on}",
        "on": on,
        "found": 1 if on else None,
        "relevant": False,
        "named": 0,
        "cjk": 0.0,
        "N": n,
        "words": {str(i): {"df": df, "surfaces": [], "cjk": False} for i, df in enumerate(dfs)},
        "hits": [{"path": "a.md", "score": 1.0, "held": held}],
    }


def test_rules_read_coverage_and_significance(rf: ModuleType) -> None:
    # Three rare words held of nine, six no note holds: low coverage, significant.
    long_on = _row(True, [0, 1, 2], [1, 1, 1, 0, 0, 0, 0, 0, 0])
    # Two common words held of four: neither.
    common_off = _row(False, [0, 1], [60, 70, 0, 0])
    assert rf.coverage(long_on, rf.whoosh_idf, False, False) < 0.5
    assert rf.surprise(long_on, False, True) == pytest.approx(
        -math.log(math.comb(9, 3) * 100 * 0.01**3)
    )
    kept = rf.rules()["coverage ≥ 0.5 or significance > log 20"]
    assert kept(long_on) and not kept(common_off)
    assert not rf.rules()["coverage ≥ 0.5"](long_on)


def test_the_table_counts_silenced_and_kept_per_set(rf: ModuleType, tmp_path: Path) -> None:
    rows = [_row(True, [0, 1, 2], [1, 1, 1, 0, 0, 0, 0, 0, 0]), _row(False, [0, 1], [60, 70, 0, 0])]
    dump = tmp_path / "d.jsonl"
    dump.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    lines = rf.table([dump]).splitlines()
    kept = next(x for x in lines if x.startswith("| coverage ≥ 0.5 or significance > log 20 |"))
    assert "| 1/1, 1/1 | 1/1 | 1/1 | 1/1 | 1.000 | 1.000 |" in kept
    plain = next(x for x in lines if x.startswith("| coverage ≥ 0.5 |"))
    assert "| 1/1, 0/1 |" in plain


def test_dump_writes_a_line_per_development_question(rf: ModuleType, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write(corpus / "zstd.md", "# Compress\n\nCompress a tarball with zstandard.\n")
    write(corpus / "ls.md", "# Files\n\nShow the list of files.\n")
    sets = tmp_path / "set"
    meta = {
        "name": "t",
        "kind": "notes",
        "description": "d",
        "sources": [{"repo": "a/b", "commit": "0" * 40}],
    }
    write(sets / "set.json", json.dumps(meta))
    from evalset import split_of

    dev = next(f"q{i}" for i in range(100) if split_of("t", f"q{i}") == "dev")
    test = next(f"q{i}" for i in range(100) if split_of("t", f"q{i}") == "test")
    queries = [
        {"id": dev, "query": "compress a tarball with zstandard", "relevant": ["zstd.md"]},
        {"id": test, "query": "show the list of files", "relevant": ["ls.md"]},
    ]
    for q in queries:
        q.update(split=split_of("t", str(q["id"])), lang="en")
    write(sets / "queries.jsonl", "".join(json.dumps(q) + "\n" for q in queries))
    out = tmp_path / "f.jsonl"
    assert rf.dump(sets, corpus, out) == 0
    (row,) = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert row["on"] and row["found"] == 1 and row["relevant"] and row["recalled_answer"]
    assert row["hits"][0]["path"] == "zstd.md" and row["N"] == 2
    assert row["window"]["terms"] and not row["window"]["cjk"]
    assert row["hits"][0]["window"]["share"] == 1.0
    assert row["hits"][0]["share"] > 0 and len(row["shares"]) == 2 and row["tokens"] > 0
    assert all(w["shares"] and w["cf"] >= w["df"] for w in row["words"].values())


def _long_page_row(window_held: list[int]) -> dict[str, Any]:
    """An off-topic question whose four rare words one long page holds, each far from
    the others (its best window holds ``window_held``)."""
    hit = {
        "path": "guide.md",
        "score": 1.0,
        "held": [0, 1, 2, 3],
        "coverage": 1.0,
        "significance": -math.log(1000 * 0.005**4),
        "words": 4,
        "len": 4000,
        "window": {
            "share": len(window_held) / 4,
            "held": window_held,
            "all": [0, 1, 2, 3],
            "words": 3000,
        },
    }
    return {
        "set": "s",
        "id": "q",
        "on": False,
        "found": None,
        "relevant": True,
        "named": 0,
        "cjk": 0.0,
        "N": 1000,
        "avglen": 400.0,
        "coverage": 1.0,
        "words": {str(i): {"df": 5, "surfaces": [], "cjk": False} for i in range(4)},
        "window": {"terms": ["a", "b", "c", "d"], "dfs": [5, 5, 5, 5], "cjk": False},
        "hits": [hit],
    }


def test_the_window_rule_reads_a_long_page_at_its_best_window(rf: ModuleType) -> None:
    apart = _long_page_row([0])
    assert rf.held_to_chance(apart)  # the whole page holds every word: relevant
    assert not rf.windowed(apart)  # one window holds one of them: chance
    together = _long_page_row([0, 1, 2, 3])
    assert rf.windowed(together)  # the words meet in one window: its own readings
    label = "held to chance, each hit read at its best window of 120 words"
    assert not rf.rules()[label](apart)


def test_best_window_finds_the_terms_a_window_holds(rf: ModuleType, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    filler = " ".join(f"lorem{i}" for i in range(300))
    write(corpus / "guide.md", f"# Guide\n\nzstandard {filler} tarball\n")
    from rubi.search.notewindow import note_question

    asked = note_question("tarball zstandard", ["en"], lambda ts: dict.fromkeys(ts, 1.0))
    win = rf.best_window(corpus / "guide.md", asked)
    assert win is not None and win["words"] == 304
    assert win["all"] == [0, 1] and len(win["held"]) == 1 and win["share"] == 0.5
    near = tmp_path / "near.md"
    near.write_text(f"zstandard tarball {filler}", "utf-8")
    assert rf.best_window(near, asked)["held"] == [0, 1]


def test_best_window_finds_an_empty_key_nowhere(rf: ModuleType, tmp_path: Path) -> None:
    from rubi.search.notewindow import NoteQuestion

    # An empty term (the Turkish chain stemmed the bare suffix "leri" to "" before
    # schema 21) has an empty key, found at every offset: the window's finder skips it
    # (it looked for it at the same offset forever), so the bench reads the note.
    asked = NoteQuestion("tr", ("", "commit"), ("", "commit"), (1.0, 1.0))
    note = tmp_path / "n.md"
    note.write_text("git commit leri", "utf-8")
    win = rf.best_window(note, asked)
    assert win is not None and win["held"] == [1] and win["share"] == 0.5


def _label(qid: str, on: bool, found: int | None, relevant: bool, top: list[str]) -> str:
    row = {"set": "lang-x", "id": qid, "on": on, "top": top, "found": found}
    row |= {"relevant": relevant, "recalled": relevant, "recalled_answer": False}
    return json.dumps(row) + "\n"


def test_compare_counts_hidden_relevant_and_silenced_base_to_new(
    rf: ModuleType, tmp_path: Path
) -> None:
    base, new = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    base.write_text(
        _label("q1", True, 1, False, ["a", "b"])  # hidden
        + _label("q2", True, 2, True, ["c", "d"])
        + _label("q3", False, None, False, ["e"]),  # silenced
        "utf-8",
    )
    new.write_text(
        _label("q1", True, 1, True, ["a", "b"])  # no longer hidden
        + _label("q2", True, 2, True, ["d", "c"])  # reordered: counted as changed
        + _label("q3", False, None, True, ["e"]),  # let through
        "utf-8",
    )
    table = rf.compare([base], [new])
    row = next(line for line in table.splitlines() if line.startswith("| x (2, 1)"))
    assert row == "| x (2, 1) | 1 → 0 | 1 → 2 | 1 → 0 | 1 → 0 | 0.750 | 1 |"
    assert table.splitlines()[-1].startswith("| pooled (2, 1) | 1 → 0 |")


def _labelled(
    on: bool, relevant: bool, hits: list[tuple[float, float, int, int]]
) -> dict[str, Any]:
    """A dump row with per-hit readings: (coverage, significance, words, len) each."""
    return {
        "set": "s",
        "id": f"q{len(hits)}{on}{relevant}",
        "on": on,
        "found": 1 if on else None,
        "relevant": relevant,
        "named": 0,
        "cjk": 0.0,
        "avglen": 100.0,
        "hits": [{"coverage": c, "significance": s, "words": w, "len": n} for c, s, w, n in hits],
    }


def test_routes_name_the_clause_and_the_hit_that_carried_a_label(
    rf: ModuleType, tmp_path: Path
) -> None:
    three = _labelled(False, True, [(0.3, 5.0, 4, 700), (0.6, 1.0, 2, 50)])
    same = _labelled(True, True, [(0.6, 1.0, 2, 50), (0.2, 2.0, 3, 80)])
    split = _labelled(False, True, [(0.6, -1.0, 5, 300), (0.3, 0.5, 2, 40)])
    whole = _labelled(True, True, [(1.0, -2.0, 1, 100)])
    silent = _labelled(False, False, [(0.3, 5.0, 4, 700)])
    assert rf.route(three)[0] == rf.ROUTES[1] and rf.length_share(three, rf.route(three)[1]) == 7
    assert rf.route(same)[0] == rf.ROUTES[2] and rf.route(same)[1]["len"] == 50
    assert rf.route(split)[0] == rf.ROUTES[3] and rf.route(split)[1]["len"] == 300
    assert rf.route(whole)[0] == rf.ROUTES[4]
    assert rf.route({**silent, "relevant": True, "hits": []})[0] == rf.ROUTES[5]
    assert rf.route({**same, "named": 1}) == (rf.ROUTES[0], None)
    assert rf.route(silent) == (None, None)  # the shipped label said nothing relevant
    dump = tmp_path / "d.jsonl"
    dump.write_text("".join(json.dumps(r) + "\n" for r in (three, same, split, silent)), "utf-8")
    table = rf.routes_table([dump]).splitlines()
    assert table[2] == "| name | 0 | – | 0 | – |"
    assert table[3] == "| three words or more beyond chance | 1 | 7.00 (7.00–7.00) | 0 | – |"
    assert table[4] == "| coverage, the same hit beyond chance | 0 | – | 1 | 0.50 (0.50–0.50) |"
    assert table[5] == "| coverage, another hit beyond chance | 1 | 3.00 (3.00–3.00) | 0 | – |"
    assert table[-1] == "| nothing relevant | 1 of 3 | | 0 of 1 | |"


@pytest.fixture(scope="module")
def lc() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import lengthchance

    return lengthchance


def test_each_length_model_reads_a_page_of_average_length_at_its_vault_rate(
    lc: ModuleType,
) -> None:
    word = {"df": 10, "cf": 40.0, "shares": [1.0] * 10}
    vault = sorted([1.0] * 50 + [0.5] * 50)
    assert lc.shipped(10, 100, 1.0, word, vault) == pytest.approx(0.1)
    assert lc.shipped(10, 100, 0.5, word, vault) == pytest.approx(1 - 0.9**0.5)
    assert lc.poisson_length(1.0)(10, 100, 4.0, word, vault) == pytest.approx(1 - 0.9**4)
    # DFR's Poisson: 40 tokens over 100 average documents, a page of 2 of them
    assert lc.poisson_tokens()(10, 100, 2.0, word, vault) == pytest.approx(1 - math.exp(-0.8))
    # the negative binomial's burstiness is fitted through df / N at the average length
    nb = lc.negative_binomial()
    assert nb(10, 100, 1.0, word, vault) == pytest.approx(0.1, rel=1e-6)
    assert 0.1 < nb(10, 100, 4.0, word, vault) < lc.poisson_tokens()(10, 100, 4.0, word, vault)
    assert lc.burstiness(0.1, 0.2) is None  # fewer tokens than a Poisson would need


def test_the_length_bucket_leaves_the_page_out_and_shrinks_toward_the_vault_rate(
    lc: ModuleType,
) -> None:
    vault = sorted([1.0] * 90 + [8.0] * 10)
    only_here = {"df": 1, "shares": [8.0]}  # the page itself: no other long page holds it
    everywhere_long = {"df": 10, "shares": [8.0] * 10}
    bucket = lc.length_bucket(3.0)
    assert bucket(1, 100, 8.0, only_here, vault) == pytest.approx(3 * 0.01 / (9 + 3))
    assert bucket(10, 100, 8.0, everywhere_long, vault) == pytest.approx((9 + 0.3) / 12)
    # below the average length, ``longer_only`` keeps the floor's reading
    short = lc.length_bucket(3.0, longer_only=True)
    assert short(10, 100, 0.5, everywhere_long, vault) == lc.shipped(10, 100, 0.5, {}, vault)


def test_the_frontier_counts_silenced_and_hidden_under_each_model(lc: ModuleType) -> None:
    from rubi.index.querymatch import significance

    shares = sorted([1.0] * 95 + [8.0] * 5)
    words = {
        str(i): {"df": 5, "cf": 5.0, "shares": [8.0] * 5, "surfaces": [], "cjk": False}
        for i in range(4)
    }
    hit = {"held": [0, 1, 2, 3], "share": 8.0, "words": 4, "coverage": 1.0}
    hit["significance"] = significance({0, 1, 2, 3}, dict.fromkeys(range(4), 5), 100)
    row = {"on": False, "found": None, "named": 0, "relevant": True, "coverage": 0.4}
    row.update(cjk=0.0, N=100, words=words, shares=shares, hits=[hit])
    assert lc.hit_significance(row, hit, lc.shipped) == pytest.approx(hit["significance"])
    # four words every long page holds: far beyond chance at df / N, chance at 8 lengths
    assert lc.label(row, lc.significances(row, lc.shipped))
    assert not lc.label(row, lc.significances(row, lc.length_bucket(3.0)))
    table = lc.frontier([row], (0, 1)).splitlines()
    assert table[2].startswith("| shipped (df / N) | 0 / 0 |")
    assert "| length bucket ×2, leave-one-out, prior 3 | 1 / 0 |" in "\n".join(table)
