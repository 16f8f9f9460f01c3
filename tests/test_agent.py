import json

import pytest

from aria_kit.agent import AutonomousAgent
from aria_kit.interfaces import AssistantMessage, Tool, ToolCall
from aria_kit.persona import ARIA
from aria_kit.openai_provider import ProviderError
from aria_kit.scripted import ScriptedProvider, call_tool, call_tools, say
from toy_memory import ToyMemory


class Add(Tool):
    name = "add"
    description = "Add two integers."

    def run(self, a: int, b: int) -> str:
        """a: first. b: second."""
        return str(a + b)


class Broken(Tool):
    name = "broken"
    description = "Always raises."

    def run(self) -> str:
        raise RuntimeError("disk on fire")


def make(script, tools=(Add(), Broken()), **kwargs):
    memory = ToyMemory()
    memory.store("Alice's favourite language is Rust.", {"category": "user_pref"})
    llm = ScriptedProvider(script)
    return AutonomousAgent(ARIA, llm, memory, tools, **kwargs), llm, memory


def tool_replies(request):
    return [m for m in request["messages"] if m["role"] == "tool"]


def test_plain_answer_is_returned_and_recorded_in_history():
    agent, llm, _ = make([say("Rust.")])
    assert agent.chat("Which language does Alice like?") == "Rust."
    llm.assert_all_used()
    assert agent.history == [
        {"role": "user", "content": "Which language does Alice like?"},
        {"role": "assistant", "content": "Rust."},
    ]


def test_recalled_memories_go_into_their_own_message_and_all_tool_schemas_are_sent():
    agent, llm, memory = make([say("ok")])
    agent.chat("Rust language?")
    request = llm.requests[0]
    assert request["messages"][0] == {"role": "system", "content": ARIA.instructions()}
    entry = '{"id": "mem_0001", "category": "user_pref", "text": "Alice\'s favourite language is Rust."}'
    assert entry in request["messages"][-2]["content"].splitlines()
    assert request["messages"][-1] == {"role": "user", "content": "Rust language?"}
    assert [t["function"]["name"] for t in request["tools"]] == ["add", "broken"]
    assert memory.searches == ["Rust language?"]


def test_tool_result_is_fed_back_with_the_call_id_before_the_next_model_call():
    agent, llm, _ = make([call_tool("add", {"a": 2, "b": 3}, call_id="c1"), say("5")])
    assert agent.chat("2+3?") == "5"
    second = llm.requests[1]["messages"]
    assert second[-2]["tool_calls"][0]["id"] == "c1"
    assert second[-1] == {"role": "tool", "tool_call_id": "c1", "content": "5"}
    kinds = [s.kind for s in agent.last_turn.steps]
    assert kinds == ["recall", "model", "tool", "model", "answer"]


@pytest.mark.parametrize(
    "call, expected",
    [
        (ToolCall("c1", "nope", "{}"), "Error: unknown tool `nope`. Available tools: add, broken."),
        (ToolCall("c1", "add", "{not json"), "Error: arguments for `add` are not valid JSON"),
        (ToolCall("c1", "add", "[1, 2]"), "Error: arguments for `add` must be a JSON object, got list."),
        (ToolCall("c1", "add", '{"a": 1}'), "argument `b` is required"),
        (ToolCall("c1", "add", '{"a": 1, "b": "2"}'), "argument `b` must be of type integer, got str"),
        (ToolCall("c1", "add", '{"a": 1, "b": 2, "c": 3}'), "unknown argument `c`"),
        (ToolCall("c1", "broken", ""), "Error: tool `broken` failed with RuntimeError: disk on fire"),
    ],
)
def test_every_bad_tool_call_gets_one_tool_reply_that_names_the_problem(call, expected):
    agent, llm, _ = make([AssistantMessage(tool_calls=(call,)), say("sorry")])
    assert agent.chat("go") == "sorry"
    replies = tool_replies(llm.requests[1])
    assert len(replies) == 1 and replies[0]["tool_call_id"] == "c1"
    assert expected in replies[0]["content"]


def test_several_calls_in_one_reply_each_get_a_reply_in_order():
    agent, llm, _ = make([call_tools(("add", {"a": 1, "b": 1}), ("nope", {}), ("add", {"a": 2, "b": 2})), say("done")])
    agent.chat("go")
    replies = tool_replies(llm.requests[1])
    assert [r["tool_call_id"] for r in replies] == ["call_1", "call_2", "call_3"]
    assert replies[0]["content"] == "2" and replies[2]["content"] == "4"
    assert replies[1]["content"].startswith("Error: unknown tool")


def test_round_limit_counts_model_calls_and_says_so():
    agent, llm, _ = make([call_tool("add", {"a": 1, "b": 1})] * 3, max_rounds=3)
    answer = agent.chat("loop forever")
    llm.assert_all_used()
    assert len(llm.requests) == 3
    assert answer.startswith("Round limit reached")
    assert agent.history[-1] == {"role": "assistant", "content": answer}


def test_a_provider_failure_propagates_and_leaves_history_unchanged():
    agent, llm, _ = make([say("first"), ProviderError("Rate limited (429). Wait a minute and try again.", kind="rate_limit")])
    agent.chat("hello")
    before = json.dumps(agent.history)
    with pytest.raises(ProviderError, match="Rate limited"):
        agent.chat("again")
    assert json.dumps(agent.history) == before
    assert len(agent.turns) == 1


def test_history_is_sent_on_the_next_turn():
    agent, llm, _ = make([say("one"), say("two")])
    agent.chat("first")
    agent.chat("second")
    roles = [(m["role"], m["content"]) for m in llm.requests[1]["messages"][1:]]
    assert roles == [("user", "first"), ("assistant", "one"), ("user", ARIA.live_context([])), ("user", "second")]


def test_hot_swap_replaces_a_tool_by_name_and_clear_history_keeps_memory():
    class Add2(Add):
        def run(self, a: int, b: int) -> str:
            return f"sum is {a + b}"

    agent, llm, memory = make([say("x"), call_tool("add", {"a": 1, "b": 2}), say("y")])
    agent.chat("one")
    agent.register_tool(Add2())
    assert agent.list_tools() == ["add", "broken"]
    agent.chat("two")
    assert tool_replies(llm.requests[2])[0]["content"] == "sum is 3"
    agent.clear_history()
    assert agent.history == [] and agent.turns == []
    assert [r.id for r in agent.memory_dump()] == ["mem_0001"]


def test_empty_message_is_refused_before_any_model_call():
    agent, llm, _ = make([])
    with pytest.raises(ValueError, match="empty"):
        agent.chat("   ")
    assert llm.requests == []


def test_scripted_llm_fails_loudly_when_it_runs_out_or_is_left_unused():
    agent, llm, _ = make([say("only one")])
    agent.chat("a")
    with pytest.raises(AssertionError, match="ran out of replies"):
        agent.chat("b")
    _, unused, _ = make([say("a"), say("b")])
    with pytest.raises(AssertionError, match="1 unused replies|2 unused replies"):
        unused.assert_all_used()


def test_huge_tool_results_are_truncated_for_the_model():
    class Flood(Tool):
        name = "flood"
        description = "Returns a lot."

        def run(self) -> str:
            return "x" * 100_000

    agent, llm, _ = make([call_tool("flood", {}), say("ok")], tools=[Flood()])
    agent.chat("go")
    content = tool_replies(llm.requests[1])[0]["content"]
    assert len(content) < 9_000 and "truncated: 100000 characters" in content
