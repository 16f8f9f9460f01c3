"""A scriptable stand-in for an OpenAI-compatible server, on 127.0.0.1, for tests.

It answers ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` from a
queue of scripted replies and records every request it receives, so a test can
drive the real ``openai`` SDK over real HTTP (respx cannot intercept this SDK
version) and then assert on what went over the wire::

    from fake_openai_server import FakeOpenAIServer, chat_reply

    with FakeOpenAIServer() as server:
        server.reply(chat_reply("Hello!"))
        client = make_client(api_key="sk-test", base_url=server.url)
        ...
        assert server.requests[0].body["model"] == "gpt-4o-mini"

or, in pytest, take the ``fake_openai`` fixture (``tests/conftest.py`` shares it
with every test module) and build a provider on it with ``provider_for``. Each reply can set a status,
a JSON body or raw bytes, headers (e.g. ``Retry-After``) and a delay before
answering. The queue is strict: a request with no reply left gets a 418 error
that names the problem, and the fixture fails the test if replies were left
unused or requests went unanswered.

What it does not do: streaming (SSE), authentication checks (it records the
``Authorization`` header and lets the test decide), or any endpoint other than
the two above (others get a 404 and are recorded).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

ROUTES = ("/v1/chat/completions", "/v1/embeddings")


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``body`` is JSON-encoded unless it is ``bytes``, which go out as-is."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    content_type: str = "application/json"

    def encoded(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        return json.dumps(self.body).encode()


@dataclass(frozen=True)
class RecordedRequest:
    """What the server received: path, headers (lower-cased names), raw bytes and the parsed JSON body."""

    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any  # parsed JSON, or None when the body was not JSON


# ---------------------------------------------------------------- reply builders


def chat_reply(
    content: str | None = None,
    tool_calls: Sequence[dict[str, Any]] = (),
    *,
    model: str = "gpt-4o-mini",
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A chat-completions body with one choice. ``tool_calls`` items are ``tool_call(...)`` dicts."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = list(tool_calls)
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def tool_call(name: str, arguments: str | dict[str, Any] = "{}", call_id: str | None = "call_1") -> dict[str, Any]:
    """One tool call as the server sends it. A dict ``arguments`` or ``call_id=None`` mimic odd local servers."""
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if call_id is not None:
        call["id"] = call_id
    return call


def embeddings_reply(vectors: Sequence[Sequence[float]], *, model: str = "text-embedding-3-small") -> dict[str, Any]:
    """An embeddings body with one ``data`` item per vector, in order."""
    return {
        "object": "list",
        "data": [{"object": "embedding", "index": i, "embedding": [float(x) for x in v]} for i, v in enumerate(vectors)],
        "model": model,
        "usage": {"prompt_tokens": 1, "total_tokens": 1},
    }


def error_reply(status: int, message: str, *, code: str | None = None, headers: dict[str, str] | None = None) -> Reply:
    """An OpenAI-style error: ``{"error": {"message", "type", "code"}}`` with the given status."""
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
    return Reply(body=body, status=status, headers=headers or {})


# ---------------------------------------------------------------- the server


class FakeOpenAIServer:
    """A threaded HTTP server on 127.0.0.1 (a free port) that replies from a queue and records requests.

    ``url`` is the base URL to hand the SDK (it ends in ``/v1``). Use it as a
    context manager, or call ``start()`` and ``stop()``.
    """

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.unanswered: list[RecordedRequest] = []
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # cuts scripted delays short on stop()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        # A short poll interval makes stop() quick (the default 0.5 s would add that to every test).
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,), name="fake-openai", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def reply(self, body: Any = None, *, status: int = 200, headers: dict[str, str] | None = None,
              delay: float = 0.0, content_type: str = "application/json", times: int = 1) -> None:
        """Queue the next answer (``times`` copies). ``body`` may be a ready ``Reply`` (then the options are ignored)."""
        reply = body if isinstance(body, Reply) else Reply(body, status, dict(headers or {}), delay, content_type)
        with self._lock:
            self._queue.extend([reply] * times)

    @property
    def pending(self) -> int:
        """How many queued replies have not been used yet."""
        with self._lock:
            return len(self._queue)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if request.path not in ROUTES:
                return error_reply(404, f"fake server: no route {request.method} {request.path}; it serves {', '.join(ROUTES)}")
            if self._queue:
                return self._queue.popleft()
            self.unanswered.append(request)
        # 418 because the SDK does not retry it, so a missing reply fails once and loudly.
        return error_reply(418, f"fake server: no scripted reply left for {request.method} {request.path}; queue one with server.reply(...)")


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects

        def do_POST(self) -> None:
            self._answer()

        def do_GET(self) -> None:
            self._answer()

        def _answer(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            headers = {name.lower(): value for name, value in self.headers.items()}
            reply = server._next_reply(RecordedRequest(self.command, self.path, headers, raw, body))
            if reply.delay and server._stopping.wait(reply.delay):
                return  # the server is stopping; nobody is waiting for this answer
            payload = reply.encoded()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (e.g. a timeout test); that is the point of the test

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet; the recorded requests are the log

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started ``FakeOpenAIServer``; fails the test if replies go unused or requests unanswered."""
    with FakeOpenAIServer() as server:
        yield server
    assert not server.unanswered, f"requests arrived with no scripted reply: {[r.path for r in server.unanswered]}"
    assert server.pending == 0, f"{server.pending} scripted replies were never requested"


FAKE_KEY = "sk-test-SECRET1234567890abcdef"  # key-shaped, so a leak into any message or log is caught


def provider_for(server: FakeOpenAIServer | str, *, max_retries: int = 0, timeout: float = 5.0, **options: Any):
    """An ``OpenAIProvider`` talking to ``server`` (or a URL) with ``FAKE_KEY``; no retries unless asked."""
    from aria_kit.openai_provider import OpenAIProvider

    url = server.url if isinstance(server, FakeOpenAIServer) else server
    return OpenAIProvider(api_key=FAKE_KEY, base_url=url, max_retries=max_retries, timeout=timeout, **options)
