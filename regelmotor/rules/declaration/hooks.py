"""Declaration: how trump and the partner card are named in each designation.

The steps follow from who names trump (000 4.1.1): when the declarer names it, he does so
first and the partner card may then exclude the trump suit; when the partner (halve) or the
kitty (vip) decides it, the partner card is named first. In vip each joiner names his own card
too (000 4.3.1). In halve the partner shows himself at once (000 4.2.2; 001), as he does in any
designation with ``reveal_partner``; a club may let him vip instead of naming trump ("Makkeren
kan også vælge at vippe", jeberg.eu/kort/WhistRegler.htm) and let him decide who exchanges
("partner also gets to decide who trades with the cat", eso.org/~pmoller). A sol bid has no
declaration and no trump (000 4.4). The partner card is an ace of an allowed suit; only a
declarer holding all of them may go down to a king, and Thorsen goes on down the ranks (000
4.2.1; 001; 003 30); where a club says so, he must (``descend: must``: a king called, not offered).
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import RANK_LETTERS, SUIT_LETTERS, Card, make_card, rank_of, suit_of
from regelmotor.hooks import (
    PARTNER,
    CallChoices,
    ContractInfo,
    Declaration,
    DeclarationPlan,
    DeclarationStep,
    Denomination,
    TrumpChoices,
    hookimpl,
)
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.rules.contracts.keys import Designation, SolBid
from regelmotor.rules.contracts.named import partner_across

NO_TRUMP: Denomination = "none"


def _steps(designation: Designation, declarers: Sequence[int]) -> tuple[tuple[DeclarationStep, int], ...]:
    """The kind's steps, with a reveal where the designation asks for one and the partner's choice of
    who exchanges where it gives him one."""
    steps = list(kind_of(designation).steps(designation, declarers))
    if designation.reveal_partner and ("reveal", PARTNER) not in steps:
        steps.insert(1 + next(i for i, (kind, _) in enumerate(steps) if kind == "call"), ("reveal", PARTNER))
    if designation.exchange is not None and designation.exchange.by == "partner_chooses":
        steps.append(("exchanger", PARTNER))
    return tuple(steps)


def declaration(ruleset: Ruleset) -> Declaration:
    designations = {d.id: d for d in ruleset.designations}
    fixed = {d.id: (d.trump.choices or (NO_TRUMP,))[0] for d in ruleset.designations if kind_of(d).trump_fixed}

    named = {s.id: s for s in ruleset.named_bids()}

    def plan(contract: ContractInfo) -> DeclarationPlan:
        bid = contract.bid
        if bid.designation is None:
            assert bid.sol is not None
            return _named_plan(named[bid.sol], contract.declarers)
        return DeclarationPlan(_steps(designations[bid.designation], contract.declarers), fixed.get(bid.designation))

    return plan


def _named_plan(bid: SolBid, declarers: Sequence[int]) -> DeclarationPlan:
    """A named bid has no declaration: no trump (000 4.4: "Der spilles uden trumf"; 002: "Dansk whist
    spilles uden trumf"), or the dealer's last card's suit (002: "I engelsk whist lægges giverens sidste
    kort på bordet med billedsiden op. Dette korts farve er trumf i spillet"); a fixed partner is known
    from the start; in grandi the declarer leads (002: "Hvis der er meldt grandi, har melderen udspil")."""
    declarer = declarers[0] if declarers else None
    return DeclarationPlan(
        (),
        None if bid.trump == "dealer_card" else NO_TRUMP,
        dealer_card=bid.trump == "dealer_card",
        partner=partner_across(declarer) if bid.side == "partner" and declarer is not None else None,
        leader=declarer if bid.leader == "declarer" else None,
        sol_order=bid.card_order == "sol_games",
    )


def trump_choices(ruleset: Ruleset) -> TrumpChoices:
    designations = {d.id: d for d in ruleset.designations}

    def choices(designation_id: str, called: Card | None) -> tuple[Denomination, ...]:
        designation = designations[designation_id]
        trump = designation.trump
        if kind_of(designation).turns_kitty:
            return ()
        options = tuple(trump.choices or ())
        if trump.not_called_suit and called is not None:
            called_suit = SUIT_LETTERS[suit_of(called)]
            options = tuple(o for o in options if o != called_suit)
        return options

    return choices


CALL_ORDER = tuple((-rank_of(card), suit_of(card)) for card in range(52))
"""Card -> its place among partner-card choices: by rank, highest first, then by suit."""


def call_choices(ruleset: Ruleset) -> CallChoices:
    designations = {d.id: d for d in ruleset.designations}
    rule = ruleset.partner_card
    ranks = [RANK_LETTERS.index(r) for r in rule.ranks]

    def choices(hand: Sequence[Card], designation_id: str, trump: Denomination | None) -> tuple[Card, ...]:
        call = designations[designation_id].call
        excluded = trump if call.suits == "not_trump" and trump not in (None, "none") else None
        suits = [s for s in range(4) if SUIT_LETTERS[s] != excluded]
        held = set(hand)
        out: list[Card] = []
        for place, rank in enumerate(ranks):
            cards = [make_card(rank, s) for s in suits]
            here = [c for c in cards if rule.own_card_allowed or c not in held]
            needed = cards if rule.descend_when == "holding_all_allowed" else [make_card(rank, s) for s in range(4)]
            if not all(c in held for c in needed):
                out += here
                break
            if rule.descend == "may" or place == len(ranks) - 1:  # "must": this rank is not called, the next is
                out += here
        return tuple(sorted(set(out), key=CALL_ORDER.__getitem__))

    return choices


class DeclarationRules:
    @hookimpl
    def regelmotor_declaration(self, ruleset: Ruleset) -> Declaration:
        return declaration(ruleset)

    @hookimpl
    def regelmotor_trump_choices(self, ruleset: Ruleset) -> TrumpChoices:
        return trump_choices(ruleset)

    @hookimpl
    def regelmotor_call_choices(self, ruleset: Ruleset) -> CallChoices:
        return call_choices(ruleset)
