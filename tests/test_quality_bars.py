"""The default search is held to measured bars on the held-out splits (issue 10, item 4).

The default (``fusion.DEFAULT_FUSION``, query stop words dropped, stems) was chosen on the dev
splits; these tests read the held-out splits, so a change of default that does worse there fails.
Measured when chosen (benchmarks/README.md, 2026-12-01): chitchat held-out fused recall@5 0.130 vs
0.120 for the seed's default (RRF k = 60, every query word, no stemming); fanoutqa recall@5 0.417
vs 0.323, nDCG@10 0.646 vs 0.518. The issue's bar of +4 points on the conversational set was met on
dev (+6.9) but NOT on held-out (+1.0), so it is not asserted here; ``HybridMemory.tune`` is the
documented way to do better on your own data. Since issue 21 (capped recall@5, intervals by session):
no shipped set's default falls below today's held-out interval, and on no set does the default trail one of
its own single rankings clearly (the paired interval lies wholly below 0).
"""

from __future__ import annotations

import functools

import pytest

from aria_kit.datasets import load_dataset
from aria_kit.fusion import RRF
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.measuring import Evaluation, evaluate


def seed_memory() -> HybridMemory:
    """What ``HybridMemory()`` did before the default was measured: RRF k = 60, every query word counts."""
    return HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)


@functools.cache
def runs(name: str) -> tuple[Evaluation, Evaluation]:
    """The held-out split of ``name`` under today's default and under the seed's default (computed once)."""
    dataset = load_dataset(name)
    return evaluate(dataset, "heldout"), evaluate(dataset, "heldout", memory=seed_memory)


@pytest.mark.parametrize("name", ["chitchat", "fanoutqa"])
@pytest.mark.parametrize("metric", ["recall@5", "nDCG@10"])
def test_default_is_no_worse_than_the_seed_default_on_every_held_out_set(name: str, metric: str) -> None:
    default, seed = runs(name)
    assert default.mean("fused", metric) >= seed.mean("fused", metric)


def test_conversational_default_beats_both_of_its_own_single_rankings() -> None:
    default, _ = runs("chitchat")
    fused = default.mean("fused", "recall@5")
    assert fused >= default.mean("vector", "recall@5") and fused >= default.mean("keyword", "recall@5")


def test_conversational_default_keeps_its_measured_gain_over_the_seed() -> None:
    default, seed = runs("chitchat")
    assert default.mean("fused", "recall@5") >= seed.mean("fused", "recall@5") + 0.01  # measured: +1.03 points


def test_fact_default_keeps_its_measured_gain_over_the_seed() -> None:
    default, seed = runs("fanoutqa")
    assert default.mean("fused", "recall@5") >= seed.mean("fused", "recall@5") + 0.08  # measured: +9.4 points


# ---------------------------------------------------------------- issue 21: capped recall, intervals by session

# The kit default's held-out capped recall@5 and its session-resampled 95% interval, measured 2026-12-01
# (benchmarks/bench_quality.py) before and after thread context and capped recall landed: a later default may
# move within its interval, not below it.
TODAY = {"chitchat": (0.130, 0.076), "chitchat_turns": (0.110, 0.055), "fanoutqa": (0.532, 0.481)}


@functools.cache
def heldout_scores(name: str):
    from aria_kit.tuning import score_dataset

    return score_dataset(load_dataset(name))["heldout"]


@pytest.mark.parametrize("name", sorted(TODAY))
def test_no_default_falls_below_todays_interval_on_held_out(name: str) -> None:
    from aria_kit.tuning import kit_default

    split = heldout_scores(name)
    mean = split.scores(split.rankings(*kit_default()), "capped recall@5").mean()
    assert mean >= TODAY[name][1], f"{name}: {mean:.3f} is below today's interval (from {TODAY[name][1]})"


@pytest.mark.parametrize("name", sorted(TODAY))
@pytest.mark.parametrize("single", ["vector", "keyword"])
def test_the_default_is_never_clearly_worse_than_one_of_its_own_rankings_on_held_out(name: str, single: str) -> None:
    from aria_kit.tuning import compare, kit_default

    result = compare(heldout_scores(name), kit_default(), (single, True, True))
    assert result["high"] >= 0, f"{name}: the default trails {single} clearly: {result}"
