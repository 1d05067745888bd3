"""The auction phase: redeal claims (jernhånd, omblanding), calls and misdeals, all pass; then the contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

from regelmotor.bids import Bid
from regelmotor.cards import SUIT_LETTERS, Card, suit_of
from regelmotor.engine.actions import KEEP_ACTION, MISDEAL_ACTION, Action, Verb, call_action, claim, seat_action
from regelmotor.engine.notes import Note
from regelmotor.engine.state import (
    AUCTION,
    DECLARATION,
    REDEAL,
    SEATS,
    Redeal,
    State,
    StepKind,
)
from regelmotor.hooks import (
    ContractInfo,
    DeclarationStep,
    Denomination,
    RedealBy,
    next_dealer,
)

if TYPE_CHECKING:
    from regelmotor.hooks import AuctionStatus
    from regelmotor.ruleset.compile import Rules

KNOWN_CALL_LISTS = 4096
"""The most lists of calls kept per ruleset (the shipped auction has a few dozen; a plugin's is bounded)."""


class Opening(NamedTuple):
    """What a contract fixes by itself once it is known (its declaration plan, ``hooks.DeclarationPlan``)."""

    steps: tuple[tuple[DeclarationStep, int], ...]
    trump: Denomination | None
    trump_card: Card | None
    """The dealer's last card, turned for all to see, where it makes trump."""
    partner: int | None
    """A partner the contract fixes (fixed partnerships), known to all."""
    leader: int | None
    """Who leads, where the contract says (a named bid may give the lead to its declarer); else forhånd."""
    sol_order: bool


def opening(
    rules: Rules, bid: Bid, declarers: tuple[int, ...], dealt: Sequence[Sequence[Card]], dealer: int
) -> Opening:
    """The contract's declaration steps and what it fixes: the phase's start, and a sampled deal's where the
    expert settles one without a ``Game`` (``dealt``: the hands as dealt)."""
    plan = rules.declaration.plan(ContractInfo(bid, declarers))
    trump_suit = plan.trump
    card = None
    if plan.dealer_card:
        card = dealt[dealer][-1]  # the dealer's last card, in the order dealt
        trump_suit = cast(Denomination, SUIT_LETTERS[suit_of(card)])
    sol_order = bid.is_sol if plan.sol_order is None else plan.sol_order
    return Opening(tuple(plan.steps), trump_suit, card, plan.partner, plan.leader, sol_order)


class AuctionPhase(State):
    def _offer_claims(self) -> list[tuple[int, tuple[Action, ...], bool]]:
        """The claims each seat may make, in order: every seat's blind claims (before anyone looks
        at his cards), then each seat's claims its hand allows."""
        claims = self.rules.dealing.redeal_claims
        out: list[tuple[int, tuple[Action, ...], bool]] = []
        for blind in (True, False):
            for seat in self.seats:
                offered = tuple(claim(c.action) for c in claims if c.blind == blind and c.allowed(self.hands[seat]))
                if offered:
                    out.append((seat, offered, blind))
        return out

    @property
    def auction_status(self) -> AuctionStatus:
        """Where the auction stands (the auction hook's status, which it advances by each call)."""
        return self._auction

    def blind(self) -> bool:
        """Whether a claim made before looking at the cards is pending: no seat sees its hand yet."""
        return bool(self.claims) and self.claims[0][2] and self.phase == AUCTION

    def _auction_step(self) -> bool:
        if self.claims:
            self.step = (StepKind.CLAIM, self.claims[0][0])
            return True
        status = self._auction
        if status.to_act is not None:
            self.step = (StepKind.CALL, status.to_act)
            return True
        if status.highest is None:
            redealing = self.rules.dealing.redealing
            if redealing.all_pass_contract is not None:  # a game played when all pass, or with no auction
                if self.calls:
                    self.events.append(Note.said("all_pass_played", contract=redealing.all_pass_contract))
                self._declare(redealing.all_pass_contract, ())
                return False
            assert redealing.all_pass is not None  # the ruleset gives one of the two
            self._void("all_pass", redealing.all_pass)
            return False
        assert status.holder is not None
        self._declare(status.highest, (status.holder, *status.joiners))
        return False

    def _declare(self, bid: Bid, declarers: tuple[int, ...]) -> None:
        """The contract is known: its declaration's steps, and what the contract fixes by itself."""
        self.bid = bid
        self.declarers = declarers
        self.phase = DECLARATION
        start = opening(self.rules, bid, declarers, self.initial_hands, self.dealer)
        self._declaration = list(start.steps)
        if start.trump is not None:
            self.trump = start.trump
        if start.trump_card is not None:
            self.trump_card = start.trump_card
            self.events.append(Note.said("trump_card", card=start.trump_card))
        if start.partner is not None:
            self.partner = start.partner
            self.partner_public = True
        if start.leader is not None:
            self.leader = start.leader
        self.sol_order = start.sol_order

    def _legal_claim(self, seat: int) -> Sequence[Action]:
        return (*self.claims[0][1], KEEP_ACTION)

    def _do_claim(self, seat: int, action: Action) -> None:
        self.claims.pop(0)
        if action.verb is Verb.CLAIM:
            claim = next(c for c in self.rules.dealing.redeal_claims if c.action == action.name)
            self._void(claim.rule, claim.redeal_by, seat)

    def _legal_call(self, seat: int) -> Sequence[Action]:
        texts = self._auction.legal
        known: dict[tuple[str, ...], tuple[Action, ...]] = self.rules.kept("call actions", lambda _: {})
        legal = known.get(texts)
        if legal is None:  # the auction's lists of calls recur: each is turned into actions once per ruleset
            ladder = self.rules.auction.ladder
            legal = tuple([call_action(text, ladder) for text in texts])
            if len(known) < KNOWN_CALL_LISTS:
                known[texts] = legal
        if not self.calls and seat == self.forhaand:
            legal += (MISDEAL_ACTION,)  # the dealer's fault
            if self.rules.dealing.redealing.misdeal_names_culprit:  # 000 2.7: another player at fault pays the penalty
                legal += tuple(
                    seat_action(Verb.MISDEAL, s) for s in self.seats if s != self.dealer or not self.dealer_at_table
                )
        return legal

    def _do_call(self, seat: int, action: Action) -> None:
        if action.verb is Verb.MISDEAL:
            culprit = action.seat if action.seat is not None else (self.dealer if self.dealer_at_table else None)
            self._void("misdeal", self.rules.dealing.redealing.misdeal, culprit)
            return
        text = str(action)  # the auction hook advances by the call's notation
        self._auction = self.rules.auction.procedure.advance(self._auction, text)
        self.calls.append(text)
        self.seat_calls.append((seat, action))

    def _void(self, reason: str, redeal_by: RedealBy, seat: int | None = None) -> None:
        following = next_dealer(redeal_by, self.dealer, SEATS)
        self.redeal = Redeal(reason, following, seat)
        self.claims = []
        self.phase = REDEAL
        self.events.append(Note.said("redeal", reason=reason, seat=following))
