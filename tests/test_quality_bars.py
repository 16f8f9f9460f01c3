"""The default search is held to measured bars on the held-out splits (issue 10, item 4).

The default (``fusion.DEFAULT_FUSION``, query stop words dropped, stems) was chosen on the dev
splits; these tests read the held-out splits, so a change of default that does worse there fails.
Measured when chosen (benchmarks/README.md, 2026-12-01): chitchat held-out fused recall@5 0.130 vs
0.120 for the seed's default (RRF k = 60, every query word, no stemming); fanoutqa recall@5 0.417
vs 0.323, nDCG@10 0.646 vs 0.518. The issue's bar of +4 points on the conversational set was met on
dev (+6.9) but NOT on held-out (+1.0), so it is not asserted here; ``HybridMemory.tune`` is the
documented way to do better on your own data.
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
