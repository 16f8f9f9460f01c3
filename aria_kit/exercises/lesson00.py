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
        "With no OPENAI_API_KEY and no OPENAI_BASE_URL set, who writes Aria's answers?",
        {"a": "A small language model downloaded on first use.",
         "b": "OpenAI's gpt-4o-mini, through a shared key.",
         "c": "OfflineProvider: a few dozen deterministic rules that speak the tool-calling protocol.",
         "d": "Nobody: the lessons stop with an error."},
        "c", "it is not a language model, but it lets every lesson run offline with the same output every time.",
        {"a": "nothing is downloaded; the only model that ships with the kit is the embedding model.",
         "b": "the kit never uses a key you did not set yourself.",
         "d": "every lesson runs offline by default."},
        kind="recall"),
    Question(
        "You want to use your OpenAI key. Where do you set it?",
        {"a": "In a notebook cell: os.environ['OPENAI_API_KEY'] = 'sk-…'.",
         "b": "In your shell, before starting JupyterLab, on your own machine.",
         "c": "In a Binder session, so the workshop can use it.",
         "d": "In aria_kit/openai_provider.py."},
        "b", "set outside the notebook, the key never ends up in a saved notebook or a shared session.",
        {"a": "the key would be saved in the notebook file and could be shared with it.",
         "c": "anyone with access to a Binder session could read it; never paste a key there.",
         "d": "editing the package puts the key in the source code, which gets copied and committed."},
        kind="choose"),
    Question(
        "The first row of a turn's record, 'recall', lists three memory ids. What happened there?",
        {"a": "The model chose three memories to read.",
         "b": "Before asking the model, the agent searched memory for the message and sent the top three in a "
              "message of their own, after the conversation so far.",
         "c": "Those are the three memories the answer will quote.",
         "d": "Those are the memories stored during this turn."},
        "b", "every turn starts by recalling the top memories for the message (lesson 08 takes a turn apart).",
        {"a": "recall happens before the model is called; the model asks for more with the memory_search tool.",
         "c": "recall only gives the model candidates; this answer quoted what memory_search returned, mem_0007 alone.",
         "d": "a memory is stored only when the model calls memory_store, which would show as a 'tool' row."},
        kind="explain"),
])
