"""Open hands: in bordlægger "lægger melderen sine kort åbent på bordet, når første stik er
spillet" (001); other clubs lay them open after the first lead (oplægger, jeberg.eu). Each sol
bid says when (``open_hand``)."""

from __future__ import annotations

from regelmotor.hooks import ContractInfo, Moment, OpenHands, hookimpl
from regelmotor.model.ruleset import Ruleset


def open_hands(ruleset: Ruleset) -> OpenHands:
    when = {s.id: s.open_hand for s in ruleset.sol_bids}

    def seats(contract: ContractInfo, moment: Moment) -> tuple[int, ...]:
        sol = contract.bid.sol
        return contract.declarers if sol is not None and when.get(sol) == moment else ()

    return seats


class OpenHandRules:
    @hookimpl
    def regelmotor_open_hands(self, ruleset: Ruleset) -> OpenHands:
        return open_hands(ruleset)
