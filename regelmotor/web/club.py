"""Klubbens side: the routes of ``/klub``, where a club writes its rules in the browser (the form, the file, the
book, the differences, its questions), and its admin saves them.

Every draft is checked in a process of its own through the upload pool (``upload.UploadPool``), as an uploaded
file is; the server reads no file a client names (a draft extends shipped rulesets only; ``against: "saved"``
is the file ``serve`` was given). Only the admin link saves (its secret in ``X-Klub-Admin``, compared in
constant time), and only the club's file and its versions beside it are written (``club_history``). Refusals
are Danish in ``error`` with the English in ``error_en``, as every other route's.
"""

from __future__ import annotations

import asyncio
import difflib
import functools
import hmac
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from regelmotor.errors import RegelmotorError, RulesetError
from regelmotor.ruleset.catalogue import is_path, shipped_rulesets
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.web import upload
from regelmotor.web.club_check import CLUB_NAME, check_draft, draft_diff, draft_rulebook
from regelmotor.web.club_history import ClubChanged, History, NothingToUndo, change_words, fingerprint_of
from regelmotor.web.club_questions import (
    MAX_DEALS,
    MAX_VALUES,
    Question,
    Questions,
    QuestionsBusy,
    draft_key,
    question_fingerprint,
)
from regelmotor.web.club_yaml import MAX_TEXT
from regelmotor.web.guard import BadRequest, Streams, bad_request, read_json, refuse, refused, said
from regelmotor.web.tables import network_of
from regelmotor.web.upload import UploadsBusy, isolated

PAGE = Path(__file__).resolve().parent / "static" / "klub.html"
ADMIN_HEADER = "x-klub-admin"
MAX_CLUB_REQUEST = MAX_TEXT + 20_000
"""A request with the club's file in it (and a question or a change of the form)."""
WATCHERS = 4
"""Pages following one question at once."""
HEARTBEAT_SECONDS = 15.0
RETRY_SECONDS = 5


@dataclass
class Club:
    """What the page works on: the club's file (None when ``serve`` was given a shipped name: the page then
    drafts on that ruleset and nothing is saved), its admin's secret, and the shipped ruleset it shows else."""

    file: Path | None
    admin: str | None
    ruleset: str
    questions: Questions
    uploads: upload.UploadPool

    @property
    def name(self) -> str:
        return self.file.name if self.file is not None else CLUB_NAME

    @property
    def history(self) -> History | None:
        return History(self.file) if self.file is not None else None

    def text(self) -> str:
        history = self.history
        if history is not None:
            return history.read()
        ref = shipped_rulesets()[self.ruleset]
        return ref.path.read_text(encoding="utf-8")

    def is_admin(self, request: Request) -> bool:
        given = request.headers.get(ADMIN_HEADER, "")
        return (
            self.admin is not None
            and self.file is not None
            and hmac.compare_digest(given.encode(), self.admin.encode())
        )


def _client(request: Request) -> str:
    return network_of(request.client.host if request.client is not None else "")


def _yaml_field(payload: dict[str, Any]) -> str:
    text = payload.get("yaml")
    if not isinstance(text, str) or len(text) > MAX_TEXT or not _encodable(text):
        raise bad_request(400, "club_yaml", limit=MAX_TEXT)
    return text


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _against(payload: dict[str, Any], club: Club) -> str:
    against = payload.get("against", "saved")
    if against == "saved" and club.file is not None:
        return "saved"
    if against == "saved":
        return club.ruleset
    if not isinstance(against, str) or against not in shipped_rulesets():
        raise bad_request(400, "club_against", name=str(against)[:60])
    return against


def _run_check(text: str, name: str, change: dict[str, Any] | None) -> tuple[dict[str, Any], ResolvedRuleset | None]:
    if not upload.ISOLATED:  # tests that watch the loader in this process
        return check_draft(text, name, change)
    found: tuple[dict[str, Any], ResolvedRuleset | None] = isolated(check_draft, (text, name, change))
    return found


def _run(function: Any, *args: Any) -> Any:
    if not upload.ISOLATED:
        return function(*args)
    return isolated(function, args)


def club_routes(club: Club, streams: Streams) -> list[Route]:
    """The routes of the club's page; ``streams``: the server's count of pages following its events (a
    question's progress is counted with the tables' pages)."""

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def checked(
        request: Request, text: str, change: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], ResolvedRuleset | None]:
        found: tuple[dict[str, Any], ResolvedRuleset | None] = await club.uploads.run(
            _client(request), _run_check, text, club.name, change
        )
        return found

    def busy(exc: RegelmotorError) -> Response:
        return refused(429, exc, {"Retry-After": str(RETRY_SECONDS)})

    async def get_club(request: Request) -> Response:
        if request.method == "PUT":
            return await save(request)
        text = await run_in_threadpool(club.text)
        title = ""
        try:
            from regelmotor.web.club_yaml import load_text

            data = load_text(text)
            name, title = str(data.get("name", "")), str(data.get("title", ""))
        except RegelmotorError:
            name = ""
        return JSONResponse(
            {
                "name": name,
                "title": title,
                "file": club.name,
                "yaml": text,
                "fingerprint": fingerprint_of(text),
                "editable": club.is_admin(request),
                "saving": club.file is not None,
                "shipped": sorted(shipped_rulesets()),
                "limits": {"deals": MAX_DEALS, "values": MAX_VALUES},
            }
        )

    async def check(request: Request) -> Response:
        try:
            payload = await read_json(request, MAX_CLUB_REQUEST)
            text = _yaml_field(payload)
            change = payload.get("change")
            if change is not None and not isinstance(change, dict):
                raise bad_request(400, "club_yaml", limit=MAX_TEXT)
            answer, _ = await checked(request, text, change)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except UploadsBusy as exc:
            return busy(exc)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        return JSONResponse(answer)

    async def rulebook(request: Request) -> Response:
        try:
            payload = await read_json(request, MAX_CLUB_REQUEST)
            text = _yaml_field(payload)
            fmt, paper = payload.get("format", "html"), payload.get("paper", "a4")
            lang = "en" if payload.get("lang") == "en" else "da"
            if fmt not in ("html", "pdf") or paper not in ("a4", "a5"):
                raise bad_request(400, "club_format")
            book = await club.uploads.run(_client(request), _run, draft_rulebook, text, club.name, fmt, lang, paper)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except UploadsBusy as exc:
            return busy(exc)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        if isinstance(book, bytes):
            stem = Path(club.name).stem
            headers = {"Content-Disposition": f'attachment; filename="{stem}-regler-{paper}.pdf"'}
            return Response(book, media_type="application/pdf", headers=headers)
        return HTMLResponse(book)

    async def diff(request: Request) -> Response:
        try:
            payload = await read_json(request, MAX_CLUB_REQUEST)
            text = _yaml_field(payload)
            against = _against(payload, club)
            saved = str(club.file) if club.file is not None else None
            found = await club.uploads.run(_client(request), _run, draft_diff, text, club.name, against, saved)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except UploadsBusy as exc:
            return busy(exc)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        return JSONResponse(found)

    def question_spec(payload: dict[str, Any]) -> dict[str, Any]:
        asked = payload.get("question")
        if not isinstance(asked, dict) or asked.get("kind") not in ("compare", "tune"):
            raise bad_request(400, "club_question")
        deals = asked.get("deals", 100)
        if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= MAX_DEALS:
            raise bad_request(400, "club_deals", most=MAX_DEALS)
        bots = asked.get("bots", "expert")
        if bots not in ("expert", "heuristic", "random"):
            raise bad_request(400, "unknown_bot", name=str(bots)[:40], choices="expert, heuristic, random")
        seed = asked.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise bad_request(400, "seed", most=2**63 - 1)
        spec: dict[str, Any] = {"kind": asked["kind"], "deals": deals, "bots": bots, "seed": seed}
        if asked["kind"] == "tune":
            key, values, target = asked.get("key"), asked.get("values"), asked.get("target")
            if (
                not isinstance(key, str)
                or len(key) > 200
                or not isinstance(values, list)
                or not 1 <= len(values) <= MAX_VALUES
                or not all(
                    isinstance(v, (int, float, str)) and not isinstance(v, bool) and len(str(v)) <= 40 for v in values
                )
                or not isinstance(target, str)
                or len(target) > 200
            ):
                raise bad_request(400, "club_values", most=MAX_VALUES)
            spec.update(key=key, values=[str(v) for v in values], target=target)
        return spec

    async def ask(request: Request) -> Response:
        try:
            payload = await read_json(request, MAX_CLUB_REQUEST)
            text = _yaml_field(payload)
            against = _against(payload, club)
            spec = question_spec(payload)
            against_print = await run_in_threadpool(_rules_print, against, str(club.file))
            against_key = f"{against}:{against_print}"
            draft = draft_key(spec, text, against_key)
            print_ = club.questions.known(draft)  # asked before and answered: told at once, whatever the line
            if print_ is None:
                club.questions.room_for(_client(request))  # a full line refuses at once, before the draft's check
                answer, _ = await checked(request, text)
                if not answer["ok"]:
                    problems = answer["problems"]
                    told = _told("web_club_draft_problems")
                    return JSONResponse({**told, "problems": problems}, status_code=400)
                print_ = question_fingerprint(spec, answer["fingerprint"], against_key)
            saved = str(club.file) if club.file is not None else None
            work = (spec, text, club.name, against, saved)
            question = club.questions.ask(_client(request), spec, print_, work, draft)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except (UploadsBusy, QuestionsBusy) as exc:
            return busy(exc)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        return JSONResponse(question.as_json())

    def find(request: Request) -> Question | None:
        return club.questions.questions.get(request.path_params["id"])

    async def answer(request: Request) -> Response:
        question = find(request)
        if question is None:
            return said(404, "club_no_question")
        if question.state == "done" and question.result is not None:
            return JSONResponse(question.result)
        if question.error is not None:
            return refuse(400, *question.error)
        if question.state == "cancelled":
            return said(409, "club_no_question")
        return JSONResponse({**question.as_json(), **_told("web_club_not_answered")}, status_code=202)

    async def events(request: Request) -> Response:
        """The question's progress pushed to the page that asked; the question is cancelled when the last page
        following it leaves before it is answered."""
        question = find(request)
        if question is None:
            return said(404, "club_no_question")
        client = _client(request)

        def full() -> Response | None:
            if len(question.watchers) >= WATCHERS:
                return refuse(503, "for mange sider følger dette spørgsmål", "too many pages follow this question")
            if streams.full(client):
                return refuse(
                    503,
                    "for mange sider følger borde og spørgsmål herfra; luk nogle",
                    "too many pages follow tables and questions from here",
                )
            return None

        refusal = full()
        if refusal is not None:
            return refusal

        async def stream() -> AsyncIterator[str]:
            # Counted where it is uncounted: a stream whose client left before it began is never entered.
            if full() is not None:
                return  # others came first: the browser tries again
            streams.enter(client)
            wake = asyncio.Event()
            watcher = (asyncio.get_running_loop(), wake)
            with question.lock:
                question.watchers[watcher] = None
            try:
                yield "retry: 1000\n\n"
                sent = -1
                while True:
                    if question.version != sent:
                        sent = question.version
                        yield f"event: progress\ndata: {json.dumps(question.as_json())}\n\n"
                        if question.finished:
                            return
                        continue
                    wake.clear()
                    if question.version != sent:
                        continue
                    try:
                        await asyncio.wait_for(wake.wait(), HEARTBEAT_SECONDS)
                    except TimeoutError:
                        yield ": \n\n"
            finally:
                streams.leave(client)
                with question.lock:
                    question.watchers.pop(watcher, None)
                    left = not question.watchers
                if left and not question.finished:
                    club.questions.cancel(question)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})

    def admin_refusal(request: Request) -> Response | None:
        """Saving is the club's: 404 where ``serve`` has no club file, 403 without the admin secret."""
        if club.history is None:
            return said(404, "club_none")
        return None if club.is_admin(request) else said(403, "club_admin")

    async def save(request: Request) -> Response:
        """The admin's save: the draft checked, then written only if the file is still the one the page opened."""
        history = club.history
        refusal = admin_refusal(request)
        if refusal is not None or history is None:
            return refusal or said(404, "club_none")
        try:
            payload = await read_json(request, MAX_CLUB_REQUEST)
            text = _yaml_field(payload)
            expected = payload.get("fingerprint")
            if not isinstance(expected, str) or len(expected) > 64:
                raise bad_request(400, "club_yaml", limit=MAX_TEXT)
            answer, resolved = await checked(request, text)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except UploadsBusy as exc:
            return busy(exc)
        if not answer["ok"] or resolved is None:
            told = _told("web_club_draft_not_saved")
            return JSONResponse({**told, "problems": answer["problems"]}, status_code=400)

        def write() -> dict[str, Any]:
            before = _saved_rules(history.path)
            words = (change_words(before, resolved, "da"), change_words(before, resolved, "en"))
            if not words[0]:
                words = (["kun tekst og kilder er ændret"], ["only text and sources changed"])
            return history.save(text, expected, words, resolved.fingerprint)

        try:
            entry = await run_in_threadpool(write)
        except ClubChanged as exc:
            return await changed_since(exc, history, expected, text)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        return JSONResponse(
            {"fingerprint": entry["fingerprint"], "version": entry["version"], "changes": entry["changes"]}
        )

    async def changed_since(exc: RegelmotorError, history: History, expected: str, draft: str) -> Response:
        """409: what the file says now, and what changed in it since the page opened it (by the versions kept,
        else line by line against the page's draft)."""

        def what() -> dict[str, Any]:
            now = history.read()
            opened = next((v for v in history.versions() if v.get("fingerprint") == expected), None)
            lines: list[str] = []
            lines_en: list[str] = []
            if opened is not None:
                old = _saved_rules_text(history, history.version_text(int(opened["version"])))
                new = _saved_rules(history.path)
                lines, lines_en = change_words(old, new, "da"), change_words(old, new, "en")
            if not lines:
                lines = lines_en = [
                    line.rstrip("\n")
                    for line in difflib.unified_diff(
                        draft.splitlines(True), now.splitlines(True), "siden", "filen", n=0
                    )
                ][:40]
            return {"yaml": now, "fingerprint": fingerprint_of(now), "changes": lines, "changes_en": lines_en}

        told = await run_in_threadpool(what)
        return JSONResponse({"error": exc.text("da"), "error_en": exc.text("en"), **told}, status_code=409)

    async def history_route(request: Request) -> Response:
        history = club.history
        if history is None:
            return JSONResponse({"versions": []})
        versions = await run_in_threadpool(history.versions)
        return JSONResponse({"versions": list(reversed(versions))})

    async def undo(request: Request) -> Response:
        history = club.history
        refusal = admin_refusal(request)
        if refusal is not None or history is None:
            return refusal or said(404, "club_none")
        try:
            await read_json(request, 4_000)
        except BadRequest as exc:
            return refused(exc.status, exc)

        def back() -> dict[str, Any]:
            number, text, current = history.before_current()
            before, after = _saved_rules(history.path), _saved_rules_text(history, text)
            words = (change_words(before, after, "da"), change_words(before, after, "en"))
            head = (f"fortrudt: tilbage til udgave {number}", f"undone: back to version {number}")
            latest = history.versions()[-1]["version"]
            rules = after.fingerprint if after is not None else None
            entry = history.save(
                text,
                current,
                ([head[0], *words[0]], [head[1], *words[1]]),
                rules,
                undo_of=int(latest),
                restores=number,
            )
            return {**entry, "yaml": text}

        try:
            entry = await run_in_threadpool(back)
        except (ClubChanged, NothingToUndo) as exc:
            return refuse(409, exc.text("da"), exc.text("en"))
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        return JSONResponse(
            {
                "fingerprint": entry["fingerprint"],
                "version": entry["version"],
                "yaml": entry["yaml"],
                "changes": entry["changes"],
            }
        )

    return [
        Route("/klub", page),
        Route("/api/club", get_club, methods=["GET", "PUT"]),
        Route("/api/club/check", check, methods=["POST"]),
        Route("/api/club/rulebook", rulebook, methods=["POST"]),
        Route("/api/club/diff", diff, methods=["POST"]),
        Route("/api/club/questions", ask, methods=["POST"]),
        Route("/api/club/questions/{id}", answer),
        Route("/api/club/questions/{id}/events", events),
        Route("/api/club/history", history_route),
        Route("/api/club/undo", undo, methods=["POST"]),
    ]


def _rules_print(against: str, saved: str) -> str:
    """The fingerprint of the rules a question compares with: a shipped ruleset's, or the saved file's (by the path
    ``serve`` was given), each loaded once while it stays as it is (a load holds the server's interpreter for a
    tenth of a second, which the table's requests would wait for at every question)."""
    if against != "saved":
        return _shipped_print(against)
    known = _SAVED_PRINTS.get(saved)
    if known is not None and _stamps(known[0]) == known[1]:
        return known[2]
    began = time.time_ns()
    resolved = load_ruleset(saved)
    read = tuple(sorted({saved, *resolved.files, *(at.file for at in resolved.values.values())}))
    stamps = _stamps(read)
    if all(stamp is None or stamp[0] < began for stamp in stamps):  # kept only if nothing changed as it loaded
        _SAVED_PRINTS[saved] = (read, stamps, resolved.fingerprint)
    return resolved.fingerprint


_SAVED_PRINTS: dict[str, tuple[tuple[str, ...], tuple[tuple[int, int] | None, ...], str]] = {}
"""The saved file's fingerprint, with every file its load read and how each stood: a file it extends, or a house
rule it lists, that changes is a change of the rules a kept answer was about."""


def _stamps(files: Sequence[str]) -> tuple[tuple[int, int] | None, ...]:
    """How each file stands (changed, size; ``None`` for a shipped file's display name, which does not change)."""
    out: list[tuple[int, int] | None] = []
    for name in files:
        try:
            stat = Path(name).stat()
        except OSError:
            out.append(None)
            continue
        out.append((stat.st_mtime_ns, stat.st_size))
    return tuple(out)


@functools.lru_cache(maxsize=32)
def _shipped_print(ref: str) -> str:
    return load_ruleset(ref, shipped_only=True).fingerprint


def _told(phrase: str) -> dict[str, str]:
    error = BadRequest.said(phrase)
    return {"error": error.text("da"), "error_en": error.text("en")}


def _saved_rules(path: Path) -> ResolvedRuleset | None:
    """The saved file's rules, loaded as ``serve`` loaded it (the operator's file, by its path)."""
    try:
        return load_ruleset(str(path))
    except (RulesetError, RegelmotorError, OSError):
        return None


def _saved_rules_text(history: History, text: str) -> ResolvedRuleset | None:
    """An earlier version's rules: checked in the draft's way (shipped ``extends`` only), in this process (a
    version was checked when it was saved)."""
    answer, resolved = check_draft(text, history.path.name, None)
    return resolved if answer["ok"] else None


def club_of(ref: str | None, admin: str | None, questions: Questions, uploads: upload.UploadPool) -> Club | None:
    """The club's page for ``serve RULESET``: a file is the club's own (saved by the admin link), a shipped name
    a ruleset to draft on; no ruleset, no page."""
    if ref is None:
        return None
    if is_path(ref):
        return Club(Path(ref).resolve(), admin, "standard", questions, uploads)
    return Club(None, None, ref, questions, uploads)


__all__ = ["ADMIN_HEADER", "Club", "club_of", "club_routes"]
