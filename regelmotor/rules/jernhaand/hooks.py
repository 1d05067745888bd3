"""Jernhånd: a hand with no ace, king, queen, jack or joker may void the deal.

Whistklubben and 002 ("hvis vedkommende har 13 kort uden billedkort, jokere eller esser").
The claim is made before the auction; the player may also keep the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import RANK_LETTERS, Card
from regelmotor.hooks import RedealClaim, hookimpl
from regelmotor.model.ruleset import Ruleset

ACTION = "jernhånd"


def is_jernhaand(hand: Sequence[Card], court_ranks: Sequence[str]) -> bool:
    court = {RANK_LETTERS.index(r) for r in court_ranks}
    return all(card < 52 and card % 13 not in court for card in hand)


class JernhaandRules:
    @hookimpl
    def regelmotor_redeal_claims(self, ruleset: Ruleset) -> RedealClaim | None:
        rule = ruleset.jernhaand
        if not rule.allowed:
            return None
        ranks = rule.court_ranks

        def allowed(hand: Sequence[Card]) -> bool:
            return is_jernhaand(hand, ranks)

        return RedealClaim(ACTION, "jernhaand", allowed, rule.redeal_by)
