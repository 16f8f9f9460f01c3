"""Exercise checks for lesson 03 (BM25): an incremental BM25 index of the learner's design, and the stretch.

``check_bm25_index(cls)`` grades exercise 03.1 by behaviour, not by code shape: it
replays edit scripts (adds, removes, queries), from the smallest up and then at
random over a small vocabulary, on the learner's ``cls(k1, b)`` and on
``BM25Index``, and requires the same slot from every ``add``, ``KeyError`` from
every ``remove`` the kit refuses, and scores within 1e-9 from every query. The
data structure is the learner's: postings in dicts, in arrays, with tombstones,
anything. A failing script is shrunk (steps and tokens dropped while it still
fails), so the verdict shows the smallest failing case, with a hint about the
idea it breaks. ``check_stemmer`` checks the stretch task. ``BM25Index`` is the
reference; tests/test_bm25.py checks it against rank_bm25 and bm25s.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.exercises import check
from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true

SOLUTION = "lesson03"

EXERCISES = [
    Exercise("03.1", designs="an incremental BM25 index: add, remove and score agree with BM25Index after any "
             "edits; the data structure is the learner's", kind="design", minutes=40,
             solution=("DictIndex", "TombstoneIndex"), check="check_bm25_index"),
    Exercise("Stretch 03", designs="a stemming tokenizer that puts word families on one token and leaves ids alone",
             kind="stretch", minutes=15, solution=("stem_tokenize",)),
]

Step = tuple[str, Any]  # ("add", tokens) | ("remove", slot) | ("query", tokens)

# From the smallest up: one document; a repeated word; a removal; a slot that holds nothing; removing everything.
SCRIPTS: list[list[Step]] = [
    [("add", ["a"]), ("query", ["a"])],
    [("add", ["a", "b"]), ("add", ["b"]), ("query", ["b"])],
    [("add", ["a", "a", "b"]), ("add", ["b", "c"]), ("query", ["a", "a"])],
    [("add", ["a"]), ("add", ["b"]), ("remove", 0), ("query", ["a"]), ("query", ["b"])],
    [("add", ["a"]), ("remove", 0), ("add", ["a"]), ("query", ["a"])],
    [("remove", 0), ("add", ["a"]), ("remove", 1), ("remove", 0), ("remove", 0), ("query", ["a"])],
    [("add", []), ("add", ["a", "b", "c"]), ("query", ["a", "z"])],
    [("add", ["a", "b"]), ("add", ["b"]), ("remove", 0), ("remove", 1), ("query", ["b"]), ("add", ["b"]),
     ("query", ["b"])],
]
VOCABULARY = ["raft", "rust", "alice", "order", "4821", "the", "is"]


def _random_script(rng: random.Random) -> list[Step]:
    script: list[Step] = []
    added = 0
    for _ in range(rng.randint(4, 14)):
        roll = rng.random()
        if roll < 0.45:
            script.append(("add", rng.choices(VOCABULARY, k=rng.randint(0, 6))))
            added += 1
        elif roll < 0.65:
            script.append(("remove", rng.randint(0, added)))  # sometimes a slot removed already, or never handed out
        else:
            script.append(("query", rng.choices(VOCABULARY + ["nothing"], k=rng.randint(1, 3))))
    return script + [("query", list(VOCABULARY))]


def _show(step: Step) -> str:
    action, arg = step
    return f"index.{'scores' if action == 'query' else action}({arg!r})"


def _failure(cls: Callable[..., Any], script: list[Step], k1: float, b: float) -> str | None:
    """What goes wrong when ``script`` is replayed on ``cls(k1=k1, b=b)``, or None when it agrees with BM25Index."""
    mine, kit = cls(k1=k1, b=b), BM25Index(k1=k1, b=b)  # a stub raises NotImplementedError here
    done: list[str] = [f"index = YourIndex(k1={k1}, b={b})"]
    for action, arg in script:
        call = _show((action, arg))
        if action == "add":
            expected, got = kit.add(list(arg)), mine.add(list(arg))
            done.append(f"{call}  # -> {expected}")
            if got != expected:
                return "\n".join(done[:-1] + [f"{call}  # returned {got!r}, expected {expected}"]) + (
                    "\nHint: slots count up from 0, one per add, and a removed slot is never handed out again "
                    "(an old reference to it must not find a different document)")
        elif action == "remove":
            try:
                kit.remove(arg)
            except KeyError:
                try:
                    mine.remove(arg)
                except KeyError:
                    done.append(f"{call}  # KeyError")
                    continue
                return "\n".join(done + [f"{call}  # changed nothing silently, expected KeyError"]) + (
                    "\nHint: removing a slot that holds no document (never handed out, or removed already) is a "
                    "caller's bug: raise KeyError and change nothing")
            mine.remove(arg)
            done.append(call)
        else:
            expected = kit.scores(list(arg))
            answer = mine.scores(list(arg))
            got = np.asarray(answer, dtype=np.float64).ravel()
            if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-9, atol=1e-12):
                text = "\n".join(done + [f"{call}  # returned {np.round(got, 4).tolist()}, expected "
                                         f"{np.round(expected, 4).tolist()}"])
                return text + "\nHint: " + _score_hint(script, arg, got, expected, k1, b)
            done.append(call)
    return None


def _score_hint(script: list[Step], query: list[str], got: np.ndarray, expected: np.ndarray, k1: float,
                b: float) -> str:
    if got.shape != expected.shape:
        return ("scores returns one score per slot ever handed out, removed slots included (they score 0), so "
                "scores[slot] is always that slot's score")
    if any(action == "remove" for action, _ in script):
        return ("N and the average length count only the documents still in the index, and a removed document's "
                "terms no longer count in df")
    if len(set(query)) < len(query):
        return "a term repeated in the query counts once per repetition"
    if (k1, b) != (1.5, 0.75):
        return "use the k1 and b given to the constructor"
    return ("BM25 is Σ idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|D|/avgdl)) over the query's terms, with "
            "Lucene's idf ln(1 + (N − n + 0.5)/(n + 0.5))")


def _shrunk(cls: Callable[..., Any], script: list[Step], k1: float, b: float) -> list[Step]:
    """``script`` with every step and token dropped that the failure does not need (greedy, one at a time)."""
    changed = True
    while changed:
        changed = False
        for i in range(len(script)):
            shorter = script[:i] + script[i + 1:]
            if _failure(cls, shorter, k1, b):
                script, changed = shorter, True
                break
            action, arg = script[i]
            if action != "remove" and len(arg) > 1:
                for j in range(len(arg)):
                    smaller = script[:i] + [(action, arg[:j] + arg[j + 1:])] + script[i + 1:]
                    if _failure(cls, smaller, k1, b):
                        script, changed = smaller, True
                        break
                if changed:
                    break
    return script


def _runs() -> list[tuple[list[Step], float, float]]:
    """Every (script, k1, b) the check replays: the small scripts, 190 random ones, and the lesson's demo facts."""
    from aria_kit.demo_data import DEMO_FACTS

    rng = random.Random(3)
    runs = [(script, 1.5, 0.75) for script in SCRIPTS]
    runs += [(_random_script(rng), 1.5, 0.75) for _ in range(150)]
    runs += [(_random_script(rng), k1, b) for k1, b in ((0.5, 0.0), (2.0, 1.0)) for _ in range(20)]
    facts: list[Step] = [("add", tokenize(text)) for text, _ in DEMO_FACTS]
    runs.append((facts + [("remove", 2), ("query", tokenize("What consensus algorithm does VelocityDB use?"))],
                 1.5, 0.75))
    return runs


def _bm25_index_test(cls: Callable[..., Any]) -> None:
    for script, k1, b in _runs():
        if _failure(cls, script, k1, b):
            smallest = _shrunk(cls, script, k1, b)
            raise AssertionError(f"the smallest edit script I found where your index and BM25Index disagree:\n"
                                 f"{_failure(cls, smallest, k1, b)}")


def check_bm25_index(cls: Callable[..., Any]) -> bool:
    """Check exercise 03.1: ``cls(k1=1.5, b=0.75)`` with ``add``, ``remove`` and ``scores`` behaving like BM25Index."""
    return check("Exercise 03.1 (an incremental BM25 index)", lambda: _bm25_index_test(cls), SOLUTION)


def _stemmer_test(stem_tokenize: Callable[[str], list[str]]) -> None:
    got = stem_tokenize("The data was stored; storage matters.")  # a stub raises NotImplementedError here
    assert isinstance(got, list) and all(isinstance(t, str) for t in got), "return a list of str tokens"
    families = [("stored", "stores", "store"), ("use", "uses", "used", "using"),
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


def _key_floor_follows_the_corpus() -> str:
    """03: rank_bm25 on four short documents, three with 'carol', most words rare: where do the matches score?"""
    from rank_bm25 import BM25Okapi

    docs = ["Carol plays chess", "Carol plays tennis", "Carol sings", "Dan paints"]
    chess, tennis, sings, dan = (float(x) for x in BM25Okapi([tokenize(d) for d in docs]).get_scores(["carol"]))
    return only_true({"a": min(chess, tennis, sings) > dan and sings > max(chess, tennis),
                      "b": max(chess, tennis, sings) < dan, "c": chess == tennis == sings == dan == 0,
                      "d": chess == tennis == sings > dan})


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
         "d": "tf is 1 everywhere, but b = 0.75 scales each match by the memory's length: one word in three weighs less than 'tea' alone."},
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
        "rank_bm25's BM25Okapi indexes 'Carol plays chess', 'Carol plays tennis', 'Carol sings' and 'Dan paints' "
        "(tokenized by the kit). For the query 'Carol', how do the three documents with 'carol' score?",
        {"a": "Above 'Dan paints', 'Carol sings' highest: the floor that replaces carol's negative idf is positive here",
         "b": "Below 'Dan paints': carol is in 3 of 4 documents, so its idf is negative, and so is the floor",
         "c": "0, like 'Dan paints': rank_bm25's floor stops a negative idf at 0",
         "d": "Above 'Dan paints', all three equal: the floor replaces the whole score, so length no longer counts"},
        "a", "the floor is 0.25 × the corpus's mean idf; five of its seven words occur once, so the mean is positive "
             "and carol gets a small positive idf; length normalisation then favours the shortest match.",
        {"b": "in the lesson's four documents most words were common and the mean idf negative; here most words are "
              "rare, and the floor follows the corpus, not the query word.",
         "c": "the floor is not 0 but 0.25 × the mean idf, which can have either sign.",
         "d": "the floor replaces only the idf; tf and length normalisation still apply, and 'Carol sings' is shortest."},
        kind="predict", case=("Carol plays chess", "Dan paints"), compute=_key_floor_follows_the_corpus),
])
