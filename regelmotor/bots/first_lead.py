"""A sampled deal taken from a bid to its first lead without stepping a ``Game``: the bidding's playouts.

The expert prices each bid by playing it out on many sampled deals, and stepping a ``Game`` through the
rest of the auction, the declaration and the exchange cost more than the compiled card play after it.
Here the rule functions the phases themselves call (the auction hook, ``opening``, ``trump_actions``,
``call_card_actions``, ``partner_holding``, the exchange plan, ``legal_discards``, ``exchanged``,
``exchange_open``) are called directly, with the expert's own cheap choices inside a playout, and the
kernel's row is built at the first lead: one copy of each rule, two callers.

Where the contract takes a step this path does not (turning the kitty, a partner who may vip, a joiner's
own partner card, a fordækt card to lay, a doubling made) or
a club's plugin decides the auction, the declaration or the exchange, ``first_lead`` answers None and
the caller steps a ``Game`` as before. A test plays every ruleset and house rule both ways and gets the
same rows and the same contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from regelmotor.bids import Bid
from regelmotor.cards import Card
from regelmotor.engine.actions import PASS_ACTION, Action, Verb
from regelmotor.engine.discards import Discards
from regelmotor.engine.game import Game, PlayObservation
from regelmotor.engine.phases.auction import Opening, opening
from regelmotor.engine.phases.declaration import (
    call_card_actions,
    exchanger_actions,
    partner_holding,
    trump_actions,
)
from regelmotor.engine.phases.exchange import (
    asked_to_double,
    double_actions,
    exchange_open,
    exchanged,
    legal_discards,
    next_to_pass_on,
)
from regelmotor.hooks import PARTNER, ContractInfo, Denomination, ExchangeTurn
from regelmotor.play_row import KernelRules, PlayFacts, observed_row, open_at
from regelmotor.ruleset.compile import Rules, from_club

HOOKS = (
    "regelmotor_auction",
    "regelmotor_declaration",
    "regelmotor_trump_choices",
    "regelmotor_call_choices",
    "regelmotor_exchange",
    "regelmotor_fordaekt",
    "regelmotor_doubling",
    "regelmotor_open_hands",
)
"""The hooks this path calls: where a club's plugin decides any of them, its deals step a ``Game``."""
PASS = str(PASS_ACTION)


class ExchangeAsk(NamedTuple):
    """What a seat exchanging decides from: its hand, the numbers of cards the turn allows from a kitty of
    ``kitty`` cards, the legal actions, and the contract's sol, trump and partner card."""

    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    kitty: int
    legal: Sequence[Action]
    sol: bool
    trump: str | None
    called: Card | None


class Chooser(Protocol):
    """The playout's own choices for a seat (the expert's cheap ones), from its hand and the legal actions."""

    def choose_trump(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action: ...

    def choose_partner_card(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action: ...

    def choose_exchanger(self, seat: int, legal: Sequence[Action]) -> Action: ...

    def exchange_choice(self, ask: ExchangeAsk) -> Action: ...

    def choose_double(self, seat: int, legal: Sequence[Action]) -> Action: ...


@dataclass(frozen=True, slots=True)
class AtFirstLead:
    """A sampled deal at its first lead: the contract, and the kernel's row of it."""

    bid: Bid
    declarers: tuple[int, ...]
    partner: int | None
    row: list[int]


def takes_first_lead_path(rules: Rules) -> bool:
    """Whether the shipped rule families decide every hook this path calls (no club's plugin does)."""
    return not any(from_club(rules.plugin_manager, hook) for hook in HOOKS)


@dataclass
class Known:
    """What the rules answered for one bot's playouts, by their own inputs: the auction's end after a bid
    and the contract's opening (the same for every sampled deal at one call: the calls are public; not
    kept where the dealer's last card makes trump), the
    partner cards a hand may call and the discards a turn allows (the declarer's hand is the same in
    every sampled deal). The shipped rule functions are pure, so an answer is asked once."""

    ends: dict[tuple[object, ...], tuple[Bid, tuple[int, ...], Opening] | None] = field(default_factory=dict)
    calls: dict[tuple[object, ...], tuple[Action, ...]] = field(default_factory=dict)
    discards: dict[tuple[object, ...], Discards] = field(default_factory=dict)


def _contract(rules: Rules, world: Game, bid: Action, known: Known) -> tuple[Bid, tuple[int, ...], Opening] | None:
    """The contract after ``bid`` with every other seat passing, its declarers and its opening."""
    key = (world.auction_status, bid, world.dealer)
    if key in known.ends:
        return known.ends[key]
    found = None
    status = rules.auction.advance(world.auction_status, str(bid))
    while status.to_act is not None and PASS in status.legal:
        status = rules.auction.advance(status, PASS)
    if status.to_act is None and status.highest is not None and status.holder is not None:
        declarers = (status.holder, *status.joiners)
        found = (
            status.highest,
            declarers,
            opening(rules, status.highest, declarers, world.initial_hands, world.dealer),
        )
    if found is None or found[2].trump_card is None:  # a dealer's card turned for trump differs deal by deal
        known.ends[key] = found
    return found


def first_lead(
    rules: Rules, kernel: KernelRules, world: Game, bid: Action, chooser: Chooser, known: Known
) -> AtFirstLead | None:
    """``world`` (at a seat's call) after that seat bids ``bid`` and every other seat passes, declared and
    exchanged by ``chooser``, at its first lead; None where a step needs a ``Game`` (the module says which).
    ``known``: the bot's answers of the rules so far."""
    ended = _contract(rules, world, bid, known)
    if ended is None:
        return None
    contract, declarers, start = ended
    declarer = declarers[0]
    hands = [list(hand) for hand in world.hands]
    kitty = list(world.kitty)
    seats = world.seats
    trump: Denomination | None = start.trump
    partner = start.partner
    public = partner is not None
    leader = world.leader if start.leader is None else start.leader
    called: Card | None = None
    exchanger: int | None = None
    designation = contract.designation

    def holder() -> int | None:
        if called is None or contract.is_sol:
            return partner  # no partner card: none, or the one the contract fixed
        return partner_holding(hands, called, declarer, seats)

    for kind, who in start.steps:
        if kind == "reveal":
            partner = holder()
            public = partner is not None
            continue
        if kind not in ("trump", "call", "exchanger") or designation is None:
            return None  # turning the kitty, or a partner who may vip
        seat = who
        if who == PARTNER:
            partner = holder()
            seat = declarer if partner is None else partner
        if kind == "trump":
            legal = trump_actions(rules, designation, called)
            if not legal:
                return None
            trump = chooser.choose_trump(hands[seat], legal).trump
        elif kind == "call":
            key = (tuple(hands[seat]), designation, trump)
            legal = known.calls.get(key) or known.calls.setdefault(
                key, call_card_actions(rules, hands[seat], designation, trump)
            )
            if seat != declarer or not legal:
                return None  # a joiner's own card (vip)
            called = chooser.choose_partner_card(hands[seat], legal).card
        elif partner is not None:  # who exchanges, where the partner chooses (a selvmakker has no one to choose)
            exchanger = chooser.choose_exchanger(seat, exchanger_actions(declarer, seat)).seat
    partner = holder()
    plan = rules.exchange(ContractInfo(contract, declarers, partner if public else None, exchanger))
    protected = None if plan.called_card_may_be_discarded else called
    turns = list(plan.turns)
    done: list[int] = []
    while turns:
        turn = turns.pop(0)
        if exchange_open(turn, len(kitty)):
            turn_key = (tuple(hands[turn.seat]), turn, len(kitty), protected)
            discards = known.discards.get(turn_key) or known.discards.setdefault(
                turn_key, legal_discards(hands[turn.seat], turn, len(kitty), protected)
            )
            hand = tuple(hands[turn.seat])
            choice = chooser.exchange_choice(
                ExchangeAsk(hand, tuple(turn.counts), len(kitty), discards, contract.is_sol, trump, called)
            )
            done.append(turn.seat)
            if choice.verb is not Verb.KEEP:
                becomes_kitty = plan.discards_become_kitty and bool(turns)
                hands[turn.seat], _, kitty, _ = exchanged(hands[turn.seat], kitty, choice.cards, becomes_kitty)
        if not turns and plan.leftover_passes_clockwise and kitty and done:  # what is left passes on
            following = next_to_pass_on(done[-1], done, ())
            if following is not None:
                turns.append(ExchangeTurn(following, tuple(range(len(kitty) + 1)), False))
    info = ContractInfo(contract, declarers, partner if public else None, exchanger)
    if rules.fordaekt(info, called, hands[declarer]):
        return None  # a fordækt card to lay
    if rules.doubling.most:
        doubling = ContractInfo(contract, declarers, partner)
        may = rules.doubling.doublers(doubling, seats)
        for seat in asked_to_double(rules, doubling, seats, public):
            if chooser.choose_double(seat, double_actions(seat, may)) != PASS_ACTION:
                return None  # a doubling: the Game plays it (and the redouble it allows)
    partner = holder()
    facts = PlayFacts(contract, declarers, trump, called, None, start.sol_order, *open_at(rules, contract, declarers))
    row = observed_row(
        kernel, facts, -1 if partner is None else partner, hands, PlayObservation(leader=leader), leader, public
    )
    return AtFirstLead(contract, declarers, partner, row)
