import json

from aria_kit.clock import LESSON_DAY
from aria_kit.tools import MemorySearchTool, MemoryStoreTool, WebSearchTool, default_tools
from toy_memory import ToyMemory


def test_default_tools_publish_typed_described_schemas():
    tools = {t.name: t.schema()["function"] for t in default_tools(ToyMemory())}
    assert sorted(tools) == ["calculator", "memory_search", "memory_store", "web_search"]
    store = tools["memory_store"]["parameters"]
    assert store["required"] == ["text"]
    assert store["properties"]["category"]["default"] == "general"
    assert store["properties"]["text"]["type"] == "string"
    search = tools["memory_search"]["parameters"]
    assert search["properties"]["top_k"]["type"] == "integer"
    for name, function in tools.items():
        assert function["description"], name
        for prop, spec in function["parameters"]["properties"].items():
            assert spec.get("description"), f"{name}.{prop} has no description"
        json.dumps(function)  # schemas must serialise for the API


def test_memory_store_returns_the_new_id_and_category():
    memory = ToyMemory()
    assert MemoryStoreTool(memory).invoke({"text": "Bob likes tea.", "category": "user_pref"}) == "Stored as mem_0001 (category: user_pref)."
    assert memory.list_all()[0].metadata == {"category": "user_pref", "date": LESSON_DAY}  # dated (clock.py)


def test_memory_store_reports_rejected_input_as_an_error_for_the_model():
    memory = ToyMemory()
    assert MemoryStoreTool(memory).invoke({"text": "   "}).startswith("Error: text must be a non-empty string")
    assert MemoryStoreTool(memory).invoke({"text": "x" * 5000}).endswith("`text` is 5000 characters long; the limit is 4000")
    assert MemoryStoreTool(memory).run("x" * 5000).startswith("Error: the text is 5000 characters")
    assert memory.list_all() == []


def test_memory_search_lists_hits_with_ids_and_scores():
    memory = ToyMemory()
    memory.store("Bob likes tea.", {"category": "user_pref"})
    result = MemorySearchTool(memory).invoke('{"query": "bob tea"}')
    assert result.splitlines() == [
        'Found 1 memory for "bob tea", best first, one JSON object per line:',
        '{"id": "mem_0001", "category": "user_pref", "text": "Bob likes tea.", "fused": 2.0, "cosine": 0.0, "bm25": 2.0}',
    ]
    assert MemorySearchTool(memory).invoke({"query": "zebra"}) == 'No memories found for "zebra".'
    assert MemorySearchTool(memory).invoke({"query": "bob", "top_k": 0}).endswith("`top_k` must be at least 1, got 0")
    assert MemorySearchTool(memory).run("bob", top_k=11).startswith("Error: top_k must be between 1 and 10")


def test_web_search_finds_built_in_topics_and_says_when_it_has_nothing():
    web = WebSearchTool()
    assert web.invoke({"query": "what is BM25?"}).startswith("[BM25] BM25 is a keyword ranking function")
    assert "Retrieval-Augmented Generation" in web.invoke({"query": "explain rag"})
    nothing = web.invoke({"query": "B-tree"})
    assert nothing.startswith("No results for 'B-tree' in the simulated knowledge base")
    assert "OpenAI, RAG, BM25" in nothing


def test_web_search_can_be_extended_by_subclass_or_argument():
    class Storage(WebSearchTool):
        KNOWLEDGE = {**WebSearchTool.KNOWLEDGE, "B-tree": "A balanced tree of pages."}

    assert Storage().invoke({"query": "explain B-trees"}) == "[B-tree] A balanced tree of pages."
    assert WebSearchTool({"Raft": "A consensus algorithm."}).invoke({"query": "raft"}) == "[Raft] A consensus algorithm."
