"""Claims in 04_hybrid_search, each tied to the output that makes it true or computed with aria_kit."""

import inspect
import json
from functools import cache, partial

import numpy as np

from default_search import names_the_default_search
from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

from aria_kit.bm25 import BM25Index, tokenize
from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import EVAL_MEMORIES
from aria_kit.fusion import DEFAULT_FUSION, RRF, ConvexFusion, reciprocal_rank_fusion
from aria_kit.hybrid_memory import HybridMemory
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


_key_holds = partial(quiz_key_holds, "04")  # Q{number}'s computed key is its answer


def _fused(rankings, k):
    from aria_kit.fusion import reciprocal_rank_fusion

    return dict(reciprocal_rank_fusion(rankings, k=k))


def _q1_arithmetic() -> bool:
    scores = _fused([["x", "y", "z"], ["z", "y"]], 60)
    assert abs(scores["z"] - (1 / 63 + 1 / 61)) < 1e-15 and abs(scores["y"] - 2 / 62) < 1e-15, scores
    assert abs(scores["x"] - 1 / 61) < 1e-15 and scores["x"] < scores["y"] < scores["z"], scores
    differ = [f"{scores['y']:.10f}"[i] != f"{scores['z']:.10f}"[i] for i in range(2, 12)]
    assert differ.index(True) == 4, "the two first differ in the fifth decimal"
    return _key_holds(1)


def _q3_arithmetic() -> bool:
    rankings = [["w", "x", "y", "z"], ["z", "x"]]
    at_1, at_60 = _fused(rankings, 1), _fused(rankings, 60)
    assert abs(at_1["z"] - (1 / 2 + 1 / 5)) < 1e-15 and abs(at_1["x"] - 2 / 3) < 1e-15 and at_1["w"] == 1 / 2
    assert max(at_60, key=at_60.get) == "x" and round(at_1["z"], 2) == 0.7 and round(at_1["x"], 2) == 0.67
    return _key_holds(3)


def _my_memory_ranks_like_the_kit() -> bool:
    from aria_kit.exercises.lesson04 import check_my_hybrid_memory

    return check_my_hybrid_memory(solved.MyHybridMemory) is True


def _convex_formula() -> bool:
    """ConvexFusion(w) is w·(cosine + 1)/(max cosine + 1) + (1 − w)·BM25/max BM25, the BM25 part 0 with no match."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        cosine, bm25, w = rng.uniform(-1, 1, 6), rng.uniform(0, 5, 6), float(rng.uniform())
        expected = w * (cosine + 1) / (cosine.max() + 1) + (1 - w) * bm25 / bm25.max()
        assert np.allclose(ConvexFusion(w).fuse(cosine, bm25), expected, atol=1e-12)
    cosine = rng.uniform(-1, 1, 6)
    assert np.array_equal(ConvexFusion(0.0).fuse(cosine, np.zeros(6)), np.zeros(6)), "no shared word: BM25 part 0"
    return True


def _best_match_scores_1_and_a_lead_is_kept() -> bool:
    cosine, bm25 = np.array([0.3, 0.2, 0.1]), np.array([10.0, 1.0, 0.9])
    assert ConvexFusion(1.0).fuse(cosine, bm25).max() == 1.0 and ConvexFusion(0.0).fuse(cosine, bm25).max() == 1.0
    keyword = ConvexFusion(0.0).fuse(cosine, bm25)  # a lead of 10 to 1 stays 1 to 0.1; RRF makes it 1/61 to 1/62
    assert np.allclose(keyword, [1.0, 0.1, 0.09]), keyword
    ranks = RRF(60).fuse(np.zeros(3) + [0.3, 0.2, 0.1], np.zeros(3))
    assert abs(ranks[0] - 1 / 61) < 1e-15 and abs(ranks[1] - 1 / 62) < 1e-15
    return True


def _rrf_ignores_the_scores() -> bool:
    cosine, bm25 = np.array([0.9, 0.2, 0.1, -0.3]), np.array([0.0, 7.0, 1.0, 0.5])
    same_ranks = (np.array([0.31, 0.30, 0.29, 0.0]), np.array([0.0, 99.0, 2.0, 1.9]))
    assert np.array_equal(RRF(60).fuse(cosine, bm25), RRF(60).fuse(*same_ranks))
    assert not np.allclose(ConvexFusion(0.5).fuse(cosine, bm25), ConvexFusion(0.5).fuse(*same_ranks))  # keeps them
    return True


def _fusion_cases_2_3_4_then_random() -> bool:
    from aria_kit.exercises.lesson04 import _cases

    cases = _cases()
    exhaustive = sum(1 for vector, _ in cases if vector == [f"m{i}" for i in range(1, len(vector) + 1)]
                     and len(vector) <= 4)
    assert [len(v) for v, _ in cases[:exhaustive]] == sorted(len(v) for v, _ in cases[:exhaustive])
    assert {len(v) for v, _ in cases[:exhaustive]} == {2, 3, 4} and exhaustive == 5 + 16 + 65
    assert len(cases) > exhaustive  # then random ones
    return True


def _two_fusions_table() -> dict[str, list[int]]:
    lines = LESSON.output("convex_memory.store_many(texts)").splitlines()[3:]
    return {line.split()[-4]: [int(x) for x in line.split()[-3:]] for line in lines if line.strip()}


def _two_fusions_takeaway() -> bool:
    table = _two_fusions_table()
    assert table["mem_0013"][:2] == [1, 1] and table["mem_0031"][:2] == [2, 2] and table["mem_0015"][:2] == [16, 14], table
    memory = HybridMemory(_memory().embedder, fusion=ConvexFusion(0.5), stopwords=(), stemming=False)
    memory.store_many([t for t, _ in EVAL_MEMORIES])
    return [h.id for h in memory.search(DRINK, top_k=31)].index("mem_0015") + 1 == 14


def _the_default_rescues_coffee() -> bool:
    table = _two_fusions_table()
    assert [table[a][2] for a in ("mem_0013", "mem_0031", "mem_0015")] == [1, 6, 1], table
    default = HybridMemory(_memory().embedder)
    assert isinstance(default.fusion, ConvexFusion) and default._stemming and {"the", "in"} <= default.stopwords
    assert tokenize("drink drinks", stem=True) == ["drink", "drink"]
    default.store_many([t for t, _ in EVAL_MEMORIES])
    return [h.id for h in default.search(DRINK, top_k=31)].index("mem_0015") == 0


def _each_order_counts_refuses_hits_first() -> bool:
    from aria_kit.exercises.lesson04 import check_fusion

    def hits_first(vector, keyword):
        return list(keyword) + [item for item in vector if item not in keyword]

    assert check_fusion(solved.rrf_fuse) and check_fusion(solved.votes_fuse)
    return check_fusion(hits_first) is False


def _q2_sum_against_rrf() -> bool:
    assert round(0.21 + 3.2, 2) == 3.41 and round(0.58 + 0.9, 2) == 1.48
    assert 1 / 61 + 1 / 62 > 1 / 63 + 1 / 61
    return _key_holds(2)


def _designs_keep_agreement_and_differ_on_a_first_place() -> bool:
    from aria_kit.exercises.lesson04 import check_fusion

    assert check_fusion(solved.rrf_fuse) is True and check_fusion(solved.votes_fuse) is True
    vector = [f"m{i}" for i in range(1, 101)]
    keyword = vector[1:99] + ["m100"]  # m1 is 1st by cosine and found by no keyword; m100 is 100th in both
    return solved.rrf_fuse(vector, keyword).index("m1") < solved.rrf_fuse(vector, keyword).index("m100") and (
        solved.votes_fuse(vector, keyword).index("m100") < solved.votes_fuse(vector, keyword).index("m1"))


def _one_colour_per_memory_in_every_chart() -> bool:
    from aria_kit.charts import shown_rows

    sources = [cell.source for cell in LESSON.notebook.cells if cell.cell_type == "code"]
    charts = [src for src in sources if "plot_rank_shift(" in src and "import" not in src.split("plot_rank_shift(")[0][-30:]]
    assert charts and all("colours=colours" in src for src in charts), "a chart is drawn without the shared colours"
    assert sum(src.count("colours = memory_colours(") for src in sources) == 1, "colours are assigned once"
    showdown = {"5190": "mem_0013", "Which dashboards track the database?": "mem_0031", DRINK: "mem_0015"}
    assigned = {row.id for q, answer in showdown.items() for row in shown_rows(_memory(), q, None, 3, [answer])}
    on_the_slider = {row.id for k in range(1, 101) for row in shown_rows(_memory(), DRINK, k, 3, ["mem_0015"])}
    assert on_the_slider <= assigned, f"the slider draws memories with no assigned colour: {on_the_slider - assigned}"
    return True


def _slider_chart_lives_in_its_widget() -> bool:
    """The slider's chart stays in its widget; the next cell draws the k = 1 chart once, saved as a picture."""
    cell = next(cell for cell in LESSON.notebook.cells if "k_slider" in cell.source)
    assert "drink_chart.append_display_data(figure)" in cell.source
    assert not any("image/png" in output.get("data", {}) for output in cell.outputs), "the chart left its widget"
    static = LESSON.notebook.cells[LESSON.notebook.cells.index(cell) + 1]
    assert static.cell_type == "code" and static.source.startswith("draw_drink(1)"), static.source
    pictures = [output for output in static.outputs if "image/png" in output.get("data", {})]
    assert len(pictures) == 1, f"the k = 1 chart should be saved once, found {len(pictures)} pictures"
    return True


def _prometheus_above_one_sided() -> bool:
    """Every memory in the top 3 of one ranking and not the other is fused below the Prometheus memory (2nd)."""
    query = "Which dashboards track the database?"
    rows = _ranks(query)
    prometheus = _rank(query, "mem_0031")
    assert (prometheus.vector, prometheus.keyword, prometheus.fused) == (6, 4, 2), prometheus
    one_sided = [r for r in rows if (r.vector <= 3) != (r.keyword is not None and r.keyword <= 3)]
    assert one_sided and all(r.fused > prometheus.fused for r in one_sided), one_sided
    return True


def _checked_against_rrf_60() -> bool:
    """check_my_hybrid_memory compares with build_eval_memory: HybridMemory with RRF(60), every query word kept."""
    from aria_kit.exercises import lesson04

    reference = _memory()
    assert isinstance(reference.fusion, RRF) and reference.fusion.k == 60, reference.fusion
    return "build_eval_memory()" in inspect.getsource(lesson04._memory_test)


def _python_redraws_the_chart() -> bool:
    source = next(cell.source for cell in LESSON.notebook.cells if "k_slider" in cell.source)
    assert 'k_slider.observe(redraw_drink, "value")' in source and "jslink" not in source
    assert "figure = draw_drink(k_slider.value)" in source and "plot_rank_shift(" in source
    return True


CLAIMS = [
    # The quiz: predict keys computed by the kit, and the arithmetic of their explanations.
    Claim("what counts is the sum of 1/(60 + rank)", _q1_arithmetic),
    Claim("z: 1/63 + 1/61 is a hair more than 1/62 + 1/62", _q1_arithmetic),
    Claim("being in both lists is what lifts y and z above x", _q1_arithmetic),
    Claim("with k = 60 one list's 1st place (1/61) is far below two good places", _q1_arithmetic),
    Claim("1/61 + 1/63 and 2/62 differ in the fifth decimal", _q1_arithmetic),
    Claim("Three memories for one query:", _q2_sum_against_rrf),
    Claim("P has cosine 0.58 and BM25 0.9, Q has cosine 0.21 and BM25 3.2", _q2_sum_against_rrf),
    Claim("Which memory comes first under the plain sum of the two scores", _q2_sum_against_rrf),
    Claim("Q under the sum, P under RRF", _q2_sum_against_rrf),
    Claim("RRF sees ranks, not the size of a lead:", _q2_sum_against_rrf),
    Claim("Q's 3.2 counts as a 1st place, no more.", _q2_sum_against_rrf),
    Claim("- **Each ranking's order counts.**", lambda: _each_order_counts_refuses_hits_first()),
    Claim("1st by cosine; BM25 finds no word of the question in it",
          lambda: _rank(DRINK, "mem_0015").vector == 1 and _rank(DRINK, "mem_0015").keyword is None),
    Claim("and under the default itself:", _the_default_rescues_coffee),
    Claim("the sum is mostly BM25 (Q: 0.21 + 3.2)", _q2_sum_against_rrf),
    Claim("1/61 + 1/62 is a hair more than 1/63 + 1/61", _q2_sum_against_rrf),
    Claim("the sum gives Q 3.41 and P 1.48", _q2_sum_against_rrf),
    Claim("at k = 60 a 1st place earns 1/61 and a 2nd 1/62", _q2_sum_against_rrf),
    Claim("The default `HybridMemory()` puts the coffee answer 1st", _the_default_rescues_coffee),
    Claim("It costs the Prometheus answer four places (2nd to 6th)", _the_default_rescues_coffee),
    Claim("RRF of the rankings [\"w\", \"x\", \"y\", \"z\"] and [\"z\", \"x\"] puts x first", _q3_arithmetic),
    Claim("at k = 1, z earns 1/2 + 1/5 = 0.7", _q3_arithmetic),
    Claim("z: with a small k, one first place outweighs two second places", _q3_arithmetic),
    Claim("1/2, below z's 1/2 + 1/5", _q3_arithmetic),
    Claim("z gets 1/2 from its 1st place; x has no 1st place: 1/3 + 1/3", _q3_arithmetic),
    Claim("build `MyHybridMemory`", _my_memory_ranks_like_the_kit),
    Claim("the seven demo facts plus 24 more", lambda: len(EVAL_MEMORIES) == 31 and EVAL_MEMORIES[:7] == DEMO_FACTS),
    Claim("The check stores the 31 memories in yours", lambda: len(EVAL_MEMORIES) == 31 and _checked_against_rrf_60()),
    Claim("`build_eval_memory` stores the 31 memories in one", lambda: len(_memory()) == 31),
    Claim("The answer is \"The team chose Prometheus and Grafana", _prometheus_6th_and_4th),
    Claim("Combining by *adding the scores* is awkward", _score_ranges),
    Claim("A memory 6th in one list and 4th in the other", lambda: round(1 / 66 + 1 / 64, 4) == 0.0308
          and round(1 / 61, 4) == 0.0164),
    Claim("fuses by `ConvexFusion(0.5)` over word stems", lambda: names_the_default_search(
        LESSON, "fuses by `ConvexFusion(0.5)` over word stems", stems=True)() and _convex_formula()
        and len(inspect.signature(HybridMemory).parameters["stopwords"].default) > 0),
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
    Claim("behind an invoice, a review rule and a snapshot fact", lambda: [
        r.text.split()[0] for r in sorted(_ranks("5190"), key=lambda r: r.vector)[:3]] == ["Invoice", "Bob", "VelocityDB"]
        and "snapshot" in sorted(_ranks("5190"), key=lambda r: r.vector)[2].text),
    Claim("the Prometheus memory rises above everything only one ranking liked", _prometheus_above_one_sided),
    Claim("while fifteen memories that share only", lambda: (
        len([r for r in _ranks(DRINK) if r.keyword]) == 15
        and {t for r in _ranks(DRINK) if r.keyword for t in set(tokenize(r.text)) & set(tokenize(DRINK))} == {"in", "the"}
        and _rank(DRINK, "mem_0015").fused == 16 and _rank(DRINK, "mem_0015").vector == 1)),
    Claim("at $k = 60$ the answer is 16th", lambda: _k_table()[60][2] == 16 and _k_table()[1][2] == 2),
    Claim("costs the Prometheus answer three places", lambda: (_k_table()[60][1], _k_table()[1][1]) == (2, 5)),
    Claim("With $k = 1$, rank 1 earns $1/2$", lambda: dict(reciprocal_rank_fusion([["a", "b"]], k=1)) == {"a": 1 / 2, "b": 1 / 3}),
    Claim("With $k = 60$ they earn $1/61$ and $1/62$",
          lambda: dict(reciprocal_rank_fusion([["a", "b"]], k=60)) == {"a": 1 / 61, "b": 1 / 62}),
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
    "y: 2nd in both rankings, the steadiest of the three": "a wrong option; the computed key rules it out",
    "x: first place in a ranking beats everything else": "a wrong option; the computed key rules it out",
    "y and z tie exactly: their ranks add up to 4 either way": "a wrong option; the computed key rules it out",
    "RRF follows Q's big BM25 lead too": "a wrong option; the computed key rules it out",
    "RRF rewards a first place most": "a wrong option; the computed key rules it out",
    "Where will RRF ($k = 60$) put it?": "a prediction prompt; the chart and cell 22 answer it",
    "The cell below runs your `fuse` (Exercise 04.1)": "describes the next cell; 'the two rankings' names vector and keyword",
    "P under both: a cosine of 0.58 is the strongest evidence": "a wrong option; the computed key rules it out",
    "P under the sum, Q under RRF": "a wrong option; the computed key rules it out",
    "Lower k to 1.": "the question's instruction",
    "w: with a small k, the first place of the longer ranking counts most": "a wrong option; the computed key rules it out",
    "x and z tie: at k = 1 each gets 1/2 from somewhere": "a wrong option; the computed key rules it out",
    "and one where it buries the answer": "an objective; cell 19's claim covers the chart",
    "Rank them for one question by cosine and by BM25": "describes cell 2, which ranks one query two ways",
    "Write your guess in `my_prediction` below": "an instruction; the chart below answers it",
    "(Bruch, Gai and Ingber, 2023)": "a citation",
    "- Fusion lifts memories both rankings place fairly high": "recap of sections 2–4 (claims of cells 11–21)",
    "(Cormack, Clarke and Büttcher, 2009)": "a citation",
    "A memory at rank $r$ (1 = best)": "the definition of RRF",
    "RRF with $k = 60$, every query word kept.": "names the constructor's arguments shown in cell 12",
    "in the top 3 of at least one ranking": "describes the chart: plot_rank_shift(top_n=3)",
    "sets how much better rank 1 is than rank 2": "the definition of k, computed in the next sentence",
    "Three queries prove nothing": "a caution about evidence; lesson 05 measures on many queries",
    "Cosine and BM25 scores live on different scales": "recap; cell 3's claim covers the ranges",
    "agree on every score but list two memories with equal fused scores": "the question's premise",
}


CLAIMS += [
    Claim("how the kit's default, the convex mix, fuses scores instead", lambda: isinstance(DEFAULT_FUSION, ConvexFusion)),
    Claim("- The convex mix fuses normalised scores with a weight $w$; it is the kit's default",
          lambda: isinstance(DEFAULT_FUSION, ConvexFusion) and _convex_formula()),
    Claim("Its default is the convex mix of section 5", lambda: isinstance(DEFAULT_FUSION, ConvexFusion) and any(
        "## 5. The convex mix" in cell.source for cell in LESSON.notebook.cells)),
    Claim("`check_fusion` tries every case of 2, 3 and 4 ids", _fusion_cases_2_3_4_then_random),
    Claim("Each memory keeps its colour in every chart of this lesson.", _one_colour_per_memory_in_every_chart),
    Claim("Python redraws the chart, so it needs a running kernel", _python_redraws_the_chart),
    Claim("for a saved page, the next cell draws $k = 1$ once", _slider_chart_lives_in_its_widget),
    Claim("RRF throws the scores away.", _rrf_ignores_the_scores),
    Claim("The other classic way keeps them, once both are on one scale", _rrf_ignores_the_scores),
    Claim("with each maximum taken over the memories for this query", _convex_formula),
    Claim("The best match of each ranking scores 1", _best_match_scores_1_and_a_lead_is_kept),
    Claim("the mix agrees with RRF on the first two answers", _two_fusions_takeaway),
    Claim("RRF, a vote count (rankings that found it) and others all keep",
          _designs_keep_agreement_and_differ_on_a_first_place),
]

EXEMPT.update({
    "- design your own fusion of two rankings": "an objective; the two rankings are vector and keyword",
    "RRF is one way to fuse.": "'one way' is no count; SOLUTIONS['04.1'] ships a second, checked by test_exercise_kinds",
    "`fuse(vector, keyword)` gets the vector ranking": "the exercise's specification, checked by check_fusion",
    "- **Agreement wins.**": "the exercise's specification, checked by check_fusion",
    "- its docstring says in one sentence what it rewards": "a rubric item",
    "- you can say where it will put section 3's coffee answer": "a rubric item; cell 22 runs the learner's fuse on it",
    "Write `convex_mix(cosine, bm25, weight=0.5)`": "the stretch task's specification, checked by check_convex_mix",
    "Then find the smallest weight that puts the coffee answer in the top 3": "the stretch task's question",
})
