"""Hostile replies and broken servers: every fault becomes one ProviderError that says what to do.

Each test scripts ``FakeOpenAIServer`` to fail one way, calls the real SDK
through ``OpenAIProvider`` and checks four things: the error's ``kind``, an
actionable message, how many requests the server saw (retries are bounded: 1 +
``max_retries`` for retryable faults, exactly 1 for the rest), and that the API
key appears nowhere — not in the message, the repr, the printed traceback, the
provider's name or any log record. Servers here even echo the key back, as a
careless proxy might, to prove it is scrubbed.

Timings are kept short: Retry-After 0, timeouts of 0.5 s, ``max_retries`` ≤ 2.
"""

from __future__ import annotations

import logging
import socket
import time
import traceback

import pytest
from fake_openai_server import FAKE_KEY, Reply, chat_reply, error_reply, provider_for

from aria_kit.openai_provider import OpenAIProvider, ProviderError, translate_error

MESSAGES = [{"role": "user", "content": "What is VelocityDB?"}]


pytestmark = pytest.mark.usefixtures("no_openai_environment")


def fails_with(provider: OpenAIProvider, kind: str, caplog: pytest.LogCaptureFixture) -> ProviderError:
    """Call the provider, expect exactly one ProviderError of ``kind``, and check the key leaked nowhere."""
    caplog.set_level(logging.DEBUG)  # the SDK and httpx log at DEBUG; a key there would leak into notebooks
    with pytest.raises(ProviderError) as caught:
        provider.complete(MESSAGES)
    error = caught.value
    assert error.kind == kind, str(error)
    shown = [str(error), repr(error), "".join(traceback.format_exception(error)), provider.name, repr(provider),
             caplog.text]
    assert not [text for text in shown if FAKE_KEY in text or "SECRET1234" in text]
    return error



# ---------------------------------------------------------------- refused by the server: never retried


def test_401_is_an_auth_error_sent_once_and_the_echoed_key_is_scrubbed(fake_openai, caplog) -> None:
    fake_openai.reply(error_reply(401, f"Incorrect API key provided: {FAKE_KEY}.", code="invalid_api_key"))
    error = fails_with(provider_for(fake_openai, max_retries=2), "auth", caplog)
    assert "rejected the API key (401)" in str(error) and "OPENAI_API_KEY" in str(error)
    assert error.status == 401
    assert len(fake_openai.requests) == 1


def test_403_is_an_auth_error(fake_openai, caplog) -> None:
    fake_openai.reply(error_reply(403, "Project does not have access to model gpt-4o-mini"))
    error = fails_with(provider_for(fake_openai, max_retries=2), "auth", caplog)
    assert "(403)" in str(error) and "OPENAI_API_KEY" in str(error)
    assert len(fake_openai.requests) == 1


def test_400_is_a_bad_request_that_quotes_the_server_without_the_key(fake_openai, caplog) -> None:
    said = f"Invalid schema for function 'calculator': 'integer' is not valid under any of the given schemas ({FAKE_KEY})"
    fake_openai.reply(error_reply(400, said))
    error = fails_with(provider_for(fake_openai, max_retries=2), "bad_request", caplog)
    assert "Invalid schema for function 'calculator'" in str(error)
    assert "tool schemas" in str(error)
    assert len(fake_openai.requests) == 1


def test_a_local_servers_own_token_is_scrubbed_too(fake_openai, caplog) -> None:
    token = "vllm-token-XYZ987654"  # not shaped like an OpenAI key, so only the request header can reveal it
    fake_openai.reply(error_reply(400, f"bad request from bearer {token}"))
    provider = OpenAIProvider("llama3.1", api_key=token, base_url=fake_openai.url, max_retries=0)
    with pytest.raises(ProviderError) as caught:
        provider.complete(MESSAGES)
    assert "bad request from bearer [redacted]" in str(caught.value)
    assert token not in str(caught.value) and token not in provider.name


def test_unknown_model_404_names_the_model_and_how_to_choose_another(fake_openai, caplog) -> None:
    fake_openai.reply(Reply({"error": "model 'gpt-4o-mini' not found, try pulling it first"}, status=404))  # Ollama's shape
    error = fails_with(provider_for(fake_openai, max_retries=2), "not_found", caplog)
    message = str(error)
    assert "'gpt-4o-mini'" in message and "OPENAI_MODEL" in message and "model=" in message
    assert "try pulling it first" in message
    assert len(fake_openai.requests) == 1


# ---------------------------------------------------------------- retryable: bounded by max_retries


def test_429_is_retried_max_retries_times_then_reported(fake_openai, caplog) -> None:
    fake_openai.reply(error_reply(429, "Rate limit reached for gpt-4o-mini", headers={"Retry-After": "0"}), times=3)
    error = fails_with(provider_for(fake_openai, max_retries=2), "rate_limit", caplog)
    assert str(error) == "Rate limited by the server (429); retried 2 times. Wait a minute and try again."
    assert len(fake_openai.requests) == 3
    assert [r.headers["x-stainless-retry-count"] for r in fake_openai.requests] == ["0", "1", "2"]


def test_429_for_an_empty_quota_says_retrying_will_not_help(fake_openai, caplog) -> None:
    fake_openai.reply(error_reply(429, "You exceeded your current quota.", code="insufficient_quota"))
    error = fails_with(provider_for(fake_openai), "rate_limit", caplog)
    assert "out of quota" in str(error) and "offline" in str(error)


@pytest.mark.parametrize("max_retries", [0, 1, 2])
def test_500_is_a_server_error_after_exactly_one_plus_max_retries_requests(fake_openai, caplog, max_retries) -> None:
    # retry-after-ms keeps the SDK's backoff to 1 ms; without it, retries sleep 0.5 s, then 1 s.
    fake_openai.reply(error_reply(500, "The server had an error", headers={"retry-after-ms": "1"}), times=1 + max_retries)
    error = fails_with(provider_for(fake_openai, max_retries=max_retries), "server", caplog)
    assert "(500)" in str(error) and "try again" in str(error).lower()
    assert ("retried" in str(error)) == (max_retries > 0)
    assert len(fake_openai.requests) == 1 + max_retries


def test_502_with_a_plain_text_body_is_a_server_error(fake_openai, caplog) -> None:
    fake_openai.reply(b"<html>502 Bad Gateway</html>", status=502, content_type="text/html")
    error = fails_with(provider_for(fake_openai), "server", caplog)
    assert "(502)" in str(error)


# ---------------------------------------------------------------- replies that are not chat completions


@pytest.mark.parametrize(
    "reply",
    [
        Reply(b"this is not JSON", content_type="application/json"),
        Reply(b"<html><body>Welcome to nginx!</body></html>", content_type="text/html"),
        Reply({"id": "chatcmpl-1", "object": "chat.completion"}),  # JSON without choices
        Reply({"choices": [{"index": 0, "finish_reason": "stop"}]}),  # a choice without a message
        Reply([1, 2, 3]),
    ],
    ids=["invalid-json", "html-page", "no-choices", "choice-without-message", "json-list"],
)
def test_malformed_body_is_a_bad_response_sent_once(fake_openai, caplog, reply) -> None:
    fake_openai.reply(reply)
    error = fails_with(provider_for(fake_openai, max_retries=2), "bad_response", caplog)
    assert fake_openai.url in str(error) and "OPENAI_BASE_URL" in str(error)
    assert len(fake_openai.requests) == 1


# ---------------------------------------------------------------- no answer at all


def test_slow_server_times_out_with_the_timeout_in_the_message(fake_openai, caplog) -> None:
    fake_openai.reply(chat_reply("too late"), delay=2.0)
    started = time.perf_counter()
    error = fails_with(provider_for(fake_openai, timeout=0.5), "timeout", caplog)
    assert time.perf_counter() - started < 1.5
    assert "did not answer within 0.5 s" in str(error) and "timeout" in str(error)
    assert len(fake_openai.requests) == 1


def test_timeouts_are_retried_a_bounded_number_of_times(fake_openai, caplog) -> None:
    fake_openai.reply(chat_reply("too late"), delay=2.0, times=2)
    error = fails_with(provider_for(fake_openai, timeout=0.3, max_retries=1), "timeout", caplog)
    assert "retried 1 time." in str(error)
    assert len(fake_openai.requests) == 2


def test_refused_connection_names_the_url_and_the_setting_to_check(caplog) -> None:
    with socket.socket() as probe:  # bind, then close: nothing listens on this port any more
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    error = fails_with(provider_for(url), "connection", caplog)
    assert str(error) == f"Could not connect to {url} — is the server running? Check OPENAI_BASE_URL."


# ---------------------------------------------------------------- translate_error on its own


def test_translate_error_passes_provider_errors_through_and_labels_the_unknown() -> None:
    original = ProviderError("already translated", kind="config")
    assert translate_error(original) is original
    unknown = translate_error(RuntimeError(f"odd failure with {FAKE_KEY}"))
    assert unknown.kind == "bad_response" and FAKE_KEY not in str(unknown)


def test_provider_error_rejects_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown ProviderError kind"):
        ProviderError("x", kind="oops")
