"""Whom the partner card's rules bind: its holder, and the declarer himself only where the ruleset says so
(003 37: "Reglerne gælder også, når melderen er selvmakker"; ``called_card.applies_to_selvmakker``)."""

from __future__ import annotations

from regelmotor.hooks import CalledCardBinds, ContractInfo, hookimpl
from regelmotor.model.ruleset import Ruleset


def called_card_binds(ruleset: Ruleset) -> CalledCardBinds:
    """Whether the partner card's rules bind a selvmakker is the ruleset's choice (003 37)."""
    exempt_declarer = not ruleset.called_card.applies_to_selvmakker

    def binds(seat: int, contract: ContractInfo) -> bool:
        return not (exempt_declarer and seat in contract.declarers[:1])

    return binds


class CalledCardRules:
    @hookimpl
    def regelmotor_called_card_binds(self, ruleset: Ruleset) -> CalledCardBinds:
        return called_card_binds(ruleset)
