"""Command line: `python -m aria_kit demo` runs the reference demo; `python -m aria_kit chat` is a terminal chat.

The chat keeps long-term memory in a SQLite file (`--memory`, default
`aria_memory.sqlite3` in the current folder), so what Aria learns survives a
restart. Inside the chat, `/help` lists the commands (`/memories`, `/forget ID`,
`/reset`, `/clear`, `/quit`); any other line goes to Aria.

Two promises the loop keeps. No single line ends it: a line that is not valid
text, too long, or that makes the model or a tool fail is reported in one line
and the chat waits for the next. And nothing reaches the terminal raw: memory
texts, tool results and answers pass through `terminal_safe`, which removes
escape sequences and control characters, so a stored text cannot retitle the
window, write the clipboard (OSC 52) or clear the screen. User errors on the
command line (a bad `--memory` path, a folder, a file that is not a memory file)
are one line on stderr and exit status 2, never a traceback. Notices, like which
model is answering, go to stderr; answers go to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import re
import sqlite3
import sys
from pathlib import Path

from aria_kit import __version__
from aria_kit.agent import AutonomousAgent
from aria_kit.demo import make_agent, run_demo
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.interfaces import LLMProvider, MemoryRecord
from aria_kit.openai_provider import ProviderError, default_provider
from aria_kit.persistence import MemoryFileError

# ESC sequences (CSI "ESC [ … final", OSC "ESC ] … BEL or ESC \", DCS/SOS/PM/APC "ESC P|X|^|_ … ESC \", and
# two-byte "ESC x"), then any other C0/C1 control but tab and newline, and the bidi overrides that can make
# text read differently from what it is.
CONTROL = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b.?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]",
    re.S,
)
log = logging.getLogger(__name__)
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
HELP = """Commands:
  /help        this list
  /memories    list what Aria remembers, with ids
  /forget ID   forget a memory with all its versions, e.g. /forget mem_0003
  /reset       delete every memory in the file (asks first)
  /clear       forget this conversation (long-term memory is kept)
  /quit        leave (Ctrl-D works too); memory is already saved
Anything else is a message for Aria."""


def terminal_safe(text: str, *, indent: str | None = None) -> str:
    """``text`` with escape sequences and control characters removed, fit to print on a terminal.

    Lone surrogates become U+FFFD. Newlines are kept when ``indent`` is given (each
    following line is indented by it, so a text cannot pose as a new ``you>`` or
    ``aria>`` line) and become spaces otherwise.
    """
    text = LONE_SURROGATE.sub("\ufffd", CONTROL.sub("", text))
    return text.replace("\n", "\n" + indent) if indent is not None else text.replace("\n", " ")


def plural(count: int, noun: str) -> str:
    """"1 memory", "2 memories", "0 memories"."""
    word = noun if count == 1 else (noun[:-1] + "ies" if noun.endswith("y") else noun + "s")
    return f"{count:,} {word}"


def chat(agent: AutonomousAgent, memory_path: str) -> int:
    """A read–answer loop on stdin/stdout; no single line, model reply or tool failure ends it."""
    print(f"Aria is ready ({terminal_safe(agent.llm.name)}); memory file: {terminal_safe(memory_path)} "
          f"({plural(len(agent.memory), 'memory')}).")
    print("Type a message, or /help for the commands.")
    while True:
        try:
            line = input("you> ")
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave quietly; memory is already saved
            print()
            return 0
        message = line.strip()
        if not message:
            continue
        if LONE_SURROGATE.search(message):
            print("  ! That line is not valid UTF-8 text, so nothing was sent or stored. Type it again.")
            continue
        try:
            if message.startswith("/"):
                if _command(agent, message, memory_path) == "quit":
                    return 0
            else:
                _answer(agent, message)
        except KeyboardInterrupt:
            print("\n  (interrupted; the conversation is unchanged — send the message again, or /quit)")
        except Exception as exc:  # a bug, or a reply nothing foresaw: report it and keep the chat alive
            log.debug("chat line failed", exc_info=True)
            print(f"  ! That failed ({type(exc).__name__}: {terminal_safe(str(exc))[:300]}). "
                  "The conversation is unchanged; try again, rephrase, or /quit.")


def _answer(agent: AutonomousAgent, message: str) -> None:
    try:
        answer = agent.chat(message)
    except ProviderError as exc:
        print(f"  ! {terminal_safe(str(exc))}")
        return
    except ValueError as exc:  # the message itself is unusable (too long, …): the memory says why
        print(f"  ! {terminal_safe(str(exc))[:300]}. Nothing was sent or stored.")
        return
    for step in agent.last_turn.steps if agent.last_turn else ():
        if step.kind == "tool":
            print(f"  · {terminal_safe(step.summary)}")
    print(f"aria> {terminal_safe(str(answer), indent='      ')}")  # str(): an off-spec reply may carry a number


STRIKE, PLAIN = "\x1b[9m", "\x1b[0m"  # ANSI strike-through, understood by most terminals


def format_memory_line(record: MemoryRecord, ansi: bool = False) -> str:
    """One ``/memories`` line, made terminal-safe; a superseded memory (lesson 10) is marked with its successor.

    With ``ansi`` (stdout is a terminal) its text is struck through; otherwise it is wrapped in ``~~``.
    """
    line = f"  {record.id} [{terminal_safe(record.category)}] "
    text = terminal_safe(record.text)
    if record.superseded_by is None:
        return line + text + (f" (updates {record.supersedes})" if record.supersedes else "")
    text = f"{STRIKE}{text}{PLAIN}" if ansi else f"~~{text}~~"
    return line + f"{text} → superseded by {record.superseded_by} at {terminal_safe(record.superseded_at or '?')}"


def _command(agent: AutonomousAgent, line: str, memory_path: str) -> str | None:
    """Run one /command; return "quit" to leave. Unknown commands get the help, never the model."""
    command, _, argument = line.partition(" ")
    argument = argument.strip()
    if command in {"/quit", "/exit"}:
        return "quit"
    if command == "/help":
        print(HELP)
    elif command == "/memories":
        records = agent.memory_dump()
        print(f"  {plural(len(records), 'memory')} in {terminal_safe(memory_path)}")
        for record in records:
            print(format_memory_line(record, ansi=sys.stdout.isatty()))
    elif command == "/forget":
        if not argument:
            print("  ! Say which memory: /forget mem_0003 (/memories lists the ids).")
        else:
            _forget(agent, argument)
    elif command == "/reset":
        _reset(agent, memory_path)
    elif command == "/clear":
        agent.clear_history()
        print("  (conversation cleared; long-term memory kept)")
    else:
        print(f"  Unknown command {terminal_safe(command)!r}; nothing was sent to Aria.\n{HELP}")
    return None


def _forget(agent: AutonomousAgent, memory_id: str) -> None:
    """Forget the fact ``memory_id`` with every version of it, and say what went."""
    versions = agent.memory.history(memory_id)
    removed = agent.memory.forget(memory_id)
    if not removed:
        print(f"  ! There is no memory {terminal_safe(memory_id)!r}; /memories lists the ids.")
        return
    print(f"  Forgot {', '.join(removed)}" + (" (every version of this fact)" if len(removed) > 1 else "") + ":")
    for record in versions:
        print(f"    - {terminal_safe(record.text)}")
    print("  This conversation may still mention it: /clear forgets the conversation too.")


def _reset(agent: AutonomousAgent, memory_path: str) -> None:
    records = agent.memory_dump()
    if not records:
        print("  Memory is already empty.")
        return
    try:
        reply = input(f"  Delete all {plural(len(records), 'memory')} in {terminal_safe(memory_path)}? "
                      "This cannot be undone. Type yes to confirm: ")
    except (EOFError, KeyboardInterrupt):
        reply = ""
    if reply.strip().lower() != "yes":
        print("  Nothing deleted.")
        return
    for record in records:
        agent.memory.delete(record.id)
    agent.clear_history()
    print(f"  Deleted {plural(len(records), 'memory')}; the conversation is cleared too.")


def _check_memory_path(path: Path) -> str | None:
    """A one-line reason why ``path`` cannot be a memory file, or None if it may be."""
    if path.is_dir():
        return f"{path} is a folder; give a file path, e.g. --memory {path / 'aria_memory.sqlite3'}"
    if not path.parent.is_dir():
        return f"the folder {path.parent} does not exist; create it first or choose another --memory path"
    if path.exists() and not path.is_file():
        return f"{path} is not a regular file; give the path of a memory file, or of a new one"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"{path} cannot be read and written by you; fix its permissions or choose another --memory path"
    if not path.exists() and not os.access(path.parent, os.W_OK | os.X_OK):
        return f"cannot create {path}: its folder is not writable; choose another --memory path"
    return None


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the demo or the chat; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m aria_kit",
        description="Aria Kit: run the reference demo, or chat with Aria in the terminal. "
                    "Offline unless OPENAI_API_KEY or OPENAI_BASE_URL is set.")
    parser.add_argument("--version", action="version", version=f"aria_kit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run the reference demo offline (or with your configured model)")
    chat_parser = commands.add_parser("chat", help="chat in the terminal, with memory kept in a file")
    chat_parser.add_argument("--memory", default="aria_memory.sqlite3", help="SQLite file for long-term memory "
                             "(default: aria_memory.sqlite3 in the current folder; created if missing)")
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # never die printing a character the terminal cannot show
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    if hasattr(sys.stdin, "reconfigure"):  # undecodable bytes arrive as surrogates, and chat() refuses them
        sys.stdin.reconfigure(errors="surrogateescape")
    try:
        if args.command == "demo":
            run_demo(llm=_announced_provider())
            return 0
        problem, memory = _check_memory_path(Path(args.memory)), None
        try:
            memory = None if problem else HybridMemory(path=args.memory)
        except (MemoryFileError, OSError, sqlite3.Error, ValueError) as exc:  # a foreign or damaged file
            problem = f"cannot use {args.memory} as a memory file: {exc}".replace("\n", " ")
        if memory is None:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        with memory:  # closing folds the SQLite write-ahead log back into the file
            return chat(make_agent(memory=memory, llm=_announced_provider()), args.memory)
    except ProviderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _announced_provider() -> LLMProvider:
    """The configured model, with its one-line notice (which model, and why) on stderr: it is not output."""
    with contextlib.redirect_stdout(sys.stderr):
        return default_provider()


if __name__ == "__main__":
    sys.exit(main())
