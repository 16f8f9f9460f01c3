"""Claims in 12_going_further_qdrant, each tied to the output that makes it true.

The lesson's latencies are tied to benchmarks/scale.json, the run lesson 13 charts (docs/scale.png), so both
lessons quote one run; the tie counts and agreement of bench_qdrant.py to benchmarks/README.md.
"""

import json
import re
from functools import partial

from lesson_claims import ROOT, Claim, Lesson, quiz_key_holds

from aria_kit.bm25 import tokenize
from aria_kit.demo_data import CONVERSATION, DEMO_FACTS, SHOWDOWN_QUERIES, seed_memory
from aria_kit.fusion import DEFAULT_FUSION, RRF
from aria_kit.hybrid_memory import HybridMemory

LESSON = Lesson("12_going_further_qdrant")
BENCH_README = (ROOT / "benchmarks" / "README.md").read_text()
SCALE = json.loads((ROOT / "benchmarks" / "scale.json").read_text())


def _moved(step: str) -> tuple[int, int]:
    out = LESSON.output("plot_rank_agreement(SHOWDOWN_QUERIES)")
    moved, total = re.search(rf"{re.escape(step)}.*?(\d+) of (\d+) ranks move", out).groups()
    return int(moved), int(total)


def _default_moves_the_top3() -> bool:
    default, like_qdrant = HybridMemory(), HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)
    for memory in (default, like_qdrant):
        seed_memory(memory)
    assert _moved("default →")[0] > 0 and _moved("like-for-like HybridMemory →")[0] == 0
    assert any({h.id for h in default.search(q, top_k=3)} != {h.id for h in like_qdrant.search(q, top_k=3)}
               for q in SHOWDOWN_QUERIES), "no memory moves in or out of a top 3"
    return True


def _like_for_like_is_qdrants_set_up() -> bool:
    from aria_kit import qdrant_memory

    assert qdrant_memory.RRF_K == 61, "QdrantMemory does not fuse by RRF with k = 60 (61 on Qdrant's ranks from 0)"
    code = " ".join(cell.source for cell in LESSON.notebook.cells if cell.cell_type == "code")
    assert "HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)" in code, "the like-for-like set-up changed"
    return True


def _side_by_side() -> dict[str, list[str]]:
    rows = LESSON.output("display(side_by_side(query))").splitlines()
    return {line.split()[0]: line.split()[1:] for line in rows if line.startswith("mem_")}


def _bm25_a_little_higher_on_qdrant() -> bool:
    rows = [(float(h), float(q)) for _, _, h, q, *_ in _side_by_side().values() if float(h) > 0]
    assert all(round(100 * (q / h - 1)) in (1, 2) for h, q in rows), rows
    return True


def _ranks_agree_count() -> tuple[int, int, int]:
    out = LESSON.output("same_ranks")
    same, total = map(int, re.search(r"(\d+) of (\d+) \(query, memory\) pairs", out).groups())
    equal = int(re.search(r"(\d+) of those", out).group(1))
    return same, total, equal


def _scale_p50(size: int, engine: str, p50: str) -> bool:
    [row] = [r for r in SCALE if r["engine"] == engine and r["size"] == size]
    assert f"{row['p50_ms']:.2f}" == p50, f"benchmarks/scale.json: {engine} at {size} has p50 {row['p50_ms']:.2f} ms"
    return True


def _mem_0008_wins_the_fused_tie() -> bool:
    """After the conversation, mem_0002 and mem_0008 tie on BM25 for the first and third showdown queries; mem_0002
    (older) gets the better keyword rank on both; on the first query the fused scores tie and mem_0008's better
    vector rank puts it third, where the table shows it, with mem_0002 out of the top 3."""
    from aria_kit.demo import make_agent

    agent = make_agent(memory=HybridMemory(fusion=RRF(60), stopwords=(), stemming=False), verbose=False)
    seed_memory(agent.memory)
    for message in CONVERSATION:
        agent.chat(message)
    pairs = {}
    for number in (0, 2):
        hits = {h.id: h for h in agent.memory.search(SHOWDOWN_QUERIES[number], top_k=len(agent.memory))}
        old, new = pairs[number] = hits["mem_0002"], hits["mem_0008"]
        assert old.bm25 == new.bm25 and old.keyword_rank < new.keyword_rank, (number, old, new)
    old, new = pairs[0]
    assert old.score == new.score and new.vector_rank < old.vector_rank, (old, new)
    first = [line for line in _top3_after() if line.startswith(SHOWDOWN_QUERIES[0])]
    assert "mem_0008" in first[2] and not any("mem_0002" in line for line in first), first
    return True


def _conversation_same() -> list[str]:
    return [line for line in LESSON.output("The capstone conversation on both agents").splitlines()
            if re.match(r"\s*\d+\s", line)]


def _top3_after() -> list[str]:
    return [line for line in LESSON.output("after the conversation (8 memories)").splitlines() if "mem_" in line]


def _default_differs_three_times() -> bool:
    from aria_kit.fusion import ConvexFusion

    default, like_qdrant = HybridMemory(), HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)
    assert isinstance(DEFAULT_FUSION, ConvexFusion) and isinstance(default.fusion, ConvexFusion)
    assert default.stemming and not like_qdrant.stemming
    assert default.stopwords and not like_qdrant.stopwords, "the default drops no query stop words"
    return True


def _migration_example() -> bool:
    """The lesson's example: mem_0003 deleted, mem_0002 superseded by mem_0004; both designs map mem_0004 to mem_0003."""
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.solutions.lesson12 import SOLUTIONS

    for (migrate,) in SOLUTIONS["12.2"]:
        source, target = HybridMemory(), HybridMemory()
        for n in (1, 2, 3):
            source.store(f"Fact {n}.")
        source.delete("mem_0003")
        assert source.supersede("mem_0002", "Fact 2, changed.") == "mem_0004"
        mapping = migrate(source, target)
        assert [r.id for r in target.list_all()] == ["mem_0001", "mem_0002", "mem_0003"], target.list_all()
        assert mapping["mem_0004"] == "mem_0003" and target.get("mem_0002").superseded_by == "mem_0003"
    return True


def _migration_check_cases() -> bool:
    """The check moves between two HybridMemory set-ups, smallest first, with metadata, versions and gaps."""
    import inspect
    import random

    from aria_kit.exercises import lesson12

    source = inspect.getsource(lesson12._migrate_test)
    assert "(0, 1, 2, 3, 4, 6, 8, 12)" in source and source.count("HybridMemory(") == 2
    memory = lesson12._source(random.Random(12), 12)
    records = memory.list_all()
    assert any(r.superseded_by for r in records) and len(records) < 18 and len({len(r.metadata) for r in records}) > 1
    return True


CLAIMS = [
    Claim("`mem_0004`, which superseded `mem_0002` (`mem_0003` was\ndeleted)", _migration_example),
    Claim("between two `HybridMemory` set-ups, smallest first", _migration_check_cases),
    Claim("differs three times: convex fusion, query stop words dropped, word stems matched", _default_differs_three_times),
    Claim("The stretch task measures how far that default is from Qdrant", _default_moves_the_top3),
    Claim("against a `HybridMemory` that also fuses by RRF and counts every query word, the answers and the rankings",
          lambda: _moved("like-for-like HybridMemory →")[0] == 0 and len(_conversation_same()) == 5
          and all(line.rstrip().endswith("True") for line in _conversation_same())),
    Claim("the same seven demo facts, with the same ids", lambda: "HybridMemory: 7 memories" in LESSON.output(
        "# the one-line swap") and "QdrantMemory: 7 memories" in LESSON.output("# the one-line swap")),
    Claim("the same 256-number wordllama embedding", lambda: "256 numbers" in LESSON.output("Point 3 of the collection")),
    Claim("one entry per distinct word of the memory", lambda: "8 entries" in LESSON.output("Point 3 of the collection")
          and len(set(tokenize(DEMO_FACTS[2][0]))) == 8),
    Claim("so memory `mem_0003` is point 3", lambda: re.search(r"point id\s+3\n", LESSON.output("Point 3 of the"))),
    Claim("Every word has the same weight, 1.0989", lambda: LESSON.output("Point 3's bm25 sparse vector").count(
        "1.0989") == 8),
    Claim("(once, for each word here)", lambda: len(tokenize(DEMO_FACTS[2][0])) == len(set(tokenize(DEMO_FACTS[2][0])))),
    Claim("All nine places agree, with the same fused scores", lambda: LESSON.output(
        "Top 3 per showdown query, on both backends").count("True") == 9),
    Claim("every red line is on the left", _default_moves_the_top3),
    Claim("The default's three settings move memories, even in and out of the top 3", _default_moves_the_top3),
    Claim("1–2% higher on Qdrant, in the same order", _bm25_a_little_higher_on_qdrant),
    Claim("68 tokens / 7 memories = 9.71", lambda: sum(len(tokenize(t)) for t, _ in DEMO_FACTS) == 68),
    Claim("although `mem_0004` and `mem_0007` tie", lambda: _side_by_side()["mem_0004"][2:4]
          == _side_by_side()["mem_0007"][2:4]),
    Claim("both are 13 words long", lambda: "mem_0004: 13 words, shares ['alice']" in LESSON.output(
        'shared_words(["mem_0004", "mem_0007"], query)') and "mem_0007: 13 words, shares ['alice']" in LESSON.output(
        'shared_words(["mem_0004", "mem_0007"], query)')),
    Claim("so the older `mem_0004` comes 4th", lambda: _side_by_side()["mem_0004"][4:6] == ["4", "4"]),
    Claim("Both backends put `mem_0004` 4th", lambda: _side_by_side()["mem_0004"][4:6] == ["4", "4"]),
    Claim("tie exactly at 1/63 + 1/64", lambda: LESSON.output("Third and fourth place").count("0.031498") == 4),
    Claim("1/63 + 1/65 < 1/64 + 1/63, and `mem_0002` would be third", lambda: 1 / 63 + 1 / 65 < 1 / 64 + 1 / 63),
    Claim("the first place earns 1/(61 + 0) = 1/(60 + 1)", lambda: 1 / (61 + 0) == 1 / (60 + 1)),
    Claim("its fused score must then be the same to the last digit", lambda: _ranks_agree_count()[0]
          == _ranks_agree_count()[2] == _ranks_agree_count()[1]),
    Claim("With seven memories, the top 100 is everything", lambda: len(DEMO_FACTS) < 100),
    Claim("The capstone conversation's five messages, through both agents", lambda: len(CONVERSATION) == 5),
    Claim("Every turn recalls the same three memories, and every answer is the same word for word",
          lambda: len(_conversation_same()) == 5 and all(line.rstrip().endswith("True") for line in _conversation_same())),
    Claim("Turn 4 stored an eighth fact, Alice's decision, as `mem_0008`", lambda: "mem_0008" in LESSON.output(
        "after the conversation (8 memories)")),
    Claim("Both memories are 11 words long", lambda: LESSON.output('shared_words(["mem_0002", "mem_0008"]').count(
        "11 words, shares ['") == 4),
    Claim("backends give the older `mem_0002` the better keyword rank", lambda: _mem_0008_wins_the_fused_tie()
          and all(line.rstrip().endswith("True") for line in _top3_after())),
    Claim("which `mem_0008`'s better vector rank wins", _mem_0008_wins_the_fused_tie),
    Claim("took 2.21 ms at 10,000 memories and 19.76 ms at 100,000",
          lambda: _scale_p50(10_000, "qdrant-memory-edge", "2.21") and _scale_p50(100_000, "qdrant-memory-edge", "19.76")
          and _scale_p50(10_000, "hybrid", "1.14") and _scale_p50(100_000, "hybrid", "7.08")),
    Claim("local mode\" took 313.29 ms at 10,000", lambda: _scale_p50(10_000, "qdrant-local", "313.29")),
    Claim("hybrid query took 0.64 ms over 100,000 memories", lambda: _scale_p50(100_000, "edge", "0.64")),
    Claim("enough for one agent with up to about 100,000 memories", lambda: max(
        r["p50_ms"] for r in SCALE if r["engine"] == "hybrid" and r["size"] <= 100_000) < 10),
    Claim("up to 1,164 memories share one BM25 score", lambda: "up to 1,164 memories tie" in BENCH_README),
    Claim("identical for all 12 benchmark queries", lambda: "**12 of 12 with `candidates` = all** and 9 of 12"
          in BENCH_README),
]
EXEMPT = {
    "runs Qdrant **embedded** (Qdrant Edge, in this process); section 6 points it at": "names a section",
    "Lesson 09's three showdown queries, each backend's top 3": "the table below has three queries by "
        "three ranks; the agent's recall depth is 3 (lesson 08 claims it)",
    "A red line is a memory whose rank moves to the next column": "describes the chart's colours; that lines move is "
                                                                  "claimed by the takeaway",
    "One query, memory by memory": "describes the next table",
    "The engine adds in float32, though, so `QdrantMemory` fuses once more": "describes aria_kit/qdrant_memory.py's "
        "second fusion; the equality it buys is claimed by the next sentence",
    "the kit counts ranks **from 1**": "the kit's RRF definition (lesson 04)",
    "has the Docker command), then set `ARIA_QDRANT_URL`": "an instruction; names a section",
    "run this lesson twice and the demo facts are stored twice": "a server keeps collections between runs "
                                                                 "(not testable here: no server)",
    "the conversion of section 2": "names a section; the specification follows",
    "When several agents must share one memory": "the lesson's opening; 'one' as an article",
    "This lesson moves Aria's memory onto Qdrant with one line": "the lesson's opening; the swap is cell 4's line",
    "swap `QdrantMemory` into the capstone agent with one line": "a learning objective; the swap is cell 4's line",
    "and write its point id;": "a learning objective (exercise 12.1)",
    "design a migration from one memory backend to another": "a learning objective (exercise 12.2)",
    "explain why the two backends' rankings agree": "a learning objective",
    "fuses inside Qdrant with RRF, k = 60": "describes QdrantMemory's configuration (tests/test_qdrant_memory.py "
                                             "checks its fusion against reciprocal_rank_fusion)",
    "stores each memory as one": "describes QdrantMemory's data model",
    "IDF, what makes \"raft\" worth more than \"the\", changes with every memory": "BM25's definition (lesson 03)",
    "The chart ranks every memory, one panel per query, three ways": "describes the chart's layout",
    "Four details could tell the engines apart": "announces the four paragraphs that follow",
    "it listed this tie one way in one Python process": "an observation made while writing the lesson, in separate "
                                                       "processes that a notebook run cannot repeat (docs/qdrant.md)",
    "with positions counted **from 0**": "Qdrant's documented RRF formula",
    "Qdrant fuses the top `candidates` (100 by default)": "QdrantMemory's default argument",
    "`mem_` and the number, at least four digits)": "a specification of exercise 12.1",
    "have the right prefix but the kit writes 42 as": "a specification of exercise 12.1, checked by its check",
    "For every n ≥ 1, `to_point_id(make_memory_id(n)) == n`": "a specification of exercise 12.1",
    "copy every memory of one `MemoryBackend` into another": "the specification of exercise 12.2; 'one' as an "
                                                              "article",
    "translated through your mapping (`supersede(old_id, text, metadata, at=...)` writes one": (
        "the specification of exercise 12.2; check_migrate compares every link"),
    "Does a migration cut short leave a target": "a rubric question for the learner",
    "How many embedding calls and writes for 100,000 memories?": "a rubric question; the learner counts",
    "How far is `QdrantMemory` from the kit's default?": "the stretch task's question",
    "how many (query, rank) places of the two top 3s name the same memory": "a specification of the stretch task",
    "Then count the agreement with a fresh `QdrantMemory()` of five `HybridMemory` set-ups": "a specification of the stretch task",
    "Which of the default's three changes moves the top 3 most?": "the stretch task's question",
    "A colleague searches \"Who deploys the staging cluster?\" on QdrantMemory()": "quiz prompt: a new case, no output",
    "That the two backends embed the query with different models": "a wrong option; 'two' counts the backends named",
    "every set-up embeds with the same 256-d wordllama model": "claimed in cell 5 (256 numbers)",
    "Which one gets the better keyword rank on each backend?": "quiz prompt",
    "Qdrant Edge lists equal scores in no promised order": "quiz explanation of section 4's observation",
    "The older one, on both backends": "the right option; claimed in section 4 (mem_0004 4th on both)",
    "A different one on every search, even within one run": "a wrong option",
    "Within one process the engine's order stayed the same": "quiz explanation of section 4's observation",
}


def _default_differs_thrice() -> bool:
    """HybridMemory() and QdrantMemory() differ in fusion, query stop words and stems, and in nothing else named."""
    default = HybridMemory()
    assert repr(default.fusion) == "ConvexFusion(weight=0.5)" and default.stopwords and default.stemming
    return _like_for_like_is_qdrants_set_up()


def _qdrant_point_and_fusion() -> bool:
    """A point holds a dense and a bm25 sparse vector, its stored weights carry no IDF, and Qdrant fuses by RRF(61)."""
    from aria_kit import qdrant_memory

    shown = LESSON.output("Point 3 of the collection")
    assert "dense vector        256 numbers" in shown and "bm25 sparse vector" in shown, shown
    assert LESSON.output("Point 3's bm25 sparse vector").count("1.0989") == 8, "the stored weights differ by IDF"
    assert qdrant_memory.RRF_K == 61
    return True


def _third_and_fourth_ranks() -> bool:
    """Third and fourth place on both backends: mem_0004 at ranks 3 and 4, mem_0002 at 4 and 3, one fused score."""
    shown = LESSON.output("Third and fourth place")
    rows = re.findall(r"(mem_000[24])\s+(\d)\s+(\d)\s+1/\(60 \+ \d\) \+ 1/\(60 \+ \d\)\s+([\d.]+)", shown)
    assert sorted(set(rows)) == [("mem_0002", "4", "3", "0.031498"), ("mem_0004", "3", "4", "0.031498")], rows
    assert len(rows) == 4, rows
    return True


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "12")  # Q{number}'s computed key is its answer


CLAIMS += [
    Claim("the kit's default is the convex mix (weight 0.5 on cosine), not RRF",
          lambda: repr(HybridMemory().fusion) == 'ConvexFusion(weight=0.5)'),
    Claim("HybridMemory() fuses by the convex mix, drops query stop words and matches stems", _default_differs_thrice),
    Claim("three settings of HybridMemory() differ from QdrantMemory's", _default_differs_thrice),
    Claim("that set-up agrees with Qdrant on every rank", lambda: "like-for-like HybridMemory → QdrantMemory: 0 of 21 "
          "ranks move" in LESSON.output("fig, moved = plot_rank_agreement") and _like_for_like_is_qdrants_set_up()),
    Claim('"quorum" occurs once in "A quorum needs three." (4 words) and once in', lambda: _key_holds(2)),
    Claim('Which stored weight of "quorum" is larger in the two points\' bm25', lambda: _key_holds(2)),
    Claim("the stored weight is BM25's term-frequency part, with the length norm", lambda: _key_holds(2)),
    Claim("The 4-word memory's: the same count in a shorter memory weighs more", lambda: _key_holds(2)),
    Claim("Predict: in Qdrant's two lists a memory is at position 4 of the", lambda: _key_holds(3)),
    Claim('Qdrant scores 1/(k + position) from 0 and the kit 1/(k + rank) from', lambda: _key_holds(3)),
    Claim("1/65 + 1/61, what the kit's RRF(60) gives ranks 5 and 1", lambda: _key_holds(3)),
    Claim("keyword rank 4) and `mem_0002` (ranks 4 and 3) the same sum", _third_and_fourth_ranks),
    Claim("a dense and a sparse BM25 vector per memory, IDF at query time, RRF with k = 61", _qdrant_point_and_fusion),
]
EXEMPT.update({
    "Which of the two comes third?": "a prediction prompt; the cell after it prints the answer, which c20 explains",
    "Write `my_prediction = ...` in the next cell, then run the one after it": "an instruction to the learner",
    "The oboe memory, on both backends: the newer memory is the more current one":
        "a wrong option; the computed key rules it out",
    "neither backend prefers the newer memory: equal scores go older first": "why a wrong option fails",
    "The 20-word memory's: a longer memory gives the word more context":
        'a wrong option; the computed key rules it out',
    'every word of mem_0003 has the same weight because each occurs once': 'why a wrong option fails',
    '1/64 + 1/60: k = 61 is only a name, the engine still adds 60': 'a wrong option; the computed key rules it out',
    '1/66 + 1/62: k = 61 on top of ranks counted from 1': 'a wrong option; the computed key rules it out',
    '1/5 + 1/1: the engine uses the positions alone': 'a wrong option; the computed key rules it out',
    'the engine uses the k it is given; with positions from 0 and k = 60': 'why a wrong option fails',
    'the +1 is counted once: either in the rank (the kit) or in k (the': 'why a wrong option fails',
    'without k, one first place would outweigh everything else; k = 61 is': 'why a wrong option fails',
})
