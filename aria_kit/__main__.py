"""Command line: ``python -m aria_kit demo`` runs the reference demo; ``chat`` is a terminal chat.

The chat keeps long-term memory in a SQLite file (``--memory``, default
``aria_memory.sqlite3`` in the current folder), so what Aria learns survives a
restart. Commands inside the chat: ``/memories``, ``/clear``, ``/quit``.
"""

from __future__ import annotations

import argparse
import sys

from aria_kit.demo import make_agent, run_demo
from aria_kit.interfaces import MemoryRecord
from aria_kit.openai_provider import ProviderError

STRIKE, PLAIN = "\x1b[9m", "\x1b[0m"  # ANSI strike-through, understood by most terminals


def format_memory_line(record: MemoryRecord, ansi: bool = False) -> str:
    """One ``/memories`` line; a superseded memory is marked (and, with ``ansi``, struck through) with its successor."""
    if record.superseded_by is None:
        updates = f" (updates {record.supersedes})" if record.supersedes else ""
        return f"  {record.id} [{record.category}] {record.text}{updates}"
    text = f"{STRIKE}{record.text}{PLAIN}" if ansi else f"~~{record.text}~~"
    return f"  {record.id} [{record.category}] {text} → superseded by {record.superseded_by} at {record.superseded_at}"


def chat(memory_path: str) -> int:
    """A read–answer loop on stdin/stdout; a provider failure is reported and the loop goes on."""
    agent = make_agent(memory_path=memory_path)
    print(f"Aria is ready ({agent.llm.name}); memory file: {memory_path} ({len(agent.memory)} memories).")
    print("Type a message, or /memories, /clear, /quit.")
    while True:
        try:
            message = input("you> ").strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave quietly; memory is already saved
            print()
            return 0
        if not message:
            continue
        if message in {"/quit", "/exit"}:
            return 0
        if message == "/memories":
            for record in agent.memory_dump():
                print(format_memory_line(record, ansi=sys.stdout.isatty()))
            continue
        if message == "/clear":
            agent.clear_history()
            print("  (conversation cleared; long-term memory kept)")
            continue
        try:
            answer = agent.chat(message)
        except ProviderError as exc:
            print(f"  ! {exc}")
            continue
        except KeyboardInterrupt:
            print("\n  (interrupted; the conversation is unchanged — send the message again, or /quit)")
            continue
        for step in agent.last_turn.steps if agent.last_turn else ():
            if step.kind == "tool":
                print(f"  · {step.summary}")
        print(f"aria> {answer}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aria_kit", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run the reference demo offline (or with your configured model)")
    chat_parser = commands.add_parser("chat", help="chat in the terminal, with memory kept in a file")
    chat_parser.add_argument("--memory", default="aria_memory.sqlite3", help="SQLite file for long-term memory")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            run_demo()
            return 0
        return chat(args.memory)
    except ProviderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
