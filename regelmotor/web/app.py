"""The web game: a person against three computer players (random, heuristic or expert), or a table of
two to four people online with bots in the empty seats; the rule book under the table.

A table's host is given one link per person: the table's key, the player and a secret for that seat
(``SEAT_LINK``). Each page is sent that seat's view alone and follows the table by server-sent events,
so every move is pushed to the others; the table's bare key opens no seat.

The server is built to face an untrusted network: it reads no file a client names (house rules and
``extends`` by shipped name only), keeps a bounded number of games and evicts idle ones, limits the
size of every request, answers a malformed body with a 4xx and a message, takes only JSON with a
same-origin ``Origin`` and a known ``Host`` (no cross-site page and no DNS rebinding can drive it), and
sends security headers (a CSP that allows only its own page's script) on every response. The bots' moves
run in worker threads and a club's file is checked in a bounded pool of its own (``upload.UploadPool``),
so one slow request never stalls the others. Every refusal is said in Danish (``error``) with the English
beside it (``error_en``), and no answer shows a path of the server.

The server keeps every game it has not evicted. What it sends is built from ``view(seat)`` of the person's seat and
a log of the other seats' actions with what the table does not see masked (the cards laid away
in an exchange, the fordækt card), so the page never receives another seat's cards, the kitty,
or the partner's identity before the rules reveal them.

This module is the routes; the tables they serve are ``tables``, and what a request may carry and the
headers on every answer are ``guard``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from regelmotor.bots import UnknownBot, available_bots, check_bot
from regelmotor.double_dummy.analysis import AnalysisError, analyse_game
from regelmotor.double_dummy.report import analysis_json, analysis_text
from regelmotor.errors import NotationError, RegelmotorError, RulesetError, RuleViolation
from regelmotor.records import game_record
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.catalogue import is_path, shipped_catalogue, shipped_rulesets
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.score_sheet import read_sheet, score, sheet_document, sheet_rate
from regelmotor.web.club import club_of, club_routes
from regelmotor.web.club_questions import QUESTIONS_AT_ONCE, Questions
from regelmotor.web.guard import (
    LOCAL_HOSTS,
    MAX_ACTION,
    MAX_UPLOAD,
    BadRequest,
    Streams,
    deal_number,
    guard,
    new_game_request,
    people_field,
    read_json,
    refuse,
    refused,
    said,
    text_field,
)
from regelmotor.web.sheet import add_deal, sheet_state, undo_deal
from regelmotor.web.store import GameStore
from regelmotor.web.tables import IDLE_SECONDS, YOU, Games, WebGame, locked_change, network_of, seat_links
from regelmotor.web.upload import UploadPool, UploadsBusy, load_upload

ANALYSES_AT_ONCE = 1
"""Analyses searched at once (each holds a core); the others wait their turn without holding a thread."""


ANALYSES_WAITING = 8
"""Analyses that may wait; one more is told to try again (503), so no queue grows without bound."""


WEB_NODES = 3_000_000
"""A search's node budget on the page (about a second)."""


MORE = 3
"""The page's "Søg videre": its analysis again with this many times the budget and the time."""
WEB_SECONDS = 20.0
"""An analysis's time on the page: from the last card back, so what is left unknown is the first tricks."""


WATCHERS = 16
"""Pages following one game at once (four people, each with a tab or two)."""


STREAMS = 100
"""Pages following tables and club's questions at once: half the server's connections, so the others are always
answered."""


STREAMS_PER_CLIENT = 16
"""Pages following tables and questions from one client, a network (a club room behind one router is one
address)."""


RETRY_SECONDS = 5
"""How soon a client refused for a full pool is told to try again (``Retry-After``)."""


HEARTBEAT_SECONDS = 15.0
"""A followed page hears from the server this often, so that a lost connection is noticed and remade."""


RECONNECT_MS = 1000
"""How soon a browser tries again when a followed table's connection is lost."""


PAGE = Path(__file__).resolve().parent / "static" / "index.html"


SHEET_PAGE = Path(__file__).resolve().parent / "static" / "sheet.html"


CLUB_PAGE = Path(__file__).resolve().parent / "static" / "klub.html"


def _client(request: Request) -> str:
    """The client's address, as the connection gives it (no header a client writes is trusted)."""
    return request.client.host if request.client is not None else ""


def _without(text: str, path: Path) -> str:
    """``text`` with the server's folders taken out of ``path`` where it names it: a member reads the
    file's name, never where it lies on the server."""
    for named in sorted({str(path.resolve()), str(path.absolute()), str(path)}, key=len, reverse=True):
        text = text.replace(named, path.name)
    for folder in sorted({str(path.resolve().parent), str(path.absolute().parent)}, key=len, reverse=True):
        text = text.replace(folder + "/", "")
    return text


def _problems(error: RulesetError) -> list[dict[str, Any]]:
    return [
        {
            "file": p.location.file,
            "line": p.location.line,
            "column": p.location.column,
            "path": p.key_path,
            "message": p.said_as("da"),
            "message_en": p.said_as("en"),
        }
        for p in error.problems
    ]


CLUB = "klub"
"""The name the page uses for the ruleset the operator started the server with (``serve RULESET``)."""


def create_app(
    allowed_hosts: frozenset[str] | None = LOCAL_HOSTS,
    *,
    games: Games | None = None,
    club: tuple[str, list[str]] | None = None,
    sheet: Path | None = None,
    store: Path | None = None,
    club_admin: str | None = None,
    questions: int = QUESTIONS_AT_ONCE,
) -> ASGIApp:
    """The web game. ``allowed_hosts``: the ``Host`` names served (None: any, for a server behind a proxy).
    ``club``: a ruleset (a shipped name or a file) and house rules the operator names when starting the
    server, offered first on the page as "klub"; clients still name only what the server offers. ``store``:
    a folder the games are kept in, so that a restart loses none (``serve`` gives one; tests mostly not).
    ``club_admin``: the secret of the admin link that saves the club's file on the club's page (``/klub``);
    ``questions``: the club's questions answered at once (``serve --questions N``)."""
    games = games if games is not None else Games(store=None if store is None else GameStore(store, IDLE_SECONDS))
    shipped: list[dict[str, Any]] = []
    """The shipped rulesets' list, read at the first request for it."""
    books: dict[tuple[str, str, str], str] = {}
    """Rule books of shipped and the club's rules by label, fingerprint and language (uploads are not kept)."""
    club_resolved = None if club is None else load_ruleset(club[0], club[1])

    def stored_ruleset(origin: str, ref: str, house: list[str], upload: str | None) -> ResolvedRuleset:
        """A stored game's ruleset found as a new game's is: shipped names, the server's club, an upload."""
        if origin == "upload" and upload is not None:
            return load_upload(upload, upload_name(ref), house)
        if origin == "club":
            if club is None or club_resolved is None or not ref == club[0]:
                raise RegelmotorError("the game was played with a club file this server does not offer")
            return club_resolved if house == club[1] else load_ruleset(club[0], house)
        if ref not in shipped_rulesets() or any(is_path(h) for h in house):
            raise RegelmotorError("not a shipped ruleset")
        return _shipped_ruleset(ref, tuple(house))

    games.rulesets = stored_ruleset
    uploads = UploadPool()
    streams = Streams(lambda: STREAMS, lambda: STREAMS_PER_CLIENT)
    """The pages following a table or a club's question, by client (a network, counted in the event loop): they
    hold a connection each, so no client may hold the server's connections and no number of them all."""
    club_page = club_of(None if club is None else club[0], club_admin, Questions(questions), uploads)

    async def index(request: Request) -> Response:
        page = PAGE.read_text(encoding="utf-8")
        links = ""
        if sheet is not None:  # the evening's score sheet the operator named when starting the server
            links += '<a href="/sheet" id="sheet-link">Aftenens regnskab</a>'
        if club_page is not None:  # the club's page: its rules, its book, its questions
            links += ' <a href="/klub" id="club-link">Klubbens side</a>'
        page = page.replace("<!--sheet-->", links)
        return HTMLResponse(page)

    async def sheet_entry(request: Request) -> Response:
        """The evening's sheet at the table: deals entered as ``session add`` enters them, live totals."""
        if sheet is None:
            return said(404, "no_sheet")
        return HTMLResponse(SHEET_PAGE.read_text(encoding="utf-8"))

    async def sheet_api(request: Request) -> Response:
        """The sheet as the page shows it; POST enters a deal, POST .../undo takes the last one back. Only
        the file the operator named is ever written, under its lock (the command line's door)."""
        if sheet is None:
            return said(404, "no_sheet")
        lang = "en" if request.query_params.get("lang") == "en" else "da"  # the page's language
        try:
            if request.method == "GET":
                return JSONResponse(await run_in_threadpool(sheet_state, sheet, lang))
            if request.url.path.endswith("/undo"):
                await read_json(request, MAX_ACTION)
                return JSONResponse(await run_in_threadpool(undo_deal, sheet, lang))
            payload = await read_json(request, MAX_ACTION)
            return JSONResponse(await run_in_threadpool(add_deal, sheet, payload, lang))
        except BadRequest as exc:
            return refused(exc.status, exc)
        except RegelmotorError as exc:
            return refuse(400, _without(exc.text("da"), sheet), _without(exc.text("en"), sheet))

    async def sheet_page(request: Request) -> Response:
        """The score sheet of the evening played with real cards, as ``regelmotor session`` keeps it: read
        (bounded) from the file the operator named, never from a path a client names; to print."""
        if sheet is None:
            return said(404, "no_sheet")
        lang = "en" if request.query_params.get("lang") == "en" else "da"

        def page() -> str:
            entries = read_sheet(sheet)
            document = sheet_document(entries, score(entries), sheet_rate(entries, Path(sheet.name)), "html", lang)
            assert isinstance(document, str)
            return document

        try:
            return HTMLResponse(await run_in_threadpool(page))
        except RegelmotorError as exc:  # being written, or by hand: a conflict of the moment, not the server's
            problem = {lang: _without(exc.text(lang), sheet) for lang in ("da", "en")}
            refusal = {lang: BadRequest.said("web_sheet_unreadable", problem=problem[lang]) for lang in problem}
            headers = {"Retry-After": str(RETRY_SECONDS)}
            return refuse(409, refusal["da"].text("da"), refusal["en"].text("en"), headers)

    async def rulesets(request: Request) -> Response:
        if not shipped:  # read once, in a worker thread: the event loop never parses nineteen files
            read = await run_in_threadpool(shipped_catalogue)
            if not shipped:  # another request may have read it meanwhile
                shipped.extend(read)
        catalogue: list[dict[str, Any]] = list(shipped)
        if club_resolved is not None:
            r = club_resolved.ruleset
            offer = {"kind": "ruleset", "name": CLUB, "title": f"{r.title} ({club_resolved.label})"}
            catalogue.insert(0, {**offer, "description": r.description, "default": True})
        return JSONResponse(catalogue)

    async def new_game(request: Request) -> Response:
        """A new game of one person against three bots; with ``people`` (a name per player, null for a bot)
        a table of several people, answered with each person's seat link instead of a game."""
        try:
            payload = await read_json(request, MAX_UPLOAD)
            house, bot, seed, upload, filename, ref = new_game_request(payload)
            people = people_field(payload)
            check_bot(bot)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except UnknownBot:
            return said(400, "unknown_bot", name=bot, choices=", ".join(available_bots()))
        if any(is_path(h) for h in house):  # whichever ruleset they are added to
            return said(400, "house_shipped")
        client = _client(request)
        try:
            if upload is not None:
                name = upload_name(filename)
                if not _encodable(upload):
                    return refuse(400, "reglesætsfilen er ikke UTF-8-tekst", "the ruleset file is not UTF-8 text")
                try:
                    resolved = await uploads.check(network_of(client), upload, name, house)
                except UploadsBusy as exc:  # at once: no request waits behind a line of uploads
                    return refused(429, exc, {"Retry-After": str(RETRY_SECONDS)})
                key = await run_in_threadpool(
                    games.start, resolved, name, house, seed, upload, bot, client, "upload", people
                )
            elif ref == CLUB and club is not None and club_resolved is not None:
                resolved = club_resolved
                if house:
                    resolved = await run_in_threadpool(load_ruleset, club[0], [*club[1], *house])
                key = await run_in_threadpool(
                    games.start, resolved, club[0], [*club[1], *house], seed, None, bot, client, "club", people
                )
            else:
                if ref not in shipped_rulesets():
                    return said(400, "no_ruleset", name=ref)
                resolved = await run_in_threadpool(_shipped_ruleset, ref, tuple(house))
                key = await run_in_threadpool(
                    games.start, resolved, ref, house, seed, None, bot, client, "shipped", people
                )
        except RulesetError as exc:
            problems = _problems(exc)
            for problem in problems:
                problem["file"] = Path(problem["file"]).name
            told = {"error": "reglesættet har fejl", "error_en": "the ruleset has problems"}
            return JSONResponse({**told, "problems": problems}, status_code=400)
        except RegelmotorError as exc:
            return refuse(400, exc.text("da"), exc.text("en"))
        web = games.games[key]
        if people is None:
            return JSONResponse(await snapshot(key, web, YOU))
        return JSONResponse(seat_links(web))

    def with_game(
        handler: Callable[[Request, str, WebGame, int], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        """A route about one game, as one player's page: unknown ids (and a table's bare key, or a seat link
        with a wrong secret) get 404, known ones the handler."""

        async def route(request: Request) -> Response:
            key = request.path_params["key"]
            found = games.find(key, restore=False)
            if found is None and games.store is not None:  # after a restart: from the store, replayed
                found = await run_in_threadpool(games.find, key)
            if found is None:
                return refuse(404, "intet sådant spil (det er måske afsluttet)", "no such game")
            return await handler(request, key, *found)

        return route

    @with_game
    async def state(request: Request, key: str, web: WebGame, player: int) -> Response:
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def act(request: Request, key: str, web: WebGame, player: int) -> Response:
        try:
            action = text_field(await read_json(request, MAX_ACTION), "action", "") or ""
            await run_in_threadpool(locked_change, web, games.act, web, action, player)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except RuleViolation as exc:
            refusal = {"error": exc.text("da"), "error_en": exc.text("en"), "rule": exc.rule, "source": exc.source}
            return JSONResponse({**refusal, "state": await snapshot(key, web, player)}, status_code=400)
        except (NotationError, RegelmotorError) as exc:
            told = {"error": exc.text("da"), "error_en": exc.text("en")}
            return JSONResponse({**told, "state": await snapshot(key, web, player)}, status_code=400)
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def next_deal(request: Request, key: str, web: WebGame, player: int) -> Response:
        try:
            number = deal_number(await read_json(request, MAX_ACTION))
            await run_in_threadpool(locked_change, web, games.next_deal, web, number)
        except BadRequest as exc:
            return refused(exc.status, exc)
        except RegelmotorError as exc:  # the page is Danish first
            return JSONResponse({"error": exc.text("da"), "error_en": exc.text("en")}, status_code=400)
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def events(request: Request, key: str, web: WebGame, player: int) -> Response:
        """The table pushed to one player's page (server-sent events): its state now, then after every
        change, with a heartbeat between, so that four people see each other's moves without asking. A
        lost connection is remade by the browser, which is then sent the state as it stands."""
        client = network_of(_client(request))

        def full() -> JSONResponse | None:
            if len(web.watchers) >= WATCHERS:
                return refuse(503, "for mange sider følger dette bord", "too many pages follow this table")
            if streams.full(client):
                return refuse(503, "for mange sider følger borde herfra; luk nogle", "too many pages follow tables")
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
            with web.counting:
                web.watchers[watcher] = player
            web.changed()  # the others see that this person has come to the table
            try:
                yield f"retry: {RECONNECT_MS}\n\n"
                sent = -1
                while True:
                    if web.version != sent:
                        sent = web.version
                        data = json.dumps(await snapshot(key, web, player), ensure_ascii=False)
                        yield f"event: state\ndata: {data}\n\n"
                        continue
                    wake.clear()
                    if web.version != sent:
                        continue
                    try:
                        await asyncio.wait_for(wake.wait(), HEARTBEAT_SECONDS)
                    except TimeoutError:
                        yield ": \n\n"  # a comment: the browser ignores it, a dead connection fails on it
            finally:
                streams.leave(client)
                with web.counting:
                    web.watchers.pop(watcher, None)
                web.changed()  # and that this page has gone

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})

    @with_game
    async def record(request: Request, key: str, web: WebGame, player: int) -> Response:
        if web.game.step is not None:
            return said(400, "record_early")
        data = game_record(web.game, web.ruleset_ref, web.house_rules)
        headers = {"Content-Disposition": 'attachment; filename="regelmotor-spil.json"'}
        return JSONResponse(data, headers=headers)

    @with_game
    async def rulebook(request: Request, key: str, web: WebGame, player: int) -> Response:
        lang = "en" if request.query_params.get("lang") == "en" else "da"
        cache = (web.resolved.label, web.resolved.fingerprint, lang)
        html = books.get(cache) if web.upload is None else None
        if html is None:  # built in a worker thread, and kept for the next table with the same rules
            built = await run_in_threadpool(lambda: render(build_rulebook(web.resolved, web.rules, lang), "html"))
            assert isinstance(built, str)
            html = built
            if web.upload is None and len(books) < 64:
                books[cache] = html
        return HTMLResponse(html)

    analysing = asyncio.Semaphore(ANALYSES_AT_ONCE)
    waiting = [0]

    @with_game
    async def analysis(request: Request, key: str, web: WebGame, player: int) -> Response:
        """The finished deal with every hand open ("Vis analyse"): what each card cost, as JSON with its
        Danish and English text. Searched in a worker thread within a time limit, a few at a time."""
        game = web.game
        if game.step is not None or not game.tricks:
            return said(400, "analysis_early")
        more = request.query_params.get("more") == "1"  # "Søg videre": a longer search, where cards were left open
        if web.analysis is not None and web.analysis[0] is game and not more:
            return JSONResponse(web.analysis[1])
        if waiting[0] >= ANALYSES_WAITING:
            return refused(503, BadRequest.said("web_analysis_busy"), {"Retry-After": str(RETRY_SECONDS)})
        waiting[0] += 1
        try:
            async with analysing:
                nodes, seconds = (WEB_NODES * MORE, WEB_SECONDS * MORE) if more else (WEB_NODES, WEB_SECONDS)
                found = await run_in_threadpool(analyse_game, game, web.resolved.label, nodes, 1, seconds)
        except AnalysisError as exc:
            return JSONResponse({"error": exc.text("da"), "error_en": exc.text("en")}, status_code=400)
        finally:
            waiting[0] -= 1
        text, text_en = (analysis_text(found, lang, page=True) for lang in ("da", "en"))
        data = {**analysis_json(found), "text": text, "text_en": text_en}
        web.analysis = (game, data)
        return JSONResponse(data)

    async def snapshot(key: str, web: WebGame, player: int) -> dict[str, Any]:
        """What the player's page is sent, read under the game's lock (its bots may be moving in a worker
        thread)."""

        def read() -> dict[str, Any]:
            with web.lock:
                return games.state(key, web, player)

        return await run_in_threadpool(read)

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (an unknown address, a method a route does not take), said as ours."""
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return said(404, "not_found")
        if exc.status_code == 405:
            return refused(405, BadRequest.said("web_method", method=request.method), exc.headers)  # Allow
        return refuse(exc.status_code, str(exc.detail), str(exc.detail), exc.headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        """A fault of the server: said without its message, which may name the server's files."""
        return said(500, "server_error")

    routes: list[Route] = [
        Route("/", index),
        Route("/api/rulesets", rulesets),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{key}", state),
        Route("/api/games/{key}/actions", act, methods=["POST"]),
        Route("/api/games/{key}/next", next_deal, methods=["POST"]),
        Route("/api/games/{key}/record", record),
        Route("/api/games/{key}/rulebook", rulebook),
        Route("/api/games/{key}/analysis", analysis),
        Route("/api/games/{key}/events", events),
        Route("/sheet", sheet_entry),
        Route("/sheet/print", sheet_page),
        Route("/api/sheet", sheet_api, methods=["GET", "POST"]),
        Route("/api/sheet/undo", sheet_api, methods=["POST"]),
        *(club_routes(club_page, streams) if club_page is not None else []),
    ]
    app = Starlette(exception_handlers={HTTPException: http_error, Exception: server_error}, routes=routes)
    app.state.games = games  # the server side of every game, for the tests that check what is sent
    app.state.club = club_page
    app.state.streams = streams  # the pages following the server's events, for the tests of their bound
    pages = "".join(page.read_text(encoding="utf-8") for page in (PAGE, SHEET_PAGE, CLUB_PAGE))
    taken = [route.methods for route in routes]  # None: a route that takes any method, so every one is checked
    writes = None if None in taken else frozenset(m for methods in taken if methods for m in methods) - {"GET", "HEAD"}
    guarded = guard(allowed_hosts, pages, writes)(app)
    guarded.state = app.state  # type: ignore[attr-defined]
    return guarded


@functools.lru_cache(maxsize=128)
def _shipped_ruleset(ref: str, house: tuple[str, ...]) -> ResolvedRuleset:
    """A shipped ruleset with shipped house rules, loaded once: the shipped files do not change while serving."""
    return load_ruleset(ref, list(house), shipped_only=True)


def upload_name(filename: str | None) -> str:
    """The uploaded file's name as the rule book and the errors show it: its last part, letters, digits,
    ``-``, ``_``, ``.`` and spaces, at most 64 characters; any other name is ``upload.yaml``."""
    name = Path(filename or "").name
    if not re.fullmatch(r"[\w .-]{1,64}", name) or not _encodable(name) or name.startswith("."):
        return "upload.yaml"
    return name


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON allows "\ud800")
        return False
    return True
