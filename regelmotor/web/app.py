"""The web game: a person against three computer players (random, heuristic or expert), or a table of
two to four people online with bots in the empty seats; the rule book under the table.

A table's host is given one link per person: the table's key, the player and a secret for that seat
(``SEAT_LINK``). Each page is sent that seat's view alone and follows the table by server-sent events,
so every move is pushed to the others; the table's bare key opens no seat.

The server is built to face an untrusted network: it reads no file a client names (house rules and
``extends`` by shipped name only), keeps a bounded number of games and evicts idle ones, limits the
size of every request, answers a malformed body with a 4xx and a message, takes only JSON with a
same-origin ``Origin`` and a known ``Host`` (no cross-site page and no DNS rebinding can drive it), and
sends security headers (a CSP that allows only its own page's script) on every response. Loading a
club's file and the bots' moves run in worker threads, so one slow request never stalls the others.

The server keeps every game it has not evicted. What it sends is built from ``view(seat)`` of the person's seat and
a log of the other seats' actions with what the table does not see masked (the cards laid away
in an exchange, the fordækt card), so the page never receives another seat's cards, the kitty,
or the partner's identity before the rules reveal them.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import json
import random
import re
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from regelmotor.bots import Bot, UnknownBot, check_bot, make_bot
from regelmotor.cards import parse_card
from regelmotor.double_dummy.analysis import AnalysisError, analyse_game
from regelmotor.double_dummy.report import analysis_json, analysis_text
from regelmotor.engine.actions import Action, Verb, call_action, public
from regelmotor.engine.explain import violation
from regelmotor.engine.game import FINISHED, Game
from regelmotor.errors import NotationError, RegelmotorError, RulesetError, RuleViolation
from regelmotor.phrases import phrases
from regelmotor.play import result_line
from regelmotor.records import RecordError, dealt_cards, game_record, parse_json
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.catalogue import is_path, shipped_catalogue, shipped_rulesets
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.score_sheet import rate_of, read_sheet, score, sheet_document
from regelmotor.session import Session
from regelmotor.web.sheet import add_deal, sheet_state, undo_deal
from regelmotor.web.store import KEY, GameStore
from regelmotor.web.upload import load_upload

YOU = 0
"""The person is player 0 of the session; which seat that is changes as the deal passes round."""
MAX_UPLOAD = 200_000
"""A new game's request, with a club's ruleset file in it."""
MAX_ACTION = 4_000
"""Every other request: an action is a few words."""
ANALYSES_AT_ONCE = 1
"""Analyses searched at once (each holds a core); the others wait their turn without holding a thread."""
ANALYSES_WAITING = 8
"""Analyses that may wait; one more is told to try again (503), so no queue grows without bound."""
WEB_NODES = 3_000_000
"""A search's node budget on the page (about a second)."""
WEB_SECONDS = 20.0
"""An analysis's time on the page: from the last card back, so what is left unknown is the first tricks."""
MAX_GAMES = 256
"""Games kept at once (about 220 KB each); the least recently used one goes when a new one needs room."""
PER_CLIENT = 64
"""Games one address keeps at once: a club room behind one router (or a proxy) is one address to the server."""
IDLE_SECONDS = 6 * 3600
"""A game nobody has touched for this long is evicted."""
MAX_SEED = 2**63
SOLO_NAMES = ["Du", "Bot 1", "Bot 2", "Bot 3"]
SECRET_BYTES = 16
SECRET = re.compile(r"[A-Za-z0-9_-]{22}")
"""A seat's secret, as ``secrets.token_urlsafe(SECRET_BYTES)`` makes it."""
SEAT_LINK = re.compile(r"([A-Za-z0-9_-]{16})([0-3])([A-Za-z0-9_-]{22})")
"""A seat's link at a table: the table's key, the player, the seat's secret (39 letters, a page's id)."""
WATCHERS = 16
"""Pages following one game at once (four people, each with a tab or two)."""
STREAMS = 100
"""Pages following tables at once: half the server's connections, so the others are always answered."""
STREAMS_PER_CLIENT = 16
"""Pages following tables from one address (a club room behind one router is one address)."""
HEARTBEAT_SECONDS = 15.0
"""A followed page hears from the server this often, so that a lost connection is noticed and remade."""
RECONNECT_MS = 1000
"""How soon a browser tries again when a followed table's connection is lost."""
MAX_NAME = 24
"""A person's name at a table, as the seats and the score sheet show it."""
PAGE = Path(__file__).resolve().parent / "static" / "index.html"
SHEET_PAGE = Path(__file__).resolve().parent / "static" / "sheet.html"


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
    seating: tuple[int, ...] = ()
    """The players at seats 0-3 in the current deal (the session moves on to the next deal's as it ends)."""
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    """One request at a time changes a game; requests about other games go on meanwhile."""
    sheet: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    """The session's deals as the score sheet shows them: contract, declarers, points per player."""
    key: str = ""
    client: str = ""
    origin: str = "shipped"
    """Where its ruleset came from: ``shipped``, ``club`` (the file ``serve`` was started with) or ``upload``."""
    played: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    """The finished deals' cards and actions, for the store."""
    analysis: tuple[Game, dict[str, Any]] | None = None
    """The last deal's analysis, kept while that deal is shown (it is computed once)."""
    seat_secrets: dict[int, str] = dataclasses.field(default_factory=dict)
    """A table of several people: each person's player number and the secret in their seat's link. Empty
    for the game of one person against three bots, whose person is player ``YOU`` and whose link is the key."""
    version: int = 0
    """Counts the changes, so that a page knows a pushed state from an older answer."""
    watchers: dict[tuple[asyncio.AbstractEventLoop, asyncio.Event], int] = dataclasses.field(default_factory=dict)
    """The pages following the table (``/events``), each woken when it changes, and whose page it is."""
    counting: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    """Guards ``version`` and ``watchers``, which the event loop and the worker threads both change."""

    @property
    def people(self) -> tuple[int, ...]:
        """The players who are people; the others are bots."""
        return tuple(sorted(self.seat_secrets)) or (YOU,)

    @property
    def seat(self) -> int:
        """The person's seat in the current deal (where the deal's seating put player ``YOU``)."""
        return self.seat_of(YOU)

    def seat_of(self, player: int) -> int:
        """Where the current deal's seating put ``player``."""
        return self.seating.index(player)

    def changed(self) -> None:
        """Wake every page that follows the table (called from any thread)."""
        with self.counting:
            self.version += 1
            watchers = list(self.watchers)
        for loop, wake in watchers:
            with contextlib.suppress(RuntimeError):  # that page's loop has closed
                loop.call_soon_threadsafe(wake.set)


def _cards_and_actions(game: Game) -> dict[str, Any]:
    return {"seed": game.seed, **dealt_cards(game), "actions": [str(action) for _, action in game.history]}


def _random_state(rng: random.Random) -> list[Any]:
    version, state, gauss = rng.getstate()
    return [version, list(state), gauss]


def _state_of(data: Any) -> tuple[Any, ...]:
    version, state, gauss = data
    if not isinstance(state, list) or len(state) != 625 or not all(isinstance(x, int) for x in state):
        raise ValueError("not a random state")
    return (int(version), tuple(state), None if gauss is None else float(gauss))


def _public(seat: int, action: Action) -> str:
    """An action as the table sees it (``actions.public``), for the page's log."""
    seen = public(action, seat, TABLE)
    if seen.verb is Verb.DISCARD:
        return f"plads {seat} bytter {seen.hidden} kort"
    if seen.verb is Verb.FORDAEKT:
        return f"plads {seat} lægger et kort fordækt"
    return f"plads {seat}: {seen}"


TABLE = -1
"""The viewer of the page's log: the whole table, which sees no seat's hidden cards."""


class Games:
    """The games being played, bounded: in all, and per client (one client, however many games it starts,
    loses its own oldest games first and cannot evict another's while the server has room)."""

    def __init__(
        self,
        limit: int = MAX_GAMES,
        idle: float = IDLE_SECONDS,
        per_client: int = PER_CLIENT,
        store: GameStore | None = None,
    ) -> None:
        self.store = store
        self.rulesets: Callable[[str, str, list[str], str | None], ResolvedRuleset] | None = None
        """How a stored game's ruleset is found again (origin, name, house rules, uploaded text): the app's."""
        self.games: dict[str, WebGame] = {}
        self.touched: dict[str, float] = {}
        self.owner: dict[str, str] = {}
        self.limit, self.idle, self.per_client = limit, idle, per_client
        self._lock = threading.Lock()
        self._rules: dict[tuple[str, str], Rules] = {}

    def get(self, key: str) -> WebGame | None:
        with self._lock:
            web = self.games.get(key)
            if web is not None:
                self.touched[key] = time.monotonic()
            return web

    def _add(self, key: str, web: WebGame, client: str) -> None:
        """Keep ``web``, evicting idle games; then the client's own least recently used game when it has
        its share, and when the server is full, that of the client with the most games."""
        with self._lock:
            self._insert(key, web, client)

    def _insert(self, key: str, web: WebGame, client: str) -> None:
        """``_add`` with the lock held."""
        now = time.monotonic()
        for old in [k for k, t in self.touched.items() if now - t > self.idle]:
            self._drop(old)
        while self._count(client) >= self.per_client:
            self._drop(self._oldest(client))
        while len(self.games) >= self.limit:
            counts: dict[str, int] = {}
            for owner in self.owner.values():
                counts[owner] = counts.get(owner, 0) + 1
            self._drop(self._oldest(max(counts, key=counts.__getitem__)))
        self.games[key] = web
        self.touched[key] = now
        self.owner[key] = client

    def _compiled(self, resolved: ResolvedRuleset) -> Rules:
        """The shipped and the club's rules compiled once (the engine never changes a ``Rules``); an upload
        is compiled for its game alone."""
        key = (resolved.label, resolved.fingerprint)
        with self._lock:
            rules = self._rules.get(key)
        if rules is None:
            rules = compile_rules(resolved)
            with self._lock:
                if len(self._rules) < 64:
                    self._rules[key] = rules
        return rules

    def _count(self, client: str) -> int:
        return sum(1 for owner in self.owner.values() if owner == client)

    def _oldest(self, client: str) -> str:
        return min((k for k, owner in self.owner.items() if owner == client), key=self.touched.__getitem__)

    def _drop(self, key: str) -> None:
        self.games.pop(key, None)
        self.touched.pop(key, None)
        self.owner.pop(key, None)
        if self.store is not None:
            self.store.drop(key)

    def save(self, web: WebGame) -> None:
        """The game written to the store (under its lock, after every change)."""
        if self.store is None:
            return
        deals = [*web.played, _cards_and_actions(web.game)]
        self.store.save(
            web.key,
            {
                "origin": web.origin,
                "ruleset": web.ruleset_ref,
                "house_rules": web.house_rules,
                "upload": web.upload,
                "bot": web.bot,
                "client": web.client,
                "random": _random_state(web.rng),
                "deals": deals,
                "log": web.log,
                "sheet": web.sheet,
                "names": list(web.session.players),
                "people": {str(p): secret for p, secret in web.seat_secrets.items()},
            },
        )

    def restore(self, key: str) -> WebGame | None:
        """A game from the store after a restart, its deals replayed by the engine; None when there is none
        or it no longer replays (its ruleset changed or is gone)."""
        if self.store is None or self.rulesets is None:
            return None
        data = self.store.load(key)
        if data is None:
            return None
        try:
            web = self._rebuild(key, data)
        except (RegelmotorError, NotationError, KeyError, TypeError, ValueError, IndexError):
            self.store.drop(key)
            return None
        with self._lock:  # two requests restored it at once: the first one kept is the game
            kept = self.games.get(key)
            if kept is not None:
                return kept
            self._insert(key, web, web.client)
        return web

    def _rebuild(self, key: str, data: dict[str, Any]) -> WebGame:
        assert self.rulesets is not None
        origin, ref, house, upload = data["origin"], data["ruleset"], list(data["house_rules"]), data["upload"]
        resolved = self.rulesets(str(origin), str(ref), [str(h) for h in house], upload)
        rules = compile_rules(resolved) if upload is not None else self._compiled(resolved)
        names = [str(n) for n in data.get("names", SOLO_NAMES)]
        session = Session(rules, names, first_dealer=3)
        rng = random.Random()
        rng.setstate(_state_of(data["random"]))
        deals = data["deals"]
        if not isinstance(deals, list) or not deals:
            raise ValueError("no deal")
        seating: tuple[int, ...] = ()
        game = None
        for number, deal in enumerate(deals, 1):
            seating = session.seating()
            hands = [[parse_card(c) for c in hand] for hand in deal["hands"]]
            kitty = [parse_card(c) for c in deal["kitty"]]
            seed = deal.get("seed")
            if isinstance(seed, int) and not isinstance(seed, bool):  # dealt by the seed, as it was
                game = session.new_game(seed=seed)
                if [list(h) for h in game.initial_hands] != hands or list(game.initial_kitty) != kitty:
                    raise ValueError("the seed does not deal the stored cards")
            else:
                game = session.new_game(hands=hands, kitty=kitty)
            for action in deal["actions"]:
                game.apply(str(action))
            if game.step is None:
                session.record(game)
            elif number < len(deals):
                raise ValueError("an earlier deal is not over")
        assert game is not None
        web = WebGame(resolved, rules, str(ref), house, session, rng, game, {}, [str(x) for x in data["log"]])
        web.upload, web.bot, web.seating = upload, str(data["bot"]), seating
        web.key, web.client, web.origin = key, str(data["client"]), str(origin)
        web.sheet = list(data["sheet"])
        web.played = deals[:-1]
        web.seat_secrets = {int(p): str(secret) for p, secret in data.get("people", {}).items()}
        if any(not 0 <= p < 4 or not SECRET.fullmatch(s) for p, s in web.seat_secrets.items()):
            raise ValueError("not a seat's secret")
        check_bot(web.bot)
        web.bots = self._bots(web, rng)
        if game.step is not None:
            self._bots_play(web)
        return web

    def start(
        self,
        resolved: ResolvedRuleset,
        ref: str,
        house: list[str],
        seed: int | None,
        upload: str | None,
        bot: str = "heuristic",
        client: str = "",
        origin: str = "shipped",
        people: Sequence[str | None] | None = None,
    ) -> str:
        """A new game: one person against three bots, or with ``people`` (a name per player, None for a
        bot) a table of several people, each with their own seat's secret."""
        rules = compile_rules(resolved) if upload is not None else self._compiled(resolved)
        if 4 not in rules.evening.table_sizes:
            raise RegelmotorError.said("not_four", ruleset=resolved.label)
        names = SOLO_NAMES if people is None else [name or f"Bot {player}" for player, name in enumerate(people)]
        rng = random.Random(seed if seed is not None else secrets.randbits(32))
        session = Session(rules, names, first_dealer=3)  # player 0 is forhånd first
        key = secrets.token_urlsafe(12)
        web = WebGame(
            resolved, rules, ref, house, session, rng, session.new_game(seed=rng.getrandbits(63)), {}, [], upload, bot
        )
        web.key, web.client, web.origin = key, client, origin
        if people is not None:
            web.seat_secrets = {p: secrets.token_urlsafe(SECRET_BYTES) for p, name in enumerate(people) if name}
        self._deal(web)
        self._add(key, web, client)
        self.save(web)
        return key

    @staticmethod
    def _bots(web: WebGame, rng: random.Random) -> dict[int, Bot]:
        """A bot at each seat of the deal that no person sits at."""
        people = {web.seat_of(p) for p in web.people}
        return {
            s: make_bot(web.bot, web.rules, random.Random(rng.getrandbits(63))) for s in range(4) if s not in people
        }

    def _deal(self, web: WebGame) -> None:
        web.seating = web.session.seating()
        web.bots = self._bots(web, web.rng)
        web.log = []
        self._bots_play(web)

    def next_deal(self, web: WebGame, number: int | None = None) -> None:
        """The next deal; ``number``: the deal the page has finished, so that two people pressing "Næste
        spil" at once start one deal, not two."""
        if number is not None and number != len(web.played) + 1:
            return
        if web.game.step is not None:
            raise RegelmotorError("the deal is not over yet")
        if web.session.evening_over():  # the club's evening of a fixed number of deals (session.deals)
            raise RegelmotorError.said("evening_over", deals=web.rules.evening.deals)
        web.played.append(_cards_and_actions(web.game))
        web.game = web.session.new_game(seed=web.rng.getrandbits(63))
        self._deal(web)
        self.save(web)

    def _bots_play(self, web: WebGame) -> None:
        game = web.game
        while game.step is not None and game.to_act in web.bots:
            seat = game.to_act
            assert seat is not None
            bot = web.bots[seat]
            action = bot.choose(game.view(seat) if bot.needs_view else None, game.legal_actions())
            game.apply(action)
            web.log.append(_public(seat, action))
        if game.step is None:
            entry = web.session.record(game)
            players = web.session.players
            web.sheet.append(
                {
                    "number": entry.number,
                    "dealer": players[entry.seating[game.dealer]] if game.dealer_at_table else None,
                    "contract": game.contract if game.redeal is None else None,
                    "declarers": [players[entry.seating[s]] for s in game.declarers],
                    "redeal": None if game.redeal is None else game.redeal.reason,
                    "redeal_words": None if game.redeal is None else _redeal_words(game.redeal.reason),
                    "points": web.rules.shown_points(list(entry.points)),
                    "game_won_by": [players[p] for p in entry.game_won_by],
                }
            )

    def act(self, web: WebGame, action: str, player: int = YOU) -> None:
        seat = web.seat_of(player)
        web.game.apply(action, seat)
        web.log.append(_public(seat, web.game.history[-1][1]))
        self._bots_play(web)
        self.save(web)

    def find(self, key: str, restore: bool = True) -> tuple[WebGame, int] | None:
        """The game a page's key opens, and whose page it is: a game's key is its one person's (player
        ``YOU``); a table's seat link is the table's key, the player and that seat's secret. A table's bare
        key opens nothing, so no one sees a hand but their own."""
        seat_link = SEAT_LINK.fullmatch(key)
        game_key = seat_link.group(1) if seat_link else key
        web = self.get(game_key)
        if web is None and restore and self.store is not None and KEY.fullmatch(game_key):
            web = self.restore(game_key)
        if web is None:
            return None
        if seat_link is None:
            return None if web.seat_secrets else (web, YOU)
        player, secret = int(seat_link.group(2)), seat_link.group(3)
        known = web.seat_secrets.get(player)
        return (web, player) if known is not None and hmac.compare_digest(known, secret) else None

    def state(self, key: str, web: WebGame, player: int = YOU) -> dict[str, Any]:
        game = web.game
        you = web.seat_of(player)
        view = game.view(you)
        data = dataclasses.asdict(dataclasses.replace(view, legal_actions=()))
        data.pop("events")  # the engine's notes; the page shows its own log of what the other seats did
        data["legal_actions"] = [str(a) for a in view.legal_actions]  # the notation, at the edge
        data["calls"] = [[seat, str(a)] for seat, a in view.calls]
        data["history"] = [[seat, str(a)] for seat, a in view.history]
        data["redeal"] = None if view.redeal is None else dataclasses.asdict(view.redeal)
        data["scores"] = None if view.scores is None else web.rules.shown_points(view.scores)
        seating = web.seating
        with web.counting:
            here = set(web.watchers.values())
        return {
            "id": key,
            "version": web.version,
            "deal": len(web.played) + 1,
            "table": bool(web.seat_secrets),
            "ruleset": web.resolved.label,
            "title": web.rules.title,
            "you": you,
            "view": data,
            "log": web.log,
            "finished": game.phase == FINISHED,
            "totals": web.rules.shown_points(web.session.totals),
            "players": list(web.session.players),
            "seats": [
                {
                    "seat": seat,
                    "name": web.session.players[seating[seat]],
                    "dealer": seat == game.dealer and game.dealer_at_table,
                    "forhaand": seat == game.seats[0],
                    "you": seat == you,
                    "person": seat not in web.bots,
                    "here": seat == you or seat in web.bots or seating[seat] in here,
                }
                for seat in range(4)
            ],
            "partner_across": web.rules.fixed_partners,
            "bid_grid": _bid_grid(web, view.legal_actions, you),
            "result": None if game.phase != FINISHED else _result(game),
            "sheet": web.sheet,
            "games_won": web.session.games_won if web.rules.evening.game_to else None,
            "evening_over": web.session.evening_over(),
        }


def _result(game: Game) -> dict[str, str] | None:
    """The deal's result line (``7 gode: holdt, 9 stik til melderens side``) in both languages."""
    da = result_line(game, "da")
    return None if da is None else {"da": da, "en": result_line(game, "en") or da}


def _bid_grid(web: WebGame, actions: Sequence[Action], you: int) -> dict[str, Any]:
    """The ladder as the page's bidding grid: a row per number of tricks with a cell per designation, and the
    bids by name in rows of their own where the ladder puts them. Each bid not open to the person says why
    (in Danish and in the engine's English), from the same rule that refused it."""
    game = web.game
    legal = {a.bid.text for a in actions if a.bid is not None}
    bidding = game.phase == "auction" and game.to_act == you and bool(legal)

    def cell(text: str) -> dict[str, Any]:
        out: dict[str, Any] = {"bid": text, "legal": text in legal}
        if bidding and text not in legal:
            refusal = violation(game, "call", you, call_action(text, web.rules.ladder))
            out["why"] = refusal.text("da")
            out["why_en"] = refusal.text("en")
        return out

    rows: list[dict[str, Any]] = []
    by_level: dict[int, dict[str, Any]] = {}
    previous: str | None = None
    for group in web.rules.ladder.groups:
        first = group[0]
        if first.level is not None:
            if first.level not in by_level:
                by_level[first.level] = {"level": first.level, "cells": {}}
                rows.append(by_level[first.level])
            for bid in group:
                by_level[first.level]["cells"][bid.designation] = cell(bid.text)
        else:  # a bid by name, in a row of its own after the row of the bid below it
            rows.append({"level": None, "after": previous, "named": [cell(bid.text) for bid in group]})
        previous = group[-1].text
    return {
        "designations": [{"id": d.id, "display": d.display or "alm."} for d in web.rules.designations],
        "rows": rows,
    }


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


def _locked(web: WebGame, change: Callable[..., None], *args: Any) -> None:
    """Change a game under its lock: the bots' moves run in a worker thread (an expert thinks for a
    while), so the server goes on answering other games meanwhile. The pages following it are woken."""
    with web.lock:
        before = (web.game, len(web.game.history))
        try:
            change(*args)
        finally:
            if (web.game, len(web.game.history)) != before:  # a refused action changes nothing, not even this
                web.changed()


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


BODY_SECONDS = 20.0
"""The largest body (a club's ruleset file) is a few hundred kilobytes: a slower client holds a worker."""


async def _read_body(request: Request, limit: int) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(413, f"the request is larger than {limit} bytes")
    return body


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read no further than ``limit`` bytes; ``BadRequest`` for anything else."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, f"the request is larger than {limit} bytes")
    try:
        body = await asyncio.wait_for(_read_body(request, limit), BODY_SECONDS)
    except TimeoutError:
        raise BadRequest(408, f"the request's body took longer than {BODY_SECONDS:.0f} s") from None
    if not body:
        return {}
    try:
        payload = parse_json(body, "the request")
    except RecordError as exc:
        raise BadRequest(400, f"send a JSON object: {exc}") from None
    if not isinstance(payload, dict):
        raise BadRequest(400, "send a JSON object ({...}), not " + type(payload).__name__)
    return payload


def _text(payload: dict[str, Any], key: str, default: str | None = None, *, limit: int = 200) -> str | None:
    value = payload.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadRequest(400, f'"{key}" is text of at most {limit} characters')
    return value


def _redeal_words(reason: str) -> dict[str, str]:
    """Why a deal was dealt again, in the page's two languages ("alle meldte pas"), not the code."""
    return {lang: phrases(lang).get(f"redeal_{reason}", reason) for lang in ("da", "en")}


def _new_game_request(payload: dict[str, Any]) -> tuple[list[str], str, int | None, str | None, str | None, str]:
    """The new-game request's fields, each checked: (house rules, bots, seed, upload, file name, ruleset)."""
    house = payload.get("house_rules", [])
    if not isinstance(house, list) or len(house) > 32 or not all(isinstance(h, str) and len(h) < 100 for h in house):
        raise BadRequest(400, '"house_rules" is a list of at most 32 shipped house-rule names')
    seed = payload.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED):
        raise BadRequest(400, f'"seed" is a whole number from 0 to {MAX_SEED - 1}')
    bot = _text(payload, "bots", "heuristic") or "heuristic"
    upload = _text(payload, "ruleset_file", limit=MAX_UPLOAD)
    filename = _text(payload, "filename")
    ruleset = _text(payload, "ruleset", "standard") or "standard"
    return house, bot, seed, upload, filename, ruleset


def _people(payload: dict[str, Any]) -> list[str | None] | None:
    """A table's ``people``: four entries, a person's name or null for a bot; at least one person, each name
    once. None when the request opens a game of one person against three bots."""
    people = payload.get("people")
    if people is None:
        return None
    shape = '"people" er fire pladser, hver et navn eller null (en computerspiller)'
    if not isinstance(people, list) or len(people) != 4:
        raise BadRequest(400, shape)
    names: list[str | None] = []
    for entry in people:
        if entry is not None and not isinstance(entry, str):
            raise BadRequest(400, shape)
        name = " ".join(entry.split()) if entry else ""
        if len(name) > MAX_NAME or not name.isprintable():
            raise BadRequest(400, f"et navn er højst {MAX_NAME} tegn")
        names.append(name or None)
    given = [n for n in names if n]
    if not given:
        raise BadRequest(400, "et bord har mindst én person (skriv et navn ved en plads)")
    if len({n.casefold() for n in given}) < len(given) or any(n.casefold().startswith("bot ") for n in given):
        raise BadRequest(400, 'hver person har sit eget navn (og ingen hedder "Bot ...")')
    return names


def _deal_number(payload: dict[str, Any]) -> int | None:
    number = payload.get("deal")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        raise BadRequest(400, '"deal" er nummeret på det spil, siden har spillet færdigt')
    return number


def _seat_links(web: WebGame) -> dict[str, Any]:
    """What the host is given: a link per person (the table's key, the player and that seat's secret), to
    hand to each; the bots' seats have none."""
    return {
        "table": True,
        "title": web.rules.title,
        "seats": [
            {
                "player": player,
                "name": name,
                "person": player in web.seat_secrets,
                "link": f"{web.key}{player}{web.seat_secrets[player]}" if player in web.seat_secrets else None,
            }
            for player, name in enumerate(web.session.players)
        ],
    }


def _refuse(status: int, da: str, en: str) -> JSONResponse:
    """A refusal the page shows in the reader's language."""
    return JSONResponse({"error": da, "error_en": en}, status_code=status)


def _script_hashes(page: str) -> str:
    """The CSP sources of the page's own inline scripts: those run, and nothing else does."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL)
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts)


def _guard(allowed_hosts: frozenset[str] | None) -> Callable[[ASGIApp], ASGIApp]:
    """Security headers on every response; ``Host`` checked (unless any host is allowed); a state-changing
    request must be JSON from the same origin."""
    page = PAGE.read_text(encoding="utf-8") + SHEET_PAGE.read_text(encoding="utf-8")
    csp = (
        f"default-src 'self'; script-src {_script_hashes(page)}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
    )
    headers = [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"SAMEORIGIN"),  # the page shows its own rule book in a frame; no other site may
        (b"referrer-policy", b"no-referrer"),
        (b"cache-control", b"no-store"),
    ]

    def wrap(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request = Request(scope)
            host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]").lower()
            refusal = None
            if allowed_hosts is not None and host not in allowed_hosts:
                refusal = (400, f'the host "{host}" is not served here')
            elif request.method not in ("GET", "HEAD"):
                origin = request.headers.get("origin")
                content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
                    refusal = (403, "requests from another site are refused")
                elif content_type != "application/json":
                    refusal = (415, "send JSON (Content-Type: application/json)")

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), *headers]
                await send(message)

            if refusal is not None:
                response = JSONResponse({"error": refusal[1]}, status_code=refusal[0])
                await response(scope, receive, send_with_headers)
                return
            await app(scope, receive, send_with_headers)

        return guarded

    return wrap


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "testserver"})
"""The hosts a server bound to this machine answers to ("testserver" is Starlette's test client)."""


CLUB = "klub"
"""The name the page uses for the ruleset the operator started the server with (``serve RULESET``)."""


def create_app(
    allowed_hosts: frozenset[str] | None = LOCAL_HOSTS,
    *,
    games: Games | None = None,
    club: tuple[str, list[str]] | None = None,
    sheet: Path | None = None,
    store: Path | None = None,
) -> ASGIApp:
    """The web game. ``allowed_hosts``: the ``Host`` names served (None: any, for a server behind a proxy).
    ``club``: a ruleset (a shipped name or a file) and house rules the operator names when starting the
    server, offered first on the page as "klub"; clients still name only what the server offers. ``store``:
    a folder the games are kept in, so that a restart loses none (``serve`` gives one; tests mostly not)."""
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

    async def index(request: Request) -> Response:
        page = PAGE.read_text(encoding="utf-8")
        if sheet is not None:  # the evening's score sheet the operator named when starting the server
            page = page.replace("<!--sheet-->", '<a href="/sheet" id="sheet-link">Aftenens regnskab</a>')
        return HTMLResponse(page)

    async def sheet_entry(request: Request) -> Response:
        """The evening's sheet at the table: deals entered as ``session add`` enters them, live totals."""
        if sheet is None:
            return JSONResponse({"error": "this server shows no score sheet (serve --sheet FILE)"}, status_code=404)
        return HTMLResponse(SHEET_PAGE.read_text(encoding="utf-8"))

    async def sheet_api(request: Request) -> Response:
        """The sheet as the page shows it; POST enters a deal, POST .../undo takes the last one back. Only
        the file the operator named is ever written, under its lock (the command line's door)."""
        if sheet is None:
            return JSONResponse({"error": "this server shows no score sheet (serve --sheet FILE)"}, status_code=404)
        try:
            if request.method == "GET":
                return JSONResponse(await run_in_threadpool(sheet_state, sheet))
            if request.url.path.endswith("/undo"):
                await read_json(request, MAX_ACTION)
                return JSONResponse(await run_in_threadpool(undo_deal, sheet))
            payload = await read_json(request, MAX_ACTION)
            return JSONResponse(await run_in_threadpool(add_deal, sheet, payload))
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except RegelmotorError as exc:
            return _refuse(400, exc.text("da"), exc.text("en"))

    async def sheet_page(request: Request) -> Response:
        """The score sheet of the evening played with real cards, as ``regelmotor session`` keeps it: read
        (bounded) from the file the operator named, never from a path a client names; to print."""
        if sheet is None:
            return JSONResponse({"error": "this server shows no score sheet (serve --sheet FILE)"}, status_code=404)

        def page() -> str:
            entries = read_sheet(sheet)
            document = sheet_document(entries, score(entries), rate_of(entries.rate), "html")
            assert isinstance(document, str)
            return document

        try:
            return HTMLResponse(await run_in_threadpool(page))
        except RegelmotorError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)

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
            house, bot, seed, upload, filename, ref = _new_game_request(payload)
            people = _people(payload)
            check_bot(bot)
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except UnknownBot as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        client = request.client.host if request.client is not None else ""
        try:
            if upload is not None:
                name = upload_name(filename)
                if not _encodable(upload):
                    return _refuse(400, "reglesætsfilen er ikke UTF-8-tekst", "the ruleset file is not UTF-8 text")
                resolved = await run_in_threadpool(load_upload, upload, name, house)
                key = await run_in_threadpool(
                    games.start, resolved, name, house, seed, upload, bot, client, "upload", people
                )
            elif ref == CLUB and club is not None and club_resolved is not None:
                if any(is_path(h) for h in house):
                    return JSONResponse({"error": "house rules are named by their shipped names"}, status_code=400)
                resolved = club_resolved
                if house:
                    resolved = await run_in_threadpool(load_ruleset, club[0], [*club[1], *house])
                key = await run_in_threadpool(
                    games.start, resolved, club[0], [*club[1], *house], seed, None, bot, client, "club", people
                )
            else:
                if ref not in shipped_rulesets():
                    return JSONResponse({"error": f'no shipped ruleset is called "{ref}"'}, status_code=400)
                resolved = await run_in_threadpool(_shipped_ruleset, ref, tuple(house))
                key = await run_in_threadpool(
                    games.start, resolved, ref, house, seed, None, bot, client, "shipped", people
                )
        except RulesetError as exc:
            problems = _problems(exc)
            for problem in problems:
                problem["file"] = Path(problem["file"]).name
            said = {"error": "reglesættet har fejl", "error_en": "the ruleset has problems"}
            return JSONResponse({**said, "problems": problems}, status_code=400)
        except RegelmotorError as exc:
            return _refuse(400, exc.text("da"), exc.text("en"))
        web = games.games[key]
        if people is None:
            return JSONResponse(await snapshot(key, web, YOU))
        return JSONResponse(_seat_links(web))

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
                return _refuse(404, "intet sådant spil (det er måske afsluttet)", "no such game")
            return await handler(request, key, *found)

        return route

    @with_game
    async def state(request: Request, key: str, web: WebGame, player: int) -> Response:
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def act(request: Request, key: str, web: WebGame, player: int) -> Response:
        try:
            action = _text(await read_json(request, MAX_ACTION), "action", "") or ""
            await run_in_threadpool(_locked, web, games.act, web, action, player)
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except RuleViolation as exc:
            refusal = {"error": exc.text("da"), "error_en": exc.text("en"), "rule": exc.rule, "source": exc.source}
            return JSONResponse({**refusal, "state": await snapshot(key, web, player)}, status_code=400)
        except (NotationError, RegelmotorError) as exc:
            refused = {"error": exc.text("da"), "error_en": exc.text("en")}
            return JSONResponse({**refused, "state": await snapshot(key, web, player)}, status_code=400)
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def next_deal(request: Request, key: str, web: WebGame, player: int) -> Response:
        try:
            number = _deal_number(await read_json(request, MAX_ACTION))
            await run_in_threadpool(_locked, web, games.next_deal, web, number)
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except RegelmotorError as exc:  # the page is Danish first
            return JSONResponse({"error": exc.text("da"), "error_en": exc.text("en")}, status_code=400)
        return JSONResponse(await snapshot(key, web, player))

    @with_game
    async def events(request: Request, key: str, web: WebGame, player: int) -> Response:
        """The table pushed to one player's page (server-sent events): its state now, then after every
        change, with a heartbeat between, so that four people see each other's moves without asking. A
        lost connection is remade by the browser, which is then sent the state as it stands."""
        client = request.client.host if request.client is not None else ""

        def full() -> JSONResponse | None:
            if len(web.watchers) >= WATCHERS:
                return _refuse(503, "for mange sider følger dette bord", "too many pages follow this table")
            if sum(streams.values()) >= STREAMS or streams.get(client, 0) >= STREAMS_PER_CLIENT:
                return _refuse(503, "for mange sider følger borde herfra; luk nogle", "too many pages follow tables")
            return None

        refusal = full()
        if refusal is not None:
            return refusal

        async def stream() -> AsyncIterator[str]:
            # Counted where it is uncounted: a stream whose client left before it began is never entered.
            if full() is not None:
                return  # others came first: the browser tries again
            streams[client] = streams.get(client, 0) + 1
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
                streams[client] -= 1
                if not streams[client]:
                    del streams[client]
                with web.counting:
                    web.watchers.pop(watcher, None)
                web.changed()  # and that this page has gone

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})

    @with_game
    async def record(request: Request, key: str, web: WebGame, player: int) -> Response:
        if web.game.step is not None:
            return JSONResponse({"error": "the record is given when the deal is over"}, status_code=400)
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

    streams: dict[str, int] = {}
    """The pages following a table, by address (counted in the event loop): they hold a connection each,
    so no address may hold the server's connections and no number of them all."""
    analysing = asyncio.Semaphore(ANALYSES_AT_ONCE)
    waiting = [0]

    @with_game
    async def analysis(request: Request, key: str, web: WebGame, player: int) -> Response:
        """The finished deal with every hand open ("Vis analyse"): what each card cost, as JSON with its
        Danish and English text. Searched in a worker thread within a time limit, a few at a time."""
        game = web.game
        if game.step is not None or not game.tricks:
            return JSONResponse({"error": "analysen gives, når spillet er spillet færdigt"}, status_code=400)
        if web.analysis is not None and web.analysis[0] is game:
            return JSONResponse(web.analysis[1])
        if waiting[0] >= ANALYSES_WAITING:
            return JSONResponse({"error": "der analyseres mange spil lige nu; prøv igen om lidt"}, status_code=503)
        waiting[0] += 1
        try:
            async with analysing:
                found = await run_in_threadpool(analyse_game, game, web.resolved.label, WEB_NODES, 1, WEB_SECONDS)
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
            Route("/api/games/{key}/analysis", analysis),
            Route("/api/games/{key}/events", events),
            Route("/sheet", sheet_entry),
            Route("/sheet/print", sheet_page),
            Route("/api/sheet", sheet_api, methods=["GET", "POST"]),
            Route("/api/sheet/undo", sheet_api, methods=["POST"]),
        ]
    )
    app.state.games = games  # the server side of every game, for the tests that check what is sent
    guarded = _guard(allowed_hosts)(app)
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
