"""The keys of the "predict" quiz questions, computed: each function runs the kit on its question's case.

A function returns the letter of the option that came true when the kit ran, so a key cannot be wrong:
``tests/test_quiz_kinds.py`` calls every ``compute`` and compares its letter with the question's ``answer``.
A function answers only the case its question states (named in its docstring); anything the run does not
match raises, and the test reports it. Imports happen inside each function, so importing a lesson's quiz
stays fast. Nothing here is shown to the learner.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path


def _only(found: dict[str, bool]) -> str:
    """The one letter whose outcome holds; several or none is a question the kit does not answer."""
    letters = [letter for letter, holds in found.items() if holds]
    if len(letters) != 1:
        raise AssertionError(f"the run made {letters or 'no option'} true; exactly one option should be")
    return letters[0]


def _offline_agent(memory=None, **kwargs):
    from aria_kit.demo import make_agent
    from aria_kit.offline import OfflineProvider

    return make_agent(memory=memory, llm=OfflineProvider(), verbose=False, **kwargs)


# ---------------------------------------------------------------- lesson 01

def missing_delete() -> str:
    """01: a MemoryBackend subclass that writes every method but ``delete``."""
    from aria_kit.interfaces import MemoryBackend

    methods = {name: (lambda self, *args, **kwargs: None) for name in MemoryBackend.__abstractmethods__ - {"delete"}}
    partial = type("Partial", (MemoryBackend,), methods)  # defining the class raised nothing: not "d"
    try:
        memory = partial()
    except TypeError:
        return "c"
    try:
        return "b" if memory.delete("mem_0001") is None else "a"
    except NotImplementedError:
        return "a"


# ---------------------------------------------------------------- lesson 02

def cosine_of_opposites() -> str:
    """02: cosine([3, 4], [-6, -8]) with the kit's normalize."""
    import numpy as np

    from aria_kit.embeddings import normalize

    a, b = normalize(np.array([[3.0, 4.0], [-6.0, -8.0]]))
    value = float(a @ b)
    return _only({"a": abs(value - 1) < 1e-9, "b": abs(value + 1) < 1e-9, "c": abs(value) < 1e-9,
                  "d": abs(value + 50) < 1e-9})


# ---------------------------------------------------------------- lesson 04

def rrf_of_one_ranking() -> str:
    """04: 1st in the vector ranking, absent from the keyword ranking, RRF with k = 60."""
    from aria_kit.fusion import reciprocal_rank_fusion

    vector, keyword = ["target", "m2", "m3", "m4"], ["m2", "m3"]
    score = dict(reciprocal_rank_fusion([vector, keyword], k=60))["target"]
    return _only({"a": abs(score - 1 / 61) < 1e-12, "b": abs(score - (1 / 61 + 1 / 64)) < 1e-12,
                  "c": abs(score - 1 / 122) < 1e-12, "d": score == 1.0})


def smaller_k() -> str:
    """04: k from 60 to 1, for a memory 1st by cosine that no keyword matches, while five others match 'the'."""
    from aria_kit.fusion import reciprocal_rank_fusion

    vector = ["target", "the1", "the2", "the3", "the4", "the5"]
    keyword = ["the1", "the2", "the3", "the4", "the5"]  # a filler word: every other memory has it

    def place(k: int) -> int | None:
        order = [memory for memory, _ in reciprocal_rank_fusion([vector, keyword], k=k)]
        return order.index("target") if "target" in order else None

    before, after = place(60), place(1)
    return _only({"a": after is not None and after > before, "b": after is not None and after < before,
                  "c": after == before, "d": after is None})


# ---------------------------------------------------------------- lesson 05

def capped_recall_of_eight() -> str:
    """05: 8 labelled facts, 5 of them in the top 5."""
    from aria_kit.measuring import capped_recall_at_k, recall_at_k

    relevant = [f"fact_{n}" for n in range(8)]
    ranking = relevant[:5] + ["other_1", "other_2"]
    pair = (recall_at_k(ranking, relevant, 5), capped_recall_at_k(ranking, relevant, 5))
    return _only({"a": pair == (0.625, 1.0), "b": pair == (1.0, 1.0), "c": pair == (0.625, 0.625),
                  "d": pair == (1.0, 0.625)})


def bootstrap_by_session() -> str:
    """05: questions of one session succeed or fail together; resample sessions instead of questions."""
    import numpy as np

    from aria_kit.measuring import bootstrap_interval

    rng = np.random.default_rng(0)
    outcomes = rng.integers(0, 2, size=20).astype(float)  # one outcome per session ...
    values = np.repeat(outcomes, 5)  # ... shared by its five questions
    sessions = np.repeat(np.arange(20), 5)
    low, high = bootstrap_interval(values)
    low_s, high_s = bootstrap_interval(values, clusters=sessions)
    return _only({"a": high_s - low_s > high - low, "b": high_s - low_s < high - low,
                  "c": (low_s, high_s) == (low, high), "d": False})


# ---------------------------------------------------------------- lesson 06

def schema_without_docstring() -> str:
    """06: run(self, query: str, top_k: int = 3) with no docstring."""
    from aria_kit.interfaces import Tool

    class Search(Tool):
        name = "search"
        description = "Search."

        def run(self, query: str, top_k: int = 3) -> str:
            return query

    parameters = Search().schema()["function"]["parameters"]
    top_k = parameters["properties"].get("top_k")
    if top_k is None:
        return "a"
    typed = top_k.get("type") == "integer" and top_k.get("default") == 3 and "top_k" not in parameters["required"]
    return _only({"b": typed and "description" not in top_k, "c": typed and "description" in top_k})


def _memory_search_answer(arguments: dict) -> tuple[str, bool]:
    """What memory_search's invoke answers for ``arguments``, and whether run was called."""
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.tools import MemorySearchTool

    class Counted(HybridMemory):  # run's only work is a search, so a search is a call to run
        def search(self, *args, **kwargs):
            calls.append(args)
            return super().search(*args, **kwargs)

    calls: list[tuple] = []
    tool = MemorySearchTool(Counted())
    tool.memory.store("Order #4821 was for 32 GB of DDR5 RAM.")
    try:
        answer = tool.invoke(json.dumps(arguments))
    except Exception as exc:  # noqa: BLE001 - an exception is an outcome an option names
        return f"raised {type(exc).__name__}", bool(calls)
    return answer, bool(calls)


def top_k_true() -> str:
    """06: memory_search gets {"query": "order 4821", "top_k": true}."""
    answer, ran = _memory_search_answer({"query": "order 4821", "top_k": True})
    refused = answer.startswith("Error:") and "`top_k` must be of type integer, got bool" in answer
    return _only({"a": ran and not answer.startswith("Error:"), "b": answer.startswith("raised"),
                  "c": refused and not ran})


def top_k_over_maximum() -> str:
    """06: memory_search gets {"query": "order 4821", "top_k": 50}, its schema's maximum being 10."""
    answer, ran = _memory_search_answer({"query": "order 4821", "top_k": 50})
    return _only({"a": ran and not answer.startswith(("Error:", "raised")), "b": answer.startswith("Error:")
                  and "top_k" in answer and not ran, "c": False, "d": answer.startswith("raised ValueError")})


# ---------------------------------------------------------------- lesson 08

def invalid_json_arguments() -> str:
    """08: the model's tool call has arguments that are not JSON."""
    from aria_kit.scripted import ScriptedProvider, call_tool, say

    llm = ScriptedProvider([call_tool("memory_search", '{"query": "order 4821"'), say("Done.")])
    agent = _offline_agent()
    agent.llm = llm
    try:
        agent.chat("What did Alice order?")
    except Exception:  # noqa: BLE001 - a traceback is an outcome an option names
        return "a"
    last = llm.requests[-1]["messages"][-1]
    if last["role"] != "tool":
        return "c"
    return _only({"b": last["content"].startswith("Error:") and "JSON" in last["content"],
                  "c": not last["content"].startswith("Error:")})


def script_runs_out() -> str:
    """08: ScriptedProvider runs out of replies in the middle of a turn."""
    from aria_kit.scripted import ScriptedProvider, call_tool

    agent = _offline_agent()
    agent.llm = ScriptedProvider([call_tool("memory_search", {"query": "order"})])  # no second reply
    before = list(agent.history)
    try:
        agent.chat("What did Alice order?")
    except AssertionError:
        pass
    after = agent.history
    return _only({"a": after == before + [{"role": "user", "content": "What did Alice order?"}],
                  "b": after == before, "c": len(after) == len(before) + 2})


def twenty_store_calls() -> str:
    """08: one reply asks for twenty memory_store calls; max_tool_calls_per_reply is 8."""
    from aria_kit.scripted import ScriptedProvider, call_tools, say

    calls = [("memory_store", {"text": f"Fact number {n} about the project."}) for n in range(20)]
    llm = ScriptedProvider([call_tools(*calls), say("Stored what I could.")])
    agent = _offline_agent()
    agent.llm, agent.max_tool_calls_per_reply = llm, 8
    agent.chat("Remember these twenty facts.")
    tools = [m for m in llm.requests[-1]["messages"] if m["role"] == "tool"]
    errors = [m for m in tools if m["content"].startswith("Error:") and "limit" in m["content"]]
    return _only({"a": len(tools) == 8, "b": len(tools) == 20 and len(errors) == 12
                  and not any(m["content"].startswith("Error:") for m in tools[:8]), "c": not tools})


# ---------------------------------------------------------------- lesson 09

def hot_swap_between_turns() -> str:
    """09: register_tool(StorageWebSearch()) between two turns."""
    from aria_kit.demo import StorageWebSearch, seed_memory
    from aria_kit.scripted import ScriptedProvider, say

    agent = _offline_agent()
    seed_memory(agent.memory)
    agent.llm = llm = ScriptedProvider([say("First."), say("Second.")])
    agent.chat("Hello, Aria.")
    history = list(agent.history)
    agent.register_tool(StorageWebSearch())
    agent.chat("What is an LSM-tree?")
    request = llm.requests[-1]
    sent_history = [m for m in request["messages"][1:] if m in history]
    web = [s for s in request["tools"] if s["function"]["name"] == "web_search"]
    is_new = agent.tools["web_search"].__class__ is StorageWebSearch
    return _only({"a": sent_history == history and len(web) == 1 and is_new, "b": not sent_history,
                  "c": len(web) == 2})


def seed_a_file_twice() -> str:
    """09: the demo facts seeded into HybridMemory(path='aria.sqlite') by a cell run twice."""
    from aria_kit.demo import DEMO_FACTS, seed_memory
    from aria_kit.hybrid_memory import HybridMemory

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        path = Path(folder) / "aria.sqlite"
        for _ in range(2):
            with HybridMemory(path=path) as memory:
                seed_memory(memory)
        with HybridMemory(path=path) as memory:
            count = len(memory)
    return _only({"a": count == len(DEMO_FACTS), "b": count == 2 * len(DEMO_FACTS), "c": False})


# ---------------------------------------------------------------- lesson 10

def append_only_language() -> str:
    """10: append-only memory with the Rust fact and "Alice has switched to Go."; the stand-in is asked."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Alice's favourite programming language is Rust.", {"category": "user_pref"})
    memory.store("Alice has switched to Go.", {"category": "user_pref"})
    answer = _offline_agent(memory).chat("What is Alice's favourite programming language?")
    return _only({"a": "Go" in answer and "Rust" not in answer, "b": "Rust" in answer and "Go" not in answer,
                  "c": "Rust" in answer and "Go" in answer})


def dave_likes_chess() -> str:
    """10: memory holds "Dave likes tea."; the agent stores "Dave likes chess."."""
    from aria_kit.hybrid_memory import HybridMemory

    memory = HybridMemory()
    memory.store("Dave likes tea.", {"category": "user_pref"})
    answer = _offline_agent(memory).tools["memory_store"].invoke({"text": "Dave likes chess."})
    return _only({"a": answer.startswith("Not stored yet"), "b": answer.startswith("Stored as"),
                  "c": answer.startswith("Not stored:")})


# ---------------------------------------------------------------- lesson 11

def clear_keeps_memory() -> str:
    """11: chat.clear() after a turn."""
    from aria_kit.chat_widget import ChatWidget
    from aria_kit.demo import seed_memory

    agent = _offline_agent()
    seed_memory(agent.memory)
    chat = ChatWidget(agent)
    chat.send("Remember that my favourite editor is Helix.")
    stored = len(agent.memory)
    chat.clear()
    kept = len(agent.memory)
    return _only({"a": kept == 0, "b": kept == stored and not agent.history and not chat.entries[1:],
                  "c": 0 < kept < stored})


def editor_changes() -> str:
    """11: memory holds "My favourite editor is Vim." (mem_0008); the learner types the Helix sentence."""
    from aria_kit.chat_widget import ChatWidget
    from aria_kit.demo import seed_memory

    agent = _offline_agent()
    seed_memory(agent.memory)
    vim = agent.memory.store("My favourite editor is Vim.", {"category": "user_pref"})
    if vim != "mem_0008":
        raise AssertionError(f"the Vim fact got {vim}, not the question's mem_0008")
    chat = ChatWidget(agent)
    chat.send("Remember that my favourite editor is Helix")
    records = agent.memory.list_all()
    newest, old = records[-1], agent.memory.get(vim)
    panel = chat.memory_panel.value
    current = [r for r in records if "editor" in r.text and r.superseded_by is None]
    return _only({"a": len(current) == 2, "b": "Helix" in newest.text and old is not None
                  and old.superseded_by == newest.id
                  and f"replaced by <a href='#aria-memory-{newest.id}'>" in panel, "c": old is None})


# ---------------------------------------------------------------- lesson 12

def bm25_tie() -> str:
    """12: two memories tie exactly on BM25 for a query, on HybridMemory and on QdrantMemory."""
    from aria_kit.fusion import RRF
    from aria_kit.hybrid_memory import HybridMemory
    from aria_kit.qdrant_memory import QdrantMemory

    texts = ["Alice plays the cello.", "Alice plays the oboe."]  # same length, one shared query word each
    older = {}
    for name, memory in (("hybrid", HybridMemory(fusion=RRF(60), stopwords=(), stemming=False)),
                         ("qdrant", QdrantMemory())):
        ids = [memory.store(text) for text in texts]
        hits = {hit.id: hit for hit in memory.search("Who plays?", top_k=2)}
        if hits[ids[0]].bm25 != hits[ids[1]].bm25:
            raise AssertionError(f"{name}: the two memories do not tie on BM25")
        older[name] = hits[ids[0]].keyword_rank < hits[ids[1]].keyword_rank
        memory.close() if hasattr(memory, "close") else None
    return _only({"a": older["hybrid"] and older["qdrant"], "b": older["hybrid"] and not older["qdrant"],
                  "c": False, "d": not older["hybrid"] and not older["qdrant"]})
