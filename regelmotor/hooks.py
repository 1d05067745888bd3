"""The engine's extension points: one pluggy hook for every point where rulesets differ.

Every hook is a *factory*: it is called once, when a ruleset is compiled, with the resolved
ruleset, and returns the plain function the engine will call for that point (for the auction,
an object whose ``advance`` the engine calls once per call), or ``None`` to leave it to the next
implementation. The engine then calls those directly, so a hot loop of simulated deals pays no
hook dispatch. Implementations registered later, or marked
``tryfirst``, win; house rules that need code (``joker_trumpable``) are such implementations.

The small value types the functions exchange live here too, so a plugin needs this module only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

import pluggy

from regelmotor.cards import Card

if TYPE_CHECKING:
    from regelmotor.bids import Bid, Ladder
    from regelmotor.rules.scoring import Scorer
    from regelmotor.ruleset.model import Ruleset

PROJECT = "regelmotor"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

Denomination = Literal["S", "H", "D", "C", "none"]
KittyTurn = Literal["may_accept", "cannot_accept", "must_accept"]
DeclarationStep = Literal["trump", "call", "partner_trump", "kitty"]


@dataclass(frozen=True, slots=True)
class Deal:
    """The four active seats' hands (seat 0 first) and the kitty, top card first."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]


class AuctionStatus(NamedTuple):
    """Where an auction stands after some calls (a named tuple: one is made for every call)."""

    to_act: int | None
    """The seat to call next, or None when the auction is over."""
    highest: Bid | None
    holder: int | None
    joiners: tuple[int, ...]
    passed: frozenset[int]
    legal: tuple[str, ...]
    """The calls ``to_act`` may make, in the notation: ``pass``, ``gå med``, ``selv``, bids."""
    seats: tuple[int, ...]
    """The seats in calling order, forhånd first."""
    entrants: tuple[int, ...]
    """Seats that have not yet called, in the order they come in."""
    pending: tuple[int, ...]
    """Overcalled seats that must answer before the next entrant, in order."""
    calls: int
    """How many calls the status follows."""


@dataclass(frozen=True, slots=True)
class ExchangeTurn:
    """One player's right to exchange: who, how many cards, and whether he must."""

    seat: int
    counts: tuple[int, ...]
    """The numbers of cards he may exchange (``(0, 3)`` all or none, ``(0, 1, 2, 3)``)."""
    compulsory: bool


@dataclass(frozen=True, slots=True)
class ExchangePlan:
    turns: tuple[ExchangeTurn, ...]
    leftover_passes_clockwise: bool
    """Kitty cards a player does not take go to the next player clockwise (Whistklubben)."""
    discards_become_kitty: bool
    called_card_may_be_discarded: bool


class TrickContext(NamedTuple):
    """What decides which cards may be played, besides the hand and the trick so far (one per trick)."""

    trump: int | None
    """The trump suit index, or None for no trump (sans, sol)."""
    sol: bool
    first_trick: bool
    called: Card | None = None
    """The partner card while its rules bind the player to act (None once played)."""
    called_suit_led: bool = False
    """Whether the partner card's suit has been led in an earlier trick."""
    fordaekt: tuple[Card, int] | None = None
    """The fordækt card and the suit it counts in, as the lowest card (000 6.1.1)."""


@dataclass(frozen=True, slots=True)
class RedealClaim:
    """A claim a player may make instead of bidding (jernhånd): the deal is void."""

    action: str
    rule: str
    allowed: Callable[[Sequence[Card]], bool]
    redeal_by: Literal["same_dealer", "next_dealer"]


@dataclass(frozen=True, slots=True)
class ContractInfo:
    """The contract as the exchange and play rules need it."""

    bid: Bid
    declarers: tuple[int, ...]
    """The declarer, then the joiners in joining order."""
    partner: int | None = None
    """The partner's seat where it is known to the rules (halve); None otherwise."""


Dealer = Callable[[Sequence[Card], int, "Sequence[int | str] | None"], Deal]


class Auction(Protocol):
    """The auction procedure: a fold over the calls, so the engine advances it call by call."""

    def start(self, seats: Sequence[int]) -> AuctionStatus:
        """The status before the first call; ``seats`` in calling order, forhånd first."""
        ...

    def advance(self, status: AuctionStatus, call: str) -> AuctionStatus:
        """The status after ``status.to_act`` makes ``call``; raises ``IllegalCall`` if he may not."""
        ...

    def __call__(self, seats: Sequence[int], calls: Sequence[str]) -> AuctionStatus:
        """The status after ``calls`` (``start`` then ``advance`` for each)."""
        ...


DeclarationSteps = Callable[[str], tuple[DeclarationStep, ...]]
TrumpChoices = Callable[[str, "Card | None"], tuple[Denomination, ...]]
CallChoices = Callable[[Sequence[Card], str, "Denomination | None"], tuple[Card, ...]]
KittyTurnRule = Callable[[str, int], KittyTurn]
Exchanger = Callable[[ContractInfo], ExchangePlan]
LegalCards = Callable[[Sequence[Card], Sequence[Card], TrickContext], tuple[Card, ...]]
TrickWinner = Callable[[Sequence[Card], "int | None", bool, "tuple[Card, int] | None"], int]
PlayOver = Callable[[ContractInfo, Sequence[int], int], bool]


class RegelmotorSpecs:
    """Hook specifications. Each returns the function for its point, built from the ruleset."""

    @hookspec(firstresult=True)
    def regelmotor_ladder(self, ruleset: Ruleset) -> Ladder | None:
        """The bid ladder, from the ruleset's tricks, designations and sol bids."""

    @hookspec(firstresult=True)
    def regelmotor_dealer(self, ruleset: Ruleset) -> Dealer | None:
        """Deal a deck order (top card first) for a dealer seat, by a pattern (default: the ruleset's)."""

    @hookspec
    def regelmotor_redeal_claims(self, ruleset: Ruleset) -> RedealClaim | None:
        """A claim that voids the deal before the auction (all implementations are collected)."""

    @hookspec(firstresult=True)
    def regelmotor_may_join(self, ruleset: Ruleset) -> Callable[[Bid], bool] | None:
        """Whether a player may "gå med" (join) the given highest bid."""

    @hookspec(firstresult=True)
    def regelmotor_auction(self, ruleset: Ruleset, ladder: Ladder, may_join: Callable[[Bid], bool]) -> Auction | None:
        """Who calls next and which calls are legal, from the active seats (forhånd first) and the calls so far."""

    @hookspec(firstresult=True)
    def regelmotor_declaration_steps(self, ruleset: Ruleset) -> DeclarationSteps | None:
        """The declaration steps of a designation, in order (trump, call, partner_trump, kitty)."""

    @hookspec(firstresult=True)
    def regelmotor_trump_choices(self, ruleset: Ruleset) -> TrumpChoices | None:
        """The denominations that may be named as trump in a designation (given the partner card)."""

    @hookspec(firstresult=True)
    def regelmotor_call_choices(self, ruleset: Ruleset) -> CallChoices | None:
        """The partner cards a declarer holding ``hand`` may call in a designation with a trump."""

    @hookspec(firstresult=True)
    def regelmotor_kitty_turn(self, ruleset: Ruleset) -> KittyTurnRule | None:
        """Whether the n-th turned kitty card (1-based) may, cannot or must be accepted in vip."""

    @hookspec(firstresult=True)
    def regelmotor_exchange(self, ruleset: Ruleset) -> Exchanger | None:
        """Who exchanges with the kitty in a contract, how many cards, and whether they must."""

    @hookspec(firstresult=True)
    def regelmotor_legal_cards(self, ruleset: Ruleset) -> LegalCards | None:
        """The cards of ``hand`` that may be played to a trick holding ``trick`` so far."""

    @hookspec(firstresult=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner | None:
        """The index (in play order) of the card that wins a full trick (given trump, sol, and the fordækt card)."""

    @hookspec(firstresult=True)
    def regelmotor_play_over(self, ruleset: Ruleset) -> PlayOver | None:
        """Whether play ends early, given the tricks each seat has taken and tricks played."""

    @hookspec(firstresult=True)
    def regelmotor_scorer(self, ruleset: Ruleset) -> Scorer | None:
        """The scoring rules: points per role for a finished game."""
