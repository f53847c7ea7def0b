"""Compaction replay: what a session would have cost had it compacted early.

The replay walks a session's real main-chain calls and keeps a simulated context
next to the real one (``docs/xray.md``, "Compaction replay", states the model):

1. Each call adds to the simulated context what it added to the real one (the real
   growth between consecutive calls).
2. After a call whose simulated context reached the threshold, the session compacts:
   it resumes from a fixed base (system prompt, tools, CLAUDE.md) plus a handoff.
   A policy whose base plus handoff is not below the threshold never compacts.
   The compaction costs a summarizing call that reads the old context from the cache
   and writes the handoff as output, and the next call writes its whole context to
   the cache again (the base included, which makes the estimate conservative).
3. Where the real context shrank (a real compaction, pruning) the simulated context
   never exceeds the real one.
4. Each call is then priced with the real call's uncached input, output and new
   cache writes (capped by the simulated context); everything else in the
   simulated context is a cache read.

With a threshold no session reaches, the replayed cost equals the real cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rubi.transcripts.events import Usage
from rubi.transcripts.settings import PriceRatios

__all__ = ["ReplayOutcome", "replay_curve"]


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """One session replayed under one threshold.

    Attributes:
        threshold: context (tokens) at which the policy compacts.
        compactions: early compactions the policy made.
        real_cost: cost of the real main chain (input-token equivalents).
        replay_cost: cost of the replayed main chain, compactions included.
        curve: simulated context (tokens) of each call.
    """

    threshold: int
    compactions: int
    real_cost: float
    replay_cost: float
    curve: tuple[int, ...]

    @property
    def saving(self) -> float:
        """Real cost minus replayed cost (input-token equivalents); negative = a loss."""
        return self.real_cost - self.replay_cost


def _call_cost(usage: Usage, context: int, rewrite_all: bool, prices: PriceRatios) -> float:
    """Cost of ``usage``'s call when it sends ``context`` tokens."""
    fresh = min(usage.input, context)
    write = context - fresh if rewrite_all else min(usage.cache_write, context - fresh)
    read = context - fresh - write
    share_1h = usage.cache_write_1h / usage.cache_write if usage.cache_write else 0.0
    write_price = share_1h * prices.cache_write_1h + (1 - share_1h) * prices.cache_write_5m
    return (
        fresh * prices.input
        + write * write_price
        + read * prices.cache_read
        + usage.output * prices.output
    )


def replay_curve(
    calls: Sequence[Usage],
    *,
    threshold: int,
    base_tokens: int,
    handoff_tokens: int,
    prices: PriceRatios,
    resumed_after: frozenset[int] = frozenset(),
) -> ReplayOutcome:
    """Replay a main chain under "compact when the context reaches ``threshold``".

    Args:
        calls: usage of each main-chain call, in order.
        threshold: context (tokens) that triggers a compaction after the call
            that reached it.
        base_tokens: context (tokens) a compacted session resumes from, before the
            handoff: system prompt, tools, CLAUDE.md.
        handoff_tokens: size (tokens) of the handoff written at compaction (billed as
            output) and carried after it.
        prices: price ratios.
        resumed_after: indices of calls that follow a real compaction.

    Returns:
        The replay outcome; ``saving`` is what early compaction would have saved.
    """
    real_cost = 0.0
    replay_cost = 0.0
    compactions = 0
    curve: list[int] = []
    real_prev = sim_prev = 0
    restart = base_tokens + handoff_tokens
    for index, usage in enumerate(calls):
        real = usage.context
        real_cost += _call_cost(usage, real, False, prices)
        rewrite_all = False
        if index == 0:
            sim = real
        else:
            growth = real - real_prev
            if growth < 0 or index in resumed_after:
                sim = min(sim_prev, real)
            elif restart < threshold <= sim_prev:
                compactions += 1
                rewrite_all = True
                replay_cost += sim_prev * prices.cache_read + handoff_tokens * prices.output
                sim = restart + growth
            else:
                sim = sim_prev + growth
        replay_cost += _call_cost(usage, sim, rewrite_all, prices)
        curve.append(sim)
        real_prev, sim_prev = real, sim
    return ReplayOutcome(threshold, compactions, real_cost, replay_cost, tuple(curve))
