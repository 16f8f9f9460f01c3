"""Claims that a lesson sentence names aria_kit's default search as the code has it (lessons 00, 01 and 04).

A sentence that says which fusion ``HybridMemory()`` uses by default is a claim about
``aria_kit.fusion.DEFAULT_FUSION`` and ``HybridMemory``'s ``stemming`` default. These checks read
both from the package, so changing a default breaks the test that names the sentence, until the
prose follows. What is checked is only what the sentence says: the fusion's name, its weight, that
the normalisation gives each ranking's best match 1, and stemming where the sentence mentions it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion
from aria_kit.hybrid_memory import HybridMemory
from lesson_claims import Lesson, normalise


def _sentence(lesson: Lesson, fragment: str) -> str:
    hits = [s.text for s in lesson.sentences() if normalise(fragment) in s.text]
    assert len(hits) == 1, f"{len(hits)} sentences contain {fragment!r}"
    return hits[0]


def names_the_default_search(lesson: Lesson, fragment: str, *, stems: bool = False) -> Callable[[], bool]:
    """A claim check: the sentence with ``fragment`` names the default fusion (and stemming, if ``stems``)."""

    def check() -> bool:
        sentence = _sentence(lesson, fragment)
        lowered = sentence.lower()
        if isinstance(DEFAULT_FUSION, ConvexFusion):
            assert "convex" in lowered, (f"the default fusion is {DEFAULT_FUSION!r} (aria_kit.fusion.DEFAULT_FUSION), "
                                         "but the sentence does not call it a convex mix")
            assert f"{DEFAULT_FUSION.weight:g}" in sentence, (
                f"the default weight is {DEFAULT_FUSION.weight:g}; the sentence does not state it")
            if "normalis" in lowered:  # "each normalised so its best match scores 1"
                cosine, bm25 = np.array([0.1, 0.5, -0.2]), np.array([0.0, 2.0, 7.0])
                for alone in (1.0, 0.0):
                    best = type(DEFAULT_FUSION)(alone).fuse(cosine, bm25).max()
                    assert abs(best - 1.0) < 1e-12, (
                        f"the sentence says each score is normalised so the best match scores 1; the default's "
                        f"normalisation gives {best}")
        elif isinstance(DEFAULT_FUSION, RRF):
            assert "rrf" in lowered or "reciprocal rank fusion" in lowered, "the default fusion is RRF"
            assert "convex" not in lowered, f"the default fusion is {DEFAULT_FUSION!r}, not a convex mix"
        if stems:
            stemming = inspect.signature(HybridMemory).parameters["stemming"].default
            assert ("stem" in lowered) == bool(stemming), (
                f"HybridMemory's stemming default is {stemming}; the sentence "
                f"{'does not say' if stemming else 'says'} that keyword search matches word stems")
        return True

    return check
