"""The quiz for lesson 00 (welcome): the layers, offline by default, and keys.

Lesson 00 has no coding exercise; its stretch task is open (a worked answer is in
``aria_kit/solutions/lesson00.py``), so this module holds only ``EXERCISES`` (that
one stretch) and ``QUIZ``.
"""

from __future__ import annotations

from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz, only_true

EXERCISES = [
    Exercise("Stretch 00", designs="three questions with the memory you expect the agent to quote, and an "
             "explanation of each miss from the turn's record", kind="stretch", minutes=15,
             solution=("predict_then_ask",)),
]

# The keys of the predict questions below, computed: each runs the kit on its question's case and returns
# the letter of the option that came true (tests/test_quiz_kinds.py compares it with the key).


def _key_new_ticket() -> str:
    """00: the seven demo facts plus a ticket; which memory does the offline agent quote for its number?"""
    import contextlib
    import io

    from aria_kit.demo import make_agent, seed_memory
    from aria_kit.offline import OfflineProvider

    with contextlib.redirect_stdout(io.StringIO()):  # make_agent prints which model answers
        agent = make_agent()
    assert isinstance(agent.llm, OfflineProvider), "the question is about the offline agent"
    seed_memory(agent.memory)
    assert agent.memory.store("Ticket OPS-2207 waits on a disk quota.") == "mem_0008"
    answer = agent.chat("What do you know about ticket 2207?")
    quoted = {key for key, memory_id in {"a": "mem_0008", "b": "mem_0007", "d": "mem_0005"}.items()
              if f"[{memory_id}]" in answer}
    return only_true({"a": quoted == {"a"}, "b": quoted == {"b"}, "c": not quoted, "d": quoted == {"d"}})


def _key_base_url_alone() -> str:
    """00: OPENAI_BASE_URL set to a local server, no OPENAI_API_KEY: which provider does the kit choose?"""
    import os
    from unittest import mock

    from aria_kit.offline import OfflineProvider
    from aria_kit.openai_provider import OpenAIProvider, default_provider

    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["OPENAI_BASE_URL"] = "http://127.0.0.1:9000/v1"
    with mock.patch.dict(os.environ, env, clear=True):
        try:
            provider = default_provider(verbose=False)
        except Exception:  # noqa: BLE001  (option d: building it fails)
            return "d"
    local = isinstance(provider, OpenAIProvider) and "127.0.0.1:9000" in str(provider.client.base_url)
    return only_true({"a": isinstance(provider, OfflineProvider), "b": local,
                      "c": isinstance(provider, OpenAIProvider) and not local, "d": False})


QUIZ = Quiz("Lesson 00", [
    Question(
        "After section 3, you store 'Ticket OPS-2207 waits on a disk quota.' in the agent's memory (it becomes "
        "mem_0008) and ask 'What do you know about ticket 2207?'. Which memory does the offline agent quote?",
        {"a": "mem_0008, the ticket: its number is a word no other memory holds",
         "b": "mem_0007, the order: to the search one four-digit number looks much like another",
         "c": "None: a memory stored between turns is only searchable after the agent restarts",
         "d": "mem_0005, the deadline: a ticket that waits is closest in meaning to a deadline"},
        "a", "vector search finds paraphrases, BM25 finds exact words such as ids; the kit's default fuses the two "
             "with a convex mix, weight 0.5 on each normalised score, so an exact match carries the fact up "
             "(lesson 04).",
        {"b": "BM25 matches '2207' as a whole token, and only the ticket holds it; '4821' shares no token with it.",
         "c": "store adds the memory to the index at once; the next search sees it.",
         "d": "the search ranks by shared words and by meaning; the ticket shares two words with the question."},
        kind="predict", case=("OPS-2207",), compute=_key_new_ticket),
    Question(
        "With no key set, you tell Aria 'Remember that my badge number is 7731.' Which rows will the record of that "
        "turn show, in order?",
        {"a": "recall, then the model calls memory_store, the tool row memory_store(…), the model answers, the answer.",
         "b": "recall, then the answer: the offline stand-in stores every message itself, so no tool is needed.",
         "c": "model, tool, answer, with no recall row: there is nothing to recall for a statement.",
         "d": "recall listing the new fact's id, since the memory was just stored, then the answer."},
        "a", "the offline stand-in speaks the same tool-calling protocol as a real model: to store a fact it asks "
             "for memory_store, and the agent runs the tool.",
        {"b": "the stand-in is a set of rules that ask for tools like a model does; a memory is stored only when "
              "the model calls memory_store.",
         "c": "every turn starts by recalling memories for the message, question or not.",
         "d": "recall runs before the model is asked, so the new fact does not exist yet when it runs."},
        kind="explain", case=("badge number is 7731",)),
    Question(
        "Your lab runs the lessons on a JupyterHub that the whole group shares. You want to try gpt-4o-mini with "
        "your own key. What do you do?",
        {"a": "Paste the key in a notebook cell, run it once, then delete the cell before saving.",
         "b": "Put export OPENAI_API_KEY=… in your ~/.bashrc on the hub, so no notebook holds it.",
         "c": "Keep the key off the shared machine: run offline there, and use the key on your own computer.",
         "d": "Write it in a .env file in the kit's folder, which the notebooks read."},
        "c", "on any shared machine, a key is readable by whoever can reach the session or its files; set it in "
             "your shell only on a machine that is yours.",
        {"a": "a deleted cell's key can still sit in the kernel, the saved outputs, the checkpoints and the "
              "history, all on a machine others reach.",
         "b": "outside the notebook is right on your own machine; on a shared hub its administrators, and often "
              "other users, can read your home folder.",
         "d": "a file in the project folder travels with it: it is copied, shared and committed like the code."},
        kind="choose", case=("JupyterHub",)),
    Question(
        "On your own computer you run a model server at http://127.0.0.1:9000/v1, export OPENAI_BASE_URL with that "
        "address, set no OPENAI_API_KEY, and start JupyterLab. What does make_agent() answer with?",
        {"a": "The offline stand-in: without OPENAI_API_KEY the kit stays offline",
         "b": "The model on your server: either variable switches the kit to its OpenAI-compatible provider",
         "c": "gpt-4o-mini on OpenAI's servers: OPENAI_BASE_URL only matters once a key is set",
         "d": "An error when the agent is built: the OpenAI client refuses to start without a key"},
        "b", "the kit leaves offline mode when OPENAI_API_KEY or OPENAI_BASE_URL is set; a local server needs no key, "
             "and make_agent() prints one line saying which model answers.",
        {"a": "a key is only one of the two variables; a base URL alone is enough for a server on your machine.",
         "c": "the base URL says where requests go; with it set, nothing is sent to OpenAI's servers.",
         "d": "the kit builds the client without a key for a base URL; a server that wants one answers with an error."},
        kind="predict", case=("127.0.0.1:9000",), compute=_key_base_url_alone),
])
