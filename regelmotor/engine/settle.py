"""Settlement: every seat's points for a finished deal, from the ruleset's own scorer.

One function, so that the engine and anything that plays deals out in its head (the expert bot's
playouts) score a deal the same way: a trump game by the declarer's side's tricks, the partner
sharing the declarer's score; each sol declarer as a separate game of one against three (000 7.3,
"7.2.2").
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from regelmotor.bids import Bid
from regelmotor.rules.scoring import Scorer

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
