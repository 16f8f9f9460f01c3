"""A time limit for a block of Python code: the agent's tool timeout and the exercise checks' (lessons 00 and 08).

``with time_limit(10, OutOfTime): f()`` raises ``OutOfTime`` inside ``f`` once ten seconds have
passed, so a loop that never ends stops with a message instead of hanging the cell. The timer is
``SIGALRM`` (``signal.setitimer``): it exists only on Unix and only in the main thread, and one
process has one. Where there is none, or someone else's is already running (a check that runs the
agent, whose tools have limits of their own), the block runs without a limit rather than break the
other timer. The error is a ``BaseException``, so code that catches ``Exception`` does not swallow
it. Not here: limits on memory, or on C code that does not return to Python (a signal waits for it).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class OutOfTime(BaseException):
    """Raised inside a block that ran past its time limit."""


@contextmanager
def time_limit(seconds: float | None, error: type[BaseException] = OutOfTime) -> Iterator[None]:
    """Raise ``error`` in the block after ``seconds`` (None: no limit), where a SIGALRM timer is available."""
    if (seconds is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):  # no timer here, or someone else's is running: leave it
        yield
        return
    armed = True

    def expire(signum: int, frame: object) -> None:
        if armed:  # a signal that arrives while disarming must not escape from the finally below
            raise error

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
