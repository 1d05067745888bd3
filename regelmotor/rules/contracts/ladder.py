"""The bid ladder rule: trick levels by designation tier, sol bids where the ruleset puts them."""

from __future__ import annotations

from regelmotor.bids import Ladder, build_ladder
from regelmotor.hooks import hookimpl
from regelmotor.model.ruleset import Ruleset


class LadderRules:
    @hookimpl
    def regelmotor_ladder(self, ruleset: Ruleset) -> Ladder:
        return build_ladder(ruleset)
