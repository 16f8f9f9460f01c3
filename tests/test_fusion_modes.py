"""Fusion modes (seed RRF, convex combination), query stop words, and HybridMemory.tune."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion, fused_scores, ranks, reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory


def test_rrf_object_fuses_exactly_like_the_list_formula() -> None:
    rng = np.random.default_rng(3)
    cosine, bm25 = rng.normal(size=40), np.where(rng.random(40) < 0.5, rng.random(40) * 5, 0.0)
    fused = RRF(60).fuse(cosine, bm25)
    by_vector = [str(i) for i in np.argsort(-cosine, kind="stable")]
    by_keyword = [str(i) for i in np.argsort(-bm25, kind="stable") if bm25[i] > 0]
    expected = dict(reciprocal_rank_fusion([by_vector, by_keyword], k=60))
    assert [fused[int(i)] for i in expected] == list(expected.values())
    assert np.array_equal(fused, fused_scores([ranks(cosine), ranks(bm25, np.flatnonzero(bm25 > 0))], 60))


def test_convex_fusion_follows_the_tm2c2_formula_by_hand() -> None:
    cosine, bm25 = np.array([0.5, -0.2, 0.9]), np.array([2.0, 0.0, 1.0])
    # cosine' = (c + 1) / (0.9 + 1); bm25' = b / 2
    expected = 0.25 * (cosine + 1) / 1.9 + 0.75 * bm25 / 2
    assert np.allclose(ConvexFusion(0.25).fuse(cosine, bm25), expected)
    assert np.argmax(ConvexFusion(1.0).fuse(cosine, bm25)) == 2 and np.argmax(ConvexFusion(0.0).fuse(cosine, bm25)) == 0
    assert np.allclose(ConvexFusion(0.5).fuse(cosine, np.zeros(3)), 0.5 * (cosine + 1) / 1.9)  # no keyword match


@pytest.mark.parametrize("bad", [-0.1, 1.5, "0.5", True, float("nan")])
def test_convex_fusion_refuses_a_weight_outside_zero_to_one(bad) -> None:
    with pytest.raises(ValueError, match="from 0 to 1"):
        ConvexFusion(bad)


def test_rrf_refuses_a_negative_or_fractional_constant() -> None:
    for bad in (-1, 2.5):
        with pytest.raises(ValueError, match="whole number"):
            RRF(bad)


def test_query_stop_words_are_dropped_from_queries_only() -> None:
    assert tokenize("What is Alice's favourite language?", STOPWORDS) == ["alice", "favourite", "language"]
    assert tokenize("What is it?", STOPWORDS) == []
    index = BM25Index()
    index.add(tokenize("what is the plan"))
    assert index.scores(tokenize("the plan", STOPWORDS))[0] == index.scores(["plan"])[0] > 0


def test_memory_default_is_the_measured_fusion_with_query_stop_words() -> None:
    memory = HybridMemory()
    assert memory.fusion is DEFAULT_FUSION and memory.stopwords == STOPWORDS and memory.rrf_k is None
    assert inspect.signature(HybridMemory).parameters["stopwords"].default is STOPWORDS
    assert HybridMemory(rrf_k=60).rrf_k == 60 and HybridMemory(fusion=RRF(10)).rrf_k == 10
    with pytest.raises(ValueError, match="not both"):
        HybridMemory(rrf_k=60, fusion=RRF(60))


def test_seed_mode_reproduces_rrf_over_the_two_rankings_without_stop_words() -> None:
    texts = ["What is the plan for the launch?", "the launch plan is Friday", "coffee is ready", "plan B"]
    memory = HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)
    memory.store_many(texts)
    hits = memory.search("what is the plan", top_k=4)
    by_vector = [h.id for h in sorted(hits, key=lambda h: h.vector_rank)]
    by_keyword = [h.id for h in sorted((h for h in hits if h.keyword_rank), key=lambda h: h.keyword_rank)]
    assert len(by_keyword) == 4  # "coffee is ready" matches on "is": no stop words in the seed mode
    assert [h.id for h in hits] == [i for i, _ in reciprocal_rank_fusion([by_vector, by_keyword], k=60)]
    assert [h.score for h in hits] == [s for _, s in reciprocal_rank_fusion([by_vector, by_keyword], k=60)]
    with_stop_words = HybridMemory(fusion=RRF(60))
    with_stop_words.store_many(texts)
    assert sum(h.keyword_rank is not None for h in with_stop_words.search("what is the plan", top_k=4)) == 3


def test_convex_hits_report_the_fused_score_they_were_ordered_by() -> None:
    memory = HybridMemory(fusion=ConvexFusion(0.6))
    memory.store_many(["Order #4821 was two DDR5 modules", "Alice likes Rust", "the weather is mild"])
    hits = memory.search("order 4821", top_k=3)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    cosine, bm25 = np.array([h.cosine for h in hits]), np.array([h.bm25 for h in hits])
    assert np.allclose([h.score for h in hits], ConvexFusion(0.6).fuse(cosine, bm25))
    assert hits[0].text.startswith("Order #4821")


def _tuning_memory() -> tuple[HybridMemory, dict[str, str]]:
    memory = HybridMemory()
    texts = [f"Ticket VDB-{n} is about the {topic}" for n, topic in zip(range(1300, 1320), [
        "leader election", "disk usage", "clock drift", "log compaction", "snapshot size"] * 4)]
    ids = memory.store_many(texts)
    return memory, dict(zip(texts, ids))


def test_tune_picks_a_weight_from_labelled_queries_and_installs_it() -> None:
    memory, ids = _tuning_memory()
    # Exact ticket numbers: only keyword evidence tells the twenty near-identical tickets apart.
    labelled = [(f"VDB-{n}", [ids[text]]) for n, text in zip(range(1300, 1320), ids)]
    scores = memory.tune(labelled)
    assert set(scores) == {w / 10 for w in range(11)}
    assert isinstance(memory.fusion, ConvexFusion) and scores[memory.fusion.weight] == max(scores.values())
    assert scores[1.0] < max(scores.values())  # vector search alone cannot read ticket numbers
    assert memory.fusion.weight < 1.0
    hits = memory.search("VDB-1307", top_k=1)
    assert hits[0].text.startswith("Ticket VDB-1307")


def test_tune_refuses_empty_or_unlabelled_examples() -> None:
    memory, _ = _tuning_memory()
    for bad in ([], [("VDB-1300", [])]):
        with pytest.raises(ValueError, match="tune needs"):
            memory.tune(bad)


def test_stemming_is_a_setting_of_the_object_and_a_reopened_file_follows_it(tmp_path) -> None:
    path = tmp_path / "memory.sqlite3"
    with HybridMemory(path=path) as memory:  # stems by default
        stored = memory.store("Alice stored the backups on Friday.")
        memory.store("Bob likes tea.")
        [hit] = [h for h in memory.search("storing backup", top_k=2) if h.id == stored]
        assert hit.bm25 > 0 and hit.keyword_rank == 1  # "storing"/"stored", "backup"/"backups" share stems
    with HybridMemory(path=path, stemming=False) as words:  # the same file, indexed by the words as written
        assert all(h.bm25 == 0 for h in words.search("storing backup", top_k=2))
        assert words.search("stored backups", top_k=1)[0].id == stored
    with HybridMemory(path=path) as again:
        assert again.search("storing backup", top_k=1)[0].bm25 == hit.bm25  # nothing about stems was saved
