"""Compaction replay on curves small enough to price by hand."""

from __future__ import annotations

import pytest

from rubi.transcripts.events import Usage
from rubi.transcripts.replay import replay_curve
from rubi.transcripts.settings import PriceRatios

PRICES = PriceRatios()


def _growing(calls: int, step: int = 10_000, output: int = 0) -> list[Usage]:
    """Each call writes ``step`` new tokens and reads everything before from the cache."""
    return [Usage(0, step, 0, step * i, output) for i in range(calls)]


def test_one_compaction_priced_by_hand() -> None:
    outcome = replay_curve(
        _growing(4), threshold=15_000, base_tokens=2_000, handoff_tokens=1_000, prices=PRICES
    )
    # Real: 12500 + (12500 + 1000) + (12500 + 2000) + (12500 + 3000) = 56000.
    assert outcome.real_cost == pytest.approx(56_000)
    # Replay: call 2 follows a 20k context, so the session compacts first: a summary
    # read (20000 x 0.1) and the handoff as output (1000 x 5); it resumes at
    # 2000 + 1000 + 10000 = 13000, all written (16250). Call 3 grows to 23000.
    assert outcome.curve == (10_000, 20_000, 13_000, 23_000)
    assert outcome.compactions == 1
    expected = 12_500 + 13_500 + (2_000 + 5_000 + 16_250) + (12_500 + 1_300)
    assert outcome.replay_cost == pytest.approx(expected)
    assert outcome.saving == pytest.approx(56_000 - expected)  # a loss: too early


def test_long_session_saves() -> None:
    # 200 calls adding 1k each (to 200k): the shape of a long working session.
    calls = _growing(200, step=1_000, output=300)
    outcome = replay_curve(
        calls, threshold=100_000, base_tokens=15_000, handoff_tokens=8_000, prices=PRICES
    )
    assert outcome.compactions == 2
    assert max(outcome.curve) <= 100_000 + 1_000
    assert outcome.saving > 0.2 * outcome.real_cost


def test_steep_short_session_loses() -> None:
    # 30 calls adding 5k each: too few calls after each compaction to repay it.
    calls = _growing(30, step=5_000, output=300)
    outcome = replay_curve(
        calls, threshold=50_000, base_tokens=15_000, handoff_tokens=8_000, prices=PRICES
    )
    assert outcome.compactions == 4
    assert outcome.saving < 0


def test_unreached_threshold_changes_nothing() -> None:
    calls = [Usage(3, 1_000, 200, 4_000 * i, 50) for i in range(10)]
    outcome = replay_curve(
        calls, threshold=10**9, base_tokens=10_000, handoff_tokens=8_000, prices=PRICES
    )
    assert outcome.compactions == 0
    assert outcome.curve == tuple(c.context for c in calls)
    assert outcome.replay_cost == pytest.approx(outcome.real_cost)
    assert outcome.real_cost == pytest.approx(sum(c.cost(PRICES) for c in calls))


def test_real_compaction_and_expiry_stay_below_reality() -> None:
    calls = [
        Usage(0, 60_000, 0, 0, 0),
        Usage(0, 60_000, 0, 60_000, 0),  # 120k
        Usage(0, 10_000, 0, 0, 0),  # real compaction: 10k
        Usage(0, 5_000, 0, 10_000, 0),  # 15k
        Usage(0, 15_000, 0, 0, 0),  # cache expired: all rewritten
    ]
    outcome = replay_curve(
        calls,
        threshold=100_000,
        base_tokens=5_000,
        handoff_tokens=1_000,
        prices=PRICES,
        resumed_after=frozenset({2}),
    )
    assert outcome.curve == (60_000, 120_000, 10_000, 15_000, 15_000)
    assert all(sim <= c.context for sim, c in zip(outcome.curve, calls, strict=True))
    assert outcome.compactions == 0  # the real compaction came first


def test_base_at_threshold_never_loops() -> None:
    outcome = replay_curve(
        _growing(6), threshold=10_000, base_tokens=20_000, handoff_tokens=8_000, prices=PRICES
    )
    assert outcome.compactions == 0
