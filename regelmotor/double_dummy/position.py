"""What a side wants of a deal and what it can still take: the search's first words (its constants, the side's
tricks, its ceiling).
"""

from __future__ import annotations

from regelmotor import play_row
from regelmotor.compiled import jit
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, TRUMP_GAME, sol_ends_early
from regelmotor.rules.cardplay.end_of_play import play_over as ends
from regelmotor.rules.cardplay.masks import JOKER_MASK, Rows, bit_count, lowest_card

NONE = 0
MOST = 1
"""The side takes as many tricks as it can (a trump game, grand, engelsk's pairs)."""
FEWEST = -1
"""The side keeps to as few as it can (a sol bid, nolo, pasnolo)."""
UNKNOWN = -1
"""What a search returns when it ran out of its node budget."""

DEPTH = 57
"""Cards a search can go deep (one deal's cards and one)."""
WORD = 0
"""A table entry's columns. ``WORD`` packs the next entry of its chain (``LINK``; 0 ends the chain), the bounds
on the tricks still to come (``LOWER``, ``UPPER``: 4 bits each), how many of each suit's highest cards the
entry keeps (``KEPT``: 4 bits a suit; the cards that mattered are a suit's highest, as the canonical numbering
places the cards in play at the top) and which of the jokers and the fordækt card are in play (their own bits,
``ALWAYS``). Then the suit lengths, the position's flags and the contract (together the chain's key), and the
kept cards' hands as two bits a card (``OWNERS``: bit 0, then bit 1 of the hand's number): with the suit
lengths and the specials equal, every kept card is in play in both positions, so its hand says all.
48 bytes an entry. The table's first quarter holds only the chains' heads (column 0); the entries follow."""
LENGTHS = 1
META = 2
DEAL = 3
OWNERS = 4
ENTRY = 6
HEADS = 2
"""The chains' heads take the table's first ``2**-HEADS`` of rows."""
LINK = (1 << 28) - 1
SKIP = 35
"""Where an entry's ``META`` keeps the entry after the next in its chain (28 bits; below them, the key's flags):
a walk along a chain asks for that row while it compares the next one, two misses under way at once."""
META_KEY = (1 << SKIP) - 1
LOWER = 28
UPPER = 32
KEPT = 36
KILLER_TAG = 1
KILLER_CARD = 2
"""The chains' heads' rows keep, in these columns, the killer table: a position's last cut-off card, tried
first when the position (by ``killer_key``) comes again (hints only: a wrong one costs time, never a value)."""
CHAIN = 256
"""Entries of a chain looked through, the newest first (DDS keeps such lists per leader and suit lengths). A
`standard` hand table's chains run past a hundred entries of one key (the jokers multiply the positions of
one suit pattern); 96 left 2% of its lookups short of the end, and 1024 finds no more than 256."""
LEFT = 0
"""The budget's nodes the search may still visit (below 0: it ends, answering ``UNKNOWN``)."""
SEARCHED = 1
"""The nodes it searched."""
LOOKED_UP = 2
"""The positions it looked up in the table at a trick's start."""
ANSWERED = 3
"""The table's answers among them."""
PROVEN_LOW = 4
"""After ``value``: the fewest tricks the side was proven to take (its value, where the search settled)."""
PROVEN_HIGH = 5
"""After ``value``: the most tricks the side may still take (its value, where the search settled)."""
STATS = 6
"""A budget's fields, by the names above."""
DEFAULT_BITS = 21
"""A table of 2^21 rows (100 MB, 1,572,863 entries): most searches never fill it; the hard ones (a sol, a
`standard` table's worst cells) fill it many times, and each time it keeps at most half, those nearest
the root."""


# --- what the side wants -------------------------------------------------------------------------


@jit
def objective(row: Rows) -> int:
    """Whether the declaring side wants ``MOST`` or ``FEWEST`` tricks, or ``NONE`` (each for himself,
    or a sol of several declarers each on his own: no two sides)."""
    side = int(row[play_row.SIDE])
    if side == EACH:
        return NONE
    if side == TRUMP_GAME:
        return MOST
    if bit_count(int(row[play_row.DECLARERS])) > 1 and side != PAIRS:
        return NONE
    return FEWEST if row[play_row.SOL_LIMIT] >= 0 else MOST


@jit
def side_won(row: Rows, side: int) -> int:
    total = 0
    for seat in range(4):
        if (side >> seat) & 1:
            total += int(row[play_row.WON + seat])
    return total


@jit
def ceiling(row: Rows, consts: Rows, side: int) -> int:
    """The most tricks the side can end play with: all it has and all that are left, but where play ends as
    soon as the side has passed its bid's most (a sol, by ``end_of_play``'s rule, asked of the moment the
    side would take one too many), one more than that most: a search for more needs no search."""
    won = side_won(row, side)
    left = 13 - int(row[play_row.TRICKS])
    limit = int(row[play_row.SOL_LIMIT])
    if limit < 0 or row[play_row.FIRST_TRICKS] >= 0 or won > limit or won + left <= limit + 1 or side == 0:
        return won + left
    extra = limit + 1 - won
    first = lowest_card(side)
    over = ends(
        int(row[play_row.TRICKS]) + extra,
        int(row[play_row.WON]) + (extra if first == 0 else 0),
        int(row[play_row.WON + 1]) + (extra if first == 1 else 0),
        int(row[play_row.WON + 2]) + (extra if first == 2 else 0),
        int(row[play_row.WON + 3]) + (extra if first == 3 else 0),
        int(row[play_row.DECLARERS]),
        int(row[play_row.SIDE]),
        limit,
        int(row[play_row.FIRST_TRICKS]),
        int(sol_ends_early(consts)),
    )
    return limit + 1 if over else won + left


@jit
def wants_high(row: Rows, seat: int, side: int, wants: int) -> bool:
    """Whether ``seat`` plays for the side's tricks to be many (the side in a ``MOST`` game, its
    opponents in a ``FEWEST`` one)."""
    return ((side >> seat) & 1 == 1) == (wants == MOST)


@jit
def first_guess(row: Rows, consts: Rows, side: int, wants: int) -> int:
    """A first guess at the side's tricks, at one end of what is possible where the cards lean that way
    (macroxue's bridge-solver guesses so): a null-window test far from the value fails soft with a bound
    near it, cheaply, where a guess in the middle pays for every test on the way."""
    low = side_won(row, side)
    left = 13 - int(row[play_row.TRICKS])
    if wants == FEWEST:
        return min(max(int(row[play_row.SOL_LIMIT]) + 1, low), low + left)
    ours = 0
    theirs = 0
    our_trumps = 0
    their_trumps = 0
    trump = int(row[play_row.TRUMP])
    fd = int(row[play_row.FD_SUIT])
    for seat in range(4):
        hand = int(row[play_row.HANDS + seat])
        points = 4 * bit_count(hand & JOKER_MASK)
        rest = hand & ((1 << 52) - 1)
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            points += max(0, play_row.card_strength(card, 0, consts) - 9)  # ace 4, king 3, queen 2, knight 1
        trumps = bit_count(hand & play_row.suit_mask(trump, fd)) if trump >= 0 else 0
        if (side >> seat) & 1:
            ours += points
            our_trumps = max(our_trumps, trumps)
        else:
            theirs += points
            their_trumps = max(their_trumps, trumps)
    if trump < 0 and 2 * ours < theirs:
        return low
    if trump < 0 and ours < theirs:
        return low + left // 2 + 1
    if trump >= 0 and ours < theirs and our_trumps < their_trumps:
        return low
    return low + left
