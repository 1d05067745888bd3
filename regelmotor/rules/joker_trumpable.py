"""Joker can be trumped: a led joker loses to the highest trump in the trick.

Thorsen's table (000 6.4.1) and the house rule 001 mentions ("I nogle klubber kan en
udspillet joker stikkes med trumf"); with no trump in the trick the leader still wins.
"""

from __future__ import annotations

from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.rules.trick_winner import trick_winner
from regelmotor.ruleset.model import Ruleset


class JokerTrumpable:
    @hookimpl(tryfirst=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner | None:
        if ruleset.jokers is None or ruleset.jokers.led_joker != "loses_to_trump":
            return None
        return trick_winner(ruleset, joker_loses_to_trump=True)
