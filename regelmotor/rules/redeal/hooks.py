"""Void deals: all four passing, a misdeal found before the first call, a reshuffle asked for.

All pass: Thorsen and Whistklubben give new cards (000 3.6; rules-matrix.md section 2); dansk whist
plays pasnolo instead (002: "Hvis alle spillere passer, spilles der en pasnolo"), and a game with
no auction (engelsk whist) plays its one contract the same way. A misdeal
is called by forhånd before the first call; where the ruleset says so another player at fault
pays the penalty (000 2.7). Omblanding: Whistklubben lets anyone ask for a reshuffle, as long as
he has not looked at his own cards ("Der kan dog til enhver tid bedes om omblanding, så længe
dette gøres inden der er kigget på egne kort", hilmarshelte.dk/Whistklubben).
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.bids import Bid
from regelmotor.cards import Card
from regelmotor.hooks import RedealClaim, Redealing, hookimpl
from regelmotor.model.ruleset import Ruleset

OMBLANDING = "omblanding"


def _any_hand(hand: Sequence[Card]) -> bool:
    return True


class RedealRules:
    @hookimpl
    def regelmotor_redealing(self, ruleset: Ruleset) -> Redealing:
        contract = ruleset.all_pass.contract
        return Redealing(
            all_pass=ruleset.all_pass.redeal_by,
            misdeal=ruleset.misdeal.redeal_by,
            misdeal_names_culprit=ruleset.misdeal.culprit_pays,
            all_pass_contract=None if contract is None else Bid(contract.id, -1, sol=contract.id),
        )

    @hookimpl
    def regelmotor_redeal_claims(self, ruleset: Ruleset) -> RedealClaim | None:
        rule = ruleset.omblanding
        if not rule.allowed:
            return None
        return RedealClaim(OMBLANDING, "omblanding", _any_hand, rule.redeal_by, blind=True)
