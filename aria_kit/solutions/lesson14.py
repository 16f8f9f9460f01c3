"""Worked solutions for lesson 14 (going further: tuning without fooling yourself).

Open this when you are stuck on exercise 14.1 (a rule that chooses on dev, of your design) or the stretch
task. Exercise 14.1 has two answers of different design in ``SOLUTIONS["14.1"]``: ``best_on_dev`` keeps the
highest dev score (the first listed on ties); ``simplest_near_best`` keeps the first listed candidate (list
them simplest first) within ``margin`` of the best dev score, since settings closer than a question or two
cannot be told apart on dev. ``HybridMemory.tune`` is the kit's rule for one memory's weight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


def best_on_dev(candidates: Mapping[str, Any], dev_score: Callable[[Any], float],
                heldout_score: Callable[[Any], float]) -> tuple[str, float]:
    """Design A: the candidate with the best dev score (the first on ties); then held-out once, for it only."""
    if not candidates:
        raise ValueError("no candidates to choose from")
    scores = {label: dev_score(setting) for label, setting in candidates.items()}
    best = max(scores, key=scores.get)  # max keeps the first of equal scores
    return best, heldout_score(candidates[best])


def simplest_near_best(candidates: Mapping[str, Any], dev_score: Callable[[Any], float],
                       heldout_score: Callable[[Any], float], margin: float = 0.01) -> tuple[str, float]:
    """Design B: the first candidate (list the simplest first) within ``margin`` of the best dev score.

    A margin of about one question's share of the score (1/number of dev questions) treats settings dev cannot
    tell apart as equal, and prefers the one with fewer moving parts.
    """
    if not candidates:
        raise ValueError("no candidates to choose from")
    labels = list(candidates)
    scores = [dev_score(candidates[label]) for label in labels]
    top = max(scores)
    chosen = next(label for label, score in zip(labels, scores) if score >= top - margin)
    return chosen, heldout_score(candidates[chosen])


# Each design is the arguments of one call of check_choose_then_report (tests/test_exercise_kinds.py runs both).
SOLUTIONS = {"14.1": [(best_on_dev,), (simplest_near_best,)]}


def winners_curse(settings: int, questions: int, p: float = 0.5, repeats: int = 500, seed: int = 0) -> float:
    """Stretch 14: how far the dev winner's dev score lies above its held-out score, on average.

    ``settings`` equally good settings each find a question's answer with probability ``p``; each is scored
    on ``questions`` dev and ``questions`` held-out questions, and the best on dev is kept. Every gap is luck.
    """
    rng = np.random.default_rng(seed)
    dev = rng.binomial(questions, p, size=(repeats, settings)) / questions
    heldout = rng.binomial(questions, p, size=(repeats, settings)) / questions
    rows, best = np.arange(repeats), dev.argmax(axis=1)
    return float((dev[rows, best] - heldout[rows, best]).mean())
