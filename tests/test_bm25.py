"""BM25: the tokeniser, and the incremental index checked against bm25s and against the formula itself."""

from __future__ import annotations

import math
import random

import bm25s
import numpy as np
import pytest

from aria_kit import bm25
from aria_kit.bm25 import STOPWORDS, BM25Index, stem, tokenize

VOCABULARY = [f"w{i}" for i in range(40)]
WEIGHTS = [1 / (i + 1) for i in range(40)]  # Zipf-like: a few common terms, many rare ones


def random_doc(rng: random.Random, max_len: int = 15) -> list[str]:
    return rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(0, max_len))


def reference_scores(corpus: list[list[str]], query: list[str], k1: float = 1.5, b: float = 0.75) -> list[float]:
    """BM25 straight from the formula, one document and one query term at a time."""
    n_docs = len(corpus)
    avgdl = sum(len(doc) for doc in corpus) / n_docs
    scores = []
    for doc in corpus:
        score = 0.0
        for term in query:  # a repeated query term counts every time
            tf = doc.count(term)
            if tf:
                n = sum(term in other for other in corpus)
                idf = math.log(1 + (n_docs - n + 0.5) / (n + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / avgdl))
        scores.append(score)
    return scores


def build(corpus: list[list[str]], **params: float) -> BM25Index:
    index = BM25Index(**params)
    for doc in corpus:
        index.add(doc)
    return index


# ---------------------------------------------------------------- scores


@pytest.mark.parametrize("seed", range(12))
def test_scores_match_the_formula_on_random_corpora(seed: int) -> None:
    rng = random.Random(seed)
    corpus = [random_doc(rng) for _ in range(rng.randint(1, 60))]
    k1, b = rng.choice([(1.5, 0.75), (1.2, 0.75), (0.9, 0.4), (2.0, 1.0), (1.5, 0.0)])
    index = build(corpus, k1=k1, b=b)
    for _ in range(10):
        query = rng.choices(VOCABULARY + ["unseen"], k=rng.randint(1, 5))
        np.testing.assert_allclose(index.scores(query), reference_scores(corpus, query, k1, b), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_scores_match_bm25s_lucene_on_random_corpora(seed: int) -> None:
    rng = random.Random(1000 + seed)
    corpus = [random_doc(rng) for _ in range(rng.randint(2, 80))]
    corpus[0] = corpus[0] or ["w0"]  # bm25s cannot build a vocabulary from empty documents only
    reference = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    reference.index(corpus, show_progress=False)  # token lists in: bm25s tokenises nothing itself
    index = build(corpus)
    for _ in range(10):
        query = rng.choices(VOCABULARY, k=rng.randint(1, 5))  # with repeats, which both count every time
        # bm25s, like Lucene >= 8, leaves the constant factor (k1 + 1) out of every score.
        expected = (1.5 + 1) * reference.get_scores(query)
        np.testing.assert_allclose(index.scores(query), expected, rtol=1e-5, atol=1e-6)


def test_a_repeated_query_term_counts_once_per_repetition() -> None:
    index = build([["raft", "log"], ["paxos"], ["raft", "raft", "consensus"]])
    np.testing.assert_allclose(index.scores(["raft", "raft"]), 2 * index.scores(["raft"]))
    np.testing.assert_allclose(index.scores(["raft", "log", "raft"]), reference_scores(
        [["raft", "log"], ["paxos"], ["raft", "raft", "consensus"]], ["raft", "log", "raft"]))


def test_a_term_in_every_document_still_raises_the_score() -> None:
    # rank_bm25's Okapi IDF is negative here; Lucene's is small but positive.
    index = build([["alice", "rust"], ["alice", "raft"], ["alice", "order"]])
    assert index.idf("alice") > 0
    assert (index.scores(["alice"]) > 0).all()


def test_documents_without_query_terms_score_zero() -> None:
    index = build([["raft"], ["paxos"], []])
    assert index.scores(["raft"]).tolist()[1:] == [0.0, 0.0]
    assert index.scores(["unknown"]).tolist() == [0.0, 0.0, 0.0]
    assert BM25Index().scores(["anything"]).shape == (0,)


# ---------------------------------------------------------------- incremental add and remove


@pytest.mark.parametrize("seed", range(8))
def test_after_removals_the_index_equals_a_fresh_index_of_the_remaining_documents(seed: int) -> None:
    rng = random.Random(2000 + seed)
    corpus = [random_doc(rng) for _ in range(rng.randint(5, 60))]
    index = build(corpus)
    removed = set(rng.sample(range(len(corpus)), rng.randint(1, len(corpus) - 1)))
    for slot in removed:
        index.remove(slot)
    for doc in (random_doc(rng) for _ in range(3)):  # adds after removes use new slots
        corpus.append(doc)
        assert index.add(doc) == len(corpus) - 1
    kept = [slot for slot in range(len(corpus)) if slot not in removed]
    fresh = build([corpus[slot] for slot in kept])
    assert len(index) == len(kept) and index.slots == len(corpus)
    for query in (rng.choices(VOCABULARY, k=3) for _ in range(10)):
        scores = index.scores(query)
        np.testing.assert_allclose(scores[kept], fresh.scores(query), rtol=1e-12)
        assert not scores[sorted(removed)].any()
        assert all(index.idf(term) == fresh.idf(term) for term in query)


def test_removing_every_document_empties_the_index() -> None:
    index = build([["a", "b"], ["b"]])
    index.remove(0)
    index.remove(1)
    assert len(index) == 0 and index.scores(["b"]).tolist() == [0.0, 0.0]
    assert index._postings == {} and index._total_length == 0


def test_removing_a_slot_twice_or_an_unknown_slot_raises() -> None:
    index = build([["a"]])
    index.remove(0)
    with pytest.raises(KeyError):
        index.remove(0)
    with pytest.raises(KeyError):
        index.remove(5)


# ---------------------------------------------------------------- tokenizer


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("LSM-tree", ["lsm", "tree"]),
        ("Order #4821", ["order", "4821"]),
        ("Alice's language preference", ["alice", "language", "preference"]),
        ("Alice’s notes", ["alice", "notes"]),
        ("the students' notes", ["the", "students", "notes"]),
        ("don't", ["don", "t"]),
        ("VelocityDB v1.0 is DONE.", ["velocitydb", "v1", "0", "is", "done"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("Straße", ["strasse"]),
        ("ＡＢＣ１２３", ["abc123"]),
        ("🦀 Rust! 🦀", ["rust"]),
        ("שלום עולם", ["שלום", "עולם"]),
        ("", []),
        ("  ...  ", []),
    ],
)
def test_tokenize_splits_on_everything_but_letters_and_digits(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_treats_composed_and_decomposed_accents_alike() -> None:
    assert tokenize("Café déjà vu") == tokenize("Cafe\u0301 de\u0301ja\u0300 vu") == ["café", "déjà", "vu"]


def test_stemming_puts_word_families_on_one_token_and_leaves_numbers_and_ids_alone() -> None:
    assert tokenize("stored stores storing", stem=True) == ["store"] * 3
    assert tokenize("Alice's meetings", stem=True) == ["alic", "meet"]  # Snowball's stems need not be words
    assert tokenize("Order #4821, DDR5, 1990s, v1", stem=True) == ["order", "4821", "ddr5", "1990s", "v1"]
    assert tokenize("What are your travel plans?", STOPWORDS, stem=True) == ["travel", "plan"]  # stop words first
    assert tokenize("stored storing") == ["stored", "storing"]  # off unless asked


def test_the_stem_cache_stays_bounded_and_gives_the_same_stems_after_clearing(monkeypatch) -> None:
    monkeypatch.setattr(bm25, "_STEMS", {})
    monkeypatch.setattr(bm25, "_STEMS_MAX", 3)
    words = ["running", "runs", "jumped", "jumping", "walks"]
    first = [stem(word) for word in words]
    assert len(bm25._STEMS) <= 3
    assert [stem(word) for word in words] == first == ["run", "run", "jump", "jump", "walk"]
    assert tokenize(" ".join(words), stem=True) == first
