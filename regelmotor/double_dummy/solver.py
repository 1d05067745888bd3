"""The double-dummy solver: the most (or, in a sol, the fewest) tricks a side can be sure of with every
hand known and everyone at their best.

It searches the play functions of ``rules.cardplay`` on the kernel's rows (``bots.kernel``: the same
legal cards, trick winner and end of play as ``Game`` plays by), so it is exact for every shipped
game and house rule: jokers, the partner card's rules, fordækt, sol bids that end early, games of the
first tricks, pairs and each-for-himself games. The search is the one bridge solvers use (Bo
Haglund's DDS, Ginsberg's GIB):

- **null-window tests**: "does the side end with at least ``t`` tricks?" is a search cut off as soon as
  one card answers it, which returns the bound its cards proved (fail-soft: at least that many, or at
  most); the exact value is found by a few such tests (``value``), as MTD(f) does, starting from a
  guess at one end where the cards lean that way (macroxue's bridge-solver): a test far from the value
  fails soft near it, cheaply;
- a **transposition table of winning ranks** (partition search, as DDS and Ginsberg's GIB): at the end of
  each trick the card whose rank decided it (where two or more of its suit were played) is backed up the
  tree, after a cut-off the cutting card's set, otherwise the union over the cards tried. An entry at a
  trick's start keeps, per suit, only the cards at or above the weakest rank that mattered (in relative
  ranks: the highest left is the ace), hangs in a chain keyed by the hands' suit lengths, the position's
  flags (the leader, whether the partner card has fallen or its suit been led, the side) and the
  contract, and matches any position that holds the same cards there. The jokers, the fordækt card and
  the suit of a partner card still out are always kept whole: their rules read the card, not its rank.
  Where play is the same whoever declared (a trump game of two sides with no partner card out), an entry
  is kept for seat 0's side and serves the other side turned round, so one table serves the four
  declarers of a trump (DDS's table for the four leaders of a strain);
- **quick tricks and sure trumps**, each reporting the cards it relied on (only the top winners the other
  hands' lengths make count); where the leader's side is he and the seat across, in a position played as
  bridge is, the two hands' winners together, reaching the partner's through an entry (macroxue's fast
  tricks); in a sol, **a safe exit** (the declaring side's cards all under the other side's in every suit
  both hold, or a lone declarer's i-th lowest card of a suit under the other side's i-th lowest, his
  jokers ducking where they may be played at any time) and **a forced winner** (a lone declarer on lead
  whose every card wins),
  and **a ceiling**: where a sol ends at one trick too many, no search looks for more;
- **small-card pruning**: a card whose line never needed its rank stands for its suit's cards below the
  weakest rank that did (macroxue's bridge-solver); the **killer card** of a position like this one
  (its last cut-off) is tried first, before the other cards are even ordered; **the last trick** is
  played at once, before any look in the table (no entry is kept for it), and a seat with one card it may
  play plays it with no killer card looked up or kept; play's end is asked only as a trick ends;
- **equivalent cards** searched once (two cards of a suit in one hand with nothing still out between
  them), the partner card and the fordækt card always on their own;
- **move ordering**: a card that takes the trick cheaply first, low cards where a partner wins the trick
  and no one after can beat him, no lead into the other side's ruff, a lead to a partner's, trump leads
  late; against a sol, low leads under the declarer's cards and high cards thrown where the trick is lost;
- a **node budget**: a search that would cost more returns ``UNKNOWN``, so a bot's leaf never stalls;
- **a position's cost**: the search's loop and all it calls count no references to arrays
  (``jit_uncounted``: counting them was a call into numba's runtime for each row passed, a fifth of an
  engelsk solve's time); a walk along a table's chain asks for the entry after the next while it compares
  the next (``SKIP``: two cache misses under way at once), and the killer table's row is asked for as a
  position is entered, read only after the table's and the quick tricks' work.

The side's value is its tricks at the end of play, whatever ends it: a sol ends when the declarer
takes one too many, so there its value is at most the bid's limit plus one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from regelmotor import play_row
from regelmotor.compiled import jit, jit_inlined, jit_uncounted, prefetch_row, unowned
from regelmotor.double_dummy.ordering import (
    candidates,
    skipped_twins,
    stand_in,
)
from regelmotor.double_dummy.position import (
    ANSWERED,
    CHAIN,
    DEAL,
    DEFAULT_BITS,
    DEPTH,
    KEPT,
    KILLER_CARD,
    KILLER_TAG,
    LEFT,
    LENGTHS,
    LINK,
    LOOKED_UP,
    LOWER,
    META,
    META_KEY,
    OWNERS,
    PROVEN_HIGH,
    PROVEN_LOW,
    SEARCHED,
    SKIP,
    STATS,
    UNKNOWN,
    UPPER,
    WORD,
    ceiling,
    first_guess,
    side_won,
    wants_high,
)
from regelmotor.double_dummy.quick_tricks import (
    below_floor,
    killer_hash,
    small_cards,
    trick_best,
    twins_counted,
)
from regelmotor.double_dummy.sure_bound import sure_bound
from regelmotor.double_dummy.transposition import (
    ALWAYS,
    canonical,
    canonical_after,
    chain_of,
    contract,
    copy_row,
    flags,
    heads_of,
    in_play_of,
    lengths_of,
    mask_cards,
    matches,
    new_entry,
    new_table,
    owners,
    relevant_mask,
    seats_alike,
    specials_of,
    strength_order,
    trick_rank,
    turned_round,
)
from regelmotor.rules.cardplay.masks import Rows, bit_count, lowest_card

_F_COUNT = 0  # the position's candidate cards
_F_NEXT = 1  # the candidate being searched
_F_HIGH = 2  # 1 where the seat to play wants the side to reach the target
_F_RESULT = 3
_F_START = 4  # 1 at the start of a trick (the position is in the table)
_F_SLOT = 5
_F_META = 6
_F_DEAL = 7
_F_WON = 8
_F_WINS = 9  # the winning ranks (absolute cards) of the position's searched children, backed up
_F_CODE = 10
_F_SKIPPED = 11  # the legal cards left out as twins of searched ones
_F_FLOORS = 12  # per suit (7 bits each), the strength below which the seat's cards need no search
_F_KILLER = 13  # the position's row of the killer table, and its tag there
_F_TAG = 14
_F_LAZY = 15  # 1 while only the killer card is listed: the others are ordered when it does not cut off
_F_CALLED = 16  # at a trick's start: the partner card's number in the table key (``canonical``'s answer)
_F_TURNED = 17  # 1 where the table keeps the position for the other side (``seats_alike``)
FRAME = 18
_OPEN = -2
"""``_enter``'s answer where the position needs its children searched (its frame is set up)."""


@jit_inlined
def _enter(search: Search, depth: int, consts: Rows, side: int, wants: int, target: int, order: Rows) -> int:
    """A position's bound where it needs no search (a value, as ``at_least`` returns one, or ``UNKNOWN``),
    with the cards whose ranks it rests on in ``wins[depth]``; else ``_OPEN`` with its frame set up: bounds
    that already decide it, the table's bounds, and the tricks a side is sure of."""
    stack, table, moves, keys, budget, frames, wins = search
    row = stack[depth]
    wins[depth] = 0
    won = side_won(row, side)
    at_start = row[play_row.TRICK_N] == 0
    if won >= target or (at_start and play_row.play_over(row, consts)):  # play ends only as a trick does
        return won
    left = 13 - int(row[play_row.TRICKS])
    most = ceiling(row, consts, side) if row[play_row.SOL_LIMIT] >= 0 else won + left
    if most < target:
        return most
    budget[LEFT] -= 1
    budget[SEARCHED] += 1
    if budget[LEFT] < 0:
        return UNKNOWN
    if at_start and row[play_row.TRICKS] == 12:
        return _last_trick(stack, depth, consts, side, wins)
    seat = int(row[play_row.TO_PLAY])
    legal = 0 if at_start else play_row.legal_mask(row, seat, consts)
    forced = legal & (legal - 1) == 0 and not at_start  # one card to play: no order to look for
    best = -1
    hashed = np.uint64(0)
    killer = -1
    if not forced:
        best = trick_best(row, consts)
        hashed = killer_hash(row, best)
        killer = int(np.int64(hashed & np.uint64(heads_of(table) - 1)))
        prefetch_row(table, killer)  # read below, after the table's and the quick tricks' work at a trick's start
    slot = 0
    meta = 0
    deal = 0
    hands = keys[depth]
    code = 0
    if at_start:
        if depth >= 4 and stack[depth - 4, play_row.TRICK_N] == 0:  # the trick's start before: its key, renumbered
            for hand in range(4):
                hands[hand] = keys[depth - 4, hand]
            called = canonical_after(row, stack[depth - 4], order, hands, int(frames[depth - 4, _F_CALLED]))
        else:
            called = canonical(row, order, hands)
        frames[depth, _F_CALLED] = called
        turned = seats_alike(row) and side & 1 == 0
        frames[depth, _F_TURNED] = 1 if turned else 0
        meta = flags(row, 15 & ~side if turned else side, wants) | ((called + 1) << 29)
        deal = contract(row)
        code = lengths_of(row)
        own0, own1 = owners(hands)
        present = int(in_play_of(row) & ALWAYS)
        slot = chain_of(code, meta, deal, specials_of(own0, own1, present), heads_of(table))
        budget[LOOKED_UP] += 1
        entry = int(table[slot, 0])
        for _ in range(CHAIN):
            if entry <= 0:
                break
            prefetch_row(table, int(table[entry, META]) >> SKIP)
            if matches(table, entry, own0, own1, present, code, meta, deal, order):
                word = int(table[entry, WORD])
                lower = (word >> LOWER) & 15
                upper = (word >> UPPER) & 15
                if turned:
                    lower, upper = turned_round(lower, upper, left)
                if won + lower >= target or won + upper < target:
                    budget[ANSWERED] += 1
                    wins[depth] = mask_cards(word, row, order)
                    return won + (lower if won + lower >= target else upper)
            entry = int(table[entry, WORD]) & LINK
        bound, relied = sure_bound(row, consts, side, wants, target, won, left, most, order)
        if bound != UNKNOWN:
            wins[depth] = relied  # sure tricks rest on the top cards that make them
            return bound
    if at_start:
        legal = play_row.legal_mask(row, seat, consts)
    tag = int(np.int64(hashed >> np.uint64(24)))
    frame = frames[depth]
    frame[_F_KILLER] = killer
    frame[_F_TAG] = tag
    first = -1
    if not forced and table[killer, KILLER_TAG] == tag:
        first = stand_in(row, int(table[killer, KILLER_CARD]), legal, order)
    if forced:  # its one card, with no killer card to keep
        moves[depth, 0] = lowest_card(legal)
        count = 1
        frame[_F_LAZY] = 0
    elif first >= 0:  # the card that cut off here last time first; the rest ordered only if it does not
        moves[depth, 0] = first
        count = 1
        frame[_F_LAZY] = 1
    else:
        count = candidates(row, legal, consts, wants, side, order, moves[depth], moves[depth + DEPTH], best)
        frame[_F_LAZY] = 0
    high = wants_high(row, seat, side, wants)
    _open_frame(frame, count, high, at_start, slot, meta, deal, won, skipped_twins(moves[depth], count, legal), code)
    return _OPEN


@jit
def _last_trick(stack: Rows, depth: int, consts: Rows, side: int, wins: Rows) -> int:
    """The last trick's value: each plays his one card (no entry is kept for it)."""
    row = stack[depth]
    child = stack[depth + 1]
    copy_row(row, child)
    for _ in range(4):
        play_row.play_card(child, lowest_card(play_row.legal_mask(child, int(child[play_row.TO_PLAY]), consts)), consts)
    wins[depth] = trick_rank(row, child)
    return side_won(child, side)


@jit
def _open_frame(
    frame: Rows,
    count: int,
    high: bool,
    at_start: bool,
    slot: int,
    meta: int,
    deal: int,
    won: int,
    skipped: int,
    code: int,
) -> None:
    """A searched position's frame: its candidates, whose value it wants, and its table key."""
    frame[_F_COUNT] = count
    frame[_F_NEXT] = 0
    frame[_F_HIGH] = 1 if high else 0
    frame[_F_RESULT] = -1 if high else 99  # the best value so far: none yet
    frame[_F_START] = 1 if at_start else 0
    frame[_F_SLOT] = slot
    frame[_F_META] = meta
    frame[_F_DEAL] = deal
    frame[_F_WON] = won
    frame[_F_WINS] = 0
    frame[_F_SKIPPED] = skipped
    frame[_F_CODE] = code
    frame[_F_FLOORS] = 0


@jit
def _order_rest(search: Search, depth: int, consts: Rows, wants: int, side: int, order: Rows) -> None:
    """The whole list of a position whose killer card, searched first, did not cut off: the killer card
    stays first (searched), the others follow in ``candidates``' order."""
    row = search.stack[depth]
    moves = search.moves
    frame = search.frames[depth]
    first = int(moves[depth, 0])
    legal = play_row.legal_mask(row, int(row[play_row.TO_PLAY]), consts)
    best = trick_best(row, consts)
    count = candidates(row, legal, consts, wants, side, order, moves[depth], moves[depth + DEPTH], best)
    place = count
    for i in range(count):
        if moves[depth, i] == first:
            place = i
    if place == count:
        count += 1
    for j in range(place, 0, -1):
        moves[depth, j] = moves[depth, j - 1]
    moves[depth, 0] = first
    frame[_F_COUNT] = count
    frame[_F_SKIPPED] = skipped_twins(moves[depth], count, legal)
    frame[_F_LAZY] = 0


@jit
def _store(table: Rows, hands: Rows, frame: Rows, target: int, row: Rows, order: Rows) -> None:
    """A searched position's bound kept in the table (at the start of a trick), for every position that
    holds the same cards where its winning ranks say cards mattered: an entry of the same cards tightens its
    bounds, else a new entry heads the chain."""
    chain = int(frame[_F_SLOT])
    code = int(frame[_F_CODE])
    meta = int(frame[_F_META])
    deal = int(frame[_F_DEAL])
    won = int(frame[_F_WON])
    mask = relevant_mask(int(frame[_F_WINS]), row, order)
    left = 13 - int(row[play_row.TRICKS])
    lower = 0  # the tricks still to come: a search tells one bound, the other is what is left
    upper = left
    found = int(frame[_F_RESULT])
    if found >= target:
        lower = found - won
    else:
        upper = found - won
    if frame[_F_TURNED] == 1:
        lower, upper = turned_round(lower, upper, left)
    store_bounds(table, chain, hands, row, order, mask, code, meta, deal, lower, upper)


@jit
def store_bounds(
    table: Rows,
    chain: int,
    hands: Rows,
    row: Rows,
    order: Rows,
    mask: int,
    code: int,
    meta: int,
    deal: int,
    lower: int,
    upper: int,
) -> None:
    """Bounds on the tricks still to come from ``row`` (canonical ``hands``), kept for the cards of ``mask``:
    an entry of the same cards tightens its bounds, else a new entry heads ``chain``."""
    kept = 0
    for suit in range(4):
        kept |= bit_count((mask >> (13 * suit)) & 0x1FFF) << (KEPT + 4 * suit)
    own0, own1 = owners(hands)
    present = int(in_play_of(row) & ALWAYS)
    entry = int(table[chain, 0])
    for _ in range(CHAIN):
        if entry <= 0:
            break
        prefetch_row(table, int(table[entry, META]) >> SKIP)
        word = int(table[entry, WORD])
        if word & (0xFFFF << KEPT) == kept and matches(table, entry, own0, own1, present, code, meta, deal, order):
            lower = max(lower, (word >> LOWER) & 15)
            upper = min(upper, (word >> UPPER) & 15)
            table[entry, WORD] = (word & ~(0xFF << LOWER)) | (lower << LOWER) | (upper << UPPER)
            return
        entry = word & LINK
    entry = new_entry(table, chain)
    table[entry, WORD] |= kept | present | (lower << LOWER) | (upper << UPPER)
    table[entry, LENGTHS] = code
    table[entry, META] = meta | (int(table[entry, META]) & ~META_KEY)
    table[entry, DEAL] = deal
    table[entry, OWNERS] = own0 & mask
    table[entry, OWNERS + 1] = own1 & mask


@jit_uncounted
def at_least(search: Search, depth: int, consts: Rows, side: int, wants: int, target: int, order: Rows) -> int:
    """A bound on the side's tricks at the end of play from ``search.stack[depth]``, both sides at their
    best, that answers whether it reaches ``target``: at least the bound where that is ``target`` or more,
    at most it where it is less (fail-soft); ``UNKNOWN`` when the node budget ran out.

    A depth-first search: a seat that wants the side to reach the target stops at the first card
    that does, the other at the first that keeps it short (null-window alpha-beta). The bound is the best
    its cards found, not just yes or no, so a table entry holds for more targets and more tricks won."""
    stack, table, moves, keys, budget, frames, wins = search
    stack, table, moves, keys = unowned(stack), unowned(table), unowned(moves), unowned(keys)
    budget, frames, wins = unowned(budget), unowned(frames), unowned(wins)
    search = Search(stack, table, moves, keys, budget, frames, wins)
    consts, order = unowned(consts), unowned(order)
    top = depth
    answer = _enter(search, depth, consts, side, wants, target, order)
    while True:
        if answer == _OPEN:  # search the next candidate of the position at ``depth``
            frame = frames[depth]
            child = stack[depth + 1]
            copy_row(stack[depth], child)
            play_row.play_card(child, int(moves[depth, frame[_F_NEXT]]), consts)
            depth += 1
            answer = _enter(search, depth, consts, side, wants, target, order)
            continue
        if answer == UNKNOWN:
            return UNKNOWN
        if depth == top:
            return answer
        depth -= 1  # the child's answer, to its parent, with the ranks it rests on
        frame = frames[depth]
        edge = int(wins[depth + 1])
        if stack[depth, play_row.TRICK_N] == 3:  # the card completed a trick: its winner's rank, where it decided it
            edge |= trick_rank(stack[depth], stack[depth + 1])
        high = frame[_F_HIGH] == 1
        best = max(int(frame[_F_RESULT]), answer) if high else min(int(frame[_F_RESULT]), answer)
        frame[_F_RESULT] = best
        cut = best >= target if high else best < target
        if cut:
            killer = int(frame[_F_KILLER])
            if killer >= 0:
                table[killer, KILLER_TAG] = frame[_F_TAG]
                table[killer, KILLER_CARD] = moves[depth, frame[_F_NEXT]]
            frame[_F_WINS] = edge  # a cut-off rests on the card that made it
        else:
            frame[_F_WINS] = int(frame[_F_WINS]) | edge  # a position none of whose cards did rests on all
            floors = small_cards(stack[depth], int(moves[depth, frame[_F_NEXT]]), edge, int(frame[_F_FLOORS]), consts)
            frame[_F_FLOORS] = floors
            if frame[_F_LAZY] == 1:
                _order_rest(search, depth, consts, wants, side, order)
            following = int(frame[_F_NEXT]) + 1
            while following < frame[_F_COUNT] and below_floor(
                stack[depth], int(moves[depth, following]), floors, consts
            ):
                following += 1
            frame[_F_NEXT] = following
            if following < frame[_F_COUNT]:
                answer = _OPEN
                continue
        if not cut and frame[_F_SKIPPED] != 0:  # every move counted
            frame[_F_WINS] = int(frame[_F_WINS]) | twins_counted(
                stack[depth], int(frame[_F_SKIPPED]), int(frame[_F_WINS]), order
            )
        if frame[_F_START] == 1:
            _store(table, keys[depth], frame, target, stack[depth], order)
        wins[depth] = frame[_F_WINS]
        answer = int(frame[_F_RESULT])


class Search(NamedTuple):
    """What one search works in, passed as one: a row per depth, the table, the candidate cards per depth
    (and their scores), the table keys per depth, the node budget (``STATS``), the frames and the winning
    ranks per depth. The table may be shared by several searches (``Solver``, the expert's leaf)."""

    stack: Rows
    table: Rows
    moves: Rows
    keys: Rows
    budget: Rows
    frames: Rows
    wins: Rows


def new_search(table: Rows) -> Search:
    """A search's buffers around ``table``."""
    return Search(
        np.zeros((DEPTH + 1, play_row.ROW), dtype=np.int64),
        table,
        np.zeros((2 * DEPTH, 14), dtype=np.int64),
        np.zeros((DEPTH + 1, 4), dtype=np.int64),
        np.zeros(STATS, dtype=np.int64),
        np.zeros((DEPTH + 1, FRAME), dtype=np.int64),
        np.zeros(DEPTH + 1, dtype=np.int64),
    )


@jit
def value(row: Rows, consts: Rows, side: int, wants: int, search: Search, nodes: int, guess: int) -> int:
    """The side's tricks at the end of play from ``row``, exactly (``UNKNOWN`` past ``nodes`` nodes; the
    search's budget counts what it did: ``STATS``).

    A few null-window tests, each narrowing the range the value lies in, starting from ``guess`` (the
    parent position's value is a good one; below 0: ``first_guess``)."""
    _start(search, row, nodes)
    order = strength_order(row, consts)
    if guess < 0:
        guess = first_guess(row, consts, side, wants)
    low = side_won(row, side)
    high = ceiling(row, consts, side)
    if play_row.play_over(row, consts):
        high = low
    while low < high:
        target = min(max(guess, low + 1), high)
        found = at_least(search, 0, consts, side, wants, target, order)
        if found == UNKNOWN:
            search.budget[PROVEN_LOW] = low  # what the tests so far proved: a member is told "7-8 stik"
            search.budget[PROVEN_HIGH] = high
            return UNKNOWN
        if found >= target:
            low = found
            guess = found + 1
        else:
            high = found
            guess = found
    search.budget[PROVEN_LOW] = low
    search.budget[PROVEN_HIGH] = low
    return low


@jit
def _start(search: Search, row: Rows, nodes: int) -> None:
    search.stack[0, :] = row
    search.budget[:] = 0
    search.budget[LEFT] = nodes


@jit
def reaches(row: Rows, consts: Rows, side: int, wants: int, target: int, search: Search, nodes: int) -> int:
    """One null-window test: 1 if the side ends with at least ``target`` tricks, else 0 (or ``UNKNOWN``)."""
    _start(search, row, nodes)
    found = at_least(search, 0, consts, side, wants, target, strength_order(row, consts))
    if found == UNKNOWN:
        return UNKNOWN
    return 1 if found >= target else 0


class Solver:
    """One table and one set of work buffers, reused across the positions of a contract (what an
    earlier search learnt is kept: the bounds in the table hold whatever position asks)."""

    def __init__(self, consts: Rows, bits: int = DEFAULT_BITS) -> None:
        self.consts = consts
        self.table = new_table(bits)
        self.search = new_search(self.table)

    @property
    def budget(self) -> Rows:
        """The last search's budget: the nodes left, then what it did (``STATS``)."""
        return self.search.budget

    def value(self, row: Rows, side: int, wants: int, nodes: int, guess: int = -1) -> int:
        """The side's tricks at the end of play from ``row`` (``UNKNOWN`` past ``nodes`` nodes); ``guess``,
        where one is known, starts the search (below 0: the solver's own)."""
        return int(value(row, self.consts, side, wants, self.search, nodes, guess))

    @property
    def searched(self) -> int:
        """The nodes the last search visited."""
        return int(self.search.budget[SEARCHED])

    def bounds(self) -> tuple[int, int]:
        """The fewest and the most tricks the last ``value`` proved the side takes: its value twice where it
        settled, the range it narrowed the value to where its budget ran out."""
        return int(self.search.budget[PROVEN_LOW]), int(self.search.budget[PROVEN_HIGH])

    def stop(self) -> None:
        """Tells a search under way (on another thread) to end at its next position: it answers ``UNKNOWN``."""
        self.search.budget[LEFT] = -(1 << 62)

    def reaches(self, row: Rows, side: int, wants: int, target: int, nodes: int) -> int:
        """1 if the side ends with at least ``target`` tricks from ``row``, 0 if not, ``UNKNOWN``."""
        return int(reaches(row, self.consts, side, wants, target, self.search, nodes))
