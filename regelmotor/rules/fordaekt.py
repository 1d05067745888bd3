"""Fordækt: a declarer void in the partner card's suit after the exchange may lay one card face
down, which counts as the lowest card of that suit (000 6.1.1). Not in sol, where no card is called."""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card, suit_of
from regelmotor.hooks import ContractInfo, FordaektRule, hookimpl
from regelmotor.ruleset.model import Ruleset


def _never(contract: ContractInfo, called: Card | None, hand: Sequence[Card]) -> bool:
    return False


def _when_void(contract: ContractInfo, called: Card | None, hand: Sequence[Card]) -> bool:
    if called is None or contract.bid.is_sol:
        return False
    suit = suit_of(called)
    return not any(suit_of(card) == suit for card in hand)


class FordaektRules:
    @hookimpl
    def regelmotor_fordaekt(self, ruleset: Ruleset) -> FordaektRule:
        return _when_void if ruleset.fordaekt.allowed else _never
