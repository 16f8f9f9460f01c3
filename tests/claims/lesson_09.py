"""Claims in 09_capstone, each tied to the output that makes it true (or computed with aria_kit)."""

from __future__ import annotations

import json
import re
import tempfile
from functools import partial
from pathlib import Path

import numpy as np
from lesson_claims import Claim, Lesson, quiz_key_holds

from aria_kit.demo import CONVERSATION, DEMO_FACTS, HOT_SWAP_QUESTION, SHOWDOWN_QUERIES, StorageWebSearch, make_agent, seed_memory
from aria_kit.fusion import ConvexFusion
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.scripted import ScriptedProvider, say

LESSON = Lesson("09_capstone")
LESSON_05 = Lesson("05_measuring_memory")


def out(fragment: str) -> str:
    return LESSON.output(fragment)


def showdown() -> list[list[str]]:
    lines = out('title="Search showdown: top 2 per query"').splitlines()[3:]
    rows = []
    for line in lines:
        query = next(q for q in SHOWDOWN_QUERIES if line.startswith(q))
        rows.append([query] + line[len(query):].split(None, 6))
    return rows  # query, hit, cosine, vector rank, BM25, keyword rank, fused, text


def row(query: str, rank: int) -> list[str]:
    return [r for r in showdown() if r[0] == query][rank - 1]


def default_is_the_convex_mix() -> bool:
    """The sentence names the kit's default fusion and links the convex mix: both must be what the kit runs."""
    fusion = HybridMemory().fusion
    assert isinstance(fusion, ConvexFusion) and fusion.weight == 0.5, f"the default fusion is {fusion!r}"
    assert "kit default: convex(w=0.5) −stop +stem" in LESSON_05.outputs_of_all()
    return True


def rrf_is_the_other_fusion() -> bool:
    import typing

    from aria_kit import fusion

    assert typing.get_args(fusion.Fusion) == (fusion.RRF, fusion.ConvexFusion), fusion.Fusion
    return not isinstance(fusion.DEFAULT_FUSION, fusion.RRF)


def convex_rescaling() -> bool:
    cosine, bm25 = np.array([0.4042, 0.0576, -0.2]), np.array([2.9057, 0.0, 1.0])
    expected = 0.5 * (cosine + 1) / (cosine.max() + 1) + 0.5 * bm25 / bm25.max()
    assert np.allclose(ConvexFusion(0.5).fuse(cosine, bm25), expected) and ConvexFusion(0.5).fuse(cosine, bm25)[0] == 1.0
    return True


def order_4821() -> bool:
    winner, runner_up = row("order 4821", 1), row("order 4821", 2)
    assert winner[1] == "mem_0007" and winner[3] == "1" and winner[5] == "1" and winner[6] == "1.0000"
    assert (winner[2], winner[4]) == ("0.4042", "2.9057")
    assert runner_up[4] == "0.0000" and runner_up[5] == "—" and runner_up[6] == "0.3766"
    assert round(0.5 * (float(runner_up[2]) + 1) / (float(winner[2]) + 1), 3) == 0.377 < 0.5
    return True


def winners_win_both() -> bool:
    for query in SHOWDOWN_QUERIES:
        first = row(query, 1)
        assert first[3] == "1" and first[5] == "1" and first[6] == "1.0000", first
    assert float(row("order 4821", 1)[4]) > 2.5 and all(float(r[2]) < 1 for r in showdown())
    return True


def stems() -> bool:
    prefers = row("Alice's language preference", 2)
    assert prefers[1] == "mem_0006" and float(prefers[4]) > 0
    memory = HybridMemory()
    seed_memory(memory)
    best = memory.search("preference", top_k=1)[0]  # the word alone, without the "Alice" both facts share
    assert best.id == "mem_0006" and best.bm25 > 0 and "preference" not in best.text.lower(), best
    return True


def project_is_fourth() -> bool:
    memory = HybridMemory()
    seed_memory(memory)
    ids = [hit.id for hit in memory.search("What is Alice's project", top_k=5)]
    assert ids[0] == "mem_0005" and ids.index("mem_0002") == 3, ids
    shown = out('title=header.split(",")[0]').splitlines()
    assert shown[0] == 'Found 5 memories for "What is Alice\'s project"' and len(shown) == 3 + 5, shown
    assert [line.split()[1] for line in shown[3:]] == ids, shown  # the lesson's table is that search's five hits
    return True


def only_the_project_has_both() -> bool:
    """Of the five hits, the deadline holds "project", two others "Alice", and only mem_0002 both (via "working")."""
    from aria_kit.offline import relevant

    memory = HybridMemory()
    seed_memory(memory)
    hits = memory.search("What is Alice's project", top_k=5)
    ahead = hits[:[h.id for h in hits].index("mem_0002")]
    assert ahead[0].id == "mem_0005" and "project" in ahead[0].text and "Alice" not in ahead[0].text
    assert len(ahead) == 3 and all("Alice" in h.text and "project" not in h.text for h in ahead[1:]), ahead
    chosen, _ = relevant([{"id": h.id, "text": h.text} for h in hits], "What is Alice's project")
    assert [h["id"] for h in chosen] == ["mem_0002"] and "working" in chosen[0]["text"], chosen
    return turn_one()


def turn_one() -> bool:
    text = out("answer = agent.chat(CONVERSATION[0])")
    assert "round 1: calls memory_search, memory_search, memory_search" in text
    assert "1  recall  mem_0005, mem_0003, mem_0001" in text
    answer = text.split("Answer:\n", 1)[1]
    assert re.findall(r"mem_\d{4}", answer) == ["mem_0002", "mem_0005", "mem_0003"], answer
    return True


def turn(number: int, *fragments: str) -> bool:
    text = out(f"answer = agent.chat(CONVERSATION[{number - 1}])")
    for fragment in fragments:
        assert fragment in text, f"turn {number}'s output lacks {fragment!r}"
    return True


def asks_for_five() -> bool:
    """Turn 1's memory_search calls each ask for five hits, and each got five."""
    agent = make_agent(verbose=False)
    seed_memory(agent.memory)
    agent.chat(CONVERSATION[0])
    calls = [step.detail["call"] for step in agent.last_turn.steps if step.kind == "tool"]
    assert len(calls) == 3 and all(call.name == "memory_search" and json.loads(call.arguments)["top_k"] == 5
                                  for call in calls)
    return turn(1, "Found 5 memories")


def trace_rows_fit() -> bool:
    """Every trace in the lesson shows steps of at most TRACE_WIDTH characters; show_turn prints the whole answer."""
    from aria_kit.tables import TRACE_WIDTH

    cells = [cell for cell in LESSON.notebook.cells if cell.cell_type == "code" and "show_turn(agent" in cell.source
             or "show_turn(restarted" in cell.source]
    assert len(cells) == 7, len(cells)
    for cell in cells:
        text = LESSON._text(cell)
        table, answer = text.split("Answer:\n", 1)
        lines = table.splitlines()
        head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#  step"))
        widths = [len(re.split(r"\s{2,}", line.strip(), maxsplit=2)[2]) for line in lines[head + 2:] if line.strip()]
        assert max(widths) <= TRACE_WIDTH, max(widths)
        assert "…" not in answer.strip()[-1:], "the whole answer is cut"
    return True


def storage_engine_ranks() -> bool:
    memory = HybridMemory()
    seed_memory(memory)
    memory.store("Alice switched VelocityDB's storage engine from LSM-tree to B-tree.", {"category": "decision"})
    best = memory.search("What storage engine decision did Alice make?", top_k=1)[0]
    assert best.id == "mem_0008" and best.vector_rank == 1 and best.keyword_rank == 1
    text = out("before = [(hit.id, hit.score, hit.cosine, hit.bm25)")
    assert re.search(r"mem_0008\s+1\.0000\s+0\.4450", text) and re.search(r"mem_0002\s+\S+\s+0\.4439", text)
    return True


def hot_swap() -> bool:
    text = out("agent.register_tool(StorageWebSearch())")
    assert "[B-tree] A B-tree keeps keys sorted" in text and "[mem_0008]" in text
    answer = text.split("Answer:\n", 1)[1]
    assert answer.index("From the (simulated) web:") < answer.index("From memory:")
    return True


def hot_swap_request() -> bool:
    llm = ScriptedProvider([say("one"), say("two")])
    agent = make_agent(llm=llm, verbose=False)
    agent.chat("Hello.")
    history = list(agent.history)
    agent.register_tool(StorageWebSearch())
    agent.chat(HOT_SWAP_QUESTION)
    names = [t["function"]["name"] for t in llm.requests[1]["tools"]]
    assert names.count("web_search") == 1 and llm.requests[1]["messages"][1:1 + len(history)] == history
    assert agent.tools["web_search"].__class__ is StorageWebSearch
    table = out('title="The whole conversation"').splitlines()
    assert HOT_SWAP_QUESTION in table[-1] and table[-1].split()[0] == "6"
    return True


def dump() -> bool:
    text = out('title="Memory dump"').splitlines()[3:]
    assert len(text) == len(DEMO_FACTS) + 1 and text[-1].split()[1] == "decision"
    return True


def seeding_twice() -> bool:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        with HybridMemory(path=Path(folder) / "aria.sqlite") as memory:
            seed_memory(memory)
            seed_memory(memory)
            assert len(DEMO_FACTS) == 7 and len(memory) == 14
    return True


CLAIMS = [
    Claim("the four tools of lesson 06 and lesson 10's `memory_update`",
          lambda: "Tools: memory_store, memory_search, calculator, web_search, memory_update" in out("agent = make_agent()")),
    Claim("and it prints one line saying which", lambda: out("agent = make_agent()").startswith("No OPENAI_API_KEY set")),
    Claim("The seven demo facts", lambda: len(DEMO_FACTS) == 7 and len(out('title="Seeded memories"').splitlines()) == 10),
    Claim("Three queries, with the top 2 hits for each", lambda: len(SHOWDOWN_QUERIES) == 3 and len(showdown()) == 6),
    Claim("and the fused score that decides the order, by the kit's default fusion",
          lambda: default_is_the_convex_mix() and convex_rescaling() and winners_win_both()),
    Claim("measures it against plain RRF", lambda: "kit default − seed (RRF 60)" in LESSON_05.outputs_of_all()
          and rrf_is_the_other_fusion()),
    Claim("The same query as a chart", lambda: "plot_score_components(agent.memory, \"order 4821\", top_k=3)"
          in LESSON.cell(8).source and LESSON.notebook.cells[8].outputs[0].output_type == "display_data"),
    Claim("so \"preference\" finds \"prefers\"", stems),
    Claim("both retrievers rank the order first", order_4821),
    Claim("Its cosine is a weak 0.404", order_4821),
    Claim("exactly (2.906)", order_4821),
    Claim("= 0.377, less than half the winner's", order_4821),
    Claim("(cosine below 1, BM25 around 3)", winners_win_both),
    Claim("The memory that wins both rankings wins the fusion", winners_win_both),
    Claim("Five messages, in order", lambda: len(CONVERSATION) == 5),
    Claim("cuts long steps, so `show_turn` prints the whole answer below it", trace_rows_fit),
    Claim("asks three questions in one message", turn_one),
    Claim("runs one `memory_search` per part", turn_one),
    Claim("lists the project [mem_0002], the deadline [mem_0005] and Raft [mem_0003]", turn_one),
    Claim("is only 4th of the five hits", project_is_fourth),
    Claim("The stand-in asks for five hits", lambda: asks_for_five() and only_the_project_has_both()),
    Claim("and two other facts about Alice", only_the_project_has_both),
    Claim("Had it asked for three hits, the project would not have been among them", project_is_fourth),
    Claim("is the showdown's \"order 4821\" again", lambda: turn(2, "1  recall  mem_0007", "[mem_0007]")),
    Claim("gets 143 for `22 * 6.5`", lambda: turn(3, '→ 143', "143 hours")),
    Claim("pulls the two numbers out of", lambda: turn(3, 'calculator({"expression": "22 * 6.5"})')),
    Claim("asks the agent to remember a change", lambda: turn(4, "Stored as mem_0008 (category: decision)")),
    Claim("The search always returns its five best hits, but none is a fact this change would replace",
          lambda: turn(4, 'memory_search({"query": "LSM-tree", "top_k": 5})', 'Found 5 memories for "LSM-tree"',
                       "No current memory matched 'LSM-tree', so nothing was superseded.")),
    Claim("Will the reopened memory give the same three hits",
          lambda: len(out("before = [(hit.id, hit.score, hit.cosine, hit.bm25)").splitlines()) == 3 + 3),
    Claim("(0.445 against 0.444 for the runner-up, section 7)", storage_engine_ranks),
    Claim("asks about that decision without naming either engine", lambda: turn(5, "[mem_0008]") and not
          {"LSM-tree", "B-tree"} & set(CONVERSATION[4].replace("?", "").split())
          and {"LSM-tree", "B-tree"} <= set(CONVERSATION[3].split())),
    Claim("So the fact stored one turn earlier is recalled and quoted", lambda: turn(5, "1  recall  mem_0008", "[mem_0008]")),
    Claim("knows only three topics", lambda: "(it only covers: OpenAI, RAG, BM25)" in out('run("B-tree")')),
    Claim("found Alice's decision [mem_0008]", hot_swap),
    Claim("the stand-in pastes the two results one after the other", hot_swap),
    Claim("the seven seeded facts, then the decision it stored itself", dump),
    Claim("the history and the memory are untouched", hot_swap_request),
    Claim("a file remembers across runs", seeding_twice),
    Claim("it can (the lesson does it)", lambda: "Reopened the file: 8 memories." in out("memory.close()\n\nwith HybridMemory")),
    Claim("HybridMemory cannot be opened twice in one process", lambda: "Reopened the file: 8 memories." in out("memory.close()\n\nwith HybridMemory")),
    Claim("is only 4th of the five hits for", project_is_fourth),
]

EXEMPT = {
    "one step per cell": "describes the lesson's layout",
    "lessons 04 (hybrid memory), 06 (tools)": "references to lessons",
    "Compare turn 1 and the hot-swap answer": "what to look for with a real model, which the offline lesson "
                                                   "cannot run",
    "asked about OpenAI, RAG or BM25": "the exercise's specification; check_glossary_web_search tests it",
    "The check calls it twice on one file": "describes the check; tests/test_exercises_09.py runs it",
    "Design the two halves of a forget that needs the person's yes": "the exercise's specification; "
                                                                      "check_forget_request tests it",
    "takes one parameter, `memory_id`, typed and described": "the exercise's specification; check_forget_request "
                                                             "tests it",
    "calls your function between two turns": "describes the check; tests/test_exercises_09.py runs it",
    "A new process reads the file faster": "a misconception offered as a wrong option",
    "a new process is slower to start": "the explanation of that wrong option; the lesson does not time it",
}


# The quiz: its questions pose new cases, and a predict question's key is computed by running the kit (issue 27).
_key_holds = partial(quiz_key_holds, "09")  # Q{number}'s computed key is its answer


def bob_word_counts() -> bool:
    """Q4's hits: the question words each holds, as the stand-in counts them (synonyms and stems included)."""
    from aria_kit.bm25 import tokenize
    from aria_kit.offline import _content_words, _names, _stem

    question = "What is Bob's project?"
    wanted, names = _content_words(question), _names(question)
    def held(text):
        stems = {_stem(t) for t in tokenize(text)}
        return {w for w, forms in wanted.items() if forms & stems}
    budget, app, ocaml = (held(t) for t in ("The project budget is 40,000 euros.", "Bob is working on a weather app.",
                                            "Bob likes OCaml."))
    assert (budget, app, ocaml) == ({"project"}, {"bob", "project"}, {"bob"}) and names == {"bob"}
    return _key_holds(4)


CLAIMS += [
    Claim("Predict: between turns 2 and 3, a running agent with the kit's tools", lambda: _key_holds(1)),
    Claim('You run the cell three times.', lambda: _key_holds(2)),
    Claim('Three: the file outlives each run, and each store adds a memory', lambda: _key_holds(2)),
    Claim('Predict: a memory_search for "What is Bob\'s project?" returns, best first', lambda: _key_holds(4)),
    Claim("it alone holds both 'Bob' and 'project'", bob_word_counts),
    Claim('"The project budget is 40,000 euros.", "Bob is working on a weather app." and', lambda: _key_holds(4)),
    Claim("the budget holds one, the weather app two", bob_word_counts),
    Claim("only the hits tied for the most shared words are quoted; one shared word loses to two", bob_word_counts),
    Claim("here two mention the project, so 'Bob likes OCaml.' is left out", bob_word_counts),
]
EXEMPT.update({
    'The budget and the weather app, best first: both mention the project':
        'a wrong option; the computed key rules it out',
    'All three: each shares a word with the question': 'a wrong option; the computed key rules it out',
    'As many schemas as before: the new tool takes the place of the last':
        'a wrong option; the computed key rules it out',
    'One: the second and third runs find the same text and store nothing':
        'a wrong option; the computed key rules it out',
    "One: each run opens the file afresh, so only the last run's sentence":
        'a wrong option; the computed key rules it out',
})
