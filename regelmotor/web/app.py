"""The web game: a person against three computer players (random, heuristic or expert), the rule book
under the table.

The server keeps every game. What it sends is built from ``view(seat)`` of the person's seat and
a log of the other seats' actions with what the table does not see masked (the cards laid away
in an exchange, the fordækt card), so the page never receives another seat's cards, the kitty,
or the partner's identity before the rules reveal them.
"""

from __future__ import annotations

import dataclasses
import json
import random
import secrets
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from regelmotor.bots import Bot, UnknownBot, check_bot, make_bot
from regelmotor.engine.game import FINISHED, Game
from regelmotor.engine.record import game_record, points
from regelmotor.errors import NotationError, RegelmotorError, RulesetError, RuleViolation
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset, shipped_catalogue, shipped_rulesets
from regelmotor.session import Session

YOU = 0
"""The person is player 0 of the session; which seat that is changes as the deal passes round."""
MAX_UPLOAD = 200_000
PAGE = Path(__file__).resolve().parent / "static" / "index.html"


@dataclasses.dataclass
class WebGame:
    resolved: ResolvedRuleset
    rules: Rules
    ruleset_ref: str
    house_rules: list[str]
    session: Session
    rng: random.Random
    game: Game
    bots: dict[int, Bot]
    log: list[str]
    upload: str | None = None
    bot: str = "heuristic"
    seat: int = 0
    """The person's seat in the current deal (the session's seating of player ``YOU``)."""
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    """One request at a time changes a game; requests about other games go on meanwhile."""


def _public(seat: int, action: str) -> str:
    """An action as the other players see it."""
    if action.startswith("discard"):
        return f"plads {seat} bytter {len(action.split()) - 1} kort"
    if action.startswith("fordækt"):
        return f"plads {seat} lægger et kort fordækt"
    return f"plads {seat}: {action}"


class Games:
    def __init__(self) -> None:
        self.games: dict[str, WebGame] = {}

    def start(
        self,
        resolved: ResolvedRuleset,
        ref: str,
        house: list[str],
        seed: int | None,
        upload: str | None,
        bot: str = "heuristic",
    ) -> str:
        rules = compile_rules(resolved)
        if 4 not in resolved.ruleset.table.players:
            raise RegelmotorError(f"{resolved.label} is not played four to a table")
        rng = random.Random(seed if seed is not None else secrets.randbits(32))
        session = Session(rules, ["Du", "Bot 1", "Bot 2", "Bot 3"], first_dealer=3)  # the person is forhånd first
        key = secrets.token_urlsafe(12)
        web = WebGame(
            resolved, rules, ref, house, session, rng, session.new_game(seed=rng.getrandbits(63)), {}, [], upload, bot
        )
        self._deal(web)
        self.games[key] = web
        return key

    def _deal(self, web: WebGame) -> None:
        web.seat = web.session.seating().index(YOU)
        web.bots = {
            s: make_bot(web.bot, web.rules, random.Random(web.rng.getrandbits(63))) for s in range(4) if s != web.seat
        }
        web.log = []
        self._bots_play(web)

    def next_deal(self, web: WebGame) -> None:
        if web.game.step is not None:
            raise RegelmotorError("the deal is not over yet")
        web.game = web.session.new_game(seed=web.rng.getrandbits(63))
        self._deal(web)

    def _bots_play(self, web: WebGame) -> None:
        game = web.game
        while game.step is not None and game.to_act != web.seat:
            seat = game.to_act
            assert seat is not None
            bot = web.bots[seat]
            action = bot.choose(game.view(seat) if bot.needs_view else None, game.legal_actions())
            game.apply(action)
            web.log.append(_public(seat, action))
        if game.step is None:
            web.session.record(game)

    def act(self, web: WebGame, action: str) -> None:
        web.game.apply(action, web.seat)
        web.log.append(_public(web.seat, web.game.history[-1][1]).replace(f"plads {web.seat}", "du"))
        self._bots_play(web)

    def state(self, key: str, web: WebGame) -> dict[str, Any]:
        game = web.game
        view = game.view(web.seat)
        decimals = web.rules.ruleset.scoring.decimals
        data = dataclasses.asdict(view)
        data.pop("events")  # the engine's notes; the page shows its own log of what the other seats did
        data["redeal"] = None if view.redeal is None else dataclasses.asdict(view.redeal)
        data["scores"] = None if view.scores is None else [points(s, decimals) for s in view.scores]
        return {
            "id": key,
            "ruleset": web.resolved.label,
            "you": web.seat,
            "view": data,
            "log": web.log,
            "finished": game.phase == FINISHED,
            "totals": [points(t, decimals) for t in web.session.totals],
            "players": list(web.session.players),
        }


def _problems(error: RulesetError) -> list[dict[str, Any]]:
    return [
        {
            "file": p.location.file,
            "line": p.location.line,
            "column": p.location.column,
            "path": p.key_path,
            "message": p.message,
        }
        for p in error.problems
    ]


def _locked(web: WebGame, change: Callable[..., None], *args: Any) -> None:
    """Change a game under its lock: the bots' moves run in a worker thread (an expert thinks for a
    while), so the server goes on answering other games meanwhile."""
    with web.lock:
        change(*args)


def create_app() -> Starlette:
    games = Games()

    async def index(request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def rulesets(request: Request) -> Response:
        return JSONResponse(shipped_catalogue())

    async def new_game(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        try:
            payload = json.loads(body or b"{}")
        except json.JSONDecodeError:
            return JSONResponse({"error": "send JSON"}, status_code=400)
        house = [str(h) for h in payload.get("house_rules", [])]
        bot = str(payload.get("bots", "heuristic"))
        try:
            check_bot(bot)
        except UnknownBot as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        seed = payload.get("seed")
        upload = payload.get("ruleset_file")
        try:
            if upload is not None:
                name = Path(str(payload.get("filename") or "upload.yaml")).name
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")
                    path.write_text(str(upload), encoding="utf-8")
                    resolved = load_ruleset(str(path), house, shipped_only=True)
                    resolved = dataclasses.replace(
                        resolved, files=tuple(f.replace(folder + "/", "") for f in resolved.files)
                    )
                key = await run_in_threadpool(
                    games.start, resolved, name, house, seed if isinstance(seed, int) else None, str(upload), bot
                )
            else:
                ref = str(payload.get("ruleset", "standard"))
                if ref not in shipped_rulesets():
                    return JSONResponse({"error": f'no shipped ruleset is called "{ref}"'}, status_code=400)
                resolved = load_ruleset(ref, house, shipped_only=True)
                key = await run_in_threadpool(
                    games.start, resolved, ref, house, seed if isinstance(seed, int) else None, None, bot
                )
        except RulesetError as exc:
            problems = _problems(exc)
            for problem in problems:
                problem["file"] = Path(problem["file"]).name
            return JSONResponse({"error": "the ruleset has problems", "problems": problems}, status_code=400)
        except RegelmotorError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(await snapshot(key, games.games[key]))

    def with_game(
        handler: Callable[[Request, str, WebGame], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        """A route about one game: unknown ids get 404, known ones the handler."""

        async def route(request: Request) -> Response:
            key = request.path_params["key"]
            web = games.games.get(key)
            if web is None:
                return JSONResponse({"error": "no such game"}, status_code=404)
            return await handler(request, key, web)

        return route

    @with_game
    async def state(request: Request, key: str, web: WebGame) -> Response:
        return JSONResponse(await snapshot(key, web))

    @with_game
    async def act(request: Request, key: str, web: WebGame) -> Response:
        try:
            payload = await request.json()
            await run_in_threadpool(_locked, web, games.act, web, str(payload.get("action", "")))
        except RuleViolation as exc:
            return JSONResponse(
                {"error": str(exc), "rule": exc.rule, "state": await snapshot(key, web)}, status_code=400
            )
        except (NotationError, RegelmotorError, json.JSONDecodeError) as exc:
            return JSONResponse({"error": str(exc), "state": await snapshot(key, web)}, status_code=400)
        return JSONResponse(await snapshot(key, web))

    @with_game
    async def next_deal(request: Request, key: str, web: WebGame) -> Response:
        try:
            await run_in_threadpool(_locked, web, games.next_deal, web)
        except RegelmotorError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(await snapshot(key, web))

    @with_game
    async def record(request: Request, key: str, web: WebGame) -> Response:
        if web.game.step is not None:
            return JSONResponse({"error": "the record is given when the deal is over"}, status_code=400)
        data = game_record(web.game, web.ruleset_ref, web.house_rules)
        headers = {"Content-Disposition": 'attachment; filename="regelmotor-spil.json"'}
        return JSONResponse(data, headers=headers)

    @with_game
    async def rulebook(request: Request, key: str, web: WebGame) -> Response:
        html = render(build_rulebook(web.resolved, web.rules, "da"), "html")
        assert isinstance(html, str)
        return HTMLResponse(html)

    async def snapshot(key: str, web: WebGame) -> dict[str, Any]:
        """What the page is sent, read under the game's lock (its bots may be moving in a worker thread)."""

        def read() -> dict[str, Any]:
            with web.lock:
                return games.state(key, web)

        return await run_in_threadpool(read)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/rulesets", rulesets),
            Route("/api/games", new_game, methods=["POST"]),
            Route("/api/games/{key}", state),
            Route("/api/games/{key}/actions", act, methods=["POST"]),
            Route("/api/games/{key}/next", next_deal, methods=["POST"]),
            Route("/api/games/{key}/record", record),
            Route("/api/games/{key}/rulebook", rulebook),
        ]
    )
    app.state.games = games  # the server side of every game, for the tests that check what is sent
    return app
