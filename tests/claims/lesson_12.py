"""Claims in 12_going_further_qdrant, each tied to the output that makes it true.

The lesson's benchmark figures are tied to the committed tables they quote (benchmarks/scale.json and
benchmarks/README.md), and lesson 05's held-out figures to lesson 05's own output.
"""

import json
import re

from lesson05_figures import quotes
from lesson_claims import ROOT, Claim, Lesson

from aria_kit.bm25 import tokenize
from aria_kit.demo_data import CONVERSATION, DEMO_FACTS, SHOWDOWN_QUERIES, seed_memory
from aria_kit.fusion import DEFAULT_FUSION, RRF
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.solutions.lesson12 import bm25_weight

LESSON = Lesson("12_going_further_qdrant")
SCALE = json.loads((ROOT / "benchmarks" / "scale.json").read_text())
BENCH_README = (ROOT / "benchmarks" / "README.md").read_text()


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


def _scale(engine: str, size: int) -> float:
    return round(next(r["p50_ms"] for r in SCALE if r["engine"] == engine and r["size"] == size), 2)


def _readme_p50(size: str, engine: str, p50: str) -> bool:
    rows = [line for line in BENCH_README.splitlines()
            if line.startswith(f"| {size} |") and engine in line and re.search(rf"\| \**{re.escape(p50)}\** \|", line)]
    assert rows, f"benchmarks/README.md has no {engine} row at {size} with p50 {p50} ms"
    return True


def _conversation_same() -> list[str]:
    return [line for line in LESSON.output("The capstone conversation on both agents").splitlines()
            if re.match(r"\s*\d+\s", line)]


def _top3_after() -> list[str]:
    return [line for line in LESSON.output("after the conversation (8 memories)").splitlines() if "mem_" in line]


CLAIMS = [
    Claim("differs three times: it fuses normalised scores (weight 0.5 on cosine)",
          lambda: getattr(DEFAULT_FUSION, "weight", None) == 0.5 and HybridMemory().stemming),
    Claim("it leads on fanoutqa (+0.116 capped recall@5", lambda: quotes("fanoutqa", (0.116, 0.080, 0.152), False)),
    Claim("That default was picked on the dev questions of chitchat and fanoutqa, the same ones lesson 05 measures",
          lambda: "the kit default was chosen on these same dev questions" in " ".join(
              Lesson("05_measuring_memory").cell(10).source.split())),
    Claim("Against a `HybridMemory` that also fuses by RRF and counts every query word, the answers and the rankings",
          lambda: _moved("like-for-like HybridMemory →")[0] == 0 and len(_conversation_same()) == 5
          and all(line.rstrip().endswith("True") for line in _conversation_same())),
    Claim("So both fuse by RRF and count every query word as written", _like_for_like_is_qdrants_set_up),
    Claim("on chitchat its lead of +0.010 has an interval", lambda: quotes("chitchat", (0.010, -0.037, 0.053), True)),
    Claim("on lesson 05's paraphrase set it trails plain RRF",
          lambda: quotes("paraphrase", (-0.079, -0.191, 0.022), True)),
    Claim("the same seven demo facts, with the same ids", lambda: "HybridMemory: 7 memories" in LESSON.output(
        "seed_memory(agent.memory)") and "QdrantMemory: 7 memories" in LESSON.output("seed_memory(agent.memory)")),
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
    Claim("Then 1/63 + 1/65 is less than 1/64 + 1/63", lambda: 1 / 63 + 1 / 65 < 1 / 64 + 1 / 63),
    Claim("the first place earns 1/(61 + 0) = 1/(60 + 1)", lambda: 1 / (61 + 0) == 1 / (60 + 1)),
    Claim("its fused score must then be the same to the last digit", lambda: _ranks_agree_count()[0]
          == _ranks_agree_count()[2] == _ranks_agree_count()[1]),
    Claim("With seven memories, the top 100 is everything", lambda: len(DEMO_FACTS) < 100),
    Claim("Now run the five messages of the capstone conversation", lambda: len(CONVERSATION) == 5),
    Claim("Every turn recalls the same three memories, and every answer is the same word for word",
          lambda: len(_conversation_same()) == 5 and all(line.rstrip().endswith("True") for line in _conversation_same())),
    Claim("both agents store Alice's decision as `mem_0008`", lambda: "mem_0008" in LESSON.output(
        "after the conversation (8 memories)")),
    Claim("Both memories are 11 words long", lambda: LESSON.output('shared_words(["mem_0002", "mem_0008"]').count(
        "11 words, shares ['") == 4),
    Claim("Both backends list the older `mem_0002` first", lambda: all(line.rstrip().endswith("True")
                                                                       for line in _top3_after())),
    Claim("the median search took 1.14 ms at 10,000 memories and 7.08 ms",
          lambda: (_scale("hybrid", 10_000), _scale("hybrid", 100_000)) == (1.14, 7.08)),
    Claim("took 2.17 ms at 10,000 memories and 21.05 ms at 100,000",
          lambda: _readme_p50("10,000", "qdrant-memory-edge", "2.17") and _readme_p50("100,000", "qdrant-memory-edge",
                                                                                       "21.05")
          and _readme_p50("10,000", "hybrid", "1.21") and _readme_p50("100,000", "hybrid", "9.95")),
    Claim("local mode\": 419.40 ms at 10,000", lambda: _readme_p50("10,000", "qdrant-local", "419.40")),
    Claim("over 100,000 memories in 0.65 ms", lambda: _readme_p50("100,000", "edge, HNSW", "0.65")),
    Claim("up to 1,164 memories share one BM25 score", lambda: "up to 1,164 memories tie" in BENCH_README),
    Claim("identical for all 12 benchmark queries", lambda: "**12 of 12 with `candidates` = all** and 9 of 12"
          in BENCH_README),
    Claim("`bm25_weight(1, 8)` is section 2's stored 1.0989", lambda: round(bm25_weight(1, 8), 4) == 1.0989),
    Claim("A word once in a memory of exactly average length weighs 1", lambda: abs(bm25_weight(1, 10, 10.0) - 1) < 1e-12),
    Claim("never more than k1 + 1 = 2.5", lambda: bm25_weight(10**6, 10) < 2.5),
]
EXEMPT = {
    "When several agents must share one memory": "the lesson's opening; 'one' as an article",
    "swap `QdrantMemory` into the capstone agent with one line": "a learning objective; the swap is cell 4's line",
    "write its point id and one stored BM25 weight": "a learning objective (exercises 12.1 and 12.2)",
    "explain why the two backends' rankings agree": "a learning objective",
    "it can save both to an SQLite file (lesson 9)": "names a lesson",
    "one agent with a few thousand memories": "advice on when a notebook memory is enough; no output",
    "Several agents, or several processes of one agent": "describes a server's sharing; no output",
    "The SQLite file lives on one machine": "a property of SQLite files",
    "In this lesson you swap it into the capstone agent with one line": "describes the lesson's plan",
    "fuses inside Qdrant with RRF, k = 60": "describes QdrantMemory's configuration (tests/test_qdrant_memory.py "
                                             "checks its fusion against reciprocal_rank_fusion)",
    "The stretch task at the end measures how far that default is from Qdrant": "describes the stretch task",
    "section 6 shows how to point the same line at one": "names a section",
    "(not a language model, lesson 8)": "names a lesson; the seven facts are claimed in the same sentence's claim",
    "turns each memory into one point with": "describes QdrantMemory's data model",
    "at a position computed from the word (its CRC-32 checksum)": "CRC-32 is a name",
    "It holds the word's BM25 weight": "BM25 is a name",
    "(Point 0 is a small ledger": "describes QdrantMemory's ledger (aria_kit/qdrant_memory.py)",
    "The stored weight is only the **term-frequency part** of BM25 (lesson 3)": "BM25 is a name; the 'once' is claimed",
    "What makes \"raft\" worth more than \"the\" is its IDF": "BM25's definition (lesson 03)",
    "(usually once), so the engine's dot product": "describes a query's sparse vector; BM25 is a name",
    "The three showdown queries from lesson 9, now with the top 3": "the table below has three queries by three ranks",
    "The top 3 is what matters most": "explains why the top 3 is compared; the agent's recall depth is 3 "
                                      "(lesson 08 claims it)",
    "The chart goes further: every memory, one panel per query, in three rankings": "describes the chart's layout",
    "On the left is the kit's default": "describes the chart's columns",
    "A line that changes height is a memory whose rank moves": "describes the chart's colours; that lines move is "
                                                               "claimed by the takeaway",
    "The two engines compute the same two rankings": "describes the design; the agreement is claimed",
    "Four details could still tell them apart": "announces the four paragraphs that follow",
    "Here is one query, memory by memory": "describes the next table",
    "BM25 divides a memory's length by the *average* length": "BM25's definition (lesson 03)",
    "each time one is added": "'one' as a pronoun",
    "A larger average makes every memory look a little shorter": "arithmetic of BM25's length norm; the effect is "
                                                                 "claimed by the 1–2% claim",
    "An engine still has to list one of them first": "'one' as a pronoun",
    "it listed this tie one way in one Python process": "an observation made while writing the lesson, in separate "
                                                       "processes that a notebook run cannot repeat (docs/qdrant.md)",
    "Neither order is wrong, because the two memories are equally good": "follows from the tie claimed above",
    "But an order that changes from run to run": "an argument, no output",
    "RRF adds 1/(60 + rank) for each ranking (lesson 4)": "RRF's definition (lesson 04)",
    "Had the engine's order of the keyword tie been kept": "a counterfactual, computed in the next sentence's claim",
    "with positions counted **from 0**": "Qdrant's documented RRF formula",
    "The kit counts ranks **from 1**": "the kit's RRF definition (lesson 04)",
    "But the engine adds in float32, about 7 significant digits": "float32's precision, a fact of the format",
    "Qdrant fuses the top `candidates` (100 by default)": "QdrantMemory's default argument",
    "a memory ranked below the cut in one ranking gets no credit": "an argument about the candidate cut",
    "Each turn recalls the top 3 memories for the message": "the agent's recall depth (lesson 08 claims it)",
    "`memory_search` (which returns the top 5)": "the offline stand-in's search depth (aria_kit/offline.py)",
    "In turn 1 the stand-in splits the question into three": "lesson 09 prints the tool calls of this turn",
    "In turn 4 it first searches for \"LSM-tree\"": "lesson 10 shows this search; the stored id is claimed",
    "list the same five memories in the same order on both agents": "the table's recall and answers are claimed the "
                                                                    "same; the 1–2% BM25 figure is claimed above",
    "and each shares one word, the same one, with each query": "claimed by the 11-words claim (the printed shared "
                                                               "words)",
    "for example, a third ranking such as recency": "a suggestion",
    "To use one, start Qdrant": "an instruction",
    "the one-line swap in section 1 needs no change at all": "names a section",
    "Three things are different on a server": "announces the three bullets that follow",
    "Run this lesson twice and the demo facts are stored twice": "a server keeps collections between runs "
                                                                 "(not testable here: no server)",
    "A server runs the same engine as embedded mode": "about a server, which could not be run here (said in the text)",
    "fetching each ranking's 100 candidates to explain every hit takes about half": "benchmarks/README.md's "
                                                                                     "'Where the time goes' table",
    "**One engine, two Python APIs.**": "describes the code layout",
    "one `QdrantMemory(path=...)` at a time, in any process": "Edge's folder lock (tests/test_qdrant_edge.py)",
    "Qdrant names a point by a whole number (or a UUID)": "Qdrant's point id types; the point 3 is claimed",
    "`mem_` and the number, at least four digits)": "a specification of exercise 12.1",
    "have the right prefix but the kit writes 42 as": "a specification of exercise 12.1, checked by its check",
    "For every n ≥ 1, `to_point_id(make_memory_id(n)) == n`": "a specification of exercise 12.1",
    "Lesson 03's BM25 (k1 = 1.5, b = 0.75) is the reference": "the kit's BM25 constants (aria_kit/bm25.py)",
    "a one-word query's BM25 score for the memory": "a specification of exercise 12.2",
    "`mem_0003` has 8 words, each once": "claimed by the 8-entries claim",
    "The check compares your function with `BM25Index` from lesson 3": "describes the check",
    "changed where memory lives and who searches it, and not one line": "recap of the one-line swap in cell 4",
    "Qdrant stores a dense vector and a sparse BM25 vector per memory": "recap of section 2",
    "With k = 61 for positions from 0, its fusion is the kit's": "recap; claimed in section 4",
    "Left to itself, the engine orders ties its own way": "recap of the observation exempted in section 4",
    "Embedded now, a server later, one engine": "recap",
    "How far is it from the kit's default?": "the stretch task's question",
    "how many (query, rank) places of the two top 3s name the same memory": "a specification of the stretch task",
    "Then seed a fresh `QdrantMemory()` and five `HybridMemory` set-ups": "a specification of the stretch task",
    "Count each one's agreement with Qdrant on the three showdown queries": "a specification of the stretch task",
    "QdrantMemory is compared with HybridMemory(fusion=RRF(60)": "quiz prompt; restates cell 3",
    "QdrantMemory fuses by RRF (k = 60) in the engine": "quiz explanation; restates cell 3",
    "Because RRF with k = 60 is the kit's default fusion": "a wrong option (the misconception that the seed's RRF is "
                                                          "still the default)",
    "every set-up embeds with the same 256-d wordllama model": "claimed in cell 5 (256 numbers)",
    "Which one gets the better keyword rank on each backend?": "quiz prompt",
    "Qdrant Edge lists equal scores in no promised order": "quiz explanation of section 4's observation",
    "The older one, on both backends": "the right option; claimed in section 4 (mem_0004 4th on both)",
    "A different one on every search, even within one run": "a wrong option",
    "Within one process the engine's order stayed the same": "quiz explanation of section 4's observation",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
def _key_holds(number: int) -> bool:
    """Quiz question ``number``'s computed key is its answer (the kit run on the question's case)."""
    import importlib

    question = importlib.import_module("aria_kit.exercises.lesson12").QUIZ.questions[number - 1]
    assert question.compute() == question.answer, f"Q{number}: the kit makes {question.compute()!r} true"
    return True


CLAIMS += [
    Claim("the kit's default is the convex mix (weight 0.5 on cosine); RRF is",
          lambda: repr(HybridMemory().fusion) == 'ConvexFusion(weight=0.5)'),
    Claim('"quorum" occurs once in "A quorum needs three." (4 words) and once in', lambda: _key_holds(2)),
    Claim('Which stored weight of "quorum" is larger in the two points\' bm25', lambda: _key_holds(2)),
    Claim("the stored weight is BM25's term-frequency part, with the length norm", lambda: _key_holds(2)),
    Claim("The 4-word memory's: the same count in a shorter memory weighs more", lambda: _key_holds(2)),
    Claim("Predict: in Qdrant's two lists a memory is at position 4 of the", lambda: _key_holds(3)),
    Claim('Qdrant scores 1/(k + position) from 0 and the kit 1/(k + rank) from', lambda: _key_holds(3)),
    Claim("1/65 + 1/61, what the kit's RRF(60) gives ranks 5 and 1", lambda: _key_holds(3)),
]
EXEMPT.update({
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
