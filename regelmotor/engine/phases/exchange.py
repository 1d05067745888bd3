"""The exchange phase: the kitty, what passes on, fordækt and doubling; then the first lead."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from regelmotor.cards import Card
from regelmotor.engine.actions import (
    DOUBLE_ACTION,
    KEEP_ACTION,
    NO_FORDAEKT_ACTION,
    PASS_ACTION,
    REDOUBLE_ACTION,
    Action,
    Verb,
    fordaekt,
)
from regelmotor.engine.discards import Discards
from regelmotor.engine.notes import Note
from regelmotor.engine.state import (
    HAND_ORDER,
    PLAY,
    SEATS,
    State,
    StepKind,
)
from regelmotor.hooks import (
    ContractInfo,
    ExchangeTurn,
)


def legal_discards(hand: Sequence[Card], turn: ExchangeTurn, kitty: int, protected: Card | None) -> Discards:
    """What a seat exchanging may do: keep (where the turn allows it) or discard as many cards as it may
    take from a kitty of ``kitty`` cards, any but ``protected`` (001: "Makker-esset må ikke lægges i
    katten"); the hand is kept in canonical order."""
    cards = [c for c in hand if c != protected]
    keep = (KEEP_ACTION,) if 0 in turn.counts and not turn.compulsory else ()
    return Discards(keep, cards, [count for count in turn.counts if 0 < count <= kitty])


def exchanged(
    hand: Sequence[Card], kitty: Sequence[Card], cards: Sequence[Card], discards_become_kitty: bool
) -> tuple[list[Card], tuple[Card, ...], list[Card], list[Card]]:
    """A hand that lays ``cards`` away and takes as many from the top of the kitty: the new hand (in
    canonical order), the cards taken, the kitty after, and the cards that go to the discards (none where
    they become the kitty for the next to exchange, 000 5.2.4: "De tre afkastede kort bliver ny kat")."""
    taken, untaken = list(kitty[: len(cards)]), list(kitty[len(cards) :])
    kept = [c for c in hand if c not in cards] + taken
    new_hand = sorted(kept, key=HAND_ORDER.__getitem__)
    if discards_become_kitty:
        return new_hand, tuple(taken), [*cards, *untaken], []
    return new_hand, tuple(taken), untaken, list(cards)


def exchange_open(turn: ExchangeTurn, kitty: int) -> bool:
    """Whether an exchange turn is a choice: a kitty of ``kitty`` cards holds a number the turn may take."""
    return kitty > 0 and any(0 < k <= kitty for k in turn.counts)


def next_to_pass_on(last: int, exchanged: Sequence[int], waiting: Sequence[int]) -> int | None:
    """Who takes what is left of the kitty after ``last``: the next seat clockwise that has
    neither exchanged nor a turn still to come; None when every seat has had it."""
    for offset in range(1, SEATS):
        seat = (last + offset) % SEATS
        if seat not in exchanged and seat not in waiting:
            return seat
    return None


def asked_to_double(
    contract: ContractInfo, seats: Sequence[int], partner_public: bool, may: Collection[int]
) -> list[int]:
    """Every defending seat is asked, in calling order, so that a secret partner who may not double is
    not given away by being skipped; ``may``: who the doubling rule lets double (``double_actions``)."""
    return [
        s for s in seats if s not in contract.declarers and (s in may or not (partner_public and s == contract.partner))
    ]


def double_actions(seat: int, may_double: Collection[int]) -> tuple[Action, ...]:
    """A seat asked to double may double where the rule lets it, else only pass."""
    return (PASS_ACTION, DOUBLE_ACTION) if seat in may_double else (PASS_ACTION,)


class ExchangePhase(State):
    def _contract_info(self) -> ContractInfo:
        assert self.bid is not None
        return ContractInfo(self.bid, self.declarers, self.partner if self.partner_public else None, self.exchanger)

    def _plan_exchange(self) -> None:
        plan = self.rules.exchange.plan(self._contract_info())
        self._exchange_plan = plan
        self._exchange = list(plan.turns)
        self._pass_on = plan.leftover_passes_clockwise

    def _exchange_step(self) -> bool:
        """The exchange turns, then fordækt, then doubling; then the first lead."""
        while self._exchange:
            turn = self._exchange[0]
            if exchange_open(turn, len(self.kitty)):
                self.step = (StepKind.EXCHANGE, turn.seat)
                return True
            self._exchange.pop(0)
        if self._pass_on and self.kitty and self._exchanged:
            nxt = self._next_pass_on()
            if nxt is not None:  # what he leaves passes to the next player clockwise
                self._exchange.append(ExchangeTurn(nxt, tuple(range(len(self.kitty) + 1)), False))
                return self._exchange_step()
        if self._fordaekt_offer is None:
            self._fordaekt_offer = self._fordaekt_seat()
        if self._fordaekt_offer is not None and self._fordaekt_offer >= 0:
            self.step = (StepKind.FORDAEKT, self._fordaekt_offer)
            return True
        if self._doublers is None:
            self._doublers = self._who_may_double()
        if self._doublers:
            self.step = (StepKind.DOUBLE, self._doublers[0])
            return True
        if self._redouble:
            self.step = (StepKind.REDOUBLE, self.declarers[0])
            return True
        self._find_partner()
        assert self.bid is not None
        self._playing = ContractInfo(self.bid, self.declarers, self.partner)  # what the play rules see
        self._facts = self._play_facts()
        self.phase = PLAY
        self._open_hands("before_first_lead")  # hands laid open before the lead: the leader sees them
        return False

    def _next_pass_on(self) -> int | None:
        return next_to_pass_on(self._exchanged[-1], self._exchanged, [t.seat for t in self._exchange])

    def exchange_counts(self) -> tuple[int, ...]:
        """How many cards the seat now exchanging may discard."""
        return self._exchange[0].counts if self._exchange else ()

    def _legal_exchange(self, seat: int) -> Sequence[Action]:
        protected = self.called if not self._exchange_plan.called_card_may_be_discarded else None
        return legal_discards(self.hands[seat], self._exchange[0], len(self.kitty), protected)

    def _do_exchange(self, seat: int, action: Action) -> None:
        turn = self._exchange.pop(0)
        self._exchanged.append(turn.seat)
        if action.verb is Verb.KEEP:
            return
        cards = action.cards  # one of the legal discards: in canonical order
        becomes_kitty = self._exchange_plan.discards_become_kitty and bool(self._exchange)
        self.hands[seat], self.received[seat], self.kitty, away = exchanged(
            self.hands[seat], self.kitty, cards, becomes_kitty
        )
        self.discarded[seat] = tuple(cards)
        self.discards.extend(away)
        self.events.append(Note.said("exchanged", seat=seat, count=len(cards)))

    def _fordaekt_seat(self) -> int:
        """The declarer, if the fordækt rule lets him lay a card face down now; -1 when nobody may."""
        if not self.declarers:
            return -1  # a game nobody bid has no declarer to lay one
        declarer = self.declarers[0]
        allowed = self.rules.declaration.fordaekt(self._contract_info(), self.called, self.hands[declarer])
        return declarer if allowed else -1

    def _legal_fordaekt(self, seat: int) -> Sequence[Action]:
        return (NO_FORDAEKT_ACTION, *[fordaekt(c) for c in self.hands[seat]])

    def _do_fordaekt(self, seat: int, action: Action) -> None:
        self._fordaekt_offer = -1
        if action.verb is Verb.FORDAEKT:
            self.fordaekt = action.card
            self.events.append(Note.said("fordaekt", seat=seat))

    def _who_may_double(self) -> list[int]:
        assert self.bid is not None
        if not self.rules.declaration.doubling.most:
            return []
        contract = ContractInfo(self.bid, self.declarers, self.partner)
        self._may_double = frozenset(self.rules.declaration.doubling.doublers(contract, self.seats))
        return asked_to_double(contract, self.seats, self.partner_public, self._may_double)

    def _legal_double(self, seat: int) -> Sequence[Action]:
        return double_actions(seat, self._may_double)

    def _do_double(self, seat: int, action: Action) -> None:
        assert self._doublers is not None
        self._doublers.pop(0)
        if action.verb is Verb.DOUBLE:  # once per deal (rules-matrix.md section 9)
            self.doublings = 1
            self._doublers = []
            self._redouble = self.rules.declaration.doubling.redouble

    def _legal_redouble(self, seat: int) -> Sequence[Action]:
        return (PASS_ACTION, REDOUBLE_ACTION)

    def _do_redouble(self, seat: int, action: Action) -> None:
        self._redouble = False
        if action.verb is Verb.REDOUBLE:
            self.doublings = 2
