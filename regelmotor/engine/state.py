"""The state of one deal, as plain data the phases read and write, and what a seat is shown.

``State`` declares every attribute a deal holds (``Game.__init__`` sets them); the phase modules
(``phases/``) are mixins over it, one per phase, and ``Game`` puts them together. Nothing here
decides a rule: the phases ask the compiled hooks (``rules``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from regelmotor.bids import Bid
from regelmotor.cards import FACE_DOWN, Card, format_card
from regelmotor.engine.actions import Action, card_order_key
from regelmotor.engine.notes import Note
from regelmotor.hooks import (
    ContractInfo,
    Denomination,
    ExchangePlan,
    ExchangeTurn,
    Moment,
    TrickContext,
    VipOffer,
)

if TYPE_CHECKING:
    from regelmotor.hooks import AuctionStatus
    from regelmotor.model.ruleset import Ruleset
    from regelmotor.ruleset.compile import Rules

SEATS = 4
HAND = 13
NAMES = tuple(format_card(c) for c in range(55))
"""Card index -> notation, looked up rather than built: views are made on every decision."""
CARDS = {name: card for card, name in enumerate(NAMES)}
"""Canonical notation -> card index, for actions already checked against the legal ones."""
HAND_ORDER = tuple(sorted(range(55), key=card_order_key).index(card) for card in range(55))
"""Card index -> its place in a hand kept in canonical order (a sort key without a call)."""
DERIVED = ("_legal", "_seen_tricks", "_contexts", "_public")
"""Attributes computed from the rest of the state and kept only to save work."""


class Phase(StrEnum):
    """The phases of a deal (docs/notation.md); each compares equal to its name."""

    AUCTION = "auction"
    DECLARATION = "declaration"
    EXCHANGE = "exchange"
    PLAY = "play"
    FINISHED = "finished"
    REDEAL = "redeal"


class StepKind(StrEnum):
    """What the seat to act decides: each kind has its legal actions and its effect in one phase."""

    CLAIM = "claim"
    CALL = "call"
    TRUMP = "trump"
    TRUMP_OR_VIP = "trump_or_vip"
    CALL_CARD = "call_card"
    VIP = "vip"
    EXCHANGER = "exchanger"
    EXCHANGE = "exchange"
    FORDAEKT = "fordaekt"
    DOUBLE = "double"
    REDOUBLE = "redouble"
    PLAY = "play"


AUCTION, DECLARATION, EXCHANGE, PLAY, FINISHED, REDEAL = Phase
SEAT_ORDERS = tuple(tuple((dealer + i) % SEATS for i in range(1, SEATS + 1)) for dealer in range(SEATS))
"""Dealer -> the seats in calling order, forhånd (the dealer's left) first."""
PLAY_STEPS = tuple((StepKind.PLAY, seat) for seat in range(SEATS))


@dataclass(frozen=True)
class Redeal:
    """Why a deal is void, and who deals next."""

    reason: str
    next_dealer: int
    seat: int | None = None
    """The claimant (jernhånd) or the culprit (misdeal), where there is one."""


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, and the winning seat."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % SEATS for i in range(len(self.cards)))


@dataclass(frozen=True, slots=True)
class PlayObservation:
    """The play as the whole table sees it, the same for every seat (OpenSpiel's public observation).

    The one record of the play that a seat's knowledge (``bots.knowledge``) and the full-information
    row (``play_row.row_from_game``) are both built from. The fordækt card lies as ``FACE_DOWN``
    for every seat: its owner knows it from ``View.fordaekt``.
    """

    tricks: tuple[tuple[int, tuple[Card, ...], int], ...] = ()
    """The finished tricks: (leader, the cards in play order, winner)."""
    trick: tuple[tuple[int, Card], ...] = ()
    """The trick in progress: (seat, card) in play order."""
    tricks_won: tuple[int, ...] = (0, 0, 0, 0)
    leader: int = 0
    """The seat that led the trick in progress, or leads the next (before the first: forhånd, or whom
    the contract names)."""
    called_played: bool = False
    """The partner card has fallen."""
    called_suit_led: bool = False
    """The partner card's suit has been led (``rules.play.leads_called_suit``), which frees its holder."""

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card on the table so far, the trick in progress last."""
        return tuple([c for _, cards, _ in self.tricks for c in cards] + [c for _, c in self.trick])

    @property
    def shown(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Every trick so far, the one in progress too, as (leader, cards): what shows the voids."""
        done = tuple((leader, cards) for leader, cards, _ in self.tricks)
        if not self.trick:
            return done
        return (*done, (self.trick[0][0], tuple(c for _, c in self.trick)))


@dataclass(slots=True)
class View:
    """What one seat may know: its own hand and what is public at the table, as typed cards and bid.

    A fresh copy on every call (so not frozen: building it is on every bot decision's path). Cards are
    card codes (``regelmotor.cards``); the notation is written at the edges (``web.tables.view_json``,
    the terminal).
    """

    seat: int
    phase: str
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...]
    legal_actions: Sequence[Action]
    """The seat's legal actions when it is to act (the game's own immutable sequence), else empty."""
    calls: tuple[tuple[int, Action], ...]
    contract: Bid | None
    declarers: tuple[int, ...]
    trump: Denomination | None
    called: Card | None
    partner: int | None
    joiner_calls: tuple[tuple[int, Card], ...]
    turned: tuple[Card, ...]
    kitty_size: int
    hand_sizes: tuple[int, ...]
    fordaekt_laid: bool
    doublings: int
    events: tuple[Note, ...]
    redeal: Redeal | None
    play: PlayObservation = PlayObservation()
    """The play as the table sees it (the fordækt card face down, for its owner too)."""
    open_hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    scores: tuple[Fraction, ...] | None = None
    history: tuple[tuple[int, Action], ...] = ()
    """Every action so far as this seat saw it (``actions.public``): another seat's discards and fordækt
    card face down (``discard ? ? ?``, ``fordækt ?``)."""
    received: tuple[Card, ...] = ()
    """The kitty cards this seat took in the exchange."""
    discarded: tuple[Card, ...] = ()
    """The cards this seat discarded in the exchange."""
    fordaekt: Card | None = None
    """The card this seat laid fordækt, which only it knows."""
    trump_card: Card | None = None
    """The card turned for all to see that made trump (the dealer's last card, where the contract says so)."""

    def seen(self, card: Card) -> Card:
        """A card on the table as this seat sees it: its own fordækt card face up."""
        return self.fordaekt if card == FACE_DOWN and self.fordaekt is not None else card


@dataclass
class Vip:
    """Turning the kitty: the card being decided, what accepting it means, and who still has the choice."""

    designation: str
    original: int
    joiners: list[int]
    number: int = 0
    deciders: list[int] = field(default_factory=list)
    forced_last: bool = False
    offer: VipOffer | None = None


SHARED = {"copy": "shared"}
"""A field whose value is never changed in place (immutable, or the compiled rules): a clone shares it."""
LIST = {"copy": "list"}
"""A list of immutable items (or None): a clone copies the list."""
NESTED = {"copy": "nested"}
"""A list of lists (the hands): a clone copies each inner list."""
DICT = {"copy": "dict"}
"""A dict of immutable values: a clone copies the dict."""
VIP = {"copy": "vip"}
"""The vip state: a clone copies it with its lists."""
DEEP = {"copy": "deep"}
"""Anything else: deep-copied, so that a new kind of value is never shared by mistake."""
DERIVED_FIELD = {"copy": "derived"}
"""Computed from the rest and kept only to save work: a clone starts without it."""


@dataclass(eq=False)
class State:
    """Everything one deal holds, declared once: each field with its default and how a clone copies it
    (``clone`` is a loop over these fields). ``Game.__init__`` gives the dealt cards; the phases change the
    rest, by ``apply`` alone."""

    rules: Rules = field(metadata=SHARED)
    ruleset: Ruleset = field(metadata=SHARED)
    seed: int | None = field(metadata=SHARED)
    dealer: int = field(metadata=SHARED)
    dealer_at_table: bool = field(metadata=SHARED)
    seats: tuple[int, ...] = field(metadata=SHARED)
    initial_hands: tuple[tuple[Card, ...], ...] = field(metadata=SHARED)
    initial_kitty: tuple[Card, ...] = field(metadata=SHARED)
    hands: list[list[Card]] = field(metadata=NESTED)
    kitty: list[Card] = field(metadata=LIST)
    discards: list[Card] = field(default_factory=list, metadata=LIST)
    turned: list[Card] = field(default_factory=list, metadata=LIST)
    history: list[tuple[int, Action]] = field(default_factory=list, metadata=LIST)
    received: dict[int, tuple[Card, ...]] = field(default_factory=dict, metadata=DICT)
    discarded: dict[int, tuple[Card, ...]] = field(default_factory=dict, metadata=DICT)
    events: list[Note] = field(default_factory=list, metadata=LIST)
    phase: Phase = field(default=Phase.AUCTION, metadata=SHARED)
    step: tuple[StepKind, int] | None = field(default=None, metadata=SHARED)
    redeal: Redeal | None = field(default=None, metadata=SHARED)
    claims: list[tuple[int, tuple[Action, ...], bool]] = field(default_factory=list, metadata=LIST)
    calls: list[str] = field(default_factory=list, metadata=LIST)
    """The calls in the auction hook's notation, as it advances by them."""
    seat_calls: list[tuple[int, Action]] = field(default_factory=list, metadata=LIST)
    bid: Bid | None = field(default=None, metadata=SHARED)
    declarers: tuple[int, ...] = field(default=(), metadata=SHARED)
    trump: Denomination | None = field(default=None, metadata=SHARED)
    called: Card | None = field(default=None, metadata=SHARED)
    joiner_calls: dict[int, Card] = field(default_factory=dict, metadata=DICT)
    partner: int | None = field(default=None, metadata=SHARED)
    partner_public: bool = field(default=False, metadata=SHARED)
    vip_card: int = field(default=0, metadata=SHARED)
    exchanger: int | None = field(default=None, metadata=SHARED)
    fordaekt: Card | None = field(default=None, metadata=SHARED)
    doublings: int = field(default=0, metadata=SHARED)
    trick: list[tuple[int, Card]] = field(default_factory=list, metadata=LIST)
    tricks: list[Trick] = field(default_factory=list, metadata=LIST)
    tricks_won: list[int] = field(default_factory=lambda: [0] * SEATS, metadata=LIST)
    leader: int = field(init=False, metadata=SHARED)
    trump_card: Card | None = field(default=None, metadata=SHARED)
    sol_order: bool = field(default=False, metadata=SHARED)
    called_played: bool = field(default=False, metadata=SHARED)
    called_suit_led: bool = field(default=False, metadata=SHARED)
    open_hands: tuple[int, ...] = field(default=(), metadata=SHARED)
    scores: list[Fraction] | None = field(default=None, metadata=LIST)
    _legal: Sequence[Action] | None = field(default=None, metadata=DERIVED_FIELD)
    _contexts: dict[bool, TrickContext] = field(default_factory=dict, metadata=DERIVED_FIELD)
    _playing: ContractInfo = field(init=False, metadata=SHARED)
    _facts: tuple[int | None, bool, tuple[Card, int] | None] = field(init=False, metadata=SHARED)
    _auction: AuctionStatus = field(init=False, metadata=SHARED)
    _declaration: list[tuple[str, int]] = field(default_factory=list, metadata=LIST)
    _vip: Vip | None = field(default=None, metadata=VIP)
    _exchange: list[ExchangeTurn] = field(default_factory=list, metadata=LIST)
    _exchange_plan: ExchangePlan = field(init=False, metadata=SHARED)
    _exchanged: list[int] = field(default_factory=list, metadata=LIST)
    _pass_on: bool = field(default=False, metadata=SHARED)
    _fordaekt_offer: int | None = field(default=None, metadata=SHARED)
    _doublers: list[int] | None = field(default=None, metadata=LIST)
    _may_double: frozenset[int] = field(default=frozenset(), metadata=SHARED)
    _redouble: bool = field(default=False, metadata=SHARED)
    _trick_cards: list[Card] = field(default_factory=list, metadata=LIST)
    """The trick's cards alone, as the play rules take them."""

    @property
    def forhaand(self) -> int:
        return self.seats[0]

    if TYPE_CHECKING:  # each phase calls a few steps of another; Game has them all

        def _advance(self) -> None: ...
        def _find_partner(self) -> None: ...
        def _plan_exchange(self) -> None: ...
        def _contract_info(self) -> ContractInfo: ...
        def _play_facts(self) -> tuple[int | None, bool, tuple[Card, int] | None]: ...
        def _open_hands(self, moment: Moment) -> None: ...
        def trick_context(self, seat: int) -> TrickContext: ...
        @property
        def to_act(self) -> int | None: ...
        def play_observation(self) -> PlayObservation: ...
