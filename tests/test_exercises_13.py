"""The exercise checks of lesson 13 pass the worked solutions and fail plausible wrong answers.

The solutions are also compared with the references they imitate: ``top_k`` with a
full sort and with ``exact_top_k.ranked_head`` (what ``HybridMemory.search`` uses); exercise 13.2's two
designs pass (tests/test_exercise_kinds.py checks that too) and indexes that break one property fail with it
named; the stretch answer runs end to end.
"""

from __future__ import annotations

import numpy as np
import pytest
from exercise_checks import assert_refused, check_tests, verdict

from aria_kit.approximate_search import IVFIndex, exact_search, recall_at_k
from aria_kit.exact_top_k import ranked_head
from aria_kit.exercises import lesson13
from aria_kit.fusion import reciprocal_rank_fusion
from aria_kit.solutions.lesson13 import (
    SOLUTIONS, approximate_hybrid_top3, kmeans_index, nearest_lists, stretch_top3_agreement, top_k)

CHECKS = [(lesson13.check_top_k, top_k), (lesson13.check_stretch, approximate_hybrid_top3)]


test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


WRONG_TOP_K = {
    "unstable sort: ties in any order": lambda scores, k: np.argsort(-np.asarray(scores))[:k],
    "worst first": lambda scores, k: np.lexsort((np.arange(len(scores)), scores))[:k],
    "argpartition without sorting the head": lambda scores, k: np.argpartition(-np.asarray(scores), min(k, len(scores)) - 1)[:k],
    "one short": lambda scores, k: np.lexsort((np.arange(len(scores)), -np.asarray(scores)))[: max(k - 1, 1)],
    "a full sort, then the first k": lambda scores, k: np.lexsort((np.arange(len(scores)), -np.asarray(scores)))[:k],
}


TOP_K_HINTS = {"unstable sort: ties in any order": "lowest indices", "worst first": "highest scores come first",
               "argpartition without sorting the head": "lowest indices", "one short": "exactly min(k, len(scores))",
               "a full sort, then the first k": "seems to order every score"}
# (a shrunk case: the prefix of the random scores that still fails is printed in full)


@pytest.mark.parametrize("wrong", WRONG_TOP_K.values(), ids=WRONG_TOP_K.keys())
def test_top_k_check_rejects_plausible_mistakes(wrong, capsys):
    assert lesson13.check_top_k(wrong) is False
    assert verdict(capsys) == "✗"


@pytest.mark.parametrize("name", TOP_K_HINTS)
def test_top_k_check_answers_a_mistake_with_a_small_case_and_its_hint(name, capsys):
    lesson13.check_top_k(WRONG_TOP_K[name])
    out = capsys.readouterr().out
    small_case = "top_k(np.array([" in out or name == "a full sort, then the first k"  # right, but slow
    assert small_case and TOP_K_HINTS[name] in out, out


@pytest.mark.parametrize("design", SOLUTIONS["13.2"], ids=["k-means lists", "random pivots within a budget"])
def test_both_designs_of_an_approximate_index_pass(design, capsys):
    assert lesson13.check_ivf_design(*design) is True
    assert "recall@10 0." in capsys.readouterr().out


WRONG_DESIGNS = {  # (build, probe, the words the refusal must say)
    "reads every row": (lambda v: v, lambda v, q: np.arange(len(v)), "read at most 25%"),
    "one list of 32": (kmeans_index, lambda i, q: i.lists[int(np.argmax(i.centroids @ q))], "must reach 0.9"),
    "random rows": (lambda v: len(v), lambda n, q: np.random.default_rng().choice(n, n // 5, replace=False),
                    "the same query must read the same rows"),
    "the farthest lists": (kmeans_index, lambda i, q: nearest_lists(i, -q), "did not read row"),
    "row numbers out of range": (lambda v: len(v), lambda n, q: np.array([n]), "rows run from 0 to 3999"),
}


@pytest.mark.parametrize(("build", "probe", "hint"), WRONG_DESIGNS.values(), ids=WRONG_DESIGNS.keys())
def test_design_check_names_the_property_an_index_breaks(build, probe, hint, capsys):
    assert_refused(lesson13.check_ivf_design(build, probe), capsys, hint)


def test_design_check_reports_an_untouched_stub_as_not_done_yet(capsys):
    def stub(*_):
        raise NotImplementedError

    assert lesson13.check_ivf_design(stub, stub) is False
    assert verdict(capsys) == "○"


def test_top_k_agrees_with_what_hybrid_memory_uses():
    scores = np.random.default_rng(3).integers(0, 20, 5_000).astype(float)
    for k in (1, 3, 50):
        assert top_k(scores, k).tolist() == ranked_head(scores, k, -np.inf)[0][:k].tolist()


def test_recall_of_an_ivf_grows_with_the_lists_probed_and_is_exact_with_all_of_them():
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(2_000, 32))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = IVFIndex.build(vectors, n_lists=16, seed=5)
    queries = vectors[:40] + 0.1 * rng.normal(size=(40, 32))
    recalls = [np.mean([recall_at_k(index.search(q, 10, nprobe)[0], exact_search(vectors, q, 10)) for q in queries])
               for nprobe in (1, 4, 16)]
    assert recalls[0] < recalls[1] < recalls[2] == 1.0


def test_the_stretch_answer_measures_an_agreement_share():
    texts = [f"{who} works on {what}" for who in ("Alice", "Bob", "Carol") for what in ("Raft", "Rust", "BM25")] * 4
    share = stretch_top3_agreement(texts, ["who works on Raft", "Rust"], n_lists=4, nprobe=4)
    assert share == 1.0  # probing every list is exact search


def _keyword_ranking(keyword):
    return [int(r) for r in np.lexsort((np.arange(len(keyword)), -keyword)) if keyword[r] > 0]


WRONG_STRETCH = {  # (a wrong answer, the words its hint must say)
    "IVF alone, BM25 forgotten": (lambda index, keyword, query, nprobe: index.search(query, 3, nprobe)[0].tolist(),
                                  "keyword ranking is missing"),
    "every row keeps its exact vector rank": (
        lambda index, keyword, query, nprobe: [r for r, _ in reciprocal_rank_fusion(
            [exact_search(index.vectors, query, len(index.vectors)).tolist(), _keyword_ranking(keyword)])[:3]],
        "unprobed rows still got a vector rank"),
    "rows with no keyword match ranked too": (
        lambda index, keyword, query, nprobe: [r for r, _ in reciprocal_rank_fusion(
            [index.search(query, len(index.vectors), nprobe)[0].tolist(),
             np.lexsort((np.arange(len(keyword)), -keyword)).tolist()])[:3]],
        "rows scoring above 0"),
}


@pytest.mark.parametrize(("wrong", "hint"), WRONG_STRETCH.values(), ids=WRONG_STRETCH.keys())
def test_stretch_check_answers_a_plausible_mistake_with_its_case_and_a_hint(wrong, hint, capsys):
    out = assert_refused(lesson13.check_stretch(wrong), capsys, hint)
    assert "nprobe = " in out, out
