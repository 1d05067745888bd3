"""The evening's rules around its deals: who sits out at five and six players (000 2.1), who deals next
(after a sol, some clubs let the same dealer deal again), the misdeal's penalty (000 2.7), the game
played to a target (002: "indtil et makkerpar når 5 point") and the evening's length. The session and
the score sheet ask these here, through ``Rules.evening``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from regelmotor.hooks import SessionSettle
from regelmotor.model.ruleset import Ruleset

_FROM_DEALER = {"dealer": 0, "right_of_dealer": -1, "left_of_dealer": 1}


@dataclass(frozen=True)
class EveningRules:
    table_sizes: tuple[int, ...]
    """The numbers of players a table may seat; four play each deal."""
    deals: int | None
    """The evening's fixed number of deals played (redeals not counted), or None for any number."""
    game_to: int | None
    """The points that win a game (partiet), or None where the evening has no games, only its sum."""
    whole_rounds: bool
    """Whether the evening ends only when the deal has gone round the table."""
    same_dealer_after_sol: bool
    """Whether the same dealer deals again after a sol played alone against three."""
    misdeal_penalty: Fraction
    """What the dealer (or the player at fault) pays each other player for a misdeal; 0 for none."""
    culprit_pays: bool
    """Whether another player at fault for a misdeal pays its penalty in the dealer's place."""
    sitting_out_offsets: Mapping[int, tuple[int, ...]]
    """Per table size above four, the seats sitting out each deal, counted from the dealer clockwise."""
    settlement: SessionSettle
    """The evening's settlement in money (the hook ``regelmotor_session_settlement``)."""

    def sitting_out(self, size: int, dealer: int) -> tuple[int, ...]:
        """The players (counted from 0 round the table) who sit out the deal ``dealer`` deals."""
        return tuple((dealer + offset) % size for offset in self.sitting_out_offsets.get(size, ()))


def evening_rules(ruleset: Ruleset, settlement: SessionSettle) -> EveningRules:
    table, session, misdeal = ruleset.table, ruleset.session, ruleset.misdeal
    return EveningRules(
        table_sizes=table.players,
        deals=session.deals,
        game_to=session.game_to,
        whole_rounds=session.whole_rounds,
        same_dealer_after_sol=table.same_dealer_after_sol,
        misdeal_penalty=misdeal.penalty,
        culprit_pays=misdeal.culprit_pays,
        sitting_out_offsets={
            rule.players: tuple(_FROM_DEALER[seat] for seat in rule.seats) for rule in table.sitting_out
        },
        settlement=settlement,
    )
