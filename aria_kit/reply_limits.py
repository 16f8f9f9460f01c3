"""Limits on what a model server may do to a call: a deadline, a size cap, no hop to another host (lesson 08).

The HTTP timeout of the ``openai`` SDK bounds each *read*, not the call: a
server that trickles one byte every half second never trips it, and nothing
stops a reply of hundreds of megabytes from being read into memory. By
default the SDK also follows redirects, so a server can send the whole
conversation on to another host. ``ReplyLimits`` closes those three gaps with
two ``httpx2`` event hooks that ``make_client`` installs on the SDK's own HTTP
client (so proxies and connection pooling are unchanged):

- an overall deadline: every wait is shortened to the time left, and the body
  is checked against the deadline as each chunk arrives;
- a cap on the bytes of a reply (``Content-Length`` is checked up front, the
  body as it streams in; compression is not accepted, so the cap is the size
  in memory);
- redirects are followed only within the same origin (scheme, host, port).

A limit that trips raises ``ReplyRefused``, an ``openai.OpenAIError``, which
the SDK passes through without retrying and ``translate_error`` turns into a
``ProviderError``. ``call_deadline`` makes one deadline span a whole call,
retries included. Clients you build yourself get none of this.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

import httpx2
import openai

DEFAULT_DEADLINE = 120.0  # seconds for one model call, retries included
DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024  # a chat reply is kilobytes; 256 embeddings of 3,072 floats ~ 11 MB
_DEADLINE_KEY = "aria_kit.deadline"  # request extension that carries the deadline to the response hook
_call_deadline: ContextVar[float | None] = ContextVar("aria_kit_call_deadline", default=None)


class ReplyRefused(openai.OpenAIError):
    """A reply broke one of the limits. ``kind`` is the ``ProviderError`` kind it becomes."""

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


@contextlib.contextmanager
def call_deadline(seconds: float) -> Iterator[None]:
    """Make every request inside the block (the SDK's retries too) share one deadline, ``seconds`` from now."""
    token = _call_deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _call_deadline.reset(token)


class ReplyLimits:
    """The two event hooks; pass ``event_hooks=limits.hooks()`` to an ``httpx2.Client``."""

    def __init__(self, deadline: float = DEFAULT_DEADLINE, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> None:
        if not deadline > 0 or not max_reply_bytes > 0:
            raise ValueError(f"deadline and max_reply_bytes must be positive, got {deadline} and {max_reply_bytes}")
        self.deadline, self.max_reply_bytes = deadline, max_reply_bytes

    def hooks(self) -> dict[str, list]:
        return {"request": [self.on_request], "response": [self.on_response]}

    def on_request(self, request: httpx2.Request) -> None:
        """Stamp the deadline on the request and shorten every timeout to the time left before it."""
        deadline = _call_deadline.get() or time.monotonic() + self.deadline
        left = deadline - time.monotonic()
        if left <= 0:
            raise self._late(request)
        timeouts = request.extensions.get("timeout") or {}
        shortened = {name: left if value is None else min(value, left) for name, value in timeouts.items()}
        request.extensions = {**request.extensions, "timeout": shortened or {"read": left}, _DEADLINE_KEY: deadline}
        request.headers["Accept-Encoding"] = "identity"  # so the bytes counted are the bytes kept

    def on_response(self, response: httpx2.Response) -> None:
        """Refuse a hop to another origin, an oversized or compressed reply; watch the body as it streams."""
        request = response.request
        if response.has_redirect_location:
            target = request.url.join(response.headers["Location"])
            if (target.scheme, target.host, target.port) != (request.url.scheme, request.url.host, request.url.port):
                raise ReplyRefused(f"The server at {_origin(request.url)} redirected the call to another host, "
                                   f"{_origin(target)}; the conversation was not sent there. Point OPENAI_BASE_URL "
                                   "at the server that answers.", kind="bad_response")
        encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise ReplyRefused(f"The server at {_origin(request.url)} compressed its reply ({encoding}) although "
                               "asked not to, so its size cannot be capped.", kind="bad_response")
        length = response.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > self.max_reply_bytes:
            raise self._too_big(request, int(length))
        response.stream = _WatchedBody(response.stream, self, request)

    def _late(self, request: httpx2.Request) -> ReplyRefused:
        return ReplyRefused(f"The model server at {_origin(request.url)} did not finish answering within the "
                            f"overall deadline of {self.deadline:g} s. Try again, or raise it "
                            "(OpenAIProvider(deadline=...)).", kind="timeout")

    def _too_big(self, request: httpx2.Request, size: int) -> ReplyRefused:
        return ReplyRefused(f"The server at {_origin(request.url)} sent a reply of more than {self.max_reply_bytes:,} "
                            f"bytes ({size:,} so far); it was dropped. Check OPENAI_BASE_URL, or raise the cap "
                            "(OpenAIProvider(max_reply_bytes=...)).", kind="bad_response")


class _WatchedBody(httpx2.SyncByteStream):
    """The reply body, chunk by chunk, refused once it passes the size cap or the deadline."""

    def __init__(self, stream: httpx2.SyncByteStream, limits: ReplyLimits, request: httpx2.Request) -> None:
        self._stream, self._limits, self._request = stream, limits, request

    def __iter__(self) -> Iterator[bytes]:
        deadline = self._request.extensions.get(_DEADLINE_KEY) or time.monotonic() + self._limits.deadline
        size = 0
        for chunk in self._stream:
            size += len(chunk)
            if size > self._limits.max_reply_bytes:
                raise self._limits._too_big(self._request, size)
            if time.monotonic() > deadline:
                raise self._limits._late(self._request)
            yield chunk

    def close(self) -> None:
        self._stream.close()


def _origin(url: httpx2.URL) -> str:
    """scheme://host:port, never a path, query or credentials."""
    return f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")
