"""OpenAIProvider over real HTTP: what it sends, how it reads replies, and how it is chosen.

Every test talks to ``FakeOpenAIServer`` on 127.0.0.1 through the real
``openai`` SDK, so the request bodies asserted here are the bytes a real server
would see. Failures (401, 429, timeouts …) live in ``test_provider_faults.py``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from fake_openai_server import FAKE_KEY, FakeOpenAIServer, chat_reply, embeddings_reply, provider_for, tool_call

from aria_kit.interfaces import AssistantMessage, Tool, ToolCall
from aria_kit.openai_provider import OpenAIProvider, ProviderError, default_provider, make_client

MESSAGES = [{"role": "system", "content": "You are Aria."}, {"role": "user", "content": "What is 6 * 7?"}]


class Calculator(Tool):
    name = "calculator"
    description = "Evaluate an arithmetic expression."

    def run(self, expression: str) -> str:
        """expression: the arithmetic to evaluate, e.g. 6 * 7"""
        return expression


pytestmark = pytest.mark.usefixtures("no_openai_environment")



# ---------------------------------------------------------------- replies are normalised


def test_plain_answer_becomes_an_assistant_message_with_no_tool_calls(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply("42."))
    assert provider_for(fake_openai).complete(MESSAGES) == AssistantMessage(content="42.", tool_calls=())


def test_one_tool_call_keeps_id_name_and_raw_json_arguments(fake_openai: FakeOpenAIServer) -> None:
    raw = '{"expression": "6 * 7"}'
    fake_openai.reply(chat_reply(None, [tool_call("calculator", raw, call_id="call_abc")]))
    reply = provider_for(fake_openai).complete(MESSAGES, tools=[Calculator().schema()])
    assert reply == AssistantMessage(content=None, tool_calls=(ToolCall("call_abc", "calculator", raw),))


def test_several_tool_calls_keep_their_order(fake_openai: FakeOpenAIServer) -> None:
    served = [
        tool_call("memory_search", '{"query": "VelocityDB", "top_k": 2}', call_id="call_1"),
        tool_call("calculator", '{"expression": "22*6.5"}', call_id="call_2"),
        tool_call("web_search", '{"query": "Raft"}', call_id="call_3"),
    ]
    fake_openai.reply(chat_reply("Let me check.", served))
    reply = provider_for(fake_openai).complete(MESSAGES, tools=[Calculator().schema()])
    expected = tuple(ToolCall(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in served)
    assert reply.content == "Let me check."
    assert reply.tool_calls == expected


# ---------------------------------------------------------------- what goes over the wire


def test_request_carries_model_temperature_messages_and_tool_schemas(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply("ok"))
    schemas = [Calculator().schema()]
    provider_for(fake_openai, model="llama3.1", temperature=0.7).complete(MESSAGES, tools=schemas)
    (request,) = fake_openai.requests
    assert request.method == "POST" and request.path == "/v1/chat/completions"
    assert request.body["model"] == "llama3.1"
    assert request.body["temperature"] == 0.7
    assert request.body["messages"] == MESSAGES
    assert request.body["tools"] == schemas
    assert request.body["tool_choice"] == "auto"
    assert request.headers["authorization"] == f"Bearer {FAKE_KEY}"


def test_tools_and_tool_choice_are_left_out_when_no_tools_are_given(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply("ok"), times=2)
    provider = provider_for(fake_openai)
    provider.complete(MESSAGES)
    provider.complete(MESSAGES, tools=[])
    for request in fake_openai.requests:
        assert "tools" not in request.body and "tool_choice" not in request.body
        assert request.body["temperature"] == 0.2


def test_temperature_none_is_not_sent(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply("ok"))
    provider_for(fake_openai, temperature=None).complete(MESSAGES)
    assert "temperature" not in fake_openai.requests[0].body


def test_base_url_and_model_come_from_the_environment(fake_openai: FakeOpenAIServer, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.url)
    monkeypatch.setenv("OPENAI_MODEL", "llama3.1")
    fake_openai.reply(chat_reply("hi from the local server"))
    provider = OpenAIProvider()  # no key: a local server does not need one
    assert provider.complete(MESSAGES).content == "hi from the local server"
    assert provider.name == f"llama3.1 via {fake_openai.url}"
    (request,) = fake_openai.requests
    assert request.body["model"] == "llama3.1"
    assert request.headers["authorization"] == "Bearer not-needed"


def test_a_ready_client_is_used_as_given(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply("from the given client"))
    client = make_client(api_key=FAKE_KEY, base_url=fake_openai.url, max_retries=0)
    provider = OpenAIProvider("qwen2.5", client=client)
    assert provider.client is client and provider.name == f"qwen2.5 via {fake_openai.url}"
    assert provider.complete(MESSAGES).content == "from the given client"


# ---------------------------------------------------------------- odd shapes from local servers


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"role": "assistant", "content": None}, AssistantMessage(None, ())),
        ({"content": "no role, no tool_calls key"}, AssistantMessage("no role, no tool_calls key", ())),
        ({"role": "assistant", "content": "x", "tool_calls": None}, AssistantMessage("x", ())),
        ({"role": "assistant", "content": "x", "tool_calls": []}, AssistantMessage("x", ())),
        ({"role": "assistant", "content": [{"type": "text", "text": "in "}, {"type": "text", "text": "parts"}]},
         AssistantMessage("in parts", ())),
    ],
    ids=["content-none", "missing-tool-calls-key", "tool-calls-null", "tool-calls-empty", "content-parts"],
)
def test_odd_message_shapes_are_normalised(fake_openai: FakeOpenAIServer, message, expected) -> None:
    fake_openai.reply({"choices": [{"index": 0, "message": message}]})
    assert provider_for(fake_openai).complete(MESSAGES) == expected


@pytest.mark.parametrize(
    ("served", "expected"),
    [
        ({"expression": "6 * 7", "precise": True}, json.dumps({"expression": "6 * 7", "precise": True})),
        ("", "{}"),
        (None, "{}"),
        ('{"expression": "6 *', '{"expression": "6 *'),  # broken JSON is kept: the tool reports it to the model
    ],
    ids=["dict", "empty-string", "null", "broken-json-kept-raw"],
)
def test_tool_call_arguments_always_come_back_as_json_text(fake_openai: FakeOpenAIServer, served, expected) -> None:
    fake_openai.reply(chat_reply(None, [tool_call("calculator", served)]))
    (call,) = provider_for(fake_openai).complete(MESSAGES, tools=[Calculator().schema()]).tool_calls
    assert call.arguments == expected


def test_tool_calls_without_ids_get_distinct_generated_ids(fake_openai: FakeOpenAIServer) -> None:
    calls = [tool_call("calculator", '{"expression": "1+1"}', call_id=None)] * 2
    fake_openai.reply(chat_reply(None, calls), times=2)
    provider = provider_for(fake_openai)
    ids = [c.id for _ in range(2) for c in provider.complete(MESSAGES, tools=[Calculator().schema()]).tool_calls]
    assert all(i.startswith("call_") and len(i) > len("call_") for i in ids)
    assert len(set(ids)) == 4  # unique across the call and across rounds, so tool results cannot be mixed up


def test_tool_call_without_a_function_name_is_a_bad_response(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply(chat_reply(None, [{"id": "call_1", "type": "function", "function": {"arguments": "{}"}}]))
    with pytest.raises(ProviderError) as caught:
        provider_for(fake_openai).complete(MESSAGES, tools=[Calculator().schema()])
    assert caught.value.kind == "bad_response"
    assert "no function name" in str(caught.value)


def test_empty_choices_is_a_bad_response(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.reply({"id": "x", "object": "chat.completion", "choices": []})
    with pytest.raises(ProviderError) as caught:
        provider_for(fake_openai).complete(MESSAGES)
    assert caught.value.kind == "bad_response"
    assert fake_openai.url in str(caught.value) and "OPENAI_BASE_URL" in str(caught.value)


# ---------------------------------------------------------------- names, clients and the default


@pytest.mark.parametrize(
    ("base_url", "expected"),
    [
        (None, "gpt-4o-mini via api.openai.com"),
        ("http://127.0.0.1:11434/v1", "gpt-4o-mini via http://127.0.0.1:11434/v1"),
        ("http://127.0.0.1:11434/v1/", "gpt-4o-mini via http://127.0.0.1:11434/v1"),
        ("https://alice:hunter2@llm.example.org/v1", "gpt-4o-mini via https://llm.example.org/v1"),
    ],
)
def test_name_says_model_and_endpoint_but_no_secrets(base_url, expected) -> None:
    provider = OpenAIProvider(api_key=FAKE_KEY, base_url=base_url)
    assert provider.name == expected
    assert FAKE_KEY not in repr(provider) and "hunter2" not in repr(provider)


def test_make_client_without_key_or_base_url_is_a_config_error(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")  # an empty variable (common in .env files) counts as unset
    with pytest.raises(ProviderError) as caught:
        make_client()
    assert caught.value.kind == "config"
    assert "OPENAI_API_KEY" in str(caught.value) and "offline" in str(caught.value)


def test_make_client_reads_key_and_settings(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    client = make_client(timeout=5.0, max_retries=1)
    assert (client.api_key, client.timeout, client.max_retries) == (FAKE_KEY, 5.0, 1)
    assert str(client.base_url).startswith("https://api.openai.com/")


def test_default_provider_is_offline_without_key(monkeypatch, capsys) -> None:
    offline = pytest.importorskip("aria_kit.offline")
    provider = default_provider()
    assert isinstance(provider, offline.OfflineProvider)
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["No OPENAI_API_KEY set — running offline. Set it to use gpt-4o-mini."]


def test_default_provider_uses_openai_with_key_and_sends_nothing(fake_openai: FakeOpenAIServer, monkeypatch,
                                                                   capsys) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    assert default_provider().name == "gpt-4o-mini via api.openai.com"
    assert capsys.readouterr().out == "Using gpt-4o-mini via api.openai.com (OPENAI_API_KEY is set).\n"
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.url)
    provider = default_provider(verbose=False)
    assert isinstance(provider, OpenAIProvider) and provider.name == f"gpt-4o-mini via {fake_openai.url}"
    assert capsys.readouterr().out == ""
    assert fake_openai.requests == []  # choosing a provider must not call the server


# ---------------------------------------------------------------- the embedder speaks the same wire


def test_openai_embedder_sends_texts_and_returns_unit_rows(fake_openai: FakeOpenAIServer) -> None:
    from aria_kit.openai_embedder import OpenAIEmbedder

    fake_openai.reply(embeddings_reply([[3.0, 4.0], [0.0, 2.0]]))
    embedder = OpenAIEmbedder(client=make_client(api_key="sk-test", base_url=fake_openai.url))
    vectors = embedder.embed(["Alice likes Rust.", "VelocityDB uses Raft."])
    np.testing.assert_allclose(vectors, [[0.6, 0.8], [0.0, 1.0]], rtol=1e-6)
    (request,) = fake_openai.requests
    assert request.path == "/v1/embeddings"
    assert request.body["model"] == "text-embedding-3-small"
    assert request.body["input"] == ["Alice likes Rust.", "VelocityDB uses Raft."]
