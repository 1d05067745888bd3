"""A compiled ruleset by phase: what each phase of a deal asks of the rules, and nothing else.

The engine's phases (``engine/phases/``) and everyone who plays or scores a deal in their head ask the
rules through these: ``rules.dealing``, ``rules.auction``, ``rules.declaration``, ``rules.exchange``,
``rules.play``, ``rules.scoring`` and ``rules.evening``. Each is a small frozen object made by
``compile_rules`` from the rule families' hooks, so what a club's plugin changes in a hook is what every
consumer sees; none of them reads the raw model past the family that owns it (the values they hold were
taken from the families' keys once, at compile time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from regelmotor.bids import Bid, Ladder
from regelmotor.hooks import (
    Auction,
    CallChoices,
    CalledCardBinds,
    ContractInfo,
    Dealer,
    Declaration,
    DoublingRule,
    Exchanger,
    FordaektRule,
    LegalCards,
    Made,
    OpenHands,
    PlayOver,
    RedealClaim,
    Redealing,
    Settle,
    TrickWinner,
    TrumpChoices,
    VipRule,
    VipTurns,
)
from regelmotor.rounding import zero_sum_points
from regelmotor.rules.called_card.cardplay import leads_its_suit
from regelmotor.rules.cardplay.constants import Ending, strength_table
from regelmotor.rules.cardplay.masks import Rows
from regelmotor.rules.contracts.keys import Designation, Side, SolBid
from regelmotor.rules.scoring.scorer import RoleScores, Scorer, ShownRoles, shown_roles


@dataclass(frozen=True)
class DealPhase:
    """Dealing, and dealing again."""

    deal: Dealer
    redeal_claims: tuple[RedealClaim, ...]
    """What a player may claim a new deal for (jernhånd, omblanding, ...), each a family's hook."""
    redealing: Redealing
    """Who deals again when a deal is not played, and the game played when all pass (pasnolo), if any."""
    jokers: int
    """The jokers in the deck."""
    kitty: int
    """The cards in the kitty."""
    shipped_dealer: bool
    """Whether the shipped dealing rule deals (no plugin's): then a deal dealt from a new deck holds every
    card once by construction, and ``Game.from_seed`` does not check it again."""


@dataclass(frozen=True)
class AuctionPhase:
    """The bids and the auction that chooses one of them."""

    ladder: Ladder
    procedure: Auction
    """The auction's procedure (melde tilbage, or none): its start and each call's step."""
    may_join: Callable[[Bid], bool]
    """Whether a bid may be joined (gå med)."""
    designations: tuple[Designation, ...]
    """The trump bids' designations, the plain one (lowest) first; none where every bid is named."""
    levels: range
    """The numbers of tricks a trump bid may name (none without designations)."""
    sol_contracts: tuple[SolBid, ...]
    """The bids named by their name (sol, ren sol, bordlægger; every bid of dansk whist), lowest first."""
    named_contracts: tuple[SolBid, ...]
    """The sol contracts, then the one played when all pass (pasnolo), where there is one."""
    fixed_partners: bool
    """Whether partners sit across the whole evening (engelsk and dansk whist), where no card calls them."""

    def named(self, bid: Bid) -> SolBid | None:
        """The named contract ``bid`` is, or None for a trump bid."""
        if bid.sol is None:
            return None
        found = next((s for s in self.named_contracts if s.id == bid.sol), None)
        if found is None:
            raise KeyError(bid.sol)
        return found

    def side(self, bid: Bid) -> Side | None:
        """Who plays together in ``bid`` where it is a named contract; None for a trump bid (the declarer and
        the partner a card calls, or the fixed partner)."""
        named = self.named(bid)
        return None if named is None else Side(named.side)


@dataclass(frozen=True)
class DeclarationPhase:
    """Declaring the contract: trump, the partner card, vip, fordækt, and its stakes (doubling)."""

    plan: Declaration
    """Who names what, in which order, for a contract (the declaration's steps; its partner; its card order)."""
    trump_choices: TrumpChoices
    call_choices: CallChoices
    vip: VipRule
    vip_turns: VipTurns
    fordaekt: FordaektRule
    doubling: DoublingRule


@dataclass(frozen=True)
class ExchangePhase:
    """Exchanging with the kitty."""

    plan: Exchanger
    """Who exchanges, how much and in which order, for a contract."""


@dataclass(frozen=True)
class PlayPhase:
    """Playing the cards."""

    legal_cards: LegalCards
    called_card_binds: CalledCardBinds
    trick_winner: TrickWinner
    play_over: PlayOver
    open_hands: OpenHands
    constants: Rows
    """The play rules' constants for ``rules.cardplay``'s bitmask functions (the kernel's playouts and the
    search; the shipped play hooks hold the same)."""
    endings: Mapping[str, Ending]
    """Each named bid's end-of-play parameters, by id."""
    exact: bool
    """Whether the shipped play rules decide every play hook (no club's plugin does): then the bitmask
    functions and their constants are the rules, and the fast path (the kernel, the search) plays exactly
    the game the engine plays."""
    led_joker_wins: bool
    """Whether a led joker always takes its trick (where it does not, it loses to the highest trump)."""
    exempt_declarer: bool
    """Whether the partner card's rules spare a selvmakker declarer (the hook ``called_card_binds``)."""

    @property
    def trump_strength(self) -> tuple[int, ...]:
        """Rank index -> strength in trump games (higher wins): the first suit's cards are its ranks."""
        return strength_table(self.constants, sol=False)

    @property
    def sol_strength(self) -> tuple[int, ...]:
        """Rank index -> strength in the sol games' order."""
        return strength_table(self.constants, sol=True)

    def leads_called_suit(self, led: int, called: int, fordaekt: tuple[int, int] | None) -> bool:
        """Whether a trick led with ``led`` leads the partner card ``called``'s suit (``fordaekt``: the fordækt
        card and the suit it counts in), by ``called_card.leads_its_suit``, as the play row asks it."""
        fd_card, fd_suit = fordaekt if fordaekt is not None else (-1, -1)
        return bool(leads_its_suit(led, called, fd_card, fd_suit))


@dataclass(frozen=True)
class ScoringPhase:
    """Scoring a finished deal: the one scoring door (``settle`` with every plugin's wrapper)."""

    made: Made
    settle: Settle
    scorer: Scorer
    """The scoring tables behind ``settle``. Nothing outside the rule families reads it: every consumer
    scores through ``settle`` (``points``, ``role_points``), so a plugin's wrapper is seen everywhere."""
    decimals: int
    """The decimals points are shown with."""
    zero_sum: bool
    """Whether every deal's points sum to zero: the losers pay what the winners get (es-makker, dansk
    whist); engelsk whist scores the winning pair alone (002)."""
    side: Callable[[Bid], Side | None]
    """Who plays together in a bid (``AuctionPhase.side``), for the sample deal of ``role_points``."""

    def points(
        self, contract: ContractInfo, tricks_won: Sequence[int], vip_card: int = 0, doublings: int = 0
    ) -> list[Fraction]:
        """Every seat's points for a finished deal."""
        return self.settle(contract, tricks_won, vip_card, doublings)

    def shown_points(self, points: Sequence[Fraction]) -> list[int | float]:
        """Points as a member reads them: to the ruleset's decimals, rounded so that they sum as the exact
        points do (the score sheet's rounding); whole points stay whole."""
        return zero_sum_points(points, self.decimals)

    def shown_roles(self, scores: RoleScores) -> ShownRoles:
        """A game's points per role (``role_points``) as a member reads them, summing as the exact ones do."""
        return shown_roles(scores, self.decimals)

    def role_points(
        self, bid: Bid, tricks: int, *, alone: bool = False, vip_card: int = 0, doublings: int = 0
    ) -> RoleScores:
        """What each role gets when the declarer's side takes ``tricks`` (in a game of pair against pair,
        the winning pair's tricks), read off the one scoring door for a sample deal: the declarer in seat
        0, a partner across in seat 2 holding none of the side's tricks, the rest split between seats 1
        and 3. For the point tables of ``score``, the rule book and ``diff``, which thereby show what a
        plugin wrapping ``settle`` pays."""
        if not 0 <= tricks <= 13:
            raise ValueError(f"a side takes 0 to 13 tricks, not {tricks}")
        side = self.side(bid)
        if side is Side.EACH:
            raise ValueError(f"{bid.text} is scored player by player: use points() with every seat's tricks")
        paired = side in (Side.PARTNER, Side.PAIRS) or (bid.sol is None and not alone)
        contract, won = self.sample_deal(bid, tricks, alone=alone)
        scores = self.settle(contract, won, vip_card, doublings)
        if paired:
            return RoleScores(scores[0], scores[2], scores[1], 2)
        return RoleScores(scores[0], None, scores[1], 3)

    def sample_deal(self, bid: Bid, tricks: int, *, alone: bool = False) -> tuple[ContractInfo, list[int]]:
        """The sample deal ``role_points`` scores: the contract, and the tricks each seat took."""
        side = self.side(bid)
        rest = 13 - tricks
        declarers = () if side in (Side.PAIRS, Side.EACH) else (0,)
        partner = 2 if bid.sol is None and not alone else None
        return ContractInfo(bid, declarers, partner), [tricks, (rest + 1) // 2, 0, rest // 2]
