"""Double-dummy search on the kernel's rows: every hand known, both sides playing their best.

The expert's leaf for the last tricks: from a sampled deal's position the question is no longer
"what would a rule of thumb play" but "what is the most the declaring side can take (in a sol, the
fewest it can keep to) against the best defence". Alpha-beta over the play functions of
``rules.cardplay`` (the kernel's ``legal_mask``, ``play_card``, ``play_over``), with

- a transposition table at the start of each trick (the hands, the leader, the side's tricks and
  the partner card's state decide the rest),
- equivalent cards reduced: of two cards of a suit in one hand with no card still out between them,
  only one is searched (the partner card and the fordækt card always on their own),
- the cards that take the trick as it stands tried first, and a node budget: a search that would
  cost more than it may returns ``UNKNOWN`` and the caller plays on with its playouts.

Exact for the contracts with one side against the other (a trump game, its partner found by who
holds the partner card; a pairs game; a sol bid of one declarer). A game where each plays for himself,
or a sol bid of several declarers at once, has no such value: ``objective`` says so (``NONE``).
"""

from __future__ import annotations

import numpy as np

from regelmotor.bots import kernel as K
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, TRUMP_GAME
from regelmotor.rules.cardplay.masks import SUIT_MASKS, Rows, bit_count, jit, jit_recursive, lowest_card

NONE = 0
MOST = 1  # the declaring side takes as many tricks as it can
FEWEST = -1  # the declaring side keeps to as few as it can (a sol bid)
UNKNOWN = -1
"""What a search returns when it ran out of its node budget."""

TABLE_BITS = 16
EXACT, LOWER, UPPER = 0, 1, 2


@jit
def objective(row: Rows) -> int:
    """Whether the declaring side wants ``MOST`` or ``FEWEST`` tricks, or ``NONE`` (no two sides)."""
    side = int(row[K.SIDE])
    if side == EACH:
        return NONE
    if side == TRUMP_GAME:
        return MOST
    if bit_count(int(row[K.DECLARERS])) > 1 and side != PAIRS:  # several sol declarers, each on his own
        return NONE
    return FEWEST if row[K.SOL_LIMIT] >= 0 else MOST


@jit
def side_won(row: Rows, side: int) -> int:
    total = 0
    for seat in range(4):
        if (side >> seat) & 1:
            total += int(row[K.WON + seat])
    return total


@jit
def candidates(row: Rows, legal: int, consts: Rows, wants: int, side: int, out: Rows) -> int:
    """The legal cards worth searching, one of each run of equivalent cards, into ``out``; how many.

    Two cards of one suit in the same hand are equivalent when every card ranked between them that
    is still in a hand or in the trick is in that hand too. The likeliest best cards come first (the
    search cuts off sooner): in a trump game the cheapest card that takes the trick, then the low
    ones; in a sol the declarer's highest card that stays under, the defenders' lowest.
    """
    seat = int(row[K.TO_PLAY])
    n = int(row[K.TRICK_N])
    sol = int(row[K.SOL])
    in_play = int(row[K.HANDS]) | int(row[K.HANDS + 1]) | int(row[K.HANDS + 2]) | int(row[K.HANDS + 3])
    for i in range(n):  # the trick's cards still count: a card of it between two makes them differ
        in_play |= 1 << int(row[K.TRICK + i])
    mine = int(row[K.HANDS + seat])
    called = int(row[K.CALLED])
    declaring = (side >> seat) & 1 == 1
    scores = np.empty(14, dtype=np.int64)
    count = 0
    rest = legal
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        strength = K.card_strength(card, sol, consts)
        if card < 52 and card != called:  # skip a card when the next higher card in play is its twin
            suit = card // 13
            higher = -1
            higher_strength = 1 << 30
            others = in_play & int(SUIT_MASKS[suit]) & ~(1 << card)
            while others:
                other = lowest_card(others)
                others &= others - 1
                s = K.card_strength(other, sol, consts)
                if strength < s < higher_strength:
                    higher, higher_strength = other, s
            if higher >= 0 and (mine >> higher) & 1 and (legal >> higher) & 1 and higher != called:
                continue
        takes = card >= 52 if n == 0 else False
        if n > 0:
            row[K.TRICK + n] = card
            takes = K.winning_index(row, n + 1, consts) == n
        if wants == FEWEST and declaring:
            score = -strength if takes else 100 + strength
        elif wants == FEWEST:
            score = -strength
        else:
            score = 100 - strength if takes else -strength
        # insertion by score, highest first
        j = count
        while j > 0 and scores[j - 1] < score:
            scores[j] = scores[j - 1]
            out[j] = out[j - 1]
            j -= 1
        scores[j] = score
        out[j] = card
        count += 1
    return count


@jit
def _key(row: Rows, side: int) -> int:
    h = np.uint64(1469598103934665603)
    for i in range(4):
        h = (h ^ np.uint64(row[K.HANDS + i])) * np.uint64(1099511628211)
    meta = int(row[K.LEADER]) | (side_won(row, side) << 2) | (int(row[K.CALLED_PLAYED]) << 6)
    meta |= (int(row[K.SUIT_LED]) << 7) | ((int(row[K.PARTNER]) + 2) << 8)
    h = (h ^ np.uint64(meta)) * np.uint64(1099511628211)
    return int(h >> np.uint64(1))


@jit_recursive
def search(row: Rows, consts: Rows, side: int, wants: int, alpha: int, beta: int, table: Rows, budget: Rows) -> int:
    """The side's final tricks from ``row`` with both sides at their best (``UNKNOWN``: over budget)."""
    if K.play_over(row, consts):
        return side_won(row, side)
    budget[0] -= 1
    if budget[0] < 0:
        return UNKNOWN
    at_start = row[K.TRICK_N] == 0
    slot = 0
    key = 0
    if at_start:
        key = _key(row, side)
        slot = key & ((1 << TABLE_BITS) - 1)
        if table[slot, 0] == key:
            value = int(table[slot, 1])
            kind = int(table[slot, 2])
            if kind == EXACT:
                return value
            if kind == LOWER and value >= beta:
                return value
            if kind == UPPER and value <= alpha:
                return value
    seat = int(row[K.TO_PLAY])
    legal = K.legal_mask(row, seat, consts)
    moves = np.empty(14, dtype=np.int64)
    count = candidates(row, legal, consts, wants, side, moves)
    maximizing = ((side >> seat) & 1 == 1) == (wants == MOST)
    low, high = alpha, beta
    best = -1 if maximizing else 1 << 30
    for i in range(count):
        child = row.copy()
        K.play_card(child, int(moves[i]), consts)
        value = search(child, consts, side, wants, low, high, table, budget)
        if value == UNKNOWN:
            return UNKNOWN
        if maximizing:
            if value > best:
                best = value
            if best > low:
                low = best
        else:
            if value < best:
                best = value
            if best < high:
                high = best
        if low >= high:
            break
    if at_start:
        table[slot, 0] = key
        table[slot, 1] = best
        table[slot, 2] = LOWER if best >= beta else UPPER if best <= alpha else EXACT
    return best


@jit_recursive
def solve(row: Rows, consts: Rows, table: Rows, nodes: int) -> int:
    """The declaring side's tricks at the end of play, double dummy (``UNKNOWN`` over ``nodes`` nodes,
    or where the contract has no two sides). ``table`` is reused between calls of one deal's rules."""
    wants = objective(row)
    if wants == NONE:
        return UNKNOWN
    side = K.side_mask(row)
    budget = np.empty(1, dtype=np.int64)
    budget[0] = nodes
    alpha, beta = window(row, wants)
    return search(row, consts, side, wants, alpha, beta, table, budget)


@jit
def window(row: Rows, wants: int) -> tuple[int, int]:
    """The search window: all of it in a trump game (every trick counts); in a sol only whether the
    declarer stays within his most (a made or lost sol is all the scoring reads)."""
    if wants == FEWEST:
        limit = int(row[K.SOL_LIMIT])
        return limit, limit + 1
    return -1, 14


@jit_recursive
def evaluate_cards(won: Rows, rows: Rows, candidates: Rows, consts: Rows, table: Rows, nodes: int) -> int:
    """``won`` (the playouts' tricks per row, candidate and seat) with each entry the double-dummy
    search settles within ``nodes`` nodes replaced by its result; how many it settled.

    The side's tricks still to come go to its first seat and the others' to the first seat against
    it: what the scoring of a two-sided contract reads is each side's tricks."""
    settled = 0
    budget = np.empty(1, dtype=np.int64)
    for r in range(rows.shape[0]):
        row = rows[r]
        wants = objective(row)
        if wants == NONE:
            continue
        side = K.side_mask(row)
        mine = -1
        theirs = -1
        for seat in range(4):
            if (side >> seat) & 1:
                if mine < 0:
                    mine = seat
            elif theirs < 0:
                theirs = seat
        for c in range(candidates.shape[0]):
            child = row.copy()
            K.play_card(child, int(candidates[c]), consts)
            budget[0] = nodes
            alpha, beta = window(child, wants)
            value = search(child, consts, side, wants, alpha, beta, table, budget)
            if value == UNKNOWN:
                continue
            before = side_won(child, side)
            left = 13 - int(child[K.TRICKS])
            for seat in range(4):
                won[r, c, seat] = child[K.WON + seat]
            won[r, c, mine] += value - before
            if theirs >= 0 and not K.play_over(child, consts):
                won[r, c, theirs] += left - (value - before)
            settled += 1
    return settled


def new_table() -> Rows:
    """An empty transposition table (its keys never equal a real key)."""
    table = np.zeros((1 << TABLE_BITS, 3), dtype=np.int64)
    table[:, 0] = -1
    return table


__all__ = ["FEWEST", "MOST", "NONE", "UNKNOWN", "candidates", "new_table", "objective", "solve"]
