"""Claims in 13_going_further_scaling, each tied to the output that makes it true.

Live timings are machine-dependent, so the lesson shows them only in charts and as yes/no answers; those
sentences are exempt with that reason. Benchmark figures are tied to benchmarks/scale.json and benchmarks/README.md.
"""

import inspect
import json
import re
from functools import partial

from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

import numpy as np

from aria_kit import exact_top_k
from aria_kit.approximate_search import exact_search
from aria_kit.exercises import lesson13
from aria_kit.exercises.lesson13 import _hybrid_cases
from aria_kit.fusion import DEFAULT_FUSION, ConvexFusion

LESSON = Lesson("13_going_further_scaling")
SCALE = json.loads((ROOT / "benchmarks" / "scale.json").read_text())
BENCH_README = (ROOT / "benchmarks" / "README.md").read_text()
BENCH_SCALE = (ROOT / "benchmarks" / "bench_scale.py").read_text()
FULL_SORT = json.loads((ROOT / "benchmarks" / "full_sort.json").read_text())


def _ivf_table() -> dict[int, tuple[float, float, float]]:
    rows = LESSON.output("recall@10 never drops as nprobe grows").splitlines()
    return {int(r.split()[0]): tuple(map(float, r.split()[1:])) for r in rows if re.match(r"\s*\d+\s+\d\.\d{3}", r)}


def _p50(engine: str, size: int) -> float:
    return next(r["p50_ms"] for r in SCALE if r["engine"] == engine and r["size"] == size)


def _ingest(engine: str, size: int) -> float:
    return next(size / r["ingest_s"] for r in SCALE if r["engine"] == engine and r["size"] == size)


def _slowest_ingest_at_100k() -> bool:
    rates = {r["engine"]: r["size"] / r["ingest_s"] for r in SCALE if r["size"] == 100_000}
    assert min(rates, key=rates.get) == "edge", rates
    return True


def _qdrant_memory_two_to_three_times() -> bool:
    ratios = [_p50("qdrant-memory-edge", n) / _p50("hybrid", n) for n in (1_000, 10_000, 100_000)]
    assert all(round(r) in (2, 3) for r in ratios), ratios  # every size the chart draws both at
    return True


def _edge_flat_and_no_hnsw_close() -> bool:
    assert _p50("edge", 100_000) / _p50("edge", 1_000) < 3  # nearly flat over a hundredfold more memories
    assert 0.5 <= _p50("edge-no-hnsw", 100_000) / _p50("hybrid", 100_000) <= 2
    return True


def _not_one_slope() -> bool:
    """Cell 7 computes each plotted line's slope from the timings the chart draws and prints how they differ."""
    out = LESSON.output('print("flattest line:"').splitlines()
    assert "flattest line: numpy postings (BM25)" in out, out
    assert "steepest line at least 1.5 times as steep as the flattest: True" in out, out
    assert "math.log(s[-1] / s[0]) / math.log(sizes[len(s) - 1] / sizes[0])" in LESSON.cell(7).source
    assert "for label, seconds in timings.items():" in LESSON.cell(5).source  # the chart plots the same timings
    return True


def _postings_mostly_fixed_cost_at_1000() -> bool:
    """Cell 7 estimates the numpy postings line's fixed cost from its two ends and prints that it is most of the
    time at 1,000 memories (the flattest line's reason)."""
    assert "numpy postings: most of its time at 1,000 memories is fixed cost: True" in LESSON.output("flattest line")
    assert "fixed = (t_small * sizes[-1] - t_big * sizes[0]) / (sizes[-1] - sizes[0])" in LESSON.cell(7).source
    return True


def _title_states_the_data() -> bool:
    """The first chart's title is printed under it (so a kept picture cannot show an old title) and says what
    cell 7 computes from the same timings: slopes that differ, heights that differ."""
    title = LESSON.output('title = "Scoring every memory').rsplit("Axes>", 1)[-1].strip()  # after the figure's repr
    assert f'title = "{title}"' in LESSON.cell(5).source, title
    assert "title=title" in LESSON.cell(5).source
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from execute_notebooks import drawn_from

    stamps = [o.metadata.get("drawn_from") for o in LESSON.cell(5).outputs if "image/png" in o.get("data", {})]
    assert stamps == [drawn_from(LESSON.cell(5).source)], "the committed picture was drawn by other code: re-execute"
    assert title == "Scoring every memory: different slopes, very different heights", title
    _not_one_slope()  # "different slopes"
    assert "numpy pass faster than the Python loop at every size: True" in LESSON.output("flattest line")  # heights
    return True


def _head_test_and_deeper_heads() -> bool:
    """score_contenders fuses the heads plus one imaginary row (each head's lowest score), and when the k-th best
    does not beat that row it makes each head four times deeper; the result is what fusing every row gives."""
    rng, calls = np.random.default_rng(13), []
    cosine = rng.uniform(-1, 1, 5_000)
    bm25 = np.where(rng.random(5_000) < 0.5, rng.exponential(2.0, 5_000), 0.0)

    def fuse(c, b):
        calls.append((c.copy(), b.copy()))
        return DEFAULT_FUSION.fuse(c, b)

    saved, exact_top_k.HEAD_DEPTH = exact_top_k.HEAD_DEPTH, 4
    try:
        rows, fused, _, _ = exact_top_k.score_contenders(cosine, bm25, 3, fuse)
    finally:
        exact_top_k.HEAD_DEPTH = saved
    depths = [4 * 4 ** i for i in range(len(calls))]
    assert len(calls) >= 2, "the first heads sufficed: no deeper round to show"
    for (c, b), depth in zip(calls, depths):
        assert c[-1] == np.sort(cosine)[-depth] and b[-1] == np.sort(bm25[bm25 > 0])[-depth], "not the heads' lowest"
    everything = DEFAULT_FUSION.fuse(cosine, bm25)
    assert rows[np.argsort(-fused, kind="stable")[:3]].tolist() == np.argsort(-everything, kind="stable")[:3].tolist()
    return True


def _hybrid_bends_towards_slope_one() -> bool:
    sizes = [1_000, 10_000, 100_000, 1_000_000]
    slopes = [np.log10(_p50("hybrid", b) / _p50("hybrid", a)) for a, b in zip(sizes, sizes[1:])]
    assert slopes == sorted(slopes) and 0.9 <= slopes[-1] <= 1.2, slopes
    t1, t10 = _p50("hybrid", 1_000), _p50("hybrid", 10_000)
    assert (t1 - (t10 - t1) / 9) / t1 > 0.5, "at 1,000 the fixed cost is not most of a search"  # f + 1000 v = t1
    assert round(_p50("hybrid", 1_000_000) / _p50("hybrid", 100_000)) == 12
    return True


def _where_lines_stop() -> bool:
    reach = {e: max(r["size"] for r in SCALE if r["engine"] == e) for e in {r["engine"] for r in SCALE}}
    assert {e for e, n in reach.items() if n == 100_000} == {"edge", "edge-no-hnsw", "qdrant-memory-edge"}, reach
    assert reach["qdrant-local"] == 10_000
    assert {e for e, n in reach.items() if n == 1_000_000} - {"hybrid-main"} == {"hybrid", "bm25-ours", "bm25s"}
    assert 'r["engine"] != "hybrid-main"' in BENCH_SCALE  # the older checkout is not drawn
    assert ('LIMITS = {"qdrant-local": 10_000, "edge": 100_000, "edge-no-hnsw": 100_000, "qdrant-memory-edge": 100_000}'
            in BENCH_SCALE)
    return True


def _full_sort_nine_times() -> bool:
    by_size = {r["size"]: r for r in FULL_SORT}
    assert all(r["same_hits"] for r in FULL_SORT) and exact_top_k.HEAD_DEPTH > 1_000
    assert round(by_size[100_000]["full_sort_p50_ms"] / by_size[100_000]["head_p50_ms"]) == 9, by_size[100_000]
    assert "exact_top_k.HEAD_DEPTH = depth" in BENCH_SCALE and "for query in QUERIES * rounds:" in BENCH_SCALE
    return True


def _a_full_sort_is_too_slow_for_13_1() -> bool:
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        passed = lesson13.check_top_k(lambda scores, k: np.lexsort((np.arange(len(scores)), -scores))[:k])
    assert not passed and "on 1,000,000 scores" in printed.getvalue() and "min(full) / 2" in BENCH_13, printed.getvalue()
    return True


BENCH_13 = (ROOT / "aria_kit" / "exercises" / "lesson13.py").read_text()


def _design_bars() -> bool:
    vectors, queries = lesson13._loose_clusters()
    assert vectors.shape == (4_000, 32) and len(queries) == 50
    assert (lesson13.MAX_SHARE_READ, lesson13.MIN_RECALL) == (0.25, 0.9)
    return True


def _oracle_probe_passes() -> bool:
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return lesson13.check_ivf_design(lambda v: v, lambda v, q: exact_search(v, q, 10)) is True


def _convex_default_fuses_only_the_heads() -> bool:
    assert isinstance(DEFAULT_FUSION, ConvexFusion), f"the default fusion is {DEFAULT_FUSION!r}"
    assert exact_top_k.HEAD_DEPTH == 1024
    rng = np.random.default_rng(13)
    for n in (3_000, 20_000):
        cosine, bm25 = rng.uniform(-1, 1, n), np.where(rng.random(n) < 0.3, rng.exponential(2.0, n), 0.0)
        rows, fused, _, _ = exact_top_k.score_contenders(cosine, bm25, 3, DEFAULT_FUSION.fuse)
        assert len(rows) < n, "every memory was fused: the heads did not prune"
        everything = DEFAULT_FUSION.fuse(cosine, bm25)
        assert np.array_equal(fused, everything[rows]), "fusing the heads gives other numbers than fusing every row"
        assert set(rows[np.argsort(-fused, kind="stable")[:3]]) == set(np.argsort(-everything, kind="stable")[:3])
    return True


def _no_engine_crosses_from_above() -> bool:
    sizes = sorted({r["size"] for r in SCALE if r["engine"] == "hybrid"})
    for engine in {r["engine"] for r in SCALE} - {"hybrid", "hybrid-main", "bm25-ours", "bm25s"}:
        shared = [n for n in sizes if any(r["engine"] == engine and r["size"] == n for r in SCALE)]
        faster = [_p50(engine, n) < _p50("hybrid", n) for n in shared]
        assert not any(not a and b for a, b in zip(faster, faster[1:])), f"{engine} crosses HybridMemory from above"
    ratios = [_p50("edge", n) / _p50("hybrid", n) for n in (1_000, 10_000, 100_000)]
    assert all(r < 1 for r in ratios) and ratios == sorted(ratios, reverse=True), ratios
    return True


def _no_hnsw_crosses_from_below() -> bool:
    """Exact Edge (no HNSW) is faster than HybridMemory at 1,000 and 10,000 memories and slower at 100,000."""
    faster = [_p50("edge-no-hnsw", n) < _p50("hybrid", n) for n in (1_000, 10_000, 100_000)]
    assert faster == [True, True, False], faster
    return True


def _budget() -> bool:
    assert _p50("hybrid", 100_000) < 10 < _p50("hybrid", 1_000_000)
    assert all(_ingest("hybrid", n) > _ingest("edge", n) for n in (1_000, 10_000, 100_000))
    return True



def _ivf_source() -> str:
    """The source of the cell that builds the IVF indexes and measures them."""
    return next(cell.source for cell in LESSON.notebook.cells if "IVFIndex.build(" in cell.source)


CLAIMS = [
    Claim("The lines do not share one slope", _title_states_the_data),
    Claim("before that, the line is flatter", _not_one_slope),
    Claim("since at 1,000 memories most of its time is a query's fixed cost", _postings_mostly_fixed_cost_at_1000),
    Claim("`best_time` runs a function three times", lambda: "repeats: int = 3" in LESSON.cell(4).source
          and "repeats=" not in LESSON.cell(4).source.split("sizes = [")[1]),
    Claim("all distinct", lambda: "16000 distinct memories" in LESSON.output("texts = memories(16_000)")
          and "len(set(texts))" in LESSON.cell(2).source),
    Claim("the Python loop is past a 10 ms budget by 4,000 memories",
          lambda: "Python loop past 10 ms at 4,000 memories: True" in LESSON.output("flattest line")),
    Claim("It also fuses one imaginary row", _head_test_and_deeper_heads),
    Claim("A memory below both heads scores less on both sides", _head_test_and_deeper_heads),
    Claim("If the third best head memory beats the imaginary row", _head_test_and_deeper_heads),
    Claim("then it times `top_k(scores, 3)` on 1,000,000 scores", _a_full_sort_is_too_slow_for_13_1),
    Claim("on average a query reads at most a quarter of the rows", _design_bars),
    Claim("mean recall@10 is at least 0.9", _design_bars),
    Claim("on 4,000 loosely clustered 32-d unit vectors and 50 new queries", _design_bars),
    Claim("A probe that scores every row to choose is exact search again, and the check cannot see that",
          _oracle_probe_passes),
    Claim("line bends up towards slope 1", _hybrid_bends_towards_slope_one),
    Claim("ten times the memories took about twelve times as long", _hybrid_bends_towards_slope_one),
    Claim("The benchmark runs the three Edge lines to 100,000 memories", _where_lines_stop),
    Claim("so the chart says nothing of Edge beyond 100,000", _where_lines_stop),
    Claim("Measured apart (`bench_scale.py --full-sort`", _full_sort_nine_times),
    Claim("sorting everything took about nine times as long, with identical hits", _full_sort_nine_times),
    Claim("one list of 64 found far less of the true top 10", lambda: _ivf_table()[1][2] <= 0.8),
    Claim("so at 1,000,000 memories HybridMemory passes 10 ms", _budget),
    Claim("the other three climb more steeply, the steepest at least 1.5 times as steep", _not_one_slope),
    Claim("They sit at very different heights, too",
          lambda: "numpy pass faster than the Python loop at every size: True" in LESSON.output("flattest line")),
    Claim("scales each side by its best score, and both bests are in the heads", _convex_default_fuses_only_the_heads),
    Claim("sorts only the top 1,024 of each ranking", _convex_default_fuses_only_the_heads),
    Claim("**Qdrant Edge's search is nearly flat**", _edge_flat_and_no_hnsw_close),
    Claim("No line crosses `HybridMemory`'s from above", _no_engine_crosses_from_above),
    Claim("Qdrant Edge with HNSW is faster at every size it reaches", _no_engine_crosses_from_above),
    Claim("is a question of budget, not a crossing", _no_engine_crosses_from_above),
    Claim("`HybridMemory` stays under 10 ms up to 100,000 memories and passes it by 1,000,000", _budget),
    Claim("it returns the true top 3, and it ingests faster than Edge with HNSW", _budget),
    Claim("We time, at", lambda: "sizes = [1_000, 4_000, 16_000]" in LESSON.cell(4).source
          and "16000 distinct memories" in LESSON.output("texts = memories(16_000)")),
    Claim("the numpy pass stays under the budget at every size", lambda: "numpy pass under the 10 ms budget at every "
          "size: True" in LESSON.output("flattest line") and "Python loop past 10 ms at 4,000 memories: True"
          in LESSON.output("flattest line")),
    Claim("its line starts below `HybridMemory`'s and crosses it from below before 100,000", _no_hnsw_crosses_from_below),
    Claim("Now the package's `IVFIndex`, 64 lists, on two collections", lambda: "n_lists=64" in _ivf_source()
          and "memories(100, unlike=set(texts))" in _ivf_source() and "loose_clusters(100)" in _ivf_source()
          and "size=(300, 256)" in _ivf_source() and "len(found) < count" in LESSON.cell(2).source),
    Claim("Probing one list reads about 1/64 of the rows", lambda: round(_ivf_table()[1][0] * 64, 1) == 1.0
          and all(abs(_ivf_table()[2 * p][0] / _ivf_table()[p][0] - 2) < 0.1 for p in (1, 2, 4, 8))),
    Claim("even one list finds the whole top 10", lambda: _ivf_table()[1][1] == 1.0),
    Claim("on the looser collection one list finds far less", lambda: _ivf_table()[1][2] <= 0.8
          and _ivf_table()[16][2] < 0.95),
    Claim("recall@10 below 1", lambda: min(v[2] for v in _ivf_table().values()) < 1),
    Claim("the slowest ingest of the engines that reach 100,000 memories", _slowest_ingest_at_100k),
    Claim("two to three times slower than `HybridMemory`", _qdrant_memory_two_to_three_times),
    Claim("from 1,000 to 1,000,000 memories", lambda: {r["size"] for r in SCALE} == {1_000, 10_000, 100_000, 1_000_000}),
    Claim("at 1,000 to 1,000,000 memories, each in its own process", lambda: {r["size"] for r in SCALE}
          == {1_000, 10_000, 100_000, 1_000_000}),
    Claim("exact search stayed under 10 ms up to 100,000 memories", lambda: _p50("hybrid", 100_000) < 10),
    Claim("on clustered vectors with sparse keyword scores", lambda: len(_hybrid_cases()[1]) >= 8),
]
EXEMPT = {
    "On log axes a slope of 1 means time in step with the memories": "how to read a log-log chart",
    "a line's slope says how time grows, its height the constant": "recap: how to read the chart",
    "A memory that answers in 2 ms with a thousand facts": "the lesson's opening, an illustration; the measured "
                                                           "latencies are in the benchmark section",
    "time three ways to score every memory": "a learning objective",
    "write a top-k that does not sort every score": "a learning objective",
    "build the search of an approximate index": "a learning objective",
    "Timings appear only in charts": "explains why timings are not quoted",
    "computing each cosine one multiplication at a time": "describes the code",
    "one matrix–vector product (`np.einsum`)": "describes the code",
    "for BM25, **a dict of postings** walked in Python": "describes the code; names lesson 03",
    "At 100,000 memories the numpy pass takes a few milliseconds": "FACTS: one float32 pass over 100,000 × 256 takes "
                                                                  "~4.4 ms here; benchmarks/README.md 'Where the time "
                                                                  "goes now' (5–7 ms)",
    "A search returns 3 hits, so sorting all N scores": "the agent's recall depth (lesson 08); numpy's documented "
        "sort complexity",
    "moves the k best to the front in O(N)": "numpy's documented complexity",
    "If the k-th best score is shared by rows inside and outside the first k": "numpy's documented behaviour",
    "The indices of the `k` highest scores, best first": "a specification of exercise 13.1",
    "Past a few hundred thousand memories even one read of the matrix": "an argument about scale",
    "(`aria_kit/approximate_search.py`, 20 lines)": "the length of IVFIndex in aria_kit/approximate_search.py",
    "of the true 10 nearest memories (from exact search)": "recall@10's definition",
    "For each `nprobe` we measure recall@10": "describes the code",
    "at 16,000 memories exact search takes about a millisecond": "live timing, machine-dependent (the first chart)",
    "How to read it (both axes are logarithmic)": "how to read a log-log chart",
    "**`QdrantMemory` on Edge** is exact too": "claimed in the same sentence (two to three times)",
    "a numpy pass over a contiguous matrix beats a Python loop": "recap of cell 7's yes/no output",
    "A top-k that sorts only the head stays exact if ties go to the lower row": "recap of exercise 13.1, whose check "
        "compares with a stable full sort",
    "Make the vector side of a hybrid search approximate": "the stretch task",
    "the top 3 rows of RRF (k = 60)": "a specification of the stretch task",
    "rows whose keyword score is 0 get no keyword rank": "a specification of the stretch task",
    "how often the top 3 stays the same": "a specification of the stretch task",
    "does BM25 rescue what the IVF misses?": "the stretch task's question",
    "Your memory holds 5,000 facts and search takes 1 ms": "quiz prompt",
    "double the memories, double the time": "what slope 1 means; the chart shows the lines",
    "Switch to an approximate index now: it is faster at every size": "a wrong option",
    "Probe one list of an IVF with 64 lists": "a wrong option, explained with the lesson's measurement",
    "Nothing, ever: exact search hardly slows down": "a wrong option, explained with the benchmark",
    "that line was flat because its fixed cost hid the per-memory work": "why a wrong option fails (cell 7: the "
                                                                         "flattest line)",
    "Where would your design's point (share read, recall@10) fall": "a question to the learner",
    "What does `build` cost at 1,000,000 memories": "a question to the learner",
    "Exercise 13.1 asks you to keep that promise": "an instruction",
    "The check reads those rows, ranks them exactly, keeps the 10 best": "describes check_ivf_design (its top 10 of "
                                                                        "the rows read, exactly ranked)",
    "The check prints your recall@10 and share of rows read": "describes check_ivf_design's output",
    "puts the same memory on Qdrant, and [lesson 14]": "names the next lessons",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "13")  # Q{number}'s computed key is its answer


CLAIMS += [
    Claim('Predict: the scores are [0.3, 0.7, 0.7, 0.1, 0.7] (row 0 the oldest', lambda: _key_holds(1)),
    Claim("Which rows does HybridMemory's ranking return, best first?", lambda: _key_holds(1)),
    Claim('the head is cut out without sorting everything, then every row tied', lambda: _key_holds(1)),
    Claim('[1, 2]: equal scores go to the lower row, the older memory', lambda: _key_holds(1)),
    Claim('Predict: 3,000 vectors in loose clusters (60 centres plus noise, 32', lambda: _key_holds(2) and all(
        part in inspect.getsource(lesson13._key_more_lists_never_fewer) for part in (
            "size=(60, 32)", "points(3_000), points(40)", "n_lists=48", "1.5 * rng.normal"))),
    Claim("What happens to each query's recall@10?", lambda: _key_holds(2)),
    Claim('every row read with 3 lists is read again with 6, and a true', lambda: _key_holds(2)),
    Claim('It never drops, and for some queries it rises: the 6 nearest lists', lambda: _key_holds(2)),
]
EXEMPT.update({
    '[1, 4]: of equal scores the newest memory wins': 'a wrong option; the computed key rules it out',
    '[1, 2, 4]: every row tied with the 2nd best score belongs in the top 2':
        'a wrong option; the computed key rules it out',
    '[1, 2] on some runs and [2, 4] on others: argpartition picks among':
        'a wrong option; the computed key rules it out',
    'all the tied rows are gathered to choose among them, but a top 2': 'why a wrong option fails',
    'argpartition alone would; that is why the kit takes every row tied': 'why a wrong option fails',
    'It can drop: the extra lists bring in rows that push true neighbours':
        'a wrong option; the computed key rules it out',
    'It reaches 1 for every query: 6 lists are enough to hold the 10': 'a wrong option; the computed key rules it out',
    'only a row with a higher cosine can push a row out of the top 10, and': 'why a wrong option fails',
    'a true neighbour can sit in any list; only probing all 48 guarantees': 'why a wrong option fails',
    'on loosely clustered data the 10 nearest are spread over several': 'why a wrong option fails',
})
EXEMPT.update({
    "**Predict, then run.** Probing one list of 64 reads about 1/64 of the rows":
        "restates the claim on \"Probing one list reads about 1/64 of the rows\" (cell 23), checked on the table",
    "Of the true top 10, what share will that find on the template memories":
        "a question to the learner; the table of cell 22 answers it",
    "Write your guess in `my_prediction` below, then run the measurement":
        "an instruction to the learner",
})
