"""Chat with the agent in a notebook (lesson 11): transcript, tool calls, live memory, as ipywidgets.

``ChatWidget(agent)`` shows a line saying which model answers, a scrolling
transcript where your messages, the agent's answers, its tool calls and errors
look different, a live memory panel (id, category, text; the newest marked; a
superseded memory struck through, with a link to the memory that replaced it),
an input box that sends on Enter, a Send button, a button that clears the
conversation, a Forget… box that removes a fact with every version after the
person confirms (``ask_forget``, then ``forget``), and a status line. Each turn's tool calls and their results sit
in a collapsed "Tools" line under your message: click it to see them.
``ChatWidget.send(text)`` does what pressing Enter does and returns the answer,
so notebooks and tests drive the chat without a browser.

Everything a person or the model wrote (messages, answers, memory text,
categories, tool arguments and results, error messages, the model's name) goes
through ``html.escape`` before it reaches an ``HTML`` widget, so a memory that
reads ``<img src=x onerror=alert(1)>`` is shown as those characters and runs
nothing. Only the markup written in this file is ever interpreted.

A turn runs in the kernel, one at a time, like ``agent.chat`` in a cell. While
it runs, the box and buttons are disabled and the status line says the agent
is working: each of those changes reaches the page as it happens. Enter uses
``continuous_update=False`` and observes ``value`` (``Text.on_submit`` prints a
DeprecationWarning with ipywidgets 8.1), so leaving the box with text in it
sends it too, and clicking Send with text in the box sends exactly once.

Deliberately absent: streaming tokens, background threads, editing memories from
the panel. This is the only module that imports ipywidgets (as
``charts.py`` is the only one that imports matplotlib; ``tests/test_import_direction.py``
checks both), so the rest of the kit stays headless.
"""

from __future__ import annotations

import time
from html import escape
from typing import Any

import ipywidgets as widgets

from aria_kit.agent import AutonomousAgent, Turn
from aria_kit.interfaces import LLMProvider, MemoryRecord
from aria_kit.offline import OfflineProvider
from aria_kit.openai_provider import ProviderError

MEMORY_ROWS = 200  # newest memories listed in the panel; a persistent store may hold thousands
HINT = "Your messages and the answers appear here. Click a ▸ Tools line to see what the agent did in that turn."

_BUBBLE = "padding:6px 10px;margin:3px 0;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4;"
_STYLES = {  # role -> inline style of its bubble; jp-* variables follow JupyterLab's light/dark theme
    "user": "background:var(--jp-brand-color3,#dbeafe);color:#111;margin-left:12%;",
    "assistant": "background:var(--jp-layout-color2,#eef1f5);margin-right:12%;",
    "error": "background:#fde2e2;color:#7f1d1d;margin-right:12%;",
    "notice": "color:var(--jp-ui-font-color2,#666);font-style:italic;",
    "tools": "margin:0 12% 0 4px;font-size:90%;line-height:1.4;color:var(--jp-ui-font-color1,#333);",
}


def describe_model(llm: LLMProvider, *, web_app: bool = False) -> str:
    """Plain text saying which model answers and, when offline, how to switch to a real one.

    In a notebook the person at the keyboard can switch (set a variable, rebuild the agent); a web app's user
    cannot, so with ``web_app=True`` the offline line says what they can do and who sets the key, and where.
    """
    if web_app and isinstance(llm, OfflineProvider):
        return (f"{llm.name}, offline. You can still chat: tell Aria something to remember, then ask for it back. "
                "A real model is chosen by whoever runs this app: they set OPENAI_API_KEY (or OPENAI_BASE_URL for "
                "a local server) in the terminal where they start `make app`.")
    return llm.describe()


def _bubble(role: str, who: str, text: str) -> str:
    return f"<div style='{_BUBBLE}{_STYLES[role]}'><b>{escape(who)}:</b> {escape(text)}</div>"


def _memory_row(record: MemoryRecord, new: bool) -> str:
    highlight = "background:#fff3bf;color:#111;" if new else ""
    text = escape(record.text)
    if record.superseded_by is not None:  # history (lesson 10): struck through, pointing at its successor
        successor = escape(record.superseded_by)
        text = (f"<s style='color:var(--jp-ui-font-color2,#666)'>{text}</s> → replaced by "
                f"<a href='#aria-memory-{successor}'>{successor}</a>")
    elif record.supersedes is not None:
        text += f" <i>(updates {escape(record.supersedes)})</i>"
    classes = "aria-memory-row" + (" aria-memory-new" if new else "") + (" aria-memory-superseded"
                                                                         if record.superseded_by else "")
    return (f"<tr id='aria-memory-{escape(record.id)}' class='{classes}' style='vertical-align:top;{highlight}'>"
            f"<td style='padding-right:6px;white-space:nowrap'><code>{escape(record.id)}</code>{' <b>new</b>' if new else ''}</td>"
            f"<td>{escape(record.category)}</td><td>{text}</td></tr>")


def _tools_html(turn: Turn) -> str:
    """A collapsed <details> listing the turn's recalled memories and each tool call with its result."""
    calls = [step.detail for step in turn.steps if step.kind == "tool"]
    recalled = [hit.id for step in turn.steps if step.kind == "recall" for hit in step.detail.get("hits", ())]
    names = ", ".join(dict.fromkeys(detail["call"].name for detail in calls))
    summary = f"Tools: {names} ({len(calls)} call{'s' if len(calls) != 1 else ''})"
    if recalled:
        summary += f" · {len(recalled)} memor{'ies' if len(recalled) != 1 else 'y'} recalled"
    body = [f"<div>Recalled for this message: {escape(', '.join(recalled))}</div>"] if recalled else []
    for detail in calls:
        call = detail["call"]
        body.append(f"<div style='margin-top:4px'><b>{escape(call.name)}</b>(<code>{escape(call.arguments)}</code>)"
                    f"</div><pre style='margin:2px 0 0 1em;white-space:pre-wrap;overflow-wrap:anywhere'>"
                    f"{escape(str(detail['result']))}</pre>")
    return (f"<details style='{_STYLES['tools']}'><summary style='cursor:pointer'>{escape(summary)}</summary>"
            f"{''.join(body)}</details>")


class ChatWidget:
    """A chat window for an ``AutonomousAgent``. Display it as a cell's last line; drive it with ``send``.

    ``entries`` records what the transcript shows as (role, plain text) pairs,
    role being user, assistant, tools, error or notice. The widgets are
    attributes (``input``, ``send_button``, ``clear_button``, ``memory_panel``,
    ``forget_box``, ``forget_button``, ``confirm_button``, ``status``, ``model_line``, ``view``), each with an ``aria-…`` CSS class. ``web_app=True`` (the Voilà app)
    words the model line for a web user, who cannot set environment variables.
    """

    def __init__(self, agent: AutonomousAgent, *, height: str = "420px", web_app: bool = False) -> None:
        self.agent = agent
        self.entries: list[tuple[str, str]] = []
        self._known_ids: set[str] = set()
        self.model_line = widgets.HTML(f"<div style='line-height:1.4;margin:2px 0 6px'><b>Model:</b> "
                                       f"{escape(describe_model(agent.llm, web_app=web_app))}</div>").add_class("aria-model-line")
        self.messages = widgets.VBox([], layout=widgets.Layout(flex="0 0 auto")).add_class("aria-messages")
        # A column-reverse scroll box around one column stays scrolled to the bottom as messages arrive,
        # with no JavaScript: ipywidgets has no "scroll to end".
        self.transcript = widgets.Box([self.messages], layout=widgets.Layout(
            flex_flow="column-reverse", overflow="auto", height=height, flex="3 1 360px",
            border="1px solid var(--jp-border-color2, #ddd)", padding="4px")).add_class("aria-transcript")
        self.memory_panel = widgets.HTML(layout=widgets.Layout(
            overflow="auto", height=height, padding="0 6px")).add_class("aria-memory-panel")
        self.input = widgets.Text(placeholder=f"Message {agent.persona.name} and press Enter",
                                  continuous_update=False,
                                  layout=widgets.Layout(flex="1 1 auto", width="auto")).add_class("aria-input")
        self.send_button = widgets.Button(description="Send", icon="paper-plane", button_style="primary",
                                          tooltip="Send the message (or press Enter)").add_class("aria-send")
        self.clear_button = widgets.Button(description="Clear chat", icon="trash", tooltip="Forget this "
                                           "conversation; long-term memory stays").add_class("aria-clear")
        # Forgetting asks twice: the first click names what would go, only "Yes, forget it" removes it.
        self.forget_box = widgets.Text(placeholder="mem_0003", layout=widgets.Layout(width="110px")).add_class(
            "aria-forget-id")
        self.forget_button = widgets.Button(description="Forget…", icon="eraser", tooltip="Remove a memory and "
                                            "every older version of it (asks first)").add_class("aria-forget")
        self.confirm_button = widgets.Button(description="Yes, forget it", button_style="danger",
                                             layout=widgets.Layout(display="none")).add_class("aria-forget-confirm")
        self._pending_forget: str | None = None
        self.status = widgets.HTML("Ready.").add_class("aria-status")
        self.input.observe(self._on_input, names="value")
        self.send_button.on_click(self._on_send_click)
        self.clear_button.on_click(lambda _button: self.clear())
        self.forget_button.on_click(lambda _button: self.ask_forget(self.forget_box.value.strip()))
        self.confirm_button.on_click(lambda _button: self.forget(self._pending_forget or ""))
        memory_side = widgets.VBox([self.memory_panel, widgets.HBox([self.forget_box, self.forget_button,
                                                                     self.confirm_button])],
                                   layout=widgets.Layout(flex="2 1 240px"))
        self.view = widgets.VBox([
            self.model_line,
            widgets.HBox([self.transcript, memory_side], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.input, self.send_button, self.clear_button]),
            self.status,
        ]).add_class("aria-chat")
        self._notice(HINT)
        self.refresh_memory(mark_new=False)

    # ------------------------------------------------------------ what a person (or a test) does

    def send(self, text: str) -> str:
        """Send one message as if typed: show it, run a turn, show its tool calls and answer; return the answer.

        A model-server failure (``ProviderError``) is shown in the transcript and
        its message returned, and the widget stays usable: the agent's history is
        unchanged, so the message can simply be sent again. An empty message
        raises ``ValueError``. Any other exception, in the turn or while the answer
        and the memory panel are drawn after it, is shown and then raised; the box
        and buttons are enabled again whatever happens.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError("The message is empty: type something for the agent to answer.")
        self._add("user", text, _bubble("user", "You", text))
        self._set_busy(True)
        started = time.perf_counter()
        status = "Something went wrong inside the kit (details above); the chat is still usable."
        try:
            try:
                answer = self.agent.chat(text)
            except ProviderError as exc:
                self._add("error", str(exc), _bubble("error", "Model error", str(exc)))
                status = (f"The model call failed ({exc.kind}); the message above was not added to the "
                          "conversation. Fix the problem the error describes, then send it again.")
                return str(exc)
            turn = self.agent.last_turn
            calls = [step.detail for step in turn.steps if step.kind == "tool"] if turn is not None else []
            if calls:
                self._add("tools", "; ".join(f"{d['call'].name} → {d['result']}" for d in calls), _tools_html(turn))
            self._add("assistant", answer, _bubble("assistant", self.agent.persona.name, answer))
            stored = self.refresh_memory()
            note = f"; new memory: {', '.join(stored)}" if stored else ""
            status = f"Answered in {time.perf_counter() - started:.1f} s{note}."
            return answer
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            self._add("error", message, _bubble("error", "Error", message))
            raise
        finally:  # whatever happened above, the person gets the controls back and a status that says what
            self._set_busy(False, status)

    def clear(self) -> None:
        """Forget the conversation (transcript and the agent's history); long-term memory stays."""
        self.agent.clear_history()
        self.entries.clear()
        self.messages.children = ()
        self._notice(HINT)
        self.status.value = escape("Conversation cleared. Long-term memory is kept: see the panel.")

    def ask_forget(self, memory_id: str) -> bool:
        """First step of forgetting: say what ``memory_id`` would take with it and show the confirm button."""
        record = self.agent.memory.get(memory_id) if memory_id else None
        if record is None:
            self._cancel_forget(f"There is no memory {memory_id[:40]!r} to forget; type an id from the panel, "
                                "such as mem_0003." if memory_id else "Type the id of the memory to forget first.")
            return False
        versions = len(self.agent.memory.history(memory_id))
        older = f" and its {versions - 1} other version{'s' * (versions > 2)}" if versions > 1 else ""
        self._pending_forget = memory_id
        self.confirm_button.layout.display = None
        self.status.value = escape(f"Forget {memory_id}{older} for good? {record.text[:80]!r} — this cannot be "
                                   "undone. Click “Yes, forget it” to remove it, or anything else to keep it.")
        return True

    def forget(self, memory_id: str) -> list[str]:
        """Second step: remove the fact ``memory_id`` belongs to with its whole history; return the removed ids."""
        if not memory_id or memory_id != self._pending_forget:
            self._cancel_forget("Nothing was forgotten: click “Forget…” next to an id first.")
            return []
        try:
            removed = self.agent.memory.forget(memory_id)
        except Exception as exc:  # a backend that cannot, or a file another program holds open: say so
            self._cancel_forget(f"Could not forget {memory_id}: {type(exc).__name__}: {exc}")
            return []
        self.refresh_memory(mark_new=False)
        self.forget_box.value = ""
        self._cancel_forget(f"Forgot {', '.join(removed)} (every version of that fact)." if removed
                            else f"{memory_id} was already gone.")
        return removed

    def _cancel_forget(self, status: str) -> None:
        self._pending_forget = None
        self.confirm_button.layout.display = "none"
        self.status.value = escape(status)

    def refresh_memory(self, mark_new: bool = True) -> list[str]:
        """Redraw the memory panel from ``agent.memory``; return the ids that appeared since the last redraw."""
        records = self.agent.memory.list_all()
        new = [r.id for r in records if r.id not in self._known_ids] if mark_new else []
        self._known_ids = {r.id for r in records}
        shown = records[-MEMORY_ROWS:][::-1]  # newest first: a memory the agent just stored is on top
        rows = "".join(_memory_row(r, r.id in new) for r in shown)
        older = f"<p>… and {len(records) - len(shown)} older memories.</p>" if len(records) > len(shown) else ""
        self.memory_panel.value = (
            f"<div style='line-height:1.4'><b>Long-term memory ({len(records)})</b>"
            "<table style='width:100%;border-collapse:collapse;font-size:90%'><tr><th align=left>id</th>"
            f"<th align=left>category&nbsp;</th><th align=left>text</th></tr>{rows}</table>"
            f"{older or ('' if records else '<p><i>Nothing stored yet.</i></p>')}</div>"
        )
        return new

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self.view._repr_mimebundle_(**kwargs)
        # A short, stable text form: the default lists every child widget, which nobody wants to read.
        bundle["text/plain"] = f"ChatWidget({self.agent.persona.name}, model: {self.agent.llm.name})"
        return bundle

    # ------------------------------------------------------------ the event plumbing

    def _on_input(self, change: dict[str, Any]) -> None:
        # Fires on Enter (or on leaving the box), and again when the box is emptied: empty text is no message.
        if change["new"].strip():
            self._send_from_box(change["new"])

    def _on_send_click(self, _button: widgets.Button) -> None:
        # In a browser the box has usually sent its text already (clicking moves the focus out of it, which
        # syncs the value), so there is nothing left here; an empty box sends nothing.
        if self.input.value.strip():
            self._send_from_box(self.input.value)

    def _send_from_box(self, text: str) -> None:
        self.input.value = ""
        try:
            self.send(text)
        finally:
            self.input.focus()  # disabling the box during the turn took the focus away; give it back

    def _set_busy(self, busy: bool, status: str = "") -> None:
        if busy:
            self._cancel_forget("")  # a turn may change the memory: a pending "forget?" must be asked again
        for control in (self.input, self.send_button, self.clear_button, self.forget_button):
            control.disabled = busy
        if busy:
            self.view.add_class("aria-busy")
            self.status.value = f"<b>{escape(self.agent.persona.name)} is working…</b>"
        else:
            self.view.remove_class("aria-busy")
            self.status.value = escape(status)

    def _add(self, role: str, text: str, markup: str) -> None:
        self.entries.append((role, text))
        entry = widgets.HTML(markup, layout=widgets.Layout(margin="0")).add_class(f"aria-{role}")
        self.messages.children = (*self.messages.children, entry)

    def _notice(self, text: str) -> None:
        self._add("notice", text, f"<div style='{_BUBBLE}{_STYLES['notice']}'>{escape(text)}</div>")
