"""Exercise checks for lesson 03 (BM25): an inverted index that grows and shrinks, BM25 from it, and the stretch.

``check_inverted_index(InvertedIndex)`` feeds the learner's class the demo facts,
removes two, adds more, and after every step compares its ``postings`` (term →
{slot: tf}), ``lengths`` (slot → tokens, live documents only), ``slots`` and
``df(term)`` with the definition recomputed from the live documents, and the
smoothed IDF they give with ``BM25Index.idf`` after the same steps. Typical slips
fail: a reused slot, a term left with an empty postings list, a set instead of
counts, removing twice without ``KeyError``. ``check_bm25_scores(bm25_scores)``
scores the checker's own index (so it does not depend on exercise 03.1) and
compares with ``BM25Index.scores`` after adds and removes, so counting removed
documents in N or in the average length fails. ``check_stemmer`` checks the
stretch task. ``BM25Index`` is the reference; tests/test_bm25.py checks it against
rank_bm25 and bm25s.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true

SOLUTION = "lesson03"

# Minutes are estimates: matching BM25Index to 1e-12 after removals takes a first-timer well over the
# 5 minutes per exercise the old formula allowed (issue 20).
EXERCISES = [
    Exercise("03.1", designs="an inverted index that adds and removes documents, never reuses a slot and keeps "
             "only live terms", kind="specification", minutes=35, solution=("InvertedIndex",)),
    Exercise("03.2", designs="BM25 from the index alone, deciding what N and the average length mean after "
             "removals", kind="specification", minutes=30, solution=("bm25_scores",)),
    Exercise("Stretch 03", designs="a stemming tokenizer, and a query it fixes and one it breaks",
             kind="stretch", minutes=30, solution=("stem_tokenize", "best_match")),
]

EXTRA_DOCS = ["Raft elects a leader and replicates the log", "Alice Alice Alice", ""]


def _steps() -> list[tuple[str, Any]]:
    """The add/remove sequence both checks replay: the demo facts, two removals, three more documents."""
    from aria_kit.demo_data import DEMO_FACTS

    steps: list[tuple[str, Any]] = [("add", tokenize(text)) for text, _ in DEMO_FACTS]
    steps += [("remove", 2), ("remove", 5)] + [("add", tokenize(text)) for text in EXTRA_DOCS]
    return steps


def _apply(index: BM25Index, action: str, arg: Any) -> None:
    if action == "add":
        index.add(list(arg))
    else:
        index.remove(arg)


def _definition(live: dict[int, list[str]]) -> tuple[dict[str, dict[int, int]], dict[int, int]]:
    postings: dict[str, dict[int, int]] = {}
    for slot, tokens in live.items():
        for term, tf in Counter(tokens).items():
            postings.setdefault(term, {})[slot] = tf
    return postings, {slot: len(tokens) for slot, tokens in live.items()}


def _same_state(index: Any, reference: BM25Index, live: dict[int, list[str]], step: str) -> None:
    postings, lengths = _definition(live)
    got = {term: dict(slots) for term, slots in dict(index.postings).items()}
    empty = sorted(term for term, slots in got.items() if not slots)
    assert not empty, (f"after {step}, postings still lists {empty[:3]} with no document: delete a term "
                       "whose last document is removed")
    if got != postings:
        wrong = sorted(term for term in set(got) | set(postings) if got.get(term) != postings.get(term))
        term = wrong[0]
        raise AssertionError(f"after {step}, postings[{term!r}] should be {postings.get(term, 'absent')}, "
                             f"got {got.get(term, 'absent')} (slot → how often the term occurs there)")
    assert dict(index.lengths) == lengths, (
        f"after {step}, lengths should be {lengths}, got {dict(index.lengths)}")
    assert index.slots == reference.slots, (
        f"after {step}, slots should be {reference.slots} (every slot ever handed out), got {index.slots}")
    for term in sorted(postings) + ["nonexistent"]:
        n = index.df(term)
        assert n == len(postings.get(term, {})), (
            f"after {step}, df({term!r}) should be {len(postings.get(term, {}))} documents, got {n}")
        live_docs = len(lengths)
        idf = math.log(1 + (live_docs - n + 0.5) / (n + 0.5))
        assert abs(idf - reference.idf(term)) < 1e-12, f"after {step}, the idf of {term!r} differs from BM25Index's"


def _inverted_index_test(cls: Callable[[], Any]) -> None:
    index, reference = cls(), BM25Index()
    live: dict[int, list[str]] = {}
    for number, (action, arg) in enumerate(_steps(), 1):
        if action == "add":
            slot = index.add(list(arg))  # a stub raises NotImplementedError here
            expected = reference.add(list(arg))
            assert slot == expected, (f"add #{number} returned slot {slot}, expected {expected}: slots count up from 0 "
                                      "and a removed slot is never handed out again")
            live[expected] = list(arg)
            step = f"adding {' '.join(arg)[:40]!r} as slot {slot}"
        else:
            index.remove(arg)
            reference.remove(arg)
            del live[arg]
            step = f"removing slot {arg}"
        _same_state(index, reference, live, step)
    for slot in (2, 99):
        try:
            index.remove(slot)
        except KeyError:
            continue
        raise AssertionError(f"remove({slot}) of a slot that holds no document should raise KeyError")
    _same_state(index, reference, live, "refusing to remove slots 2 and 99")


class _Index:
    """The checker's own index with the attributes exercise 03.1 asks for (postings, lengths, slots)."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = {}
        self.lengths: dict[int, int] = {}
        self.slots = 0

    def apply(self, action: str, arg: Any) -> None:
        if action == "add":
            for term, tf in Counter(arg).items():
                self.postings.setdefault(term, {})[self.slots] = tf
            self.lengths[self.slots] = len(arg)
            self.slots += 1
        else:
            for term in [t for t, slots in self.postings.items() if arg in slots]:
                del self.postings[term][arg]
                if not self.postings[term]:
                    del self.postings[term]
            del self.lengths[arg]


def _bm25_scores_test(bm25_scores: Callable[..., list[float]]) -> None:
    queries = [tokenize(q) for q in ("What consensus algorithm does VelocityDB use?", "order 4821", "Alice Alice",
                                     "raft leader", "nothing matches this")]
    index, reference = _Index(), BM25Index()
    for number, (action, arg) in enumerate(_steps(), 1):
        index.apply(action, arg)
        _apply(reference, action, arg)
        if number < 7:
            continue  # the demo facts are not all in yet
        for query in queries:
            expected = reference.scores(query)
            answer = bm25_scores(index, query)  # a stub raises NotImplementedError here
            where = f"for the query {' '.join(query)!r} after step {number} of the add/remove sequence"
            assert isinstance(answer, list), (
                f"{where}: bm25_scores returned {type(answer).__name__}; the task asks for a list with one score "
                "per slot (a numpy array converts with .tolist())")
            got = np.asarray(answer, dtype=np.float64)
            assert got.shape == expected.shape, (
                f"{where}: expected one score per slot ever handed out ({len(expected)}), got {got.shape[0]}")
            if not np.allclose(got, expected, rtol=1e-9, atol=1e-12):
                slot = int(np.argmax(np.abs(got - expected)))
                raise AssertionError(f"{where}: slot {slot} should score {expected[slot]:.4f}, got {got[slot]:.4f} "
                                     "(N and the average length count only the documents still in the index)")
    reference_flat = BM25Index(k1=0.5, b=0.0)
    for action, arg in _steps():
        _apply(reference_flat, action, arg)
    got = np.asarray(bm25_scores(index, ["alice", "velocitydb"], k1=0.5, b=0.0), dtype=np.float64)
    assert np.allclose(got, reference_flat.scores(["alice", "velocitydb"]), rtol=1e-9), (
        "with k1=0.5 and b=0 your scores differ from BM25Index(k1=0.5, b=0): use the k1 and b you are given")


def _stemmer_test(stem_tokenize: Callable[[str], list[str]]) -> None:
    got = stem_tokenize("The data was stored; storage matters.")  # a stub raises NotImplementedError here
    assert isinstance(got, list) and all(isinstance(t, str) for t in got), "return a list of str tokens"
    families = [("stored", "storage", "stores", "store"), ("use", "uses", "used", "using"),
                ("replicate", "replicates", "replicated")]
    for family in families:
        stems = {tuple(stem_tokenize(word)) for word in family}
        assert len(stems) == 1, f"{', '.join(family)} should all become the same token, got {sorted(stems)}"
    for word in ("4821", "v1", "rust", "raft", "vdb"):
        got = stem_tokenize(word)
        assert got == tokenize(word), f"{word!r} should stay {tokenize(word)}, got {got}"
    for one, other in (("rust", "raft"), ("store", "start"), ("order", "old")):
        assert stem_tokenize(one) != stem_tokenize(other), f"{one!r} and {other!r} became one token: too greedy"
    assert len(stem_tokenize("Alice's favourite programming language is Rust.")) == 6, (
        "stemming changes tokens, it should not add or drop any")


def check_inverted_index(cls: Callable[[], Any]) -> bool:
    """Check the class ``cls``: an index with ``add``, ``remove``, ``df`` and ``postings``, ``lengths``, ``slots``."""
    return check("Exercise 03.1 (an inverted index)", lambda: _inverted_index_test(cls), SOLUTION)


def check_bm25_scores(bm25_scores: Callable[..., list[float]]) -> bool:
    """Check ``bm25_scores(index, query_tokens, k1=1.5, b=0.75)``: one BM25 score per slot, from the index alone."""
    return check("Exercise 03.2 (BM25 from the index)", lambda: _bm25_scores_test(bm25_scores), SOLUTION)


def check_stemmer(stem_tokenize: Callable[[str], list[str]]) -> bool:
    """Check the stretch task: ``stem_tokenize(text)`` puts word families on one token and leaves ids alone."""
    return check("Stretch 03 (a tokenizer that stems)", lambda: _stemmer_test(stem_tokenize), SOLUTION)


# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_tokens() -> str:
    """03: the kit's tokenize on a possessive, a hyphenated code and punctuation."""
    from aria_kit.bm25 import tokenize

    tokens = tokenize("Bob's SSD-2TB arrived!")
    return only_true({"a": tokens == ["bob", "ssd", "2tb", "arrived"], "b": tokens == ["bob's", "ssd-2tb", "arrived"],
                      "c": tokens == ["bob", "ssd", "2", "tb", "arrived"], "d": tokens == ["bob", "ssd", "2tb", "arriv"]})


def _key_word_in_every_memory() -> str:
    """03: BM25Index over four memories that all contain 'tea', queried with 'tea'."""
    from aria_kit.bm25 import BM25Index, tokenize

    texts = ["tea is hot", "green tea", "iced tea please", "tea"]
    index = BM25Index()
    for text in texts:
        index.add(tokenize(text))
    scores = [float(x) for x in index.scores(["tea"])]
    return only_true({"c": min(scores) > 0 and max(scores) == scores[3] and len(set(scores)) > 1,
                      "b": all(x == 0 for x in scores), "a": all(x < 0 for x in scores),
                      "d": min(scores) > 0 and len(set(scores)) == 1})


def _key_four_times() -> str:
    """03: BM25 of 'rust' in two memories of four tokens each, one saying it four times."""
    from aria_kit.bm25 import BM25Index, tokenize

    index = BM25Index()
    for text in ("Rust, Rust, Rust, Rust!", "Rust is fun here"):
        index.add(tokenize(text))
    four, once = (float(x) for x in index.scores(["rust"]))
    ratio = four / once
    return only_true({"b": 1.7 < ratio < 1.9, "a": abs(ratio - 4) < 1e-9, "c": abs(ratio - 2.5) < 1e-9,
                      "d": abs(ratio - 1) < 1e-9})


QUIZ = Quiz("Lesson 03", [
    Question(
        "What does the kit's `tokenize(\"Bob's SSD-2TB arrived!\")` return?",
        {"a": "bob | ssd | 2tb | arrived", "b": "bob's | ssd-2tb | arrived",
         "c": "bob | ssd | 2 | tb | arrived", "d": "bob | ssd | 2tb | arriv"},
        "a", "it lowercases, drops the possessive 's, and keeps runs of letters and digits; the hyphen and the "
             "'!' only separate tokens.",
        {"b": "splitting on spaces alone would keep the punctuation, and 'ssd-2tb' would match neither 'ssd' nor '2tb'.",
         "c": "letters and digits together make one run: '2tb' stays whole, as 'v1' and 'ddr5' do.",
         "d": "plain tokenize does not stem; only tokenize(text, stem=True) reduces words to their stems."},
        kind="predict", case=("Bob's SSD-2TB arrived!",), compute=_key_tokens),
    Question(
        "Four memories: 'tea is hot', 'green tea', 'iced tea please' and 'tea'. Every one contains 'tea'. What does "
        "the kit's BM25 give them for the query 'tea'?",
        {"a": "A negative score each: the word is in more than half the memories.",
         "b": "0 each: a word found in every memory carries no information.",
         "c": "A small positive score each, highest for the shortest memory, 'tea'.",
         "d": "The same positive score each: 'tea' occurs once in every one of them."},
        "c", "Lucene's idf, ln(1 + (N − n + 0.5)/(n + 0.5)), stays above 0 even for n = N; then length "
             "normalisation favours the match in the shortest memory.",
        {"b": "that is the textbook idf, log(N/n); the kit's has the '1 +' inside the log, so it never reaches 0.",
         "a": "that is rank_bm25's Okapi idf before its floor; the kit's idf is never negative.",
         "d": "tf is 1 everywhere, but b = 0.75 scales each match by the memory's length: one word in four weighs less."},
        kind="predict", case=("iced tea please",), compute=_key_word_in_every_memory),
    Question(
        "Two memories of four tokens each: 'Rust, Rust, Rust, Rust!' and 'Rust is fun here'. For the query 'rust', "
        "the first scores how many times the second?",
        {"a": "4 times: four occurrences, four times the evidence.",
         "b": "About 1.8 times: each extra occurrence adds less than the one before.",
         "c": "2.5 times: with k1 = 1.5 a repeated word jumps straight to its limit, k1 + 1.",
         "d": "The same score: BM25 only asks whether a word is present."},
        "b", "the term part is tf·(k1 + 1)/(tf + k1) at average length: 1 for tf = 1 and 4 × 2.5/5.5 ≈ 1.82 for tf = 4.",
        {"a": "that is a bare count; saturation is there so that repeating a word cannot buy a score.",
         "c": "k1 + 1 is the limit as tf grows without bound; four occurrences are well short of it.",
         "d": "presence alone is a boolean model; BM25 counts occurrences, with diminishing returns."},
        kind="predict", case=("Rust is fun here",), compute=_key_four_times),
    Question(
        "rank_bm25 scored 'Alice likes Rust' −0.0209 for the query 'Alice', below 'Bob likes Go'. Why?",
        {"a": "rank_bm25 has a bug in its tf formula.",
         "b": "Its Okapi idf of 'alice' (3 of 4 documents) is negative, and the floor it uses instead, 0.25 × the "
              "mean idf, is negative too because most words here are common.",
         "c": "'Bob likes Go' is shorter.",
         "d": "rank_bm25 did not lowercase the query, so 'Alice' matched nothing and got a default penalty."},
        "b", "the floor follows the mean idf of the corpus, so it is only positive when most words are rare.",
        {"a": "the tf part is the same as ours; the whole difference is the idf.",
         "c": "all four documents have three tokens, and length normalisation cannot make a score negative.",
         "d": "both lowercase the same way: the three documents with 'alice' score −0.0209 because they match."},
        kind="explain", case=("0.0209", "Bob likes Go")),
])
