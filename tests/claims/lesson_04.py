"""Claims in 04_hybrid_search, each tied to the output that makes it true or computed with aria_kit."""

import inspect
import json
from functools import cache

from default_search import names_the_default_search
from lesson_claims import ROOT, Claim, Lesson

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import EVAL_MEMORIES
from aria_kit.solutions import lesson04 as solved

LESSON = Lesson("04_hybrid_search")
SCALE = 'Table([(rank, short_label(texts[c]), cosines[c]'
PACKAGE_TOP5 = "package_hits = memory.search(scale_query, top_k=5)"
SHOWDOWN = "demo_memory = HybridMemory(embedder, fusion=RRF(60)"
K_TABLE = "for k in (1, 5, 20, 60, 100)]"
DRINK = "What does she drink in the morning?"


@cache
def _memory():
    from aria_kit.evaluation import build_eval_memory

    return build_eval_memory()


def _rank(query: str, memory_id: str, k: int | None = None):
    from aria_kit.charts import rank_table

    return next(row for row in rank_table(_memory(), query, rrf_k=k) if row.id == memory_id)


def _scale_columns() -> tuple[list[float], list[float], list[str], list[str]]:
    lines = LESSON.output(SCALE).splitlines()[3:]
    cos, bm = [float(line.split("…")[1].split()[0]) for line in lines], [float(line.split()[-1]) for line in lines]
    by_cos = [line.split("…")[0].split(None, 1)[1].strip() for line in lines]
    by_bm = [line.split("…")[1].split(None, 1)[1].strip() for line in lines]
    return cos, bm, by_cos, by_bm


def _prometheus_6th_and_4th() -> bool:
    _, _, by_cos, by_bm = _scale_columns()
    assert by_cos[5].startswith("The team chose Prometheus") and by_bm[3].startswith("The team chose Prometheus")
    return True


def _score_ranges() -> bool:
    cos, bm, _, _ = _scale_columns()
    assert 0.22 <= min(cos) and max(cos) <= 0.30, cos
    assert 0.87 <= min(bm) and max(bm) <= 1.18, bm
    assert "4.5347" in LESSON.output(SHOWDOWN)  # the showdown's top BM25 score, printed
    return max(hit.bm25 for hit in _showdown_hits()) > 4.5


def _showdown_hits():
    from aria_kit.fusion import RRF
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory(_memory().embedder, fusion=RRF(60), stopwords=(), stemming=False)
    memory.store_many([t for t, _ in DEMO_FACTS])
    return memory.search("What consensus algorithm does VelocityDB use?", top_k=2)


def _k_table() -> dict[int, list[int]]:
    lines = LESSON.output(K_TABLE).splitlines()[3:]
    return {int(line.split()[0]): [int(x) for x in line.split()[1:]] for line in lines}


def _package_top5() -> list[list[str]]:
    return [line.split() for line in LESSON.output(PACKAGE_TOP5).splitlines()[3:]]


def _key_holds(number: int) -> bool:
    """Quiz question ``number``'s computed key is its answer (the kit run on the question's case)."""
    from aria_kit.exercises.lesson04 import QUIZ

    question = QUIZ.questions[number - 1]
    assert question.compute() == question.answer, f"Q{number}: the kit makes {question.compute()!r} true"
    return True


def _fused(rankings, k):
    from aria_kit.fusion import reciprocal_rank_fusion

    return dict(reciprocal_rank_fusion(rankings, k=k))


def _q1_arithmetic() -> bool:
    scores = _fused([["a", "b", "c"], ["c", "b"]], 60)
    assert abs(scores["c"] - (1 / 63 + 1 / 61)) < 1e-15 and abs(scores["b"] - 2 / 62) < 1e-15, scores
    assert abs(scores["a"] - 1 / 61) < 1e-15 and scores["a"] < scores["b"] < scores["c"], scores
    differ = [f"{scores['b']:.10f}"[i] != f"{scores['c']:.10f}"[i] for i in range(2, 12)]
    assert differ.index(True) == 4, "the two first differ in the fifth decimal"
    return _key_holds(1)


def _q2_sums() -> bool:
    p_sum, q_sum = 0.62 + 0.0, 0.20 + 1.1
    return round(q_sum, 2) == 1.30 and p_sum < q_sum


def _q3_arithmetic() -> bool:
    rankings = [["a", "b", "c", "d"], ["d", "b"]]
    at_1, at_60 = _fused(rankings, 1), _fused(rankings, 60)
    assert abs(at_1["d"] - (1 / 2 + 1 / 5)) < 1e-15 and abs(at_1["b"] - 2 / 3) < 1e-15 and at_1["a"] == 1 / 2
    assert max(at_60, key=at_60.get) == "b" and round(at_1["d"], 2) == 0.7 and round(at_1["b"], 2) == 0.67
    return _key_holds(3)


CLAIMS = [
    # The quiz: predict keys computed by the kit, and the arithmetic of their explanations.
    Claim("what counts is the sum of 1/(60 + rank)", _q1_arithmetic),
    Claim("c: 1/63 + 1/61 is a hair more than 1/62 + 1/62", _q1_arithmetic),
    Claim("being in both lists is what lifts b and c above a", _q1_arithmetic),
    Claim("with k = 60 one list's 1st place (1/61) is far below two good places", _q1_arithmetic),
    Claim("1/61 + 1/63 and 2/62 differ in the fifth decimal", _q1_arithmetic),
    Claim("Memory P has cosine 0.62 and BM25 0", _q2_sums),
    Claim("Q wins, 1.30 to 0.62", _q2_sums),
    Claim("0.62 + 0 is less than 0.20 + 1.1", _q2_sums),
    Claim("Q still wins, 0.65 to 0.31", lambda: _q2_sums() and round((0.20 + 1.1) / 2, 2) == 0.65
          and round(0.62 / 2, 2) == 0.31),
    Claim("a cosine stays below 1 while BM25 has no upper bound", _score_ranges),
    Claim("RRF of the rankings [\"a\", \"b\", \"c\", \"d\"] and [\"d\", \"b\"] puts b first", _q3_arithmetic),
    Claim("at k = 1, d earns 1/2 + 1/5 = 0.7", _q3_arithmetic),
    Claim("d: with a small k, one first place outweighs two second places", _q3_arithmetic),
    Claim("1/2, below d's 1/2 + 1/5", _q3_arithmetic),
    Claim("d gets 1/2 from its 1st place; b has no 1st place: 1/3 + 1/3", _q3_arithmetic),
    Claim("lists `c`, then `a`, then `b`", lambda: [i for i, _ in solved.rrf([["a", "b", "c"], ["c"]])] == ["c", "a", "b"]
          and solved.rrf([["x"]], k=0) == [("x", 1.0)] and solved.rrf([]) == []),
    Claim("build `MyHybridMemory`", lambda: 30 <= len([l for l in inspect.getsource(solved.MyHybridMemory).splitlines()
                                                       if l.strip() and not l.strip().startswith("#")]) <= 50),
    Claim("Now the whole memory, in about 40 lines.", lambda: 30 <= len(
        [l for l in inspect.getsource(solved.MyHybridMemory).splitlines() if l.strip()]) <= 50),
    Claim("the seven demo facts plus 24 more", lambda: len(EVAL_MEMORIES) == 31 and EVAL_MEMORIES[:7] == DEMO_FACTS),
    Claim("The check stores the 31 memories above", lambda: len(EVAL_MEMORIES) == 31),
    Claim("`build_eval_memory` stores the 31 memories in one", lambda: len(_memory()) == 31),
    Claim("The answer is \"The team chose Prometheus and Grafana", _prometheus_6th_and_4th),
    Claim("Combining by *adding the scores* is awkward", _score_ranges),
    Claim("A memory 6th in one list and 4th in the other", lambda: round(1 / 66 + 1 / 64, 4) == 0.0308
          and round(1 / 61, 4) == 0.0164),
    Claim("uses the kit's default: a convex mix",
          names_the_default_search(LESSON, "uses the kit's default: a convex mix", stems=True)),
    Claim("Lucene's idf", lambda: (BM25Index().k1, BM25Index().b) == (1.5, 0.75)),
    Claim("thousands of memories rank in about a millisecond", lambda: all(
        r["p50_ms"] < 1.5 for r in json.loads((ROOT / "benchmarks" / "scale.json").read_text())
        if r["engine"] == "hybrid" and r["size"] <= 10_000)),
    Claim("your memory's top 5", lambda: len(_package_top5()) == 5),
    Claim("The Prometheus memory, 6th and 4th alone, is 2nd after fusion",
          lambda: _package_top5()[1][1:2] == ["mem_0031"] and _package_top5()[1][-5:-3] == ["6", "4"]),
    Claim("asks three questions of the seven demo facts", lambda: LESSON.output(SHOWDOWN).count("mem_") == 6),
    Claim("On seven facts both rankings agree on every answer", lambda: all(
        h.vector_rank == h.keyword_rank == 1 for q in ("What consensus algorithm does VelocityDB use?", "order 4821",
                                                        "Alice's language preference")
        for h in _showdown_search(q)[:1])),
    Claim("vector search puts the order with that number 4th", lambda: (_rank("5190", "mem_0013").vector,
          _rank("5190", "mem_0013").fused) == (4, 1) and sum("5190" in tokenize(t) for t, _ in EVAL_MEMORIES) == 1),
    Claim("the Prometheus memory is only 6th by cosine",
          lambda: (lambda r: (r.vector, r.keyword, r.fused) == (6, 4, 2))(_rank(
              "Which dashboards track the database?", "mem_0031"))),
    Claim("while fifteen memories that share only", lambda: (
        len([r for r in _ranks(DRINK) if r.keyword]) == 15
        and {t for r in _ranks(DRINK) if r.keyword for t in set(tokenize(r.text)) & set(tokenize(DRINK))} == {"in", "the"}
        and _rank(DRINK, "mem_0015").fused == 16 and _rank(DRINK, "mem_0015").vector == 1)),
    Claim("at $k = 60$ the answer is 16th", lambda: _k_table()[60][2] == 16 and _k_table()[1][2] == 2),
    Claim("costs the Prometheus answer three places", lambda: (_k_table()[60][1], _k_table()[1][1]) == (2, 5)),
    Claim("With $k = 1$, rank 1 earns $1/2$", lambda: dict(solved.rrf([["a", "b"]], k=1)) == {"a": 1 / 2, "b": 1 / 3}),
    Claim("With $k = 60$ they earn $1/61$ and $1/62$",
          lambda: dict(solved.rrf([["a", "b"]], k=60)) == {"a": 1 / 61, "b": 1 / 62}),
    Claim("Neither ranking alone puts it near the top", _prometheus_6th_and_4th),
    Claim("On the 31 memories it does.", lambda: _rank("Which dashboards track the database?", "mem_0031").fused
          < min(_rank("Which dashboards track the database?", "mem_0031").vector,
                _rank("Which dashboards track the database?", "mem_0031").keyword)),
]


def _ranks(query: str):
    from aria_kit.charts import rank_table

    return rank_table(_memory(), query)


def _showdown_search(query: str):
    from aria_kit.fusion import RRF
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory(_memory().embedder, fusion=RRF(60), stopwords=(), stemming=False)
    memory.store_many([t for t, _ in DEMO_FACTS])
    return memory.search(query, top_k=2)


EXEMPT = {
    "b: 2nd in both rankings, the steadiest of the three": "a wrong option; the computed key rules it out",
    "a: first place in a ranking beats everything else": "a wrong option; the computed key rules it out",
    "b and c tie exactly: their ranks add up to 4 either way": "a wrong option; the computed key rules it out",
    "You rank by the plain sum of the two scores.": "the question's premise: 'two scores' names cosine and BM25",
    "both are similarity scores for the same query": "a wrong option; its explanation says why",
    "Only the size: the sum must be halved, the mean of the two": "a wrong option; its explanation says why",
    "an exact word is stronger evidence than any cosine": "a wrong option; its explanation says why",
    "the sum would put Q first for any BM25 score near 1": "a property of the sum, in the explanation of a wrong "
    "option",
    "Lower k to 1.": "the question's instruction",
    "a: with a small k, the first place of the longer ranking counts most": "a wrong option; the computed key rules it out",
    "b and d tie: at k = 1 each gets 1/2 from somewhere": "a wrong option; the computed key rules it out",
    "blurs numbers and names; lesson 03's BM25": "BM25 is a name; lessons 02 and 03 show both halves",
    "fuses the two rankings, and you see": "'the two rankings' are vector and keyword: no count claimed",
    "and one where it buries the answer": "an objective; cell 19's claim covers the chart",
    "Rank them for one question, once by cosine": "describes cell 2, which ranks one query two ways",
    "(Cormack, Clarke and Büttcher, 2009)": "a citation",
    "A memory at rank $r$ (1 = best)": "the definition of RRF",
    "they need not hold the same ids": "the exercise's specification, checked by check_rrf",
    "with every id that appears anywhere, once, best first": "the exercise's specification, checked by check_rrf",
    "Each ranking adds $1/(k + r)$": "the definition of RRF, in the exercise's specification",
    "Ids with equal scores keep the order": "the exercise's specification, checked by check_rrf",
    "A ranking that lists an id twice": "the exercise's specification, checked by check_rrf",
    "A dict, ranks counted from 0": "describes the check; tests/test_exercises_04.py runs these wrong answers",
    "one row of a numpy matrix": "the exercise's specification",
    "its **tokens**, counted, for BM25": "BM25 is a name",
    "and answers four calls:": "names the table's four rows",
    "| `vector_ranking(query)` |": "the exercise's specification, checked by check_my_hybrid_memory",
    "| `keyword_ranking(query)` |": "the exercise's specification, checked by check_my_hybrid_memory",
    "BM25 is lesson 03's:": "BM25 is a name",
    "Lucene's idf": "the exercise's specification; k1 and b are claimed too",
    "Bring your lesson-03 code": "a lesson number",
    "RRF with $k = 60$, every query word kept.": "names the constructor's arguments shown in cell 12",
    "each carries the fused score, the cosine, the BM25 score and both ranks": "names Hit's fields (lesson 01's table)",
    "The fused score orders them; cosine and BM25 say": "BM25 is a name",
    "in the top 3 of at least one ranking": "describes the chart: plot_rank_shift(top_n=3)",
    "A memory's line runs from its rank by cosine": "describes how the chart is drawn; BM25 is a name",
    "sets how much better rank 1 is than rank 2": "the definition of k, computed in the next sentence",
    "One query, or three, proves nothing": "a caution about evidence; lesson 05 measures on many queries",
    "Cosine and BM25 scores live on different scales": "recap; cell 3's claim covers the ranges",
    "You built `MyHybridMemory`": "recap; BM25 is a name",
    "Fusion hurts when one ranking is right": "recap of cells 19–23",
    "**Stretch 04 · fuse scores, not ranks.**": "the stretch task's specification",
    "At `weight = 1` it ranks like vector search": "the stretch task's specification, checked by check_score_fusion",
    "and the \"5190\" order?": "a question for the learner",
    "how would you know it was not just good on these three queries?": "a question for the learner",
    "agree on every score but list two memories with equal fused scores": "the question's premise",
}
