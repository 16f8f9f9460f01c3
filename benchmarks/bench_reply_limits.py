"""Peak memory and wall time of one model call against a hostile server, with and without the reply limits.

A server on 127.0.0.1 answers a chat-completions request with either a huge
reply (``--megabytes`` of JSON padding, announced by Content-Length) or a
valid reply trickled one byte every 0.5 s. Each case runs in a fresh Python
process so its peak resident memory (``VmHWM`` from ``/proc/self/status``, so
Linux only; ``ru_maxrss`` would include the parent's peak from before ``exec``)
is its own:

- "capped": ``OpenAIProvider`` with its default 32 MiB cap and a 3 s deadline
  (the default deadline is 120 s, too long to wait for here);
- "uncapped": the same call with the cap and deadline set out of reach,
  which is how the call behaved before ``reply_limits`` existed.

    python benchmarks/bench_reply_limits.py                  # 300 MB reply, 2 s timeout + 3 s deadline trickle
    python benchmarks/bench_reply_limits.py --megabytes 50   # quicker

It prints one line per case. Nothing here is asserted: the tests in
``tests/test_provider_offspec.py`` check the behaviour; this measures its cost.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
         "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}

CHILD = r"""
import re, sys, time
def peak_mib():
    return int(re.search(r"VmHWM:\s+(\d+) kB", open("/proc/self/status").read()).group(1)) / 1024
from aria_kit.openai_provider import OpenAIProvider, ProviderError
url, mode, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
limits = {} if mode == "capped" else {"max_reply_bytes": 10**12, "deadline": 10**6}
limits = {"deadline": 3.0} if mode == "capped" else limits
provider = OpenAIProvider("m", api_key="sk-bench", base_url=url, max_retries=0, timeout=timeout, **limits)
before = peak_mib()
started = time.monotonic()
try:
    provider.complete([{"role": "user", "content": "hi"}])
    outcome = "answered"
except ProviderError as exc:
    outcome = f"ProviderError({exc.kind})"
elapsed = time.monotonic() - started
peak = peak_mib()
print(f"{outcome:<28} {elapsed:6.1f} s   peak RSS {peak:7.0f} MiB (before the call {before:.0f} MiB)")
"""


def serve(megabytes: int) -> tuple[ThreadingHTTPServer, str]:
    body = json.dumps(REPLY).encode()
    padded = body[:-1] + b" " * (megabytes * 1_000_000) + b"}"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            trickle = self.path.startswith("/trickle")
            payload = body if trickle else padded
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if trickle:
                    for i in range(len(payload)):
                        self.wfile.write(payload[i : i + 1])
                        self.wfile.flush()
                        time.sleep(0.5)
                else:
                    view = memoryview(payload)
                    for start in range(0, len(payload), 1 << 20):
                        self.wfile.write(view[start : start + (1 << 20)])
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=300)
    parser.add_argument("--trickle-seconds", type=float, default=12.0,
                        help="stop the uncapped trickle case after this long (it would run for minutes)")
    args = parser.parse_args()
    server, root = serve(args.megabytes)
    print(f"{args.megabytes} MB reply:")
    for mode in ("capped", "uncapped"):
        print(f"  {mode:<9}", end=" ", flush=True)
        subprocess.run([sys.executable, "-c", CHILD, root + "/v1", mode, "30"], check=True)
    print("reply trickled at 1 byte / 0.5 s, timeout 2 s:")
    for mode in ("capped", "uncapped"):
        print(f"  {mode:<9}", end=" ", flush=True)
        try:
            subprocess.run([sys.executable, "-c", CHILD, root + "/trickle/v1", mode, "2"], check=True,
                           timeout=args.trickle_seconds)
        except subprocess.TimeoutExpired:
            print(f"still reading after {args.trickle_seconds:g} s; stopped by the benchmark")
    server.shutdown()


if __name__ == "__main__":
    main()
