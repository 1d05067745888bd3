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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

import pluggy

from regelmotor.cards import Card
from regelmotor.model.base import Denomination as Denomination
from regelmotor.rules.declaration.keys import KittyTurn as KittyTurn

if TYPE_CHECKING:
    from regelmotor.bids import Bid, Ladder
    from regelmotor.model.ruleset import Ruleset

PROJECT = "regelmotor"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

DeclarationStep = Literal["trump", "call", "reveal", "kitty", "trump_or_vip", "exchanger"]
"""One step of a declaration: a seat names trump, calls a card, turns the kitty (vip), names trump
or chooses vip instead, chooses who exchanges; ``reveal`` makes the partner known (no choice)."""
RedealBy = Literal["same_dealer", "next_dealer"]
Moment = Literal["before_first_lead", "after_first_lead", "after_first_trick"]
PARTNER = -1
"""A declaration step's seat meaning "the partner, or the declarer when he is selvmakker"."""


def next_dealer(redeal_by: RedealBy, dealer: int, seats: int = 4) -> int:
    """Who deals after a void deal."""
    return dealer if redeal_by == "same_dealer" else (dealer + 1) % seats


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
    answering: bool = False
    """``to_act`` answers an overcall (he held or joined the bid now overcalled), not entering."""
    taken: bool = False
    """The highest bid was taken at its own height ("selv"), not bid: it may not be taken back."""


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
    """A claim that voids the deal before the auction (jernhånd, a reshuffle asked for).

    Each claim is offered as its own action, named ``action``, to every seat whose hand
    ``allowed`` accepts, and recorded as itself; ``rule`` is the redeal's reason and the key path
    a refusal names. A ``blind`` claim is made before looking at the cards: it is offered to
    every seat, first, and the claimant's view shows no hand while he decides.
    """

    action: str
    rule: str
    allowed: Callable[[Sequence[Card]], bool]
    redeal_by: RedealBy
    blind: bool = False


@dataclass(frozen=True, slots=True)
class Redealing:
    """What voids a deal besides a claim: all four passing, and a misdeal found before the first call."""

    all_pass: RedealBy | None
    misdeal: RedealBy
    misdeal_names_culprit: bool
    """Whether forhånd may name another player at fault (``misdeal 2``), who then pays (000 2.7)."""
    all_pass_contract: Bid | None = None
    """The contract played when all pass, or when no one bids (pasnolo; engelsk whist), instead of a redeal."""


@dataclass(frozen=True, slots=True)
class ContractInfo:
    """The contract as the exchange and play rules need it."""

    bid: Bid
    declarers: tuple[int, ...]
    """The declarer, then the joiners in joining order."""
    partner: int | None = None
    """The partner's seat where it is known to the rules (halve); None otherwise."""
    exchanger: int | None = None
    """The seat a player chose to exchange, where the declaration lets one choose."""


@dataclass(frozen=True, slots=True)
class DeclarationPlan:
    """The declaration of a contract: its steps in order, and a trump no one chooses."""

    steps: tuple[tuple[DeclarationStep, int], ...]
    """Each step with the seat that takes it (``PARTNER`` for the partner, or a selvmakker declarer)."""
    trump: Denomination | None = None
    """Trump fixed by the contract itself (gode; no trump in sol), or None when a step decides it."""
    dealer_card: bool = False
    """Trump is the suit of the dealer's last card, turned for all to see (engelsk whist, 002)."""
    partner: int | None = None
    """A partner known from the start (fixed partnerships), or None: the partner card decides."""
    leader: int | None = None
    """The seat that leads the first trick, or None for forhånd (grandi: the declarer, 002)."""
    sol_order: bool | None = None
    """Whether the cards rank in the sol games' order; None: as the bid is a sol bid or not."""


@dataclass(frozen=True, slots=True)
class VipOffer:
    """A turned kitty card: whether it may, cannot or must be accepted, and what accepting means.

    ``accepts`` maps each accepting action to the trump it makes (``accept`` -> the card's suit, a
    joker no trump; a house rule may add ``accept S``, the previous card's suit).
    """

    turn: KittyTurn
    accepts: tuple[tuple[str, Denomination], ...]


@dataclass(frozen=True, slots=True)
class DoublingRule:
    """Who may double a contract, in calling order, and whether the declarer may redouble."""

    doublers: Callable[[ContractInfo, Sequence[int]], tuple[int, ...]]
    redouble: bool
    most: int = 0
    """The most doublings a deal can have (0 none, 1 a double, 2 with the redouble)."""
    during_tricks: int = 0
    """How many of the first tricks a doubling may still be made in, at the doubler's turn to play."""


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


Declaration = Callable[[ContractInfo], DeclarationPlan]
TrumpChoices = Callable[[str, "Card | None"], tuple[Denomination, ...]]
CallChoices = Callable[[Sequence[Card], str, "Denomination | None"], tuple[Card, ...]]
VipRule = Callable[[str, Sequence[Card]], VipOffer]
"""The offer of the last of ``turned`` (the kitty cards turned so far, in order) in a designation."""
VipTurns = Callable[[str], int]
"""How many kitty cards a designation's vip may turn (0: the designation does not turn the kitty)."""
Exchanger = Callable[[ContractInfo], ExchangePlan]
FordaektRule = Callable[[ContractInfo, "Card | None", Sequence[Card]], bool]
"""Whether the declarer, holding ``hand`` after the exchange, may lay a card fordækt given the partner card."""
OpenHands = Callable[[ContractInfo, Moment], tuple[int, ...]]
"""The seats whose hands are laid open at a moment of play (bordlægger)."""
CalledCardBinds = Callable[[int, ContractInfo], bool]
"""Whether the partner card's play rules bind ``seat`` (a selvmakker may be exempt)."""
Settle = Callable[[ContractInfo, Sequence[int], int, int], "list[Fraction]"]
"""Every seat's points for a finished deal: (contract with its partner, tricks won, vip card, doublings)."""


class Scorer(Protocol):
    """The scoring tables ``regelmotor_scorer`` makes (the scoring family's ``rules.scoring.Scorer``) and
    ``regelmotor_settle`` turns into every seat's points. Only the scoring family reads inside them; a
    plugin wrapping ``regelmotor_settle`` hands them on."""

    @property
    def ruleset(self) -> Ruleset: ...


class Refusal(NamedTuple):
    """Why a rule refuses an action: the ruleset key that forbids it, the refusal's phrase in the phrase
    table (``phrase_table``: ``refusal_<phrase>``) and the values that fill it in (``card``: a card,
    ``suit``: a suit index, rendered in the reader's language)."""

    rule: str
    phrase: str
    values: Mapping[str, object]


class LegalCards(Protocol):
    """The cards of ``hand`` that may be played to ``trick``; ``why_not`` (optional) names the rule
    that forbids another card, from the same code, as a ``Refusal`` (or, from a plugin, as
    ``(key path, reason)``, the reason one sentence shown as it is)."""

    def __call__(self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext, /) -> tuple[Card, ...]: ...


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment of the evening's settlement."""

    payer: int
    payee: int
    """The player paid, or -1: the club's box."""
    amount: Fraction


@dataclass(frozen=True, slots=True)
class Money:
    """An evening's settlement in money: what each player gets (negative: pays), the payments that
    settle it between players, and what goes to the club's box (the fees, and the losses where the
    club takes them)."""

    money: tuple[Fraction, ...]
    transfers: tuple[Transfer, ...]
    box: Fraction


SessionSettle = Callable[[Sequence[Fraction], Fraction], Money]
"""The evening's money from the players' point totals and the rate per point."""
TrickWinner = Callable[[Sequence[Card], "int | None", bool, "tuple[Card, int] | None"], int]
PlayOver = Callable[[ContractInfo, Sequence[int], int], bool]
Made = Callable[[ContractInfo, Sequence[int]], bool]
"""Whether the contract was made, given the tricks each seat took (the contract's partner known)."""


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
    def regelmotor_redealing(self, ruleset: Ruleset) -> Redealing | None:
        """Who deals after all pass and after a misdeal, and who may be named at fault."""

    @hookspec(firstresult=True)
    def regelmotor_may_join(self, ruleset: Ruleset) -> Callable[[Bid], bool] | None:
        """Whether a player may "gå med" (join) the given highest bid."""

    @hookspec(firstresult=True)
    def regelmotor_auction(self, ruleset: Ruleset, ladder: Ladder, may_join: Callable[[Bid], bool]) -> Auction | None:
        """Who calls next and which calls are legal, from the active seats (forhånd first) and the calls so far."""

    @hookspec(firstresult=True)
    def regelmotor_declaration(self, ruleset: Ruleset) -> Declaration | None:
        """The declaration of a contract: its steps and seats in order, and a trump nobody chooses."""

    @hookspec(firstresult=True)
    def regelmotor_trump_choices(self, ruleset: Ruleset) -> TrumpChoices | None:
        """The denominations that may be named as trump in a designation (given the partner card)."""

    @hookspec(firstresult=True)
    def regelmotor_call_choices(self, ruleset: Ruleset) -> CallChoices | None:
        """The partner cards a declarer holding ``hand`` may call in a designation with a trump."""

    @hookspec(firstresult=True)
    def regelmotor_vip(self, ruleset: Ruleset) -> VipRule | None:
        """Vip: whether the last turned kitty card may, cannot or must be accepted, and what trump it makes."""

    @hookspec(firstresult=True)
    def regelmotor_vip_turns(self, ruleset: Ruleset) -> VipTurns | None:
        """How many kitty cards each designation's vip may turn: the fact ``score`` and ``session`` check
        a vip card's number against (it must agree with ``regelmotor_vip``)."""

    @hookspec(firstresult=True)
    def regelmotor_exchange(self, ruleset: Ruleset) -> Exchanger | None:
        """Who exchanges with the kitty in a contract, how many cards, and whether they must."""

    @hookspec(firstresult=True)
    def regelmotor_fordaekt(self, ruleset: Ruleset) -> FordaektRule | None:
        """Whether the declarer may lay a card fordækt (000 6.1.1)."""

    @hookspec(firstresult=True)
    def regelmotor_doubling(self, ruleset: Ruleset) -> DoublingRule | None:
        """Who may double, and whether the declarer may redouble."""

    @hookspec(firstresult=True)
    def regelmotor_open_hands(self, ruleset: Ruleset) -> OpenHands | None:
        """Which hands lie open, and from when (bordlægger)."""

    @hookspec(firstresult=True)
    def regelmotor_called_card_binds(self, ruleset: Ruleset) -> CalledCardBinds | None:
        """Whether the partner card's rules bind a seat in play (the selvmakker exemption)."""

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
    def regelmotor_made(self, ruleset: Ruleset) -> Made | None:
        """Whether a finished contract was made (statistics; the scorer decides the points)."""

    @hookspec(firstresult=True)
    def regelmotor_scorer(self, ruleset: Ruleset) -> Scorer | None:
        """The scoring rules: points per role for a finished game."""

    @hookspec(firstresult=True)
    def regelmotor_settle(self, ruleset: Ruleset, scorer: Scorer) -> Settle | None:
        """Every seat's points for a finished deal, from the scorer (summing to zero)."""

    @hookspec(firstresult=True)
    def regelmotor_session_settlement(self, ruleset: Ruleset) -> SessionSettle | None:
        """The evening's money from the point totals: payments between players, a club box, fees."""

    @hookspec
    def regelmotor_check(self, ruleset: Ruleset) -> Sequence[tuple[tuple[str | int, ...], str]] | None:
        """Problems a plugin finds in a ruleset, each as (key path, message); all are collected.

        ``validate`` reports them located in the club's file, and compiling refuses the ruleset."""

    @hookspec
    def regelmotor_describe(self, ruleset: Ruleset, language: str) -> Sequence[str] | None:
        """Sentences for the rule book and the diff saying what a plugin's rule does, in ``language``
        (``da`` or ``en``); all are collected."""

    @hookspec
    def regelmotor_bots(self) -> Mapping[str, Callable[..., Any]] | None:
        """Bots a plugin offers: name -> factory called as ``factory(rules, rng)``."""
