"""The passage scorer keeps where each word stem is in a kept layout
(:func:`rubi.search.passages._found`, :attr:`rubi.search.layout.Layout.found`): the
parts' scores and best lines equal the rule as first written (every stem searched
anew), found afresh, kept, after the memo was cleared by its bounds; and a stem met
before in a kept layout is not searched again."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping

import pytest

import rubi.search.passages as passages
from rubi.search.layout import Layout, layout
from rubi.search.snippet import _core, _find_word

VOCAB = [
    "sync",
    "Sync",
    "syncing",
    "vault",
    "vaults",
    "query",
    "queries",
    "SubRoute",
    "route",
    "goroutine",
    "template",
    "daily",
    "notes",
    "x",
    "İstanbul",
    "同期",
    "theme",
]
STEMS = ["sync", "vault", "queri", "rout", "templat", "daili", "note", "theme", "istanbul", "同期"]


def first_written(
    lay: Layout, text: str, groups: Mapping[str, str], idf: Mapping[str, float], code: bool
) -> list[tuple[int, float, int]]:
    """``_score`` as first written: every stem searched in the text anew."""
    lowered, starts, part_of_line = lay.lowered, lay.starts, lay.part_of_line
    parts, sizes, avg = lay.parts, lay.sizes, lay.average_size
    counts: list[dict[str, int]] = [{} for _ in parts]
    in_heading: list[set[str]] = [set() for _ in parts]
    words_at: list[dict[int, set[str]]] = [{} for _ in parts]
    weight: dict[str, float] = {}
    terms = sorted((t for t in groups if len(t) >= 2), key=lambda t: (-len(t), t))
    for term in terms:
        core, group = _core(term), groups[term]
        weight[group] = max(weight.get(group, 0.0), idf.get(term, 1.0))
        if core not in lowered:
            continue
        per_part: dict[int, int] = {}
        pos, taken = _find_word(text, lowered, core), 0
        while pos >= 0 and taken < passages.MAX_OCCURRENCES:
            ln = bisect_right(starts, pos)
            n = part_of_line[ln] if ln < len(part_of_line) else -1
            if n >= 0:
                per_part[n] = per_part.get(n, 0) + 1
                words_at[n].setdefault(ln, set()).add(group)
                if not code and ln == parts[n].start and parts[n].kind == "section":
                    in_heading[n].add(group)
            taken += 1
            pos = _find_word(text, lowered, core, pos + len(core))
        for n, c in per_part.items():
            counts[n][group] = max(counts[n].get(group, 0), c)
    out: list[tuple[int, float, int]] = []
    k1, b = passages.K1, passages.B
    for n, s in enumerate(parts):
        if not counts[n]:
            out.append((n, 0, s.start))
            continue
        norm = k1 * (1 - b + b * sizes[n] / avg)
        score = sum(weight[g] * c * (k1 + 1) / (c + norm) for g, c in counts[n].items())
        score += sum(passages.HEADING_WEIGHT * weight[g] for g in in_heading[n])
        at = words_at[n]
        focus = max(at, key=lambda ln: (sum(weight[g] for g in at[ln]), -ln), default=s.start)
        out.append((n, score, focus))
    return out


def _text(rng: random.Random, code: bool) -> str:
    lines: list[str] = []
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        if r < 0.15 and not code:
            lines.append("#" * rng.randint(1, 3) + " " + " ".join(rng.sample(VOCAB, 2)))
        elif r < 0.22:
            lines.append("")
        else:
            words = [rng.choice(VOCAB) for _ in range(rng.randint(1, 12))]
            lines.append(rng.choice(["", "- ", "  "]) + " ".join(words))
    return rng.choice(["\n", "\r\n"]).join(lines)


def _scored(lay: Layout, text: str, groups: dict[str, str], idf: dict[str, float], code: bool):
    got = passages._score(lay, text, groups, idf, code)
    return [(lay.parts.index(s.section), s.score, s.focus) for s in got]


@pytest.mark.parametrize("seed", range(30))
def test_scores_equal_the_rule_as_first_written(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    code = seed % 5 == 0
    text = _text(rng, code)
    symbols = ((rng.choice(VOCAB), 1), (rng.choice(VOCAB), 3)) if code else ()
    lay = layout(text, "code" if code else "note", symbols)
    if seed % 3 == 0:  # bounds small enough to clear the memo now and then
        monkeypatch.setattr(passages, "MAX_FOUND_CORES", 2)
        monkeypatch.setattr(passages, "FOUND_UNITS_PER_LINE", 0)
    for _ in range(12):  # questions sharing stems: found afresh, then kept
        stems = rng.sample(STEMS, rng.randint(1, 5))
        groups = {s: rng.choice(stems) for s in stems}
        idf = {s: rng.uniform(0.5, 6.0) for s in stems if rng.random() < 0.8}
        want = first_written(lay, text, groups, idf, code)
        assert _scored(lay, text, groups, idf, code) == want
        assert _scored(lay, text, groups, idf, code) == want  # from the memo


def test_a_stem_met_before_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "# Sync\nsync the vault\n\n## Themes\na theme for the vault\n"
    lay = layout(text, "note", ())
    searched: list[str] = []
    real = passages._find_word

    def counting(text: str, lowered: str, core: str, start: int = 0, end: int = -1) -> int:
        searched.append(core)
        return real(text, lowered, core, start, end)

    monkeypatch.setattr(passages, "_find_word", counting)
    groups = {"sync": "sync", "vault": "vault"}
    first = _scored(lay, text, groups, {}, False)
    assert set(searched) == {"sync", "vault"}
    searched.clear()
    assert _scored(lay, text, {"vault": "vault", "theme": "theme"}, {}, False)
    assert searched and set(searched) == {"theme"}  # vault kept
    searched.clear()
    assert _scored(lay, text, groups, {}, False) == first
    assert not searched
    assert first == first_written(lay, text, groups, {}, False)
