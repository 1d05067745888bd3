"""Settlement: every seat's points for a finished deal, and the evening's money.

A deal: one function, so that the engine and anything that plays deals out in its head (the
expert bot's playouts) score a deal the same way: a trump game by the declarer's side's tricks,
the partner sharing the declarer's score; each sol declarer as a separate game of one against
three (000 7.3, "7.2.2"); a named bid of sides (dansk whist's grand and nolo, pasnolo, engelsk
whist) seat by seat from the shares of ``rules.contracts``.

An evening: each player's points at the rate, settled by the fewest payments between players (where only
the winners score, engelsk whist, each player's points above or below the table's mean: what zero-sum
points are already, so one rule for both); or,
where the club says so, "De ved den endelige spilletids ophør tabte beløb, det faste gebyr der
betales af hver spiller per kortaften, samt eventuelle afgifter, indgår i kortklubbens kasse"
(jeberg.eu/kort/reglement.htm): the losers pay the club's box, the winners get nothing, and
every player pays the evening's fee.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from regelmotor.bids import Bid
from regelmotor.hooks import ContractInfo, Money, SessionSettle, Settle, Transfer, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rounding import to_oere
from regelmotor.rules.scoring.scorer import Scorer, scorer_for

SEATS = 4


def settle(
    scorer: Scorer,
    bid: Bid,
    declarers: Sequence[int],
    partner: int | None,
    tricks_won: Sequence[int],
    *,
    vip_card: int = 0,
    doublings: int = 0,
) -> list[Fraction]:
    """The four seats' points; they sum to zero (the scorer checks each game it scores)."""
    if bid.sol is not None:
        if scorer.ruleset.sol_bid(bid.sol).side != "alone":
            return list(scorer.score_each(bid.sol, tuple(tricks_won), tuple(declarers[:1]), doublings=doublings))
        scores = [Fraction(0)] * SEATS
        for declarer in declarers:
            game = scorer.score_sol(bid.sol, tricks_won[declarer], doublings=doublings)
            scores = [
                score + (game.declarer if seat == declarer else game.opponent) for seat, score in enumerate(scores)
            ]
        return scores
    assert bid.designation is not None and bid.level is not None
    declarer = declarers[0]
    taken = tricks_won[declarer] + (0 if partner is None else tricks_won[partner])
    game = scorer.score_trump(
        bid.designation, bid.level, taken, alone=partner is None, vip_card=vip_card, doublings=doublings
    )
    scores = [game.opponent] * SEATS
    scores[declarer] = game.declarer
    if partner is not None:
        scores[partner] = game.partner or Fraction(0)
    return scores


def settler(scorer: Scorer) -> Settle:
    def settle_deal(contract: ContractInfo, tricks_won: Sequence[int], vip_card: int, doublings: int) -> list[Fraction]:
        return settle(
            scorer,
            contract.bid,
            contract.declarers,
            contract.partner,
            tricks_won,
            vip_card=vip_card,
            doublings=doublings,
        )

    return settle_deal


def between_players(money: Sequence[Fraction]) -> tuple[Transfer, ...]:
    """The fewest payments that settle ``money`` (summing to zero) between the players."""
    debtors = sorted((m, p) for p, m in enumerate(money) if m < 0)
    creditors = sorted(((m, p) for p, m in enumerate(money) if m > 0), reverse=True)
    transfers: list[Transfer] = []
    owed = {p: -m for m, p in debtors}
    due = {p: m for m, p in creditors}
    for _, payer in debtors:
        for _, payee in creditors:
            amount = min(owed[payer], due[payee])
            if amount > 0:
                transfers.append(Transfer(payer, payee, amount))
                owed[payer] -= amount
                due[payee] -= amount
    return tuple(transfers)


BOX = -1
"""The payee of a payment to the club's box."""


def session_settlement(ruleset: Ruleset) -> SessionSettle:
    rule = ruleset.money
    losers_pay = ruleset.scoring.losers_pay

    def money(totals: Sequence[Fraction], rate: Fraction) -> Money:
        if not losers_pay:  # only the winners scored: each is paid his points above the table's mean
            mean = sum(totals, Fraction(0)) / len(totals) if totals else Fraction(0)
            totals = [total - mean for total in totals]
        points = to_oere([total * rate for total in totals])
        fee = rule.evening_fee
        if not rule.losses_to_box:
            transfers = between_players(points)
            if fee:
                transfers += tuple(Transfer(player, BOX, fee) for player in range(len(points)))
            return Money(tuple(p - fee for p in points), transfers, fee * len(points))
        paid = [max(-p, Fraction(0)) + fee for p in points]  # each in whole øre already
        transfers = tuple(Transfer(player, BOX, amount) for player, amount in enumerate(paid) if amount)
        return Money(tuple(-amount for amount in paid), transfers, sum(paid, Fraction(0)))

    return money


class SettlementRules:
    """The scoring family: the ruleset's formulas as a ``Scorer`` (``rules.scoring``), a deal's points
    from it, and the evening's money."""

    @hookimpl
    def regelmotor_scorer(self, ruleset: Ruleset) -> Scorer:
        return scorer_for(ruleset)

    @hookimpl
    def regelmotor_settle(self, ruleset: Ruleset, scorer: Scorer) -> Settle:
        return settler(scorer)

    @hookimpl
    def regelmotor_session_settlement(self, ruleset: Ruleset) -> SessionSettle:
        return session_settlement(ruleset)
