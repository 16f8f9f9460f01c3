"""The quiz for lesson 00 (welcome): the layers, offline by default, and keys.

Lesson 00 has no coding exercise; its stretch task is open (a worked answer is in
``aria_kit/solutions/lesson00.py``), so this module holds only ``EXERCISES`` (that
one stretch) and ``QUIZ``.
"""

from __future__ import annotations

from aria_kit.exercises.catalogue import Exercise
from aria_kit.exercises.quiz import Question, Quiz

EXERCISES = [
    Exercise("Stretch 00", designs="three questions with the memory you expect the agent to quote, and an "
             "explanation of each miss from the turn's record", kind="stretch", minutes=15,
             solution=("predict_then_ask",)),
]

QUIZ = Quiz("Lesson 00", [
    Question(
        "In section 3 the agent answered 'What are the details of order 4821?' from mem_0007, the order fact. "
        "Which half of memory search is sure to rank that fact first?",
        {"a": "Keyword search (BM25): 'order' and '4821' occur in that fact and in no other.",
         "b": "Vector search: an embedding keeps the exact digits of a number.",
         "c": "Neither: the chat model reads all seven facts and picks the one that fits.",
         "d": "Search by category: the fact is filed under 'order'."},
        "a", "vector search finds paraphrases, BM25 finds exact words such as ids; the kit's default fuses the two "
             "with a convex mix, weight 0.5 on each normalised score, so an exact match carries the fact up "
             "(lesson 04).",
        {"b": "the embedding model averages token vectors, so '4821' and '4812' look alike to it (lesson 02).",
         "c": "recall runs before the model is called, and the model only sees what the search returned.",
         "d": "memories carry a category, but search ranks by text; nothing looks at the category."},
        kind="explain", case=("order 4821",)),
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
        "On the third turn of a chat, Aria recalls three memories for 'Who leads the infrastructure team?'. "
        "In what order does the request the agent sends the model hold its parts?",
        {"a": "The persona's instructions with the three memories appended, as one system message; then the "
              "earlier turns; then the new message.",
         "b": "The persona's instructions as the system message, the same bytes every request; then the earlier "
              "turns; then the three memories in a message of their own; then the new message.",
         "c": "The three memories, then the new message: the model still remembers the earlier turns from the "
              "requests before.",
         "d": "The persona's instructions and the new message only; the model reads memories only by calling "
              "memory_search."},
        "b", "what stays the same comes first and what changes every turn comes last, so each request starts "
             "with everything the one before it held (lesson 08 takes a request apart).",
        {"a": "the recalled memories change every turn; inside the system message they would change its bytes on "
              "every request, so they go in a message of their own after the history.",
         "c": "a chat model keeps nothing between requests: the agent sends the earlier turns again each time.",
         "d": "recall runs before the model is asked, and its hits are sent with the request; memory_search is "
              "for looking further."},
        kind="explain", case=("Who leads the infrastructure team?",)),
])
