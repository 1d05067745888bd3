"""One deal as an explicit state machine, driven only by compiled rules.

A ``Game`` knows its phase, whose turn it is and what that seat may do (``legal_actions()``);
``apply(action)`` is the only way to change it. An action is checked against the legal actions
before anything changes, so an illegal one raises ``RuleViolation`` (naming the ruleset key that
forbids it, and its source) and leaves the game exactly as it was. Steps the rules decide alone
(a fixed trump, a kitty card that cannot be accepted, the third vip card that must be) happen
by themselves and are listed in ``events``; only real choices are actions.

Phases (docs/notation.md): ``auction`` (with jernhånd claims and misdeals before the first call),
``declaration``, ``exchange`` (then fordækt and doubling), ``play``, and ``redeal`` when the
deal is void, ``finished`` when play is over and every seat has its score.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle
import random
from collections.abc import Callable, Sequence
from functools import cache

from regelmotor.bids import fold
from regelmotor.cards import FACE_DOWN, Card, format_card, new_deck
from regelmotor.engine.actions import Action, claim, parse_action, public
from regelmotor.engine.explain import violation
from regelmotor.engine.phases.auction import AuctionPhase
from regelmotor.engine.phases.declaration import DeclarationPhase
from regelmotor.engine.phases.exchange import ExchangePhase
from regelmotor.engine.phases.play import PlayPhase
from regelmotor.engine.state import (
    AUCTION,
    CARDS,
    DECLARATION,
    DERIVED,
    EXCHANGE,
    FINISHED,
    HAND,
    HAND_ORDER,
    NAMES,
    PLAY,
    PLAY_STEPS,
    REDEAL,
    SEAT_ORDERS,
    SEATS,
    Phase,
    PlayObservation,
    Redeal,
    State,
    StepKind,
    Trick,
    View,
)
from regelmotor.errors import DealError, NotationError, RuleViolation
from regelmotor.phrases import refusal
from regelmotor.ruleset.compile import Rules

__all__ = [
    "AUCTION",
    "CARDS",
    "DECLARATION",
    "EXCHANGE",
    "FINISHED",
    "HAND",
    "NAMES",
    "PLAY",
    "REDEAL",
    "SEATS",
    "Game",
    "Phase",
    "PlayObservation",
    "Redeal",
    "StepKind",
    "Trick",
    "View",
]


@cache
def _deck(jokers: int) -> frozenset[Card]:
    return frozenset(new_deck(jokers))


class Game(AuctionPhase, DeclarationPhase, ExchangePhase, PlayPhase):
    """One deal: from the dealt hands to the end of play (or a redeal)."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        kitty: Sequence[Card],
        dealer: int = 0,
        *,
        seed: int | None = None,
        dealer_at_table: bool = True,
        _dealt_here: bool = False,
    ) -> None:
        """``dealer_at_table``: False when the dealer sits out (5-6 players, 000 2.1), so that seat ``dealer``
        is the fourth player in the deal, who can be at fault in a misdeal like any other.

        A deal given from outside is checked card by card; one the engine dealt itself from a new deck
        by the shipped dealer (``from_seed``) is not checked again."""
        if not _dealt_here:
            _check_deal(rules, hands, kitty, dealer)
        State.__init__(  # every other field starts at its declared default (``State``)
            self,
            rules=rules,
            ruleset=rules.ruleset,
            seed=seed,
            dealer=dealer,
            dealer_at_table=dealer_at_table,
            seats=SEAT_ORDERS[dealer],
            initial_hands=tuple(map(tuple, hands)),
            initial_kitty=tuple(kitty),
            hands=[sorted(hand, key=HAND_ORDER.__getitem__) for hand in hands],
            kitty=list(kitty),
        )
        self.leader = self.seats[0]
        self.claims = self._offer_claims() if rules.dealing.redeal_claims else []
        self._auction = rules.auction.procedure.start(self.seats)
        self._advance()

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        deck: Sequence[Card],
        dealer: int = 0,
        pattern: Sequence[int | str] | None = None,
        *,
        dealer_at_table: bool = True,
    ) -> Game:
        """Deal a deck order (top card first) by the ruleset's pattern, or by ``pattern``."""
        deal = rules.dealing.deal(deck, dealer, pattern)
        return cls(rules, deal.hands, deal.kitty, dealer, dealer_at_table=dealer_at_table)

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, dealer: int = 0, *, dealer_at_table: bool = True) -> Game:
        """A shuffled deck from ``seed``: the same seed always gives the same deal."""
        deck = new_deck(rules.dealing.jokers)
        random.Random(seed).shuffle(deck)
        deal = rules.dealing.deal(deck, dealer, None)
        return cls(
            rules,
            deal.hands,
            deal.kitty,
            dealer,
            seed=seed,
            dealer_at_table=dealer_at_table,
            _dealt_here=rules.dealing.shipped_dealer and 0 <= dealer < SEATS,
        )

    # --- the public face ---------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return None if self.step is None else self.step[1]

    @property
    def contract(self) -> str | None:
        return None if self.bid is None else self.bid.text

    def legal_actions(self) -> list[Action]:
        """What the seat to act may do now, as a new list."""
        return list(self.legal)

    @property
    def legal(self) -> Sequence[Action]:
        """The legal actions as a read-only sequence, worked out once per state and not copied.

        For bots and simulations: the exchange's many discards are made only when read.
        """
        legal = self._legal
        if legal is None:
            if self.step is None:
                return ()
            kind, seat = self.step
            legal = self._legal = _LEGAL[kind](self, seat)
        return legal

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Play ``action`` for the seat to act (checked against ``seat`` when given).

        An action is an ``Action``; its notation (a record's, a person's) is read by ``parse`` first, the
        one place where the engine reads a string.
        """
        if self.step is None:
            raise RuleViolation("phase", "deal_over", {"phase": str(self.phase)}, render=refusal)
        kind, to_act = self.step
        if seat is not None and seat != to_act:
            raise RuleViolation("turn", "not_your_turn", {"to_act": to_act, "seat": seat}, render=refusal)
        legal = self.legal
        if not isinstance(action, Action):
            action = self.parse(action)
        if action not in legal:
            raise self._violation(kind, to_act, action)
        self.history.append((to_act, action))
        self._legal = None
        _DO[kind](self, to_act, action)
        if kind != "play":  # a card played names the next seat itself: the commonest step, kept short
            self._advance()

    def parse(self, text: str) -> Action:
        """The action ``text`` writes in the notation (docs/notation.md), in any spelling it accepts: a legal
        action's notation in another case or with ASCII æøå, a redeal claim by its name, or
        ``actions.parse_action``'s forms. ``NotationError`` when it is no action at all."""
        if not isinstance(text, str):
            raise NotationError(f"an action is an Action or its notation, not {type(text).__name__}")
        legal = self.legal
        parsed: Action | None = None
        try:
            parsed = parse_action(text, self.rules.auction.ladder)
        except NotationError as exc:
            not_notation = exc
        if parsed is not None and parsed in legal:
            return parsed
        folded = fold(text)
        if len(legal) < 64:
            for candidate in legal:
                if fold(str(candidate)) == folded:
                    return candidate
        for rule in self.rules.dealing.redeal_claims:
            if fold(rule.action) == folded:
                return claim(rule.action)
        if parsed is None:
            raise not_notation
        return parsed

    def view(self, seat: int) -> View:
        """What ``seat`` may know now: a new ``View`` on every call (its legal actions are the game's own
        immutable sequence, so the exchange's discards are not written out for it)."""
        hands = self.hands
        return View(
            seat=seat,
            phase=self.phase,
            dealer=self.dealer,
            to_act=self.to_act,
            hand=() if self.blind() else tuple(hands[seat]),
            legal_actions=self.legal if self.to_act == seat else (),
            calls=tuple(self.seat_calls),
            contract=self.bid,
            declarers=self.declarers,
            trump=self.trump,
            called=self.called,
            partner=self.partner if self.partner_public else None,
            joiner_calls=tuple(self.joiner_calls.items()),
            turned=tuple(self.turned),
            kitty_size=len(self.kitty),
            hand_sizes=tuple([len(h) for h in hands]),
            fordaekt_laid=self.fordaekt is not None,
            doublings=self.doublings,
            events=tuple(self.events),
            redeal=self.redeal,
            play=self.play_observation(),
            open_hands=tuple([(s, tuple(hands[s])) for s in self.open_hands]),
            scores=None if self.scores is None else tuple(self.scores),
            history=self.public_history(seat),
            received=self.received.get(seat, ()),
            discarded=self.discarded.get(seat, ()),
            fordaekt=self.fordaekt if self.fordaekt is not None and seat == self.declarers[0] else None,
            trump_card=self.trump_card,
        )

    def play_observation(self) -> PlayObservation:
        """The play as the table sees it, the fordækt card face down (``PlayObservation``)."""
        return PlayObservation(
            tricks=self._tricks_seen(),
            trick=tuple([(s, self._seen(c)) for s, c in self.trick]),
            tricks_won=tuple(self.tricks_won),
            leader=self.leader,
            called_played=self.called_played,
            called_suit_led=self.called_suit_led,
        )

    def public_history(self, seat: int | None = None) -> tuple[tuple[int, Action], ...]:
        """The history as ``seat`` saw it (as anyone at the table saw it when ``seat`` is None): another
        seat's discards and fordækt card face down (``actions.public``).

        Derived when a view asks for it and extended by the actions added since that seat's last view,
        so that ``apply`` does no work for it and a deal's views cost linear time.
        """
        caches: dict[int | None, tuple[tuple[int, Action], ...]] = self.__dict__.setdefault("_public", {})
        cached = caches.get(seat, ())
        history = self.history
        if len(cached) != len(history):  # extended by the actions added since, not rebuilt
            viewer = -1 if seat is None else seat
            cached += tuple([(actor, public(action, actor, viewer)) for actor, action in history[len(cached) :]])
            caches[seat] = cached
        return cached

    def _tricks_seen(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]:
        """The finished tricks as the table sees them, kept between calls (a trick never changes once done)."""
        cached: tuple[tuple[int, tuple[Card, ...], int], ...] = self.__dict__.get("_seen_tricks", ())
        if len(cached) != len(self.tricks):
            kept = cached if len(cached) < len(self.tricks) else ()
            cached = kept + tuple(
                (t.leader, tuple(self._seen(c) for c in t.cards), t.winner) for t in self.tricks[len(kept) :]
            )
            self.__dict__["_seen_tricks"] = cached
        return cached

    def _seen(self, card: Card) -> Card:
        """A played fordækt card lies face down (000 definitions, "Spille et kort"): only its owner knows it."""
        return FACE_DOWN if card == self.fordaekt else card

    def clone(self) -> Game:
        """An independent copy that shares the (immutable) compiled rules: the state's fields, each copied as
        ``State`` declares it (the expert clones a game for every candidate action it weighs, so no
        ``deepcopy`` of the whole: every field is taken as it is, then the mutable ones copied by kind)."""
        twin = object.__new__(Game)
        mine = self.__dict__
        state = mine.copy()
        for name in _LISTS:
            value = mine[name]
            if value is not None:
                state[name] = value.copy()
        state["hands"] = [list(hand) for hand in mine["hands"]]
        for name in _DICTS:
            state[name] = mine[name].copy()
        vip = mine["_vip"]
        if vip is not None:
            state["_vip"] = dataclasses.replace(vip, joiners=list(vip.joiners), deciders=list(vip.deciders))
        for name in _DEEP:
            if name in mine:
                state[name] = copy.deepcopy(mine[name])
        for name in DERIVED:  # computed again from the rest when asked
            state.pop(name, None)
        state["_legal"] = None
        state["_contexts"] = {}
        twin.__dict__ = state
        return twin

    def snapshot(self) -> bytes:
        """The whole state as bytes: equal snapshots, equal games (the legal-action cache is derived)."""
        state = {k: v for k, v in self.__dict__.items() if k not in DERIVED and k not in ("rules", "ruleset")}
        return pickle.dumps(state)

    def cards_in_play(self) -> list[Card]:
        """Every card, wherever it is now: hands, kitty, discards, tricks (the deck is conserved)."""
        played = [c for trick in self.tricks for c in trick.cards] + [c for _, c in self.trick]
        return [c for hand in self.hands for c in hand] + self.kitty + self.discards + played

    # --- the machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """Move on until a seat has a real choice, or the deal is void or at the first lead."""
        while True:
            if self.phase == PLAY:
                self.step = PLAY_STEPS[self.leader]
                return
            if self.phase == AUCTION:
                if self._auction_step():
                    return
            elif self.phase == DECLARATION:
                if self._declaration_step():
                    return
            elif self.phase == EXCHANGE:
                if self._exchange_step():
                    return
            else:
                self.step = None
                return

    # helpers ----------------------------------------------------------------------------------

    def _violation(self, kind: str, seat: int, action: Action) -> RuleViolation:
        return violation(self, kind, seat, action)


def _check_deal(rules: Rules, hands: Sequence[Sequence[Card]], kitty: Sequence[Card], dealer: int) -> None:
    """Four hands of 13 and the kitty holding the ruleset's deck once each, and a dealer seat."""
    expected = _deck(rules.dealing.jokers)
    if len(hands) != SEATS or any([len(hand) != HAND for hand in hands]):
        raise DealError(f"a deal has four hands of {HAND} cards, not {[len(h) for h in hands]}")
    if len(kitty) != rules.dealing.kitty:
        raise DealError(f"the kitty holds {rules.dealing.kitty} cards in {rules.name}, not {len(kitty)}")
    dealt = [*itertools.chain(*hands), *kitty]
    if len(dealt) != len(expected) or expected.symmetric_difference(dealt):
        twice = sorted({c for c in dealt if dealt.count(c) > 1})
        missing = sorted(expected - set(dealt))
        extra = sorted(set(dealt) - expected)
        detail = "; ".join(
            part
            for part in (
                "twice: " + " ".join(map(format_card, twice)) if twice else "",
                "missing: " + " ".join(map(format_card, missing)) if missing else "",
                "not in this deck: " + " ".join(map(format_card, extra)) if extra else "",
            )
            if part
        )
        raise DealError(f"the hands and kitty must hold the {len(expected)} cards once each ({detail})")
    if not 0 <= dealer < SEATS:
        raise DealError(f"the dealer is a seat 0-3, not {dealer}")


def _fields(how: str) -> tuple[str, ...]:
    """The state's fields a clone copies as ``how`` (``State``'s metadata), read once."""
    return tuple(f.name for f in dataclasses.fields(State) if f.metadata["copy"] == how)


_LISTS, _DICTS, _DEEP = _fields("list"), _fields("dict"), _fields("deep")
assert _fields("nested") == ("hands",) and _fields("vip") == ("_vip",), "clone copies these two by name"
assert set(_fields("derived")) <= set(DERIVED), "a derived field is computed again, never copied"
"""Immutable kinds of value a game holds (named tuples are tuples; the dataclasses are frozen)."""

_LEGAL: dict[str, Callable[[Game, int], Sequence[Action]]] = {
    kind: getattr(Game, f"_legal_{kind}") for kind in StepKind
}
"""Step kind -> the method listing its legal actions (looked up once, not per action)."""
_DO: dict[str, Callable[[Game, int, Action], None]] = {kind: getattr(Game, f"_do_{kind}") for kind in StepKind}
"""Step kind -> the method that applies one of its actions."""
