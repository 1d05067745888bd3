"""Exchange with the kitty: who, how many cards, in which order, and whether they must.

Standard: the declarer (the partner in halve) lays three cards away, then takes the three
unseen; all or none; compulsory in vip (001). Thorsen: exactly three or none, optional; in sol
every declarer in bidding order, each one's discards becoming the kitty for the next (000
5.1.1, 5.2.3-5.2.4). Whistklubben: 0-3 cards from the top, the rest passing on clockwise; the
last joiner first in sol (what a sol declarer leaves does not pass on). A club may let the
partner in halve choose who exchanges (eso.org/~pmoller: "partner also gets to decide who trades
with the cat"). Whistgruppe 2: no kitty, no exchange.
"""

from __future__ import annotations

from regelmotor.hooks import ContractInfo, ExchangePlan, Exchanger, ExchangeTurn, hookimpl
from regelmotor.model.ruleset import Ruleset


def exchanger(ruleset: Ruleset) -> Exchanger:
    rule = ruleset.exchange
    size = ruleset.deck.kitty
    counts = (0, size) if rule.amount == "all_or_none" else tuple(range(size + 1))
    designations = {d.id: d for d in ruleset.designations}

    def plan(contract: ContractInfo) -> ExchangePlan:
        turns: list[ExchangeTurn] = []
        if rule.allowed and size:
            if contract.bid.is_sol:
                if rule.sol.allowed:
                    order = list(contract.declarers)
                    if rule.sol.order == "last_joiner_first":
                        order.reverse()
                    turns = [ExchangeTurn(seat, counts, rule.required == "compulsory") for seat in order]
            else:
                assert contract.bid.designation is not None
                own = designations[contract.bid.designation].exchange
                required = (own.required if own else None) or rule.required
                seat = contract.declarers[0]
                if own is not None and own.by == "partner" and contract.partner is not None:
                    seat = contract.partner
                if own is not None and own.by == "partner_chooses" and contract.exchanger is not None:
                    seat = contract.exchanger
                turns = [ExchangeTurn(seat, counts, required == "compulsory")]
        return ExchangePlan(
            tuple(turns),
            leftover_passes_clockwise=rule.leftover == "passes_clockwise" and not contract.bid.is_sol,
            discards_become_kitty=rule.sol.discards_become_kitty,
            called_card_may_be_discarded=rule.called_card_may_be_discarded,
        )

    return plan


class ExchangeRules:
    @hookimpl
    def regelmotor_exchange(self, ruleset: Ruleset) -> Exchanger:
        return exchanger(ruleset)
