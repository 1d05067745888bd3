"""The club's questions on the page: "Hvad ændrer det?" (``compare`` of the draft against the saved file or a
shipped ruleset) and "Hvilken værdi giver os det spil, vi vil have?" (``tune`` of a number of the draft, with a
target), answered on the server as the command line answers them, with progress pushed to the page.

Each question is played in a process of its own (killed when it is cancelled or takes too long), a few at a time
(``--questions N``, one by default), a short line waiting and one a client; beyond that the answer is a 429 at
once. A question is cancelled when the last page following it leaves. An answer is kept with the fingerprints
of the rules it answered and the question's own words, so the same question is not played twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import multiprocessing
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from regelmotor.errors import RegelmotorError
from regelmotor.web import child
from regelmotor.web.child import QUESTION_NICENESS, named
from regelmotor.web.upload import UploadRefused

QUESTIONS_AT_ONCE = 1
"""Questions played at once (each holds a core for minutes): ``serve --questions N``."""
QUESTIONS_WAITING = 3
"""Questions that may wait; one more is told to try again (429)."""
QUESTIONS_PER_CLIENT = 1
"""Questions one client (a network) may have under way or waiting."""
MAX_DEALS = 1000
"""The most deals a question plays per ruleset (compare) or per value (tune)."""
MAX_VALUES = 8
"""The most values a tune question tries."""
QUESTION_SECONDS = 30 * 60.0
"""The longest a question may play before it is stopped."""
KEPT_ANSWERS = 32
"""Answers kept by their question's fingerprint."""
KEPT_QUESTIONS = 64
"""Questions remembered (answered ones go first)."""
BOTS = ("expert", "heuristic", "random")
"""The bots a question may name (the default is the command line's, expert)."""


class QuestionsBusy(RegelmotorError):
    """The line of questions is full, in all or for this client: try again shortly (429)."""


class QuestionFailed(UploadRefused):
    """The question's process refused or failed, said in both languages (as an upload's check is)."""


@dataclass
class Question:
    id: str
    client: str
    spec: dict[str, Any]
    fingerprint: str
    state: str = "waiting"
    """``waiting``, ``running``, ``done``, ``failed`` or ``cancelled``."""
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: tuple[str, str] | None = None
    started: float = field(default_factory=time.monotonic)
    version: int = 0
    watchers: dict[tuple[asyncio.AbstractEventLoop, asyncio.Event], None] = field(default_factory=dict)
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    task: Any = None
    """The event loop's task that waits for the question's thread (kept, so it is not collected)."""

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def changed(self) -> None:
        """Wake every page that follows the question (from any thread)."""
        with self.lock:
            self.version += 1
            watchers = list(self.watchers)
        for loop, wake in watchers:
            with contextlib.suppress(RuntimeError):  # a loop that has closed
                loop.call_soon_threadsafe(wake.set)

    def as_json(self) -> dict[str, Any]:
        told: dict[str, Any] = {"id": self.id, "state": self.state, "done": self.done, "total": self.total}
        if self.error is not None:
            told["error"], told["error_en"] = self.error
        return told


def draft_key(spec: dict[str, Any], text: str, against: str) -> str:
    """A question by its words and its draft's text, known before the draft is checked (``Questions.known``)."""
    return question_fingerprint(spec, "text:" + hashlib.sha256(text.encode("utf-8")).hexdigest(), against)


def question_fingerprint(spec: dict[str, Any], draft: str, against: str) -> str:
    """A question by what it asks: its kind and words, and the fingerprints of the rules it asks about."""
    words = json.dumps({**spec, "draft": draft, "against": against}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(words.encode("utf-8")).hexdigest()[:24]


class Questions:
    """The questions under way and answered: ``at_once`` played at once, ``waiting`` more in line, at most
    ``per_client`` from one client, each in a process of its own."""

    def __init__(
        self, at_once: int = QUESTIONS_AT_ONCE, waiting: int = QUESTIONS_WAITING, per_client: int = QUESTIONS_PER_CLIENT
    ) -> None:
        self.at_once, self.waiting, self.per_client = at_once, waiting, per_client
        self.questions: OrderedDict[str, Question] = OrderedDict()
        self.answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.drafts: OrderedDict[str, str] = OrderedDict()
        """A question's words and its draft's very text (``draft_key``) to its fingerprint: an answer kept is
        found before the draft is checked again or the line is asked for room."""
        self._limiter: anyio.CapacityLimiter | None = None

    def open(self) -> list[Question]:
        return [q for q in self.questions.values() if not q.finished]

    def room_for(self, client: str) -> None:
        """``QuestionsBusy`` when the line is full, in all or for ``client``: asked before a question's draft is
        checked too, so a refused question costs no check (a process of its own) and is told at once."""
        under_way = self.open()
        if len(under_way) >= self.at_once + self.waiting:
            raise QuestionsBusy.said("web_club_busy", most=self.at_once, waiting=self.waiting)
        if sum(1 for q in under_way if q.client == client) >= self.per_client:
            raise QuestionsBusy.said("web_club_busy_here")

    def known(self, draft: str) -> str | None:
        """The fingerprint of a question asked before of the same draft (``draft_key``), while its answer is kept."""
        fingerprint = self.drafts.get(draft)
        return fingerprint if fingerprint is not None and fingerprint in self.answers else None

    def ask(
        self, client: str, spec: dict[str, Any], fingerprint: str, work: tuple[Any, ...], draft: str | None = None
    ) -> Question:
        """A new question (or the answer already found for the same one); ``QuestionsBusy`` at once when the
        line is full, in all or for ``client``. ``work``: what the question's process is given; ``draft``: the
        question's ``draft_key``, by which it is found again without a check."""
        if draft is not None:
            self.drafts[draft] = fingerprint
            self.drafts.move_to_end(draft)
            while len(self.drafts) > 2 * KEPT_ANSWERS:
                self.drafts.popitem(last=False)
        kept = self.answers.get(fingerprint)
        question = Question(secrets.token_urlsafe(12), client, spec, fingerprint)
        if kept is not None:
            self.answers.move_to_end(fingerprint)
            question.state, question.result = "done", kept
            question.done = question.total = int(kept.get("deals", 0) or 0)
            self._remember(question)
            return question
        self.room_for(client)
        self._remember(question)
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.at_once)
        limiter = self._limiter

        async def play() -> None:
            await anyio.to_thread.run_sync(self._play, question, work, limiter=limiter)

        question.task = asyncio.get_running_loop().create_task(play())
        return question

    def _remember(self, question: Question) -> None:
        self.questions[question.id] = question
        while len(self.questions) > KEPT_QUESTIONS:
            gone = next((k for k, q in self.questions.items() if q.finished), None)
            if gone is None:
                break
            del self.questions[gone]

    def _play(self, question: Question, work: tuple[Any, ...]) -> None:
        """Play the question in its process (this thread waits for it), telling its pages as it goes."""
        if question.cancel.is_set():
            question.state = "cancelled"
            question.changed()
            return
        question.state = "running"
        question.changed()
        context = multiprocessing.get_context("spawn")
        receive, send = context.Pipe(duplex=False)
        worker = context.Process(target=child.run, args=(QUESTION_NICENESS, named(_answer), (send, *work)), daemon=True)
        worker.start()
        send.close()
        deadline = time.monotonic() + QUESTION_SECONDS
        try:
            while True:
                if question.cancel.is_set():
                    question.state = "cancelled"
                    break
                if time.monotonic() > deadline:
                    question.state, question.error = (
                        "failed",
                        _said("club_question_slow", minutes=QUESTION_SECONDS // 60),
                    )
                    break
                if not receive.poll(0.2):
                    continue
                message = receive.recv()
                if message[0] == "progress":
                    question.done, question.total = int(message[1]), int(message[2])
                    question.changed()
                elif message[0] == "result":
                    question.result, question.state = message[1], "done"
                    self.answers[question.fingerprint] = message[1]
                    while len(self.answers) > KEPT_ANSWERS:
                        self.answers.popitem(last=False)
                    break
                else:
                    question.state, question.error = "failed", (str(message[1]), str(message[2]))
                    break
        except EOFError:  # the process ended without an answer
            question.state, question.error = "failed", _said("club_question_died")
        finally:
            receive.close()
            if worker.is_alive():
                worker.kill()
            worker.join(5)
            question.changed()

    def cancel(self, question: Question) -> None:
        if not question.finished:
            question.cancel.set()


def _said(phrase: str, **values: object) -> tuple[str, str]:
    error = RegelmotorError.said(phrase, **values)
    return error.text("da"), error.text("en")


# --- in the question's own process ------------------------------------------------------------------------


def _answer(send: Connection, spec: dict[str, Any], text: str, name: str, against: str, saved: str | None) -> None:
    """The question answered as the command line answers it, its progress sent as it goes (in a process of its own
    at a lower priority than the server's: ``child``); quietly gone when the server no longer listens."""

    def told(done: int, total: int) -> None:
        send.send(("progress", done, total))

    with contextlib.suppress(OSError):  # BrokenPipeError: the question was stopped, or the server is gone
        _play_answer(send, told, spec, text, name, against, saved)


def _play_answer(
    send: Connection,
    told: Callable[[int, int], None],
    spec: dict[str, Any],
    text: str,
    name: str,
    against: str,
    saved: str | None,
) -> None:
    try:
        with tempfile.TemporaryDirectory() as folder:
            from regelmotor.web.club_check import _resolve

            resolved, problems = _resolve(text, name, folder)
            if resolved is None:
                count = len([p for p in problems if p["severity"] == "error"])
                raise RegelmotorError.said("club_has_problems", count=count)
            draft = str(Path(folder) / name)
            mine = against == "saved" and saved is not None
            other = saved if mine and saved is not None else against
            if spec["kind"] == "compare":
                result = compare_answer(other, mine, draft, resolved.label, spec, told, folder)
            else:
                result = tune_answer(draft, resolved.label, spec, told, folder)
        send.send(("result", result))
    except RegelmotorError as exc:
        send.send(("error", exc.text("da"), exc.text("en")))
    except Exception as exc:
        send.send(("error", f"spørgsmålet kunne ikke besvares: {type(exc).__name__}", f"the question failed: {exc}"))
    finally:
        send.close()


def _bots(spec: dict[str, Any]) -> list[str]:
    return [str(spec.get("bots") or "expert")] * 4


def _ready(bots: list[str]) -> None:
    from regelmotor.prepare import parts_of_bots, prepare

    prepare(parts_of_bots(bots), "da", quiet=True)  # the expert's first run compiles it


def compare_answer(
    against: str,
    saved: bool,
    draft: str,
    draft_label: str,
    spec: dict[str, Any],
    told: Callable[[int, int], None],
    folder: str,
) -> dict[str, Any]:
    """``compare --json`` of ``against`` (A) and the draft (B), with the summary, the table and the chart the
    command line gives (in Danish and English)."""
    from regelmotor.compare import TABLE_WORDS, comparison, row_label, row_texts, summary_lines, write_plot
    from regelmotor.ruleset.load import load_ruleset
    from regelmotor.simulate import run_deals

    deals, seed, bots = int(spec["deals"]), int(spec.get("seed", 1)), _bots(spec)
    a = load_ruleset(against, shipped_only=not saved)  # the saved file by the path serve was given
    b = load_ruleset(draft, shipped_only=True)
    _ready(bots)
    told(0, 2 * deals)
    left = run_deals(against, [], deals, seed, bots, 1, lambda done: told(done, 2 * deals))
    right = run_deals(draft, [], deals, seed, bots, 1, lambda done: told(deals + done, 2 * deals))
    report = comparison(a.ruleset, b.ruleset, left, right, bots)
    a_label = f"{a.label} (gemt)" if saved else a.label
    answer: dict[str, Any] = {"a": a_label, "b": draft_label, "seed": seed, "bots": bots, "deals": deals, **report}
    for lang in ("da", "en"):
        suffix = "" if lang == "da" else "_en"
        answer["summary" + suffix] = summary_lines(report, deals, lang)
        answer["table" + suffix] = [
            {
                "label": row_label(row["name"], lang),
                "a": t[0],
                "b": t[1],
                "difference": t[2],
                "significant": row["significant"],
            }
            for row in report["rows"]
            for t in [row_texts(row, lang)]
        ]
        answer["head" + suffix] = TABLE_WORDS[lang]["head"].format(a=a_label, b=draft_label, deals=deals, seed=seed)
        chart = Path(folder) / f"chart-{lang}.svg"
        write_plot(report, a_label, draft_label, chart, lang)
        answer["chart" + suffix] = chart.read_text(encoding="utf-8")
    finite: dict[str, Any] = _finite(answer)
    return finite


def tune_answer(
    draft: str, label: str, spec: dict[str, Any], told: Callable[[int, int], None], folder: str
) -> dict[str, Any]:
    """``tune --json`` of one number of the draft, with the summary, the table and the chart."""
    from regelmotor.compare import unseen_by_bots
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset
    from regelmotor.ruleset.settings import find_key
    from regelmotor.simulate import DealRunner
    from regelmotor.tuning.goal import parse_goal
    from regelmotor.tuning.report import summary_lines, table_lines, write_chart
    from regelmotor.tuning.search import Axis, Tuner, check_values, make_plan, parse_values

    deals, seed, bots = int(spec["deals"]), int(spec.get("seed", 1)), _bots(spec)
    resolved = load_ruleset(draft, shipped_only=True)
    goal = parse_goal(compile_rules(resolved), spec["target"], None, None)
    key = find_key(resolved.ruleset, spec["key"])
    values = parse_values(",".join(str(v) for v in spec["values"]), key.text)
    plan = make_plan([Axis(key, values)], deals)
    loaded = check_values(draft, [], plan)
    _ready(bots)
    told(0, plan.most)
    with DealRunner(1) as runner:
        result = Tuner(draft, [], plan, goal, seed, bots, runner, loaded, told).run()
    blind = unseen_by_bots([{"path": key.text}], bots)
    answer: dict[str, Any] = {"ruleset": label, "seed": seed, "bots": bots, "unseen_by_bots": blind, **result.as_json()}
    for lang in ("da", "en"):
        suffix = "" if lang == "da" else "_en"
        answer["summary" + suffix] = summary_lines(result, label, seed, lang, blind=blind)
        answer["table" + suffix] = table_lines(result, lang)
        chart = Path(folder) / f"tune-{lang}.svg"
        write_chart(result, chart, lang)
        answer["chart" + suffix] = chart.read_text(encoding="utf-8")
    finite: dict[str, Any] = _finite(answer)
    return finite


def _finite(value: Any) -> Any:
    """JSON has no NaN: a figure with no deal to count is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


__all__ = [
    "MAX_DEALS",
    "MAX_VALUES",
    "QUESTIONS_AT_ONCE",
    "Question",
    "Questions",
    "QuestionsBusy",
    "question_fingerprint",
]
