"""Off-spec replies, slow and huge replies, redirects: still one ProviderError, never the key (issue 13).

Every test drives the real ``openai`` SDK over real HTTP on 127.0.0.1, either
through ``FakeOpenAIServer`` or, where a reply must trickle or stream, through
a few-line server of its own. The key check walks the whole exception chain
(``__cause__`` and ``__context__``) and the printed traceback.
"""

from __future__ import annotations

import json
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from fake_openai_server import FAKE_KEY, FakeOpenAIServer, Reply, chat_reply, error_reply, tool_call

from aria_kit.agent import AutonomousAgent
from aria_kit.openai_embedder import OpenAIEmbedder
from aria_kit.openai_provider import OpenAIProvider, ProviderError, make_client
from aria_kit.persona import ARIA
from toy_memory import ToyMemory

MESSAGES = [{"role": "user", "content": "Hello?"}]


pytestmark = pytest.mark.usefixtures("no_openai_environment")


def chain(error: BaseException) -> list[BaseException]:
    """The error and everything chained to it, explicitly or implicitly."""
    seen: list[BaseException] = []
    todo = [error]
    while todo:
        current = todo.pop()
        if current is not None and all(current is not s for s in seen):
            seen.append(current)
            todo += [current.__cause__, current.__context__]
    return seen


def assert_no_key(error: BaseException) -> None:
    shown = "".join(traceback.format_exception(error)) + "".join(f"{e!r} {e}" for e in chain(error))
    assert "SECRET1234" not in shown, shown
    assert [type(e).__name__ for e in chain(error)] == ["ProviderError"]


def provider(url: str, **options) -> OpenAIProvider:
    return OpenAIProvider("gpt-4o-mini", api_key=FAKE_KEY, base_url=url, max_retries=0, **options)


def with_choice(message) -> dict:
    body = chat_reply("unused")
    body["choices"] = [{"index": 0, "message": message, "finish_reason": "stop"}]
    return body


def with_choices(choices) -> dict:
    return {**chat_reply("unused"), "choices": choices}


OFF_SPEC = {
    "invalid UTF-8 inside the JSON": Reply(b'{"choices": [{"index": 0, "message": {"role": "assistant", '
                                           b'"content": "caf\xe9 \xff"}}]}'),
    "choices as an object": with_choices({"0": {"message": {"role": "assistant", "content": "hi"}}}),
    "choices as a number": with_choices(3),
    "a choice that is a string": with_choices(["hi"]),
    "message as a string": with_choice("hi"),
    "content as a number": with_choice({"role": "assistant", "content": 42}),
    "content as an object": with_choice({"role": "assistant", "content": {"text": "hi"}}),
    "tool_calls as a number": with_choice({"role": "assistant", "content": None, "tool_calls": 7}),
    "tool_calls as an object": with_choice({"role": "assistant", "content": None, "tool_calls": {"name": "x"}}),
    "function name as a number": chat_reply(tool_calls=[tool_call(42)]),
    "function as a string": with_choice({"role": "assistant", "tool_calls": [{"id": "c", "function": "add"}]}),
    "a 5,000-digit number": Reply(b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": '
                                  + b"9" * 5000 + b"}}]}"),
    "JSON nested 100,000 deep": Reply(b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
}


@pytest.mark.parametrize("reply", OFF_SPEC.values(), ids=OFF_SPEC.keys())
def test_an_off_spec_reply_is_one_bad_response_error_with_nothing_chained(fake_openai, reply) -> None:
    fake_openai.reply(reply)
    with pytest.raises(ProviderError) as caught:
        provider(fake_openai.url).complete(MESSAGES)
    assert caught.value.kind == "bad_response", str(caught.value)
    assert "Try again" in str(caught.value) or "Check that OPENAI_BASE_URL" in str(caught.value)
    assert_no_key(caught.value)


@pytest.mark.parametrize("reply", [OFF_SPEC["content as a number"], OFF_SPEC["function name as a number"]])
def test_the_agent_reports_an_off_spec_reply_as_a_provider_error_and_keeps_its_history(fake_openai, reply) -> None:
    fake_openai.reply(reply)
    agent = AutonomousAgent(ARIA, provider(fake_openai.url), ToyMemory())
    with pytest.raises(ProviderError):
        agent.chat("Hello?")
    assert agent.history == []


def test_odd_but_usable_tool_call_fields_are_normalised(fake_openai) -> None:
    fake_openai.reply(chat_reply(tool_calls=[tool_call("add", {"a": 1}, call_id=5)]))
    reply = provider(fake_openai.url).complete(MESSAGES)
    (call,) = reply.tool_calls
    assert (call.name, json.loads(call.arguments)) == ("add", {"a": 1})
    assert isinstance(call.id, str) and call.id.startswith("call_")  # a number is no id: a fresh one is made


# ---------------------------------------------------------------- the key never rides along in the chain


def test_the_embedder_error_chain_holds_no_key(fake_openai) -> None:
    fake_openai.reply(error_reply(401, f"Incorrect API key provided: Bearer {FAKE_KEY}."))
    embedder = OpenAIEmbedder(client=make_client(api_key=FAKE_KEY, base_url=fake_openai.url, max_retries=0))
    with pytest.raises(ProviderError) as caught:
        embedder.embed(["hello"])
    assert caught.value.kind == "auth"
    assert_no_key(caught.value)


def test_the_provider_error_chain_holds_no_key(fake_openai) -> None:
    fake_openai.reply(error_reply(400, f"bad request, you sent Bearer {FAKE_KEY}"))
    with pytest.raises(ProviderError) as caught:
        provider(fake_openai.url).complete(MESSAGES)
    assert "Bearer [redacted]" in str(caught.value)
    assert_no_key(caught.value)


# ---------------------------------------------------------------- deadline, size cap, redirects


class RawServer:
    """A one-route HTTP server on 127.0.0.1 whose handler writes whatever the test says, however slowly."""

    def __init__(self, write: Callable[[BaseHTTPRequestHandler], None]) -> None:
        self.hits = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.hits += 1
                try:
                    write(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, which is what the test wants

            def log_message(self, *args) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def trickle(handler: BaseHTTPRequestHandler, body: bytes = json.dumps(chat_reply("hi")).encode()) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    for i in range(len(body)):  # one byte every 0.1 s: each read is quick, the whole reply takes ~20 s
        handler.wfile.write(body[i : i + 1])
        handler.wfile.flush()
        time.sleep(0.1)


def silent_after_headers(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "1000")
    handler.end_headers()
    handler.wfile.flush()
    time.sleep(4)


@pytest.mark.parametrize("write", [trickle, silent_after_headers])
def test_a_reply_that_never_finishes_is_cut_at_the_overall_deadline(write) -> None:
    with RawServer(write) as server:
        started = time.monotonic()
        with pytest.raises(ProviderError) as caught:
            provider(server.url, timeout=3.0, deadline=1.0).complete(MESSAGES)
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert "overall deadline of 1 s" in str(caught.value) and "deadline=" in str(caught.value)
    assert elapsed < 2.5, f"the call took {elapsed:.1f} s with a 1 s deadline"
    assert_no_key(caught.value)


def test_one_deadline_spans_the_sdks_retries() -> None:
    with RawServer(silent_after_headers) as server:
        slow = OpenAIProvider("m", api_key=FAKE_KEY, base_url=server.url, max_retries=3, timeout=0.6, deadline=1.0)
        started = time.monotonic()
        with pytest.raises(ProviderError) as caught:
            slow.complete(MESSAGES)
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout" and "overall deadline" in str(caught.value)
    assert elapsed < 2.5, f"four attempts of 0.6 s each were not cut at the 1 s deadline ({elapsed:.1f} s)"


def huge(handler: BaseHTTPRequestHandler, *, announce: bool) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    if announce:
        handler.send_header("Content-Length", str(5_000_000))
    else:
        handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b" " * 65_536
    for _ in range(5_000_000 // len(chunk)):
        handler.wfile.write(chunk if announce else b"%x\r\n%s\r\n" % (len(chunk), chunk))
    if not announce:
        handler.wfile.write(b"0\r\n\r\n")


@pytest.mark.parametrize("announce", [True, False], ids=["with Content-Length", "chunked, no length"])
def test_a_reply_over_the_size_cap_is_dropped(announce: bool) -> None:
    with RawServer(lambda handler: huge(handler, announce=announce)) as server:
        with pytest.raises(ProviderError) as caught:
            provider(server.url, max_reply_bytes=1_000_000).complete(MESSAGES)
    assert caught.value.kind == "bad_response"
    assert "more than 1,000,000 bytes" in str(caught.value) and "max_reply_bytes" in str(caught.value)
    assert_no_key(caught.value)


def test_a_reply_under_the_size_cap_is_read_as_usual(fake_openai) -> None:
    fake_openai.reply(chat_reply("x" * 50_000))
    assert provider(fake_openai.url, max_reply_bytes=60_000).complete(MESSAGES).content == "x" * 50_000


@pytest.fixture
def other_host() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_to_another_host_is_refused_and_the_conversation_stays_here(fake_openai, other_host, status) -> None:
    fake_openai.reply(Reply(b"", status=status, headers={"Location": other_host.url + "/chat/completions"}))
    with pytest.raises(ProviderError) as caught:
        provider(fake_openai.url).complete(MESSAGES)
    assert caught.value.kind == "bad_response" and "redirected the call to another host" in str(caught.value)
    assert other_host.requests == []
    assert_no_key(caught.value)


def test_a_redirect_on_the_same_server_is_still_followed(fake_openai) -> None:
    fake_openai.reply(Reply(b"", status=307, headers={"Location": "/v1/chat/completions"}))
    fake_openai.reply(chat_reply("moved"))
    assert provider(fake_openai.url).complete(MESSAGES).content == "moved"


def test_embeddings_go_through_the_same_limits(fake_openai, other_host) -> None:
    fake_openai.reply(Reply(b"", status=307, headers={"Location": other_host.url + "/embeddings"}))
    embedder = OpenAIEmbedder(client=make_client(api_key=FAKE_KEY, base_url=fake_openai.url, max_retries=0))
    with pytest.raises(ProviderError, match="another host"):
        embedder.embed(["hello"])
    assert other_host.requests == []
    fake_openai.reply({"object": "list", "data": [{"index": 0, "embedding": [3.0, 4.0]}], "model": "m"})
    assert np.allclose(embedder.embed(["hello"]), [[0.6, 0.8]])


@pytest.mark.parametrize("reply", [
    {"object": "list", "data": 5, "model": "m"},
    {"object": "list", "data": [{"index": 0, "embedding": "not numbers"}], "model": "m"},
    {"object": "list", "data": [{"index": None, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}], "model": "m"},
    Reply(b'{"object": "list", "data": [{"index": 0, "embedding": [1.0]}], "model": "caf\xe9"}'),
], ids=["data as a number", "an embedding as text", "an index of null", "invalid UTF-8"])
def test_an_off_spec_embeddings_reply_is_one_bad_response_error(fake_openai, reply) -> None:
    fake_openai.reply(reply)
    embedder = OpenAIEmbedder(client=make_client(api_key=FAKE_KEY, base_url=fake_openai.url, max_retries=0))
    with pytest.raises(ProviderError) as caught:
        embedder.embed(["hello", "world"])
    assert caught.value.kind == "bad_response" and "OPENAI_BASE_URL" in str(caught.value)
    assert_no_key(caught.value)
