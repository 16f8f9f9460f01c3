"""Exercise checks of lesson 09: each accepts its worked solution and answers typical wrong attempts with ✗."""

from __future__ import annotations

import pytest

from aria_kit.demo import make_agent, seed_memory
from aria_kit.exercises import lesson09
from aria_kit.hybrid_memory import HybridMemory
from aria_kit.solutions.lesson09 import (ForgetRequestTool, glossary_web_search, make_forget_request,
                                         make_stateless_forget_request, move_memory, resume, save_conversation,
                                         seed_once)
from aria_kit.tools import WebSearchTool
from exercise_checks import assert_refused, check_tests, unwritten, verdict

CHECKS = [
    (lesson09.check_glossary_web_search, glossary_web_search),
    (lesson09.check_seed_once, seed_once),
    (lesson09.check_forget_request, make_forget_request),
    (lesson09.check_move_memory, move_memory),
]

test_check_accepts_the_worked_solution, test_check_reports_an_untouched_stub_as_not_done_yet = check_tests(CHECKS)


def test_resume_check_accepts_the_worked_solution(capsys):
    assert lesson09.check_resume(save_conversation, resume) is True
    assert verdict(capsys) == "✓"


def test_resume_check_reports_untouched_stubs_as_not_done_yet(capsys):
    assert lesson09.check_resume(unwritten, unwritten) is False
    assert capsys.readouterr().out.startswith("○")


# ---------------------------------------------------------------- lesson 09


def test_glossary_check_rejects_a_tool_that_forgets_the_old_topics(capsys):
    assert lesson09.check_glossary_web_search(lambda: WebSearchTool({"Raft": "Raft is a consensus algorithm."})) is False
    assert "extend" in capsys.readouterr().out


def test_glossary_check_rejects_a_tool_without_raft(capsys):
    assert lesson09.check_glossary_web_search(WebSearchTool) is False
    assert "Raft" in capsys.readouterr().out


def test_glossary_check_rejects_a_tool_under_another_name(capsys):
    renamed = type("Glossary", (WebSearchTool,), {"name": "glossary"})
    assert lesson09.check_glossary_web_search(lambda: renamed(glossary_web_search().knowledge)) is False
    assert "web_search" in capsys.readouterr().out


def _seed_every_time(path):
    memory = HybridMemory(path=path)
    seed_memory(memory)
    return memory


def _seed_in_process_only(path):
    memory = HybridMemory()
    seed_memory(memory)
    return memory


@pytest.mark.parametrize("wrong", [_seed_every_time, _seed_in_process_only])
def test_seed_once_check_rejects_duplicate_or_unsaved_seeding(wrong, capsys):
    assert lesson09.check_seed_once(wrong) is False
    assert verdict(capsys) == "✗"


def _resume_without_history(memory_path, history_path, llm):
    from aria_kit.demo import make_agent
    return make_agent(memory_path=memory_path, llm=llm, verbose=False)


def _resume_in_a_fresh_memory(memory_path, history_path, llm):
    agent = resume(memory_path, history_path, llm)
    agent.memory.close()
    from aria_kit.demo import make_agent
    fresh = make_agent(llm=llm, verbose=False)
    fresh.history = agent.history
    return fresh


def _save_only_the_answers(agent, path):
    save_conversation(type("A", (), {"history": [m for m in agent.history if m["role"] == "assistant"]})(), path)


@pytest.mark.parametrize(("save", "load"), [(save_conversation, _resume_without_history),
                                            (save_conversation, _resume_in_a_fresh_memory),
                                            (_save_only_the_answers, resume)])
def test_resume_check_rejects_a_conversation_or_memory_that_is_not_restored(save, load, capsys):
    assert lesson09.check_resume(save, load) is False
    assert verdict(capsys) == "✗"


# ---------------------------------------------------------------- exercise 09.3: forgetting with consent


@pytest.mark.parametrize("design", [make_forget_request, make_stateless_forget_request])
def test_forget_request_check_accepts_both_shipped_designs(design, capsys):
    assert lesson09.check_forget_request(design) is True
    assert verdict(capsys) == "✓"


def test_forget_request_check_reports_an_untouched_stub_as_not_done_yet(capsys):
    def stub(memory):
        raise NotImplementedError

    assert lesson09.check_forget_request(stub) is False
    assert capsys.readouterr().out.startswith("○")


class ForgetsAtOnce(ForgetRequestTool):
    """The old design: the model's call itself forgets."""

    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        reply = ForgetRequestTool.run(self, memory_id)
        if not reply.startswith("Error"):
            self.memory.forget(memory_id)
        return reply


class ConfirmsWithDelete(ForgetRequestTool):
    def confirm(self, memory_id: str) -> str:
        self.memory.delete(memory_id)  # raises WouldRevive on the current version of a fact with history
        return "Forgot it."


class ConfirmsWithQuietDelete(ForgetRequestTool):
    def confirm(self, memory_id: str) -> str:
        try:
            self.memory.delete(memory_id)
        except ValueError:
            pass
        return "Forgot it."


class ClaimsItForgot(ForgetRequestTool):
    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        reply = ForgetRequestTool.run(self, memory_id)
        return reply if reply.startswith("Error") else f"Forgot {memory_id}."


class RaisesOnUnknownIds(ForgetRequestTool):
    def run(self, memory_id: str) -> str:
        """memory_id: The id."""
        if self.memory.get(memory_id) is None:
            raise KeyError(memory_id)
        return ForgetRequestTool.run(self, memory_id)


class UndocumentedId(ForgetRequestTool):
    def run(self, memory_id: str) -> str:
        """Forget."""
        return ForgetRequestTool.run(self, memory_id)


def _pair(cls):
    def make(memory):
        tool = cls(memory)
        return tool, tool.confirm
    return make


@pytest.mark.parametrize(("wrong", "hint"), [
    (ForgetsAtOnce, "only asks"),
    (ConfirmsWithDelete, "memory.forget(id) removes every version"),
    (ConfirmsWithQuietDelete, "every version"),
    (ClaimsItForgot, "asked the person to confirm"),
    (RaisesOnUnknownIds, "never raise"),
    (UndocumentedId, "docstring"),
])
def test_forget_request_check_answers_typical_wrong_designs_with_a_hint(wrong, hint, capsys):
    assert_refused(lesson09.check_forget_request(_pair(wrong)), capsys, hint)


def test_forget_request_check_wants_the_tool_and_the_confirm(capsys):
    assert_refused(lesson09.check_forget_request(ForgetRequestTool), capsys, "(the tool, the confirm function)")


def test_glossary_check_rejects_a_tool_that_changes_an_old_topic(capsys):
    knowledge = {**glossary_web_search().knowledge, "RAG": "RAG is a rag."}
    assert_refused(lesson09.check_glossary_web_search(lambda: WebSearchTool(knowledge)), capsys, "'RAG'")


def test_glossary_check_rejects_a_tool_that_answers_every_topic(capsys):
    class KnowsEverything(WebSearchTool):
        def run(self, query: str) -> str:
            """query: The topic."""
            found = super().run(query)
            return super().run("Raft") if found.startswith("No results") else found

    assert_refused(lesson09.check_glossary_web_search(lambda: KnowsEverything(glossary_web_search().knowledge)),
                   capsys, "does not know")


# ---------------------------------------------------------------- exercise 09.4: move a running agent onto a file


def _only_the_agents_memory(agent, path):
    """Repoints agent.memory but not the tools, which keep writing to the old memory."""
    moved = HybridMemory(path=path)
    for record in agent.memory.list_all():
        moved.store(record.text, dict(record.metadata))
    agent.memory = moved
    return moved


def _a_new_agent(agent, path):
    """Builds a fresh agent on the file: memories and tools are right, the conversation is gone."""
    fresh = make_agent(memory_path=path, llm=agent.llm, verbose=False)
    for record in agent.memory.list_all():
        fresh.memory.store(record.text, dict(record.metadata))
    agent.__dict__.update(fresh.__dict__)
    return fresh.memory


def _texts_without_categories(agent, path):
    moved = HybridMemory(path=path)
    for record in agent.memory.list_all():
        moved.store(record.text)
    old, agent.memory = agent.memory, moved
    for tool in agent.tools.values():
        if getattr(tool, "memory", None) is old:
            tool.memory = moved
    return moved


def _reseeds_the_file(agent, path):
    """Seeds the demo facts into the file instead of copying what the agent knows."""
    moved = HybridMemory(path=path)
    seed_memory(moved)
    old, agent.memory = agent.memory, moved
    for tool in agent.tools.values():
        if getattr(tool, "memory", None) is old:
            tool.memory = moved
    return moved


@pytest.mark.parametrize(("wrong", "hint"), [
    (_only_the_agents_memory, "tool.memory"),
    (_a_new_agent, "conversation was lost"),
    (_texts_without_categories, "categories"),
    (_reseeds_the_file, "the same texts"),
])
def test_move_memory_check_answers_typical_wrong_moves_with_a_hint(wrong, hint, capsys):
    assert_refused(lesson09.check_move_memory(wrong), capsys, hint)
