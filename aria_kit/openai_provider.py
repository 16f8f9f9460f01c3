"""Talk to OpenAI, or any OpenAI-compatible server, as an ``LLMProvider`` (lessons 08/09: providers).

``OpenAIProvider`` sends chat-completions requests through the official
``openai`` SDK and turns the first choice into the kit's one
``AssistantMessage`` shape. The same class talks to Ollama, vLLM, llama.cpp or
LM Studio: point ``OPENAI_BASE_URL`` (or ``base_url``) at the server. Replies
from such servers are sometimes a little off-spec (no ``tool_calls`` key,
arguments as an object instead of a JSON string, a tool call without an id);
those are normalised rather than crashed on, and fields of the wrong JSON type
are refused. Every failure leaves as one ``ProviderError`` whose ``kind`` a
program can branch on and whose message says what went wrong and what to do
next; it never contains the API key, and nothing is chained to it (the SDK's
own error can echo the key). The client ``make_client`` builds also enforces
an overall deadline, a reply-size cap and same-host redirects
(``reply_limits.py``).
``default_provider`` picks OpenAI when it is configured and the offline
stand-in otherwise, so every lesson runs without a key.

What it deliberately does not do: streaming, async, more than one choice
(``n > 1``), or retries of its own (the SDK retries 408/409/429/5xx and
connection errors ``max_retries`` times with backoff; we only report how many).
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

import openai

from aria_kit.interfaces import AssistantMessage, LLMProvider, ToolCall
from aria_kit.reply_limits import DEFAULT_DEADLINE, DEFAULT_MAX_REPLY_BYTES, ReplyLimits, ReplyRefused, call_deadline

DEFAULT_MODEL = "gpt-4o-mini"
OPENAI_HOST = "api.openai.com"
# Local servers ignore the key, but the SDK insists on having one.
NO_KEY_NEEDED = "not-needed"
_ENDPOINTS = ("/chat/completions", "/embeddings")
_KEY_PATTERN = re.compile(r"sk-[A-Za-z0-9_\-]{6,}")


class ProviderError(Exception):
    """A model call failed. ``kind`` says how; the message says what to do about it."""

    KINDS = ("auth", "rate_limit", "connection", "timeout", "bad_request", "server", "bad_response", "not_found", "config")

    def __init__(self, message: str, *, kind: str, status: int | None = None) -> None:
        if kind not in self.KINDS:
            raise ValueError(f"unknown ProviderError kind {kind!r}; expected one of {self.KINDS}")
        super().__init__(message)
        self.kind = kind
        self.status = status

    def __repr__(self) -> str:
        return f"ProviderError(kind={self.kind!r}, {str(self)!r})"


def make_client(api_key: str | None = None, base_url: str | None = None, timeout: float = 30.0,
                max_retries: int = 2, *, deadline: float = DEFAULT_DEADLINE,
                max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> openai.OpenAI:
    """Build an ``openai.OpenAI`` client, reading ``OPENAI_API_KEY`` / ``OPENAI_BASE_URL`` when not given.

    With a ``base_url`` (a local server such as Ollama) a missing key is fine and
    a placeholder is sent. With neither a key nor a base URL there is nothing to
    talk to, so this raises ``ProviderError(kind="config")`` saying how to fix it.
    Empty environment variables count as unset. No request is sent here.
    ``timeout`` bounds each wait; ``deadline`` (seconds per request) and
    ``max_reply_bytes`` bound the whole reply, and redirects stay on the same
    host (see ``reply_limits``).
    """
    api_key = (api_key or os.environ.get("OPENAI_API_KEY") or "").strip() or None
    base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "").strip() or None
    if api_key is None:
        if base_url is None:
            raise ProviderError(
                "No OPENAI_API_KEY set, so there is no model to call. Set OPENAI_API_KEY (or OPENAI_BASE_URL "
                "for a local server such as Ollama), or run offline with default_provider().",
                kind="config",
            )
        api_key = NO_KEY_NEEDED
    http_client = openai.DefaultHttpxClient(event_hooks=ReplyLimits(deadline, max_reply_bytes).hooks())
    return openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries,
                         http_client=http_client)


def describe_endpoint(url: object) -> str:
    """``api.openai.com`` for OpenAI, else the base URL without credentials, query or trailing slash."""
    parts = urlsplit(str(url))
    if not parts.scheme:  # not a URL (e.g. a test double without base_url): say what it is
        return str(url)
    if parts.hostname == OPENAI_HOST:
        return OPENAI_HOST
    path = parts.path.rstrip("/")
    for endpoint in _ENDPOINTS:  # an error's request URL ends in the endpoint; the base URL does not
        path = path.removesuffix(endpoint)
    netloc = parts.netloc.rpartition("@")[2]  # drop any user:password@
    return f"{parts.scheme}://{netloc}{path}"


def _redact(text: str, secret: str | None) -> str:
    """Remove the key (and anything shaped like an OpenAI key) from text a server sent back."""
    if secret and secret != NO_KEY_NEEDED:
        text = text.replace(secret, "[redacted]")
    return _KEY_PATTERN.sub("sk-[redacted]", text)


def _server_says(exc: openai.APIError, secret: str | None) -> str:
    """The server's own one-line explanation, redacted and shortened, or ''."""
    body = exc.body
    said = body.get("message") if isinstance(body, dict) else body
    if not isinstance(said, str) or not said.strip():
        return ""
    said = " ".join(_redact(said, secret).split())
    return f' The server said: "{said[:200]}{"…" if len(said) > 200 else ""}"'


def translate_error(exc: Exception) -> ProviderError:
    """Map an ``openai`` SDK exception (or an unreadable reply) to one ``ProviderError`` with advice.

    The request that failed tells us the endpoint, the model, the timeout and
    how many retries the SDK already made, so the message can be specific.
    The key is read from that request only to scrub it from the server's text.
    """
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, ReplyRefused):  # its message is ours and names no secret
        return ProviderError(str(exc), kind=exc.kind)
    request = getattr(exc, "request", None)
    headers = request.headers if request is not None else {}
    secret = headers.get("authorization", "").removeprefix("Bearer ").strip() or None
    where = describe_endpoint(request.url) if request is not None else None
    at = f" at {where}" if where else ""
    retries = int(headers.get("x-stainless-retry-count", 0) or 0)
    retried = f"; retried {retries} time{'s' if retries != 1 else ''}" if retries else ""
    offline = "or unset OPENAI_API_KEY" + ("" if where == OPENAI_HOST else " and OPENAI_BASE_URL") + " to run offline"

    if isinstance(exc, openai.APITimeoutError):  # before APIConnectionError: it is a subclass
        seconds = (request.extensions.get("timeout") or {}).get("read") if request is not None else None
        within = f" within {seconds:g} s" if isinstance(seconds, (int, float)) else ""
        return ProviderError(f"The model server{at} did not answer{within}{retried}. Try again, or raise the timeout "
                             "(OpenAIProvider(timeout=...)).", kind="timeout")
    if isinstance(exc, openai.APIConnectionError):
        if where == OPENAI_HOST:
            advice = f"is this machine online? Check your connection, {offline}."
        else:
            advice = "is the server running? Check OPENAI_BASE_URL."
        return ProviderError(f"Could not connect to {where or 'the model server'}{retried} — {advice}",
                             kind="connection")
    if isinstance(exc, openai.APIStatusError):
        return _translate_status(exc, where or "?", secret, retried, offline)
    if isinstance(exc, (json.JSONDecodeError, openai.APIResponseValidationError)):
        return ProviderError(f"The server{at} sent a reply that is not valid chat-completions JSON. Check that "
                             "OPENAI_BASE_URL points at an OpenAI-compatible API (it usually ends in /v1).",
                             kind="bad_response")
    if isinstance(exc, openai.OpenAIError):
        return ProviderError(f"The openai SDK could not be set up: {_redact(str(exc), secret)} "
                             f"Check OPENAI_API_KEY / OPENAI_BASE_URL, {offline}.", kind="config")
    return ProviderError(f"Unexpected {type(exc).__name__} while talking to the model server{at}: "
                         f"{_redact(str(exc), secret)}", kind="bad_response")


def _translate_status(exc: openai.APIStatusError, where: str, secret: str | None, retried: str,
                      offline: str) -> ProviderError:
    """The HTTP-status half of ``translate_error``: one message per status family."""
    status = exc.status_code
    who = "OpenAI" if where == OPENAI_HOST else f"The server at {where}"
    said = _server_says(exc, secret)
    if status in (401, 403):
        what = "rejected the API key" if status == 401 else "refused this key access to the model or endpoint"
        return ProviderError(f"{who} {what} ({status}). Check OPENAI_API_KEY, {offline}.", kind="auth", status=status)
    if status == 429:
        if exc.code == "insufficient_quota":  # retrying cannot help: the account has no credit
            return ProviderError(f"{who} says the account is out of quota (429). Check billing and limits for this key, "
                                 f"{offline}.", kind="rate_limit", status=status)
        return ProviderError(f"Rate limited by the server (429){retried}. Wait a minute and try again.",
                             kind="rate_limit", status=status)
    if status == 404:
        url_hint = "" if where == OPENAI_HOST else ", and check that OPENAI_BASE_URL ends in /v1"
        return ProviderError(f"{who} has no model {_requested_model(exc)!r} or no such endpoint (404).{said} Choose "
                             "another model with OpenAIProvider(model=...) or OPENAI_MODEL (on Ollama, `ollama pull` "
                             f"it first){url_hint}.", kind="not_found", status=status)
    if status >= 500:
        return ProviderError(f"{who} failed with an internal error ({status}){retried}. Try again in a moment; if it "
                             "keeps failing, check the server's logs or status page.", kind="server", status=status)
    return ProviderError(f"{who} rejected the request ({status}).{said} Check the model name, messages and tool "
                         "schemas being sent.", kind="bad_request", status=status)


def _requested_model(exc: openai.APIStatusError) -> str:
    """The model named in the request that failed (the error body does not always say)."""
    try:
        return str(json.loads(exc.request.content)["model"])
    except (ValueError, KeyError, TypeError):
        return "?"


def _field(obj: Any, name: str) -> Any:
    """Read ``name`` from an SDK model or a plain dict; odd servers produce a mixture of both."""
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _is_object(value: Any) -> bool:
    """A JSON object as the SDK hands it over: a dict or one of its models (not a str, number or list)."""
    return isinstance(value, (dict, openai.BaseModel))


class OpenAIProvider(LLMProvider):
    """A chat model behind the OpenAI chat-completions API: OpenAI itself or a compatible local server.

    ``model`` defaults to ``OPENAI_MODEL`` or gpt-4o-mini. ``temperature=None``
    leaves it to the server (some reasoning models accept only their default).
    ``timeout`` bounds each wait for the server; ``deadline`` bounds the whole
    call, retries included; ``max_reply_bytes`` caps the reply. ``client`` is a
    ready ``openai.OpenAI``; when given, ``api_key``, ``base_url``, ``timeout``,
    ``max_retries`` and ``max_reply_bytes`` are not used (and the deadline and
    cap hold only if it was built by ``make_client``).
    """

    def __init__(self, model: str | None = None, *, temperature: float | None = 0.2, api_key: str | None = None,
                 base_url: str | None = None, timeout: float = 30.0, max_retries: int = 2,
                 deadline: float = DEFAULT_DEADLINE, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
                 client: openai.OpenAI | None = None) -> None:
        self.model = model or os.environ.get("OPENAI_MODEL") or DEFAULT_MODEL
        self.temperature = temperature
        self.deadline = deadline
        self.client = client if client is not None else make_client(
            api_key, base_url, timeout, max_retries, deadline=deadline, max_reply_bytes=max_reply_bytes)
        self.endpoint = describe_endpoint(getattr(self.client, "base_url", "a custom client"))
        self.name = f"{self.model} via {self.endpoint}"

    def __repr__(self) -> str:
        return f"<OpenAIProvider {self.name}>"

    def describe(self) -> str:
        where = "OpenAI" if self.endpoint == OPENAI_HOST else "an OpenAI-compatible server"
        return f"{self.name} ({where})"

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> AssistantMessage:
        """Send the conversation (and tool schemas, if any) and return the first choice, normalised."""
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            request["temperature"] = self.temperature
        if tools:
            request["tools"] = tools
            request["tool_choice"] = "auto"
        started = time.monotonic()
        try:
            with call_deadline(self.deadline):
                return self._normalise(self.client.chat.completions.create(**request))
        except ProviderError as exc:
            error = exc
        except openai.OpenAIError as exc:
            error = translate_error(exc)
        except (ValueError, RecursionError):  # JSON the SDK could not parse: bad UTF-8, huge numbers, deep nesting
            error = self._bad_response("that is not valid JSON")
        except Exception as exc:  # anything else the SDK lets through is still a failed call, reported the same way
            error = translate_error(exc)
        if error.kind == "timeout" and time.monotonic() - started >= self.deadline:
            error = ProviderError(f"The model server at {self.endpoint} did not finish answering within the overall "
                                  f"deadline of {self.deadline:g} s. Try again, or raise it "
                                  "(OpenAIProvider(deadline=...)).", kind="timeout")
        # Raised here, outside the except blocks, so neither __cause__ nor __context__ holds the SDK's error,
        # whose text and request may echo the API key.
        raise error

    def _bad_response(self, what: str) -> ProviderError:
        return ProviderError(f"The server at {self.endpoint} sent a reply {what}. Check that OPENAI_BASE_URL points "
                             "at an OpenAI-compatible API (it usually ends in /v1), or try again.", kind="bad_response")

    def _normalise(self, response: Any) -> AssistantMessage:
        """Turn the first choice of a chat-completions reply into an ``AssistantMessage``.

        The SDK does not validate replies, so every field is checked for its
        JSON type here: a wrong one is a ``ProviderError``, never a crash later.
        """
        choices = _field(response, "choices")  # None for a non-JSON reply, which the SDK hands back as str
        message = _field(choices[0], "message") if isinstance(choices, list) and choices else None
        if not _is_object(message):
            sent = f" (it began {response[:60]!r})" if isinstance(response, str) else ""
            raise self._bad_response(f"with no answer in it{sent}")
        content = _field(message, "content")
        if isinstance(content, list):  # some servers send content as a list of {"type": "text", "text": ...} parts
            content = "".join(text for text in (_field(part, "text") for part in content) if isinstance(text, str))
        if content is not None and not isinstance(content, str):
            raise self._bad_response(f"whose message content is a {type(content).__name__}, not text")
        tool_calls = _field(message, "tool_calls") or []
        if not isinstance(tool_calls, list):
            raise self._bad_response(f"whose tool_calls is a {type(tool_calls).__name__}, not a list")
        calls = []
        for call in tool_calls:
            function = _field(call, "function") if _is_object(call) else None
            name = _field(function, "name") if _is_object(function) else None
            if not isinstance(name, str) or not name:
                raise ProviderError(f"{self.name} returned a tool call with no function name (or one that is not "
                                    "text), which cannot be run. Try again, or use a model that supports tool calling.",
                                    kind="bad_response")
            arguments = _field(function, "arguments")
            if arguments is None or arguments == "":
                arguments = "{}"
            elif not isinstance(arguments, str):  # e.g. a JSON object instead of JSON text
                arguments = json.dumps(arguments)
            call_id = _field(call, "id")
            if not isinstance(call_id, str) or not call_id:
                call_id = f"call_{uuid.uuid4().hex[:24]}"
            calls.append(ToolCall(id=call_id, name=name, arguments=arguments))
        return AssistantMessage(content=content, tool_calls=tuple(calls))


def default_provider(verbose: bool = True) -> LLMProvider:
    """OpenAI (or a compatible server) when ``OPENAI_API_KEY`` or ``OPENAI_BASE_URL`` is set, else the offline stand-in.

    Makes no network call. With ``verbose`` it prints exactly one line saying
    which was chosen and why, so a learner always knows what is answering.
    """
    configured = [name for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL") if os.environ.get(name, "").strip()]
    if configured:
        provider: LLMProvider = OpenAIProvider()
        message = f"Using {provider.name} ({' and '.join(configured)} {'is' if len(configured) == 1 else 'are'} set)."
    else:
        from aria_kit.offline import OfflineProvider  # imported lazily: only the offline path needs it

        provider = OfflineProvider()
        model = os.environ.get("OPENAI_MODEL") or DEFAULT_MODEL
        # Short enough for one line of a notebook's output: JupyterLab breaks an overflowing line inside a word.
        message = f"No OPENAI_API_KEY set — running offline. Set it to use {model}."
    if verbose:
        print(message)
    return provider
