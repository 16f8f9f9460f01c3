"""Holding off a timeout or Ctrl-C while a memory applies a write, so it lands after the write (issue 29).

The agent stops a slow tool with a SIGALRM timer whose handler raises ``ToolTimeout`` wherever Python
happens to be, and Ctrl-C raises ``KeyboardInterrupt`` the same way. ``deferred_signals()`` wraps the
short phase in which a memory changes its file and its in-process copy: while it runs, SIGALRM and
SIGINT are only noted, and on the way out the old handlers come back and each noted signal is raised
again, so the timeout (or Ctrl-C) arrives just after the write instead of in the middle of it.

It swaps Python-level handlers rather than blocking the signals with ``pthread_sigmask``: the kernel
may deliver a process signal to any thread that does not block it (BLAS and SQLite start threads),
and Python would still run the handler in the main thread. Only in the main thread (where Python
runs handlers), and only for handlers set from Python; elsewhere it does nothing. Not here: what a
memory does when some other exception cuts a write short (``hybrid_memory.py`` reloads or rebuilds).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

DEFERRED = tuple(getattr(signal, name) for name in ("SIGALRM", "SIGINT") if hasattr(signal, name))


@contextmanager
def deferred_signals(enabled: bool = True) -> Iterator[None]:
    """Run the block with SIGALRM and SIGINT held back; raise them, in arrival order, when it ends."""
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    previous = {}
    try:
        for number in DEFERRED:
            handler = signal.getsignal(number)
            if callable(handler):  # a Python handler (not SIG_DFL/SIG_IGN, nor one set from C)
                previous[number] = signal.signal(number, lambda signum, frame: noted.append(signum))
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(noted):  # each once: two timer ticks are one timeout
            signal.raise_signal(number)  # runs the restored handler now (it may raise)
