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
             solution=("PREDICTIONS", "predict_then_ask")),
]

QUIZ = Quiz("Lesson 00", [
    Question(
        "Aria's memory search ranks memories two ways and fuses the rankings. Which two?",
        {"a": "By date and by category.",
         "b": "By meaning (vector search over embeddings) and by keywords (BM25).",
         "c": "By the chat model's opinion and by BM25.",
         "d": "By cosine similarity and by dot product."},
        "b", "vector search finds paraphrases, BM25 finds exact words such as ids; RRF fuses the two (lesson 04).",
        {"a": "memories carry a category, but search does not rank by it or by date.",
         "c": "the model is never asked to rank memories; memory search runs before the model is called.",
         "d": "on unit-length vectors those are the same number, so fusing them would add nothing."}),
    Question(
        "With no OPENAI_API_KEY and no OPENAI_BASE_URL set, who writes Aria's answers?",
        {"a": "A small language model downloaded on first use.",
         "b": "OpenAI's gpt-4o-mini, through a shared key.",
         "c": "OfflineProvider: a few dozen deterministic rules that speak the tool-calling protocol.",
         "d": "Nobody: the lessons stop with an error."},
        "c", "it is not a language model, but it lets every lesson run offline with the same output every time.",
        {"a": "nothing is downloaded; the only model that ships with the kit is the embedding model.",
         "b": "the kit never uses a key you did not set yourself.",
         "d": "every lesson runs offline by default."}),
    Question(
        "You want to use your OpenAI key. Where do you set it?",
        {"a": "In a notebook cell: os.environ['OPENAI_API_KEY'] = 'sk-…'.",
         "b": "In your shell, before starting JupyterLab, on your own machine.",
         "c": "In a Binder session, so the workshop can use it.",
         "d": "In aria_kit/openai_provider.py."},
        "b", "set outside the notebook, the key never ends up in a saved notebook or a shared session.",
        {"a": "the key would be saved in the notebook file and could be shared with it.",
         "c": "anyone with access to a Binder session could read it; never paste a key there.",
         "d": "editing the package puts the key in the source code, which gets copied and committed."}),
    Question(
        "The first row of a turn's record, 'recall', lists three memory ids. What happened there?",
        {"a": "The model chose three memories to read.",
         "b": "Before asking the model, the agent searched memory for the message and put the top three in "
              "the system prompt.",
         "c": "The three memories were deleted.",
         "d": "The calculator tool ran three times."},
        "b", "every turn starts by recalling the top memories for the message (lesson 08 takes a turn apart).",
        {"a": "recall happens before the model is called; the model asks for more with the memory_search tool.",
         "c": "nothing is deleted during a turn unless a tool is asked to.",
         "d": "tool runs appear as 'tool' rows; recall is not a tool call."}),
])
