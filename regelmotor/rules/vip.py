"""Vip: trump found by turning the kitty, one card at a time, top first.

Standard (001): the declarer accepts the turned card's suit or turns the next; the third
cannot be refused. Thorsen grades vip in three degrees (000 4.3.3): in the second degree the
first card cannot be accepted, in the third neither the first nor the second. A joker accepted
means no trump (000 4.3.2; 001).
"""

from __future__ import annotations

from regelmotor.hooks import KittyTurn, KittyTurnRule, hookimpl
from regelmotor.ruleset.model import Ruleset


def kitty_turn(ruleset: Ruleset) -> KittyTurnRule:
    turns = {d.id: d.trump.turns or () for d in ruleset.designations if d.trump.by == "kitty"}

    def rule(designation_id: str, number: int) -> KittyTurn:
        table = turns.get(designation_id)
        if not table:
            raise ValueError(f"{designation_id} does not turn the kitty")
        if not 1 <= number <= len(table):
            raise ValueError(f"the kitty has {len(table)} cards to turn, not a card number {number}")
        return table[number - 1]

    return rule


class VipRules:
    @hookimpl
    def regelmotor_kitty_turn(self, ruleset: Ruleset) -> KittyTurnRule:
        return kitty_turn(ruleset)
