"""The expert's leaf for the last tricks: the double-dummy solver's value in place of a playout.

From a sampled deal's position the question is no longer "what would a rule of thumb play" but "what
is the most the declaring side can take (in a sol, whether the declarer stays within his most) against
the best defence". The solver is ``regelmotor.double_dummy.solver``, the one ``regelmotor analyse``
uses; a search over its node budget leaves the playouts' result as it was.
"""

from __future__ import annotations

import numpy as np

from regelmotor import play_row
from regelmotor.compiled import jit
from regelmotor.double_dummy import transposition
from regelmotor.double_dummy.ordering import twins
from regelmotor.double_dummy.position import FEWEST, MOST, NONE, UNKNOWN, objective, side_won
from regelmotor.double_dummy.solver import Search, new_search, reaches, value
from regelmotor.double_dummy.transposition import clear
from regelmotor.rules.cardplay.masks import Rows

LEAF_BITS = 16
"""The leaf's table: 2^16 entries (4 MB), enough for the last tricks of one decision's deals."""


@jit
def leaf_value(row: Rows, consts: Rows, side: int, wants: int, search: Search, nodes: int) -> int:
    """What the scoring reads of the side's tricks: all of them in a trump game; in a sol only whether
    the declarer stays within his most (one null-window test: his most if so, one more if not)."""
    if wants == FEWEST:
        limit = int(row[play_row.SOL_LIMIT])
        over = reaches(row, consts, side, wants, limit + 1, search, nodes)
        if over == UNKNOWN:
            return UNKNOWN
        return limit + 1 if over == 1 else min(limit, side_won(row, side) + 13 - int(row[play_row.TRICKS]))
    return value(row, consts, side, wants, search, nodes, 7)


def solve(row: Rows, consts: Rows, table: Rows, nodes: int) -> int:
    """The declaring side's tricks at the end of play, double dummy, as the scoring reads them
    (``UNKNOWN`` over ``nodes`` nodes, or where the contract has no two sides)."""
    wants = objective(row)
    if wants == NONE:
        return UNKNOWN
    return int(leaf_value(row, consts, play_row.side_mask(row), wants, new_search(table), nodes))


@jit
def _settle(out: Rows, row: Rows, consts: Rows, side: int, wants: int, search: Search, nodes: int) -> bool:
    """Each seat's tricks at the end of play into ``out``, the rest of ``row``'s play solved double dummy:
    the side's tricks still to come go to its first seat and the others' to the first seat against it
    (what the scoring of a two-sided contract reads is each side's tricks); False, ``out`` untouched,
    where the search needs more than ``nodes`` nodes."""
    found = leaf_value(row, consts, side, wants, search, nodes)
    if found == UNKNOWN:
        return False
    mine = -1
    theirs = -1
    for seat in range(4):
        if (side >> seat) & 1:
            if mine < 0:
                mine = seat
        elif theirs < 0:
            theirs = seat
    before = side_won(row, side)
    left = 13 - int(row[play_row.TRICKS])
    for seat in range(4):
        out[seat] = row[play_row.WON + seat]
    out[mine] += found - before
    if theirs >= 0 and not play_row.play_over(row, consts):
        out[theirs] += left - (found - before)
    return True


@jit
def _evaluate(won: Rows, rows: Rows, candidates: Rows, consts: Rows, search: Search, nodes: int) -> int:
    settled = 0
    for r in range(rows.shape[0]):
        row = rows[r]
        wants = objective(row)
        if wants == NONE:
            continue
        side = play_row.side_mask(row)
        for c in range(candidates.shape[0]):
            child = row.copy()
            play_row.play_card(child, int(candidates[c]), consts)
            if _settle(won[r, c], child, consts, side, wants, search, nodes):
                settled += 1
    return settled


@jit
def _finish(won: Rows, settled: Rows, rows: Rows, consts: Rows, search: Search, nodes: int) -> None:
    for r in range(rows.shape[0]):
        row = rows[r]
        wants = objective(row)
        if wants != NONE:
            settled[r] = _settle(won[r], row, consts, play_row.side_mask(row), wants, search, nodes)


def finish_rows(won: Rows, rows: Rows, consts: Rows, table: Rows, nodes: int) -> Rows:
    """Each row's play solved double dummy from where it stands, its seats' tricks at the end into
    ``won`` (one line per row); which rows were settled (1) within ``nodes`` nodes per search."""
    settled = np.zeros(rows.shape[0], dtype=np.int64)
    _finish(won, settled, rows, consts, new_search(table), nodes)
    return settled


def evaluate_cards(won: Rows, rows: Rows, candidates: Rows, consts: Rows, table: Rows, nodes: int) -> int:
    """``won`` (the playouts' tricks per row, candidate and seat) with each entry the solver settles
    within ``nodes`` nodes per search replaced by its result; how many it settled.

    The side's tricks still to come go to its first seat and the others' to the first seat against
    it: what the scoring of a two-sided contract reads is each side's tricks."""
    return int(_evaluate(won, rows, candidates, consts, new_search(table), nodes))


def new_table() -> Rows:
    """An empty leaf table."""
    return transposition.new_table(LEAF_BITS)


__all__ = [
    "FEWEST",
    "MOST",
    "NONE",
    "UNKNOWN",
    "clear",
    "evaluate_cards",
    "finish_rows",
    "new_table",
    "objective",
    "side_won",
    "solve",
    "twins",
]
