"""Gå med: joining the highest bid instead of overcalling it.

Thorsen allows it on a sol bid or a vip bid (000 3.4 b); Whistklubben and Whistgruppe 2 on
sol bids (003 11); standard not at all (001 lists it among the house rules it leaves out).
A vip bid is one whose trump is found by turning the kitty.
"""

from __future__ import annotations

from collections.abc import Callable

from regelmotor.bids import Bid
from regelmotor.hooks import hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of


def may_join(ruleset: Ruleset) -> Callable[[Bid], bool]:
    rule = ruleset.auction.gaa_med
    vip = {d.id for d in ruleset.designations if kind_of(d).turns_kitty}
    alone = {s.id for s in ruleset.sol_bids if s.side == "alone"}  # one joins a sol as a declarer of his own

    def allowed(bid: Bid) -> bool:
        if bid.is_sol:
            return rule.sol_bids and bid.sol in alone
        return rule.vip_bids and bid.designation in vip

    return allowed


class GaaMedRules:
    @hookimpl
    def regelmotor_may_join(self, ruleset: Ruleset) -> Callable[[Bid], bool]:
        return may_join(ruleset)
