"""Property test: whatever tool calls a model sends, the loop survives and the transcript stays valid."""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from aria_kit.agent import AutonomousAgent
from aria_kit.interfaces import AssistantMessage, ToolCall
from aria_kit.persona import ARIA
from aria_kit.schemas import validate_arguments
from aria_kit.scripted import ScriptedProvider, say
from aria_kit.tools import default_tools
from toy_memory import ToyMemory

MAX_ROUNDS = 4
TOOL_NAMES = ["memory_store", "memory_search", "calculator", "web_search"]

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
known_keys = st.sampled_from(["text", "category", "query", "top_k", "expression", "extra"])
plausible_objects = st.dictionaries(known_keys, json_values | st.text(max_size=20), max_size=4)
raw_arguments = st.one_of(
    plausible_objects.map(json.dumps),
    json_values.map(json.dumps),  # arrays, numbers, strings, null: valid JSON, wrong shape
    st.text(max_size=40),  # mostly not JSON at all
    st.just('{"text": "' + "x" * 200_000 + '"}'),  # a huge string
    st.just('{"expression": "9**9**9"}'),
    st.just(""),
)
calls = st.tuples(st.sampled_from(TOOL_NAMES) | st.text(max_size=12), raw_arguments)
replies = st.lists(calls, min_size=1, max_size=12)


def expected_problem(name, raw):
    """What the tool reply must mention, or None when the call is well-formed."""
    if name not in TOOL_NAMES:
        return "unknown tool"
    try:
        value = json.loads(raw or "{}")
    except json.JSONDecodeError:
        return "not valid JSON"
    if not isinstance(value, dict):
        return "must be a JSON object"
    return None


def assert_valid_chat_transcript(messages):
    """The rules the chat-completions API enforces on a conversation."""
    assert messages[0]["role"] == "system"
    pending = []
    for message in messages[1:]:
        role = message["role"]
        assert role in {"user", "assistant", "tool"}
        if role == "tool":
            assert pending and message["tool_call_id"] == pending.pop(0), "tool reply out of order or unasked"
            assert isinstance(message["content"], str)
            continue
        assert not pending, f"tool calls {pending} got no reply"
        if role == "assistant":
            pending = [c["id"] for c in message.get("tool_calls", [])]
            assert message["content"] is not None or pending
    assert not pending


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(replies, min_size=1, max_size=MAX_ROUNDS))
def test_random_tool_calls_never_break_the_loop(rounds):
    script = [AssistantMessage(tool_calls=tuple(ToolCall(f"c{r}_{i}", n, a) for i, (n, a) in enumerate(reply)))
              for r, reply in enumerate(rounds)]
    hits_limit = len(script) == MAX_ROUNDS
    llm = ScriptedProvider(script if hits_limit else script + [say("done")])
    memory = ToyMemory()
    tools = default_tools(memory)
    agent = AutonomousAgent(ARIA, llm, memory, tools, max_rounds=MAX_ROUNDS, max_tool_calls_per_reply=12,
                            max_tool_calls_per_turn=48)  # every generated call runs: this test is about the tools

    answer = agent.chat("go")  # no exception may escape

    llm.assert_all_used()
    assert len(llm.requests) <= MAX_ROUNDS
    assert answer.startswith("Round limit reached") if hits_limit else answer == "done"
    assert_valid_chat_transcript(llm.requests[-1]["messages"])
    assert_valid_chat_transcript([{"role": "system"}] + agent.history)
    # every call got exactly one tool reply, in order, naming the problem when there was one
    sent = [(f"c{r}_{i}", name, raw) for r, reply in enumerate(rounds) for i, (name, raw) in enumerate(reply)]
    tool_steps = [s for s in agent.last_turn.steps if s.kind == "tool"]
    assert [s.detail["call"].id for s in tool_steps] == [call_id for call_id, _, _ in sent]
    schemas = {t.name: t.parameters_schema() for t in tools}
    for (call_id, name, raw), step in zip(sent, tool_steps):
        content = step.detail["result"]
        problem = expected_problem(name, raw)
        if problem is None and validate_arguments(schemas[name], json.loads(raw or "{}")):
            problem = "invalid arguments"
        if problem:
            assert content.startswith("Error:") and problem in content, (name, raw, content)
        assert len(content) <= 9_000
