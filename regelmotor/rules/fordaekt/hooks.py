"""Fordækt: a declarer void in the partner card's suit after the exchange may lay one card face
down, which counts as the lowest card of that suit (000 6.1.1); where a club says so, also with one card
of the suit (a marker card: ``fordaekt.most_held``). Not in sol, where no card is called."""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card, suit_of
from regelmotor.hooks import ContractInfo, FordaektRule, hookimpl
from regelmotor.model.ruleset import Ruleset


def _never(contract: ContractInfo, called: Card | None, hand: Sequence[Card]) -> bool:
    return False


def _holding_at_most(most: int) -> FordaektRule:
    """The declarer may lay a card face down while he holds at most ``most`` cards of the partner card's suit."""

    def allowed(contract: ContractInfo, called: Card | None, hand: Sequence[Card]) -> bool:
        if called is None or contract.bid.is_sol:
            return False
        suit = suit_of(called)
        return sum(1 for card in hand if suit_of(card) == suit) <= most

    return allowed


class FordaektRules:
    @hookimpl
    def regelmotor_fordaekt(self, ruleset: Ruleset) -> FordaektRule:
        return _holding_at_most(ruleset.fordaekt.most_held) if ruleset.fordaekt.allowed else _never
