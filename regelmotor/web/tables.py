"""The games the server keeps: each table (its session, deal, bots, seats' secrets and the pages that
follow it), bounded in all and per client, evicted when idle, written to the store after every change and
rebuilt from it after a restart, and each seat's state as its page is sent it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import ipaddress
import random
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from regelmotor.bots import Bot, check_bot, make_bot
from regelmotor.cards import Card, format_card, parse_card, shown_card
from regelmotor.engine.actions import Action, Verb, call_action, public
from regelmotor.engine.explain import violation
from regelmotor.engine.game import FINISHED, PLAY, Game, View
from regelmotor.errors import NotationError, RegelmotorError
from regelmotor.phrases import phrases
from regelmotor.play import result_line
from regelmotor.records import dealt_cards
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset
from regelmotor.session import Session
from regelmotor.web.store import KEY, GameStore

YOU = 0
"""The person is player 0 of the session; which seat that is changes as the deal passes round."""


MAX_GAMES = 256
"""Games kept at once (about 220 KB each); the least recently used one goes when a new one needs room."""


PER_CLIENT = 64
"""Games one client keeps at once: a club room behind one router (or a proxy) is one client to the server,
and so is every address of one network (``network_of``)."""


IDLE_SECONDS = 6 * 3600
"""A game nobody has touched for this long is evicted."""


IN_USE_SECONDS = 3 * 3600
"""A table whose seat link was opened this recently is in use: people are playing at it, each from their own
link, so no stranger's new games may evict it while any other game can go (an evening is a few hours)."""


def network_of(address: str) -> str:
    """The network a client's address belongs to, which the server counts as one client: an IPv4 /24 (a club
    room, a home, a small office) or an IPv6 /64 (one household's or one machine's share: a client there has
    millions of addresses to choose from, so counting addresses would let it start a game from each). Any
    other name (a test's, a Unix socket's) is its own network."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


SOLO_NAMES = ["Du", "Bot 1", "Bot 2", "Bot 3"]


SECRET_BYTES = 16


SECRET = re.compile(r"[A-Za-z0-9_-]{22}")
"""A seat's secret, as ``secrets.token_urlsafe(SECRET_BYTES)`` makes it."""


SEAT_LINK = re.compile(r"([A-Za-z0-9_-]{16})([0-3])([A-Za-z0-9_-]{22})")
"""A seat's link at a table: the table's key, the player, the seat's secret (39 letters, a page's id)."""


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


TABLE = -1
"""The viewer of the page's log: the whole table, which sees no seat's hidden cards."""


def _public(seat: int, action: Action) -> str:
    """An action as the table sees it (``actions.public``), for the page's log."""
    seen = public(action, seat, TABLE)
    if seen.verb is Verb.DISCARD:
        return f"plads {seat} bytter {seen.hidden} kort"
    if seen.verb is Verb.FORDAEKT:
        return f"plads {seat} lægger et kort fordækt"
    return f"plads {seat}: {seen}"


def redeal_words(reason: str) -> dict[str, str]:
    """Why a deal was dealt again, in the page's two languages ("alle meldte pas"), not the code."""
    return {lang: phrases(lang).get(f"redeal_{reason}", reason) for lang in ("da", "en")}


def view_json(view: View) -> dict[str, Any]:
    """A seat's view as the page reads it: cards, bids and actions in the notation (the edge where the
    typed view meets the page); the engine's notes left out, as the page keeps its own log."""
    play = view.play

    def cards(items: Sequence[Card]) -> list[str]:
        return [shown_card(view.seen(c)) for c in items]

    def card(item: Card | None) -> str | None:
        return None if item is None else format_card(item)

    return {
        "seat": view.seat,
        "phase": view.phase,
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand": cards(view.hand),
        "legal_actions": [str(a) for a in view.legal_actions],
        "calls": [[seat, str(a)] for seat, a in view.calls],
        "contract": None if view.contract is None else view.contract.text,
        "declarers": list(view.declarers),
        "trump": view.trump,
        "called": card(view.called),
        "partner": view.partner,
        "joiner_calls": [[seat, format_card(c)] for seat, c in view.joiner_calls],
        "turned": cards(view.turned),
        "kitty_size": view.kitty_size,
        "hand_sizes": list(view.hand_sizes),
        "fordaekt_laid": view.fordaekt_laid,
        "doublings": view.doublings,
        "redeal": None if view.redeal is None else dataclasses.asdict(view.redeal),
        "trick": [[seat, shown_card(view.seen(c))] for seat, c in play.trick],
        "tricks": [[leader, cards(played), winner] for leader, played, winner in play.tricks],
        "tricks_won": list(play.tricks_won),
        "open_hands": [[seat, cards(hand)] for seat, hand in view.open_hands],
        "scores": None if view.scores is None else [str(x) for x in view.scores],
        "history": [[seat, str(a)] for seat, a in view.history],
        "received": cards(view.received),
        "discarded": cards(view.discarded),
        "fordaekt": card(view.fordaekt),
        "trump_card": card(view.trump_card),
        "leader": play.leader if view.phase == PLAY else None,
    }


class Games:
    """The games being played, bounded: in all, and per client (one client, however many games it starts,
    loses its own oldest games first and cannot evict another's while the server has room). A client is a
    network (``network_of``), not an address. When the server is full, a table in use (a seat link opened in
    the last ``IN_USE_SECONDS``) is the last to go: any other game goes first, however many networks start
    games, so that strangers cannot end an evening's table and delete its stored file."""

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
        """Each game's client: the network it was started from."""
        self.linked: dict[str, float] = {}
        """When a seat link of each table was last opened (tables whose links were never opened are absent)."""
        self.limit, self.idle, self.per_client = limit, idle, per_client
        self.in_use = IN_USE_SECONDS
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
        """``_add`` with the lock held. ``client``: the address; the network it is in is counted."""
        now = time.monotonic()
        network = network_of(client)
        for old in [k for k, t in self.touched.items() if now - t > self.idle]:
            self._drop(old)
        while self._count(network) >= self.per_client:
            self._drop(self._oldest(network, now))
        while len(self.games) >= self.limit:
            spare = [k for k in self.games if not self._used(k, now)]
            counts: dict[str, int] = {}
            for k in spare or self.games:  # the tables in use only when no other game is left
                counts[self.owner[k]] = counts.get(self.owner[k], 0) + 1
            self._drop(self._oldest(max(counts, key=counts.__getitem__), now))
        self.games[key] = web
        self.touched[key] = now
        self.owner[key] = network

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

    def _count(self, network: str) -> int:
        return sum(1 for owner in self.owner.values() if owner == network)

    def _used(self, key: str, now: float) -> bool:
        """Whether ``key`` is a table in use: a seat link of it opened in the last ``in_use`` seconds."""
        return now - self.linked.get(key, -float("inf")) <= self.in_use

    def _oldest(self, network: str, now: float) -> str:
        """The network's game to go: its least recently used, a table in use only when it has no other."""
        return min(
            (k for k, owner in self.owner.items() if owner == network),
            key=lambda k: (self._used(k, now), self.touched[k]),
        )

    def _drop(self, key: str) -> None:
        self.games.pop(key, None)
        self.touched.pop(key, None)
        self.owner.pop(key, None)
        self.linked.pop(key, None)
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
            raise RegelmotorError.said("web_not_over")
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
                    "redeal_words": None if game.redeal is None else redeal_words(game.redeal.reason),
                    "points": web.rules.scoring.shown_points(list(entry.points)),
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
        if known is None or not hmac.compare_digest(known, secret):
            return None
        with self._lock:
            if game_key in self.games:  # the table is in use: the last to be evicted (``_insert``)
                self.linked[game_key] = time.monotonic()
        return web, player

    def state(self, key: str, web: WebGame, player: int = YOU) -> dict[str, Any]:
        game = web.game
        you = web.seat_of(player)
        view = game.view(you)
        data = view_json(view)
        data["scores"] = None if view.scores is None else web.rules.scoring.shown_points(view.scores)
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
            "totals": web.rules.scoring.shown_points(web.session.totals),
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
            "partner_across": web.rules.auction.fixed_partners,
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
            refusal = violation(game, "call", you, call_action(text, web.rules.auction.ladder))
            out["why"] = refusal.text("da")
            out["why_en"] = refusal.text("en")
        return out

    rows: list[dict[str, Any]] = []
    by_level: dict[int, dict[str, Any]] = {}
    previous: str | None = None
    for group in web.rules.auction.ladder.groups:
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
        "designations": [{"id": d.id, "display": d.display or "alm."} for d in web.rules.auction.designations],
        "rows": rows,
    }


def locked_change(web: WebGame, change: Callable[..., None], *args: Any) -> None:
    """Change a game under its lock: the bots' moves run in a worker thread (an expert thinks for a
    while), so the server goes on answering other games meanwhile. The pages following it are woken."""
    with web.lock:
        before = (web.game, len(web.game.history))
        try:
            change(*args)
        finally:
            if (web.game, len(web.game.history)) != before:  # a refused action changes nothing, not even this
                web.changed()


def seat_links(web: WebGame) -> dict[str, Any]:
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
