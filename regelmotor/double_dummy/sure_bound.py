"""The bound a position's sure tricks decide at a trick's start, without search (the solver asks it before it
searches a position the table did not answer)."""

from __future__ import annotations

from regelmotor import play_row
from regelmotor.compiled import jit
from regelmotor.double_dummy.position import FEWEST, MOST, UNKNOWN
from regelmotor.double_dummy.quick_tricks import partners_quick_tricks, quick_tricks, sol_exit, sure_trumps
from regelmotor.double_dummy.transposition import keyed_by_tricks
from regelmotor.rules.cardplay.masks import Rows


@jit
def sure_bound(
    row: Rows, consts: Rows, side: int, wants: int, target: int, won: int, left: int, most: int, order: Rows
) -> tuple[int, int]:
    """At a trick's start, a value the sure tricks decide without search, and the cards it rests on; or
    ``UNKNOWN``. Where the most tricks are wanted: the leader's side's quick tricks (or its partner's), then
    either side's sure trumps; in a sol game, a declarer sure to get out or sure to take one more."""
    leader = int(row[play_row.LEADER])
    if (
        wants == MOST
        and not keyed_by_tricks(row)
        and (row[play_row.TRICKS] > 0 or play_row.legal_mask(row, leader, consts) == row[play_row.HANDS + leader])
    ):  # the first trick's rules may bar a lead: there only where every card may be led
        ours = (side >> leader) & 1 == 1
        team = side if ours else 15 & ~side
        need = target - won if ours else won + left - target + 1  # the sure tricks that decide it
        sure, relied = quick_tricks(row, consts, team, need)
        if sure < need:
            more, more_relied = partners_quick_tricks(row, consts, team, order, need)
            if more > sure:
                sure, relied = more, more_relied
        if ours and won + sure >= target:
            return won + sure, relied
        if not ours and won + left - sure < target:
            return won + left - sure, relied
        sure, relied = sure_trumps(row, consts, side)
        if won + sure >= target:
            return won + sure, relied
        sure, relied = sure_trumps(row, consts, 15 & ~side)
        if won + left - sure < target:
            return won + left - sure, relied
    if wants == FEWEST and keyed_by_tricks(row):
        sure, relied = sol_exit(row, consts, side)
        if sure == 1 and won < target:
            return won, relied
        if sure == 2 and most >= target:
            return most, relied
    return UNKNOWN, 0
