"""A sampled deal taken from a bid to its first lead without stepping a ``Game``: the bidding's playouts.

The expert prices each bid by playing it out on many sampled deals, and stepping a ``Game`` through the
rest of the auction, the declaration and the exchange cost more than the compiled card play after it.
Here the rule functions the phases themselves call (the auction hook, ``opening``, ``trump_actions``,
``call_card_actions``, ``partner_now``, ``vip_actions`` and ``vip_trump``, the exchange plan,
``legal_discards``, ``exchanged``, ``next_to_pass_on``, ``asked_to_double``) are called directly, with the
expert's own cheap choices inside a playout (``Chooser``), and the kernel's row is built at the first
lead: one copy of each rule, two callers.

Where the contract takes a step this path does not (a partner who vips, a joiner's own partner card and
the kitty turned for more than one declarer, a fordækt card to lay, a doubling made) or
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
from regelmotor.engine.actions import PASS_ACTION, VIP_ACTION, Action, Verb
from regelmotor.engine.discards import Discards
from regelmotor.engine.game import Game, PlayObservation
from regelmotor.engine.phases.auction import Opening, opening
from regelmotor.engine.phases.declaration import (
    call_card_actions,
    exchanger_actions,
    partner_now,
    trump_actions,
    vip_actions,
    vip_trump,
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
from regelmotor.play_row import PlayFacts, observed_row, open_at
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

HOOKS = (
    "regelmotor_may_join",
    "regelmotor_auction",
    "regelmotor_declaration",
    "regelmotor_trump_choices",
    "regelmotor_call_choices",
    "regelmotor_vip",
    "regelmotor_exchange",
    "regelmotor_fordaekt",
    "regelmotor_doubling",
    "regelmotor_open_hands",
)
"""The hooks this path calls (and the one the auction asks whether gå med is allowed): where a club's plugin
decides any of them, its deals step a ``Game`` (the path keeps the rules' answers, which a plugin's need
not be the same for the same question)."""
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

    def choose_vip(self, hand: Sequence[Card], turned: Card, legal: Sequence[Action]) -> Action: ...

    def choose_exchanger(self, seat: int, legal: Sequence[Action]) -> Action: ...

    def exchange_choice(self, ask: ExchangeAsk) -> Action: ...

    def choose_double(self, seat: int, legal: Sequence[Action]) -> Action: ...


@dataclass(frozen=True, slots=True)
class AtFirstLead:
    """A sampled deal at its first lead: the contract, and the kernel's row of it."""

    bid: Bid
    declarers: tuple[int, ...]
    partner: int | None
    vip_card: int
    """The number of the kitty card accepted in vip (0: none turned)."""
    row: list[int]


def takes_first_lead_path(rules: Rules) -> bool:
    """Whether the shipped rule families decide every hook this path calls (no club's plugin does)."""
    return not any(rules.from_club(hook) for hook in HOOKS)


@dataclass
class Known:
    """What the rules answered for one bot's playouts, by their own inputs: the auction's end after a bid
    and the contract's opening (the same for every sampled deal at one call, the calls being public; not
    kept where the dealer's last card makes trump), the partner cards a hand may call and the discards a
    turn allows (the declarer's hand is the same in every sampled deal). The shipped rule functions are
    pure, so each answer is asked once."""

    ends: dict[tuple[object, ...], tuple[Bid, tuple[int, ...], Opening] | None] = field(default_factory=dict)
    calls: dict[tuple[object, ...], tuple[Action, ...]] = field(default_factory=dict)
    discards: dict[tuple[object, ...], Discards] = field(default_factory=dict)


def _contract(rules: Rules, world: Game, bid: Action, known: Known) -> tuple[Bid, tuple[int, ...], Opening] | None:
    """The contract after ``bid`` with every other seat passing, its declarers and its opening."""
    key = (world.auction_status, bid, world.dealer)
    if key in known.ends:
        return known.ends[key]
    found = None
    status = rules.auction.procedure.advance(world.auction_status, str(bid))
    while status.to_act is not None and PASS in status.legal:
        status = rules.auction.procedure.advance(status, PASS)
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


@dataclass
class _Deal:
    """A sampled deal on its way to the first lead: what the declaration and the exchange change."""

    contract: Bid
    declarers: tuple[int, ...]
    seats: tuple[int, ...]
    hands: list[list[Card]]
    kitty: list[Card]
    trump: Denomination | None
    partner: int | None
    public: bool
    called: Card | None = None
    exchanger: int | None = None
    vip_card: int = 0

    def holder(self) -> int | None:
        """The partner now (``partner_now``)."""
        return partner_now(self.contract, self.called, self.partner, self.hands, self.declarers, self.seats)


def first_lead(
    rules: Rules, kernel: PlayPhase, world: Game, bid: Action, chooser: Chooser, known: Known
) -> AtFirstLead | None:
    """``world`` (at a seat's call) after that seat bids ``bid`` and every other seat passes, declared and
    exchanged by ``chooser``, at its first lead; None where a step needs a ``Game`` (the module says which).
    ``known``: the bot's answers of the rules so far."""
    ended = _contract(rules, world, bid, known)
    if ended is None:
        return None
    contract, declarers, start = ended
    hands = [list(hand) for hand in world.hands]
    deal = _Deal(contract, declarers, world.seats, hands, list(world.kitty), start.trump, start.partner, False)
    deal.public = deal.partner is not None
    if not _declared(rules, deal, start.steps, chooser, known):
        return None
    deal.partner = deal.holder()
    info = ContractInfo(contract, declarers, deal.partner if deal.public else None, deal.exchanger)
    _exchange(rules, deal, info, chooser, known)
    if rules.declaration.fordaekt(info, deal.called, hands[declarers[0]]):
        return None  # a fordækt card to lay
    if rules.declaration.doubling.most:
        doubling = ContractInfo(contract, declarers, deal.partner)
        may = rules.declaration.doubling.doublers(doubling, deal.seats)
        for seat in asked_to_double(doubling, deal.seats, deal.public, may):
            if chooser.choose_double(seat, double_actions(seat, may)) != PASS_ACTION:
                return None  # a doubling: the Game plays it (and the redouble it allows)
    partner = deal.holder()
    leader = world.leader if start.leader is None else start.leader
    facts = PlayFacts(
        contract, declarers, deal.trump, deal.called, None, start.sol_order, *open_at(rules, contract, declarers)
    )
    observed = PlayObservation(leader=leader)
    row = observed_row(kernel, facts, -1 if partner is None else partner, deal.hands, observed, leader, deal.public)
    return AtFirstLead(contract, declarers, partner, deal.vip_card, row)


def _declared(rules: Rules, deal: _Deal, steps: Sequence[tuple[str, int]], chooser: Chooser, known: Known) -> bool:
    """The declaration's steps taken (``DeclarationPhase``'s, by the same rule functions); False where one
    needs a ``Game``: a joiner's own card, a partner who vips, a kitty turned for more than one declarer."""
    designation = deal.contract.designation
    declarer = deal.declarers[0]
    hands = deal.hands
    for kind, who in steps:
        if kind == "reveal":
            deal.partner = deal.holder()
            deal.public = deal.partner is not None
            continue
        if designation is None:
            return False
        seat = who
        if who == PARTNER:
            deal.partner = deal.holder()
            seat = declarer if deal.partner is None else deal.partner
        if kind in ("trump", "trump_or_vip"):
            legal = trump_actions(rules, designation, deal.called)
            if kind == "trump_or_vip":
                legal = (*legal, VIP_ACTION)
            choice = chooser.choose_trump(hands[seat], legal) if legal else VIP_ACTION
            if choice.verb is not Verb.TRUMP:
                return False
            deal.trump = choice.trump
        elif kind == "call":
            key = (tuple(hands[seat]), designation, deal.trump)
            legal = known.calls.get(key) or known.calls.setdefault(
                key, call_card_actions(rules, hands[seat], designation, deal.trump)
            )
            if seat != declarer or not legal:
                return False
            deal.called = chooser.choose_partner_card(hands[seat], legal).card
        elif kind == "kitty":
            if seat != declarer or len(deal.declarers) > 1 or not _turned(rules, deal, designation, seat, chooser):
                return False
        elif kind == "exchanger":
            if deal.partner is not None:  # the partner chooses who exchanges (a selvmakker has no one to choose)
                deal.exchanger = chooser.choose_exchanger(seat, exchanger_actions(declarer, seat)).seat
        else:
            return False
    return True


def _turned(rules: Rules, deal: _Deal, designation: str, seat: int, chooser: Chooser) -> bool:
    """Vip for one declarer: kitty cards turned, top first, until one is accepted (the last that must be
    is taken by itself); its suit is trump (``DeclarationPhase._vip_step``, by the same rule functions)."""
    turned: list[Card] = []
    for number, card in enumerate(deal.kitty, 1):
        turned.append(card)
        offer = rules.declaration.vip(designation, turned)
        if offer.turn == "cannot_accept":
            continue
        forced = offer.turn == "must_accept"
        if forced and len(offer.accepts) == 1:
            deal.trump, deal.vip_card = offer.accepts[0][1], number
            return True
        choice = chooser.choose_vip(deal.hands[seat], card, vip_actions(offer, forced))
        if choice.verb is not Verb.REJECT:
            deal.trump, deal.vip_card = vip_trump(offer, choice), number
            return True
    return False


def _exchange(rules: Rules, deal: _Deal, contract: ContractInfo, chooser: Chooser, known: Known) -> None:
    """The exchange's turns of ``contract`` (``ExchangePhase``'s, by the same rule functions), what is left
    passing on where the rules say."""
    hands = deal.hands
    plan = rules.exchange.plan(contract)
    protected = None if plan.called_card_may_be_discarded else deal.called
    turns = list(plan.turns)
    done: list[int] = []
    while turns:
        turn = turns.pop(0)
        if exchange_open(turn, len(deal.kitty)):
            hand = tuple(hands[turn.seat])
            key = (hand, turn, len(deal.kitty), protected)
            discards = known.discards.get(key) or known.discards.setdefault(
                key, legal_discards(hand, turn, len(deal.kitty), protected)
            )
            sol = deal.contract.is_sol
            ask = ExchangeAsk(hand, tuple(turn.counts), len(deal.kitty), discards, sol, deal.trump, deal.called)
            choice = chooser.exchange_choice(ask)
            done.append(turn.seat)
            if choice.verb is not Verb.KEEP:
                becomes_kitty = plan.discards_become_kitty and bool(turns)
                hands[turn.seat], _, deal.kitty, _ = exchanged(hand, deal.kitty, choice.cards, becomes_kitty)
        if not turns and plan.leftover_passes_clockwise and deal.kitty and done:  # what is left passes on
            following = next_to_pass_on(done[-1], done, ())
            if following is not None:
                turns.append(ExchangeTurn(following, tuple(range(len(deal.kitty) + 1)), False))
