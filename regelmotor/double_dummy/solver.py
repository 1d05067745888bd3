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
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, TRUMP_GAME, sol_ends_early
from regelmotor.rules.cardplay.end_of_play import PARTNER as PARTNER_SIDE
from regelmotor.rules.cardplay.end_of_play import play_over as ends
from regelmotor.rules.cardplay.jokers import led_beats_trump, played_any_time
from regelmotor.rules.cardplay.masks import (
    FORDAEKT,
    JOKER_MASK,
    JOKER_SUIT,
    Rows,
    bit_count,
    jit,
    jit_counted,
    jit_inlined,
    jit_uncounted,
    lowest_card,
    prefetch_row,
    unowned,
)

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


# --- the transposition table ---------------------------------------------------------------------


def new_table(bits: int = DEFAULT_BITS) -> Rows:
    """An empty table of ``2**bits`` rows (from 4 to 28: an entry's link to the next has 28 bits)."""
    if not 4 <= bits <= 28:
        raise ValueError(f"a table has 2^4 to 2^28 rows (an entry's link has 28 bits), not 2^{bits}")
    table = np.zeros((1 << bits, ENTRY), dtype=np.int64)
    clear(table)
    return table


def clear(table: Rows) -> None:
    """Every chain empty and every killer card forgotten. Only the heads and the next free row are reset: an
    entry's row is written whole when it is handed out, so a clear costs a quarter of the table, not all of
    it. The killer cards go too: another deal's mislead more than none do (a full engelsk solve searched
    about a quarter fewer nodes without them)."""
    heads = heads_of(table)
    table[: heads + 1, 0] = -1
    table[:heads, KILLER_TAG] = -1


@jit
def heads_of(table: Rows) -> int:
    """The number of chains: the rows before the entries (each also a row of the killer table)."""
    return int(table.shape[0] >> HEADS)


@jit
def keyed_by_tricks(row: Rows) -> bool:
    """Whether the tricks already won decide when play ends (a named bid of one side that ends early),
    so two positions with the same cards left but other tricks won are not the same position."""
    side = int(row[play_row.SIDE])
    return not (side == TRUMP_GAME or side == PAIRS or side == EACH or row[play_row.DECLARERS] == 0)  # noqa: SIM109


@jit
def seats_alike(row: Rows) -> bool:
    """Whether play from here is the same whoever declared: a trump game of two sides (a hand record's, or
    one whose partner card has fallen), where each side's tricks are the tricks left less the other's. Its
    table entries then serve both sides and every declarer (DDS keeps one table for the four leaders of a
    trump): kept for the side of seat 0, read for the other side turned round."""
    return bool(
        row[play_row.SIDE] == TRUMP_GAME
        and row[play_row.SOL_LIMIT] < 0
        and row[play_row.FIRST_TRICKS] < 0
        and (row[play_row.CALLED] < 0 or row[play_row.CALLED_PLAYED] != 0)
    )


@jit
def turned_round(lower: int, upper: int, left: int) -> tuple[int, int]:
    """Bounds on one side's tricks still to come, as bounds on the other side's (``left`` tricks to play)."""
    return left - upper, left - lower


@jit
def flags(row: Rows, side: int, wants: int) -> int:
    """What, besides the hands and the contract, decides the rest of play at the start of a trick (where
    ``seats_alike``, ``side`` is seat 0's and the partner is left out)."""
    meta = int(row[play_row.LEADER]) | (int(row[play_row.CALLED_PLAYED]) << 2) | (int(row[play_row.SUIT_LED]) << 3)
    meta |= (7 if seats_alike(row) else int(row[play_row.PARTNER]) + 2) << 4
    meta |= side << 7
    meta |= (wants + 1) << 11
    if keyed_by_tricks(row):  # the declarers' tricks (with a fixed partner's) decide when play ends; no one else's
        declarers = int(row[play_row.DECLARERS])
        kept = declarers
        if row[play_row.SIDE] == PARTNER_SIDE:
            kept |= ((declarers << 2) | (declarers >> 2)) & 15
        for seat in range(4):
            if (kept >> seat) & 1:
                meta |= int(row[play_row.WON + seat]) << (13 + 4 * seat)
    return meta


@jit
def contract(row: Rows) -> int:
    """The contract's fields, so one table never mixes two contracts' values (where ``seats_alike``, not who
    declared)."""
    c = int(row[play_row.TRUMP]) + 1
    c |= int(row[play_row.SOL]) << 3
    c |= (int(row[play_row.CALLED]) + 1) << 4
    c |= (int(row[play_row.FD_SUIT]) + 1) << 10
    c |= (int(row[play_row.SIDE]) + 1) << 13
    c |= (int(row[play_row.SOL_LIMIT]) + 1) << 16
    c |= (int(row[play_row.FIRST_TRICKS]) + 1) << 21
    if seats_alike(row):
        return c | (1 << 37)
    c |= (int(row[play_row.EXEMPT]) + 1) << 26
    c |= int(row[play_row.DECLARERS]) << 29
    c |= int(row[play_row.FIXED_SIDE]) << 33
    return c


@jit
def strength_order(row: Rows, consts: Rows) -> Rows:
    """The ranks from the strongest to the weakest in the contract's order (trump games' or sol's),
    then each rank's place in that order, then for each count from 0 to 13 the ranks of that many strongest
    (as bits of one suit: an entry's kept cards)."""
    order = np.zeros(40, dtype=np.int64)
    strengths = np.empty(13, dtype=np.int64)
    for rank in range(13):
        strengths[rank] = play_row.card_strength(rank, int(row[play_row.SOL]), consts)
    for k in range(13):
        best = -1
        for rank in range(13):
            if strengths[rank] >= 0 and (best < 0 or strengths[rank] > strengths[best]):
                best = rank
        order[k] = best
        order[13 + best] = k
        order[27 + k] = order[26 + k] | (1 << best)
        strengths[best] = -1
    return order


@jit
def canonical_suit(row: Rows, order: Rows, out: Rows, suit: int) -> int:
    """One suit of ``canonical``: the suit's cards of each hand in ``out`` renumbered by their place among
    the suit's cards still in play; the partner card's new number where it is of this suit and out, else -1."""
    called = int(row[play_row.CALLED]) if row[play_row.CALLED_PLAYED] == 0 else -1
    new_called = -1
    cleared = ~(np.int64(0x1FFF) << np.int64(13 * suit))
    h0 = int(row[play_row.HANDS])
    h1 = int(row[play_row.HANDS + 1])
    h2 = int(row[play_row.HANDS + 2])
    h3 = int(row[play_row.HANDS + 3])
    o0 = int(out[0]) & cleared
    o1 = int(out[1]) & cleared
    o2 = int(out[2]) & cleared
    o3 = int(out[3]) & cleared
    in_play = (h0 | h1 | h2 | h3) >> (13 * suit)
    place = 0
    for k in range(13):
        rank = int(order[k])
        if not (in_play >> rank) & 1:
            continue
        card = 13 * suit + rank
        new = 13 * suit + int(order[place])
        bit = 1 << new
        if (h0 >> card) & 1:
            o0 |= bit
        elif (h1 >> card) & 1:
            o1 |= bit
        elif (h2 >> card) & 1:
            o2 |= bit
        else:
            o3 |= bit
        if card == called:
            new_called = new
        place += 1
    out[0] = o0
    out[1] = o1
    out[2] = o2
    out[3] = o3
    return new_called


@jit
def canonical_specials(row: Rows, out: Rows) -> None:
    """``canonical``'s jokers and fordækt card: the fordækt card as it is, the jokers numbered by hand (they
    are alike: a led one wins, another is worth nothing)."""
    joker = 52
    for h in range(4):
        hand = int(row[play_row.HANDS + h])
        bits = hand & (np.int64(1) << np.int64(FORDAEKT))
        for _ in range(bit_count(hand & JOKER_MASK)):
            bits |= np.int64(1) << np.int64(joker)
            joker += 1
        out[h] = (int(out[h]) & ((1 << 52) - 1)) | bits


@jit
def canonical(row: Rows, order: Rows, out: Rows) -> int:
    """The hands with each suit's cards renumbered by their place among the suit's cards still in
    play (the highest left is the ace, the next the king, ...), into ``out``; the partner card's new
    number (-1 once it has fallen). Two positions that differ only in which low cards have gone play
    the same, so they share one entry (DDS's relative ranks)."""
    canonical_specials(row, out)
    new_called = -1
    for suit in range(4):
        found = canonical_suit(row, order, out, suit)
        if found >= 0:
            new_called = found
    return new_called


@jit
def canonical_after(row: Rows, before: Rows, order: Rows, out: Rows, called_before: int) -> int:
    """``canonical`` of ``row`` from ``out`` holding that of ``before``, a position a trick earlier with
    ``called_before`` its partner card's new number: only the suits the trick took cards of are
    renumbered (macroxue's bridge-solver does so), the others keep their numbers."""
    gone = in_play_of(before) & ~in_play_of(row)
    canonical_specials(row, out)
    new_called = called_before if row[play_row.CALLED_PLAYED] == 0 else -1
    for suit in range(4):
        if (gone >> (13 * suit)) & 0x1FFF:
            found = canonical_suit(row, order, out, suit)
            if new_called >= 0 and new_called // 13 == suit:
                new_called = found
    return new_called


@jit
def lengths_of(row: Rows) -> int:
    """The suit lengths of the four hands at a trick's start (the fourth suit's follows from the hand's size
    and its jokers, which every entry keeps): positions of one bucket can differ only in which cards."""
    code = bit_count(int(row[play_row.HANDS])) << 48
    for h in range(4):
        hand = int(row[play_row.HANDS + h])
        for suit in range(3):
            code |= bit_count((hand >> (13 * suit)) & 0x1FFF) << (4 * (3 * h + suit))
    return code


@jit_inlined
def specials_of(own0: int, own1: int, present: int) -> int:
    """Which jokers and fordækt card are in play, and in which hands (12 bits)."""
    return ((present >> 52) & 15) | (((own0 >> 52) & 15) << 4) | (((own1 >> 52) & 15) << 8)


@jit
def entry_chain(table: Rows, entry: int) -> int:
    """The chain ``entry`` hangs in."""
    own0 = int(table[entry, OWNERS])
    own1 = int(table[entry, OWNERS + 1])
    specials = specials_of(own0, own1, int(table[entry, WORD] & ALWAYS))
    code = int(table[entry, LENGTHS])
    return chain_of(code, int(table[entry, META]) & META_KEY, int(table[entry, DEAL]), specials, heads_of(table))


@jit
def chain_of(code: int, meta: int, deal: int, specials: int, heads: int) -> int:
    """The chain a position's entries hang in: a hash of its suit lengths, flags and contract, and where the
    jokers and the fordækt card are (``specials_of``: every entry keeps them whole, so positions that differ
    there never share an entry, and their entries need not share a chain)."""
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    h = (h ^ np.uint64(code)) * prime
    h ^= h >> np.uint64(29)
    h = (h ^ np.uint64(meta)) * prime
    h = (h ^ np.uint64(deal)) * prime
    h = (h ^ np.uint64(specials)) * prime
    h ^= h >> np.uint64(32)
    return int(np.int64(h & np.uint64(heads - 1)))


@jit_inlined
def owners(hands: Rows) -> tuple[int, int]:
    """The cards of the four hands, as bit 0 and bit 1 of the number of the hand holding each."""
    h1 = int(hands[1])
    h2 = int(hands[2])
    h3 = int(hands[3])
    return h1 | h3, h2 | h3


@jit_inlined
def kept_of(word: int, suit: int) -> int:
    """How many of ``suit``'s highest cards an entry's ``word`` keeps (``KEPT``)."""
    return (word >> (KEPT + 4 * suit)) & 15


@jit_inlined
def kept_mask(word: int, order: Rows) -> int:
    """The cards, in the canonical numbering, an entry's ``word`` keeps: each suit's highest, as many as
    ``KEPT`` says, and ``ALWAYS``."""
    mask = ALWAYS
    for suit in range(4):
        mask |= int(order[26 + kept_of(word, suit)]) << (13 * suit)
    return int(mask)


@jit_inlined
def matches(
    table: Rows, entry: int, own0: int, own1: int, present: int, code: int, meta: int, deal: int, order: Rows
) -> bool:
    """Whether ``entry`` holds the position: the same suit lengths, flags and contract, the same jokers and
    fordækt card in play (``present``), and the same hands (``owners``) where the entry's cards mattered (a
    masked comparison: partition search)."""
    if table[entry, LENGTHS] != code or table[entry, META] & META_KEY != meta or table[entry, DEAL] != deal:
        return False
    word = int(table[entry, WORD])
    if word & ALWAYS != present:
        return False
    mask = kept_mask(word, order)
    return bool(own0 & mask == table[entry, OWNERS] and own1 & mask == table[entry, OWNERS + 1])


@jit
def new_entry(table: Rows, chain: int) -> int:
    """A fresh entry at the head of ``chain``; where the table is full, it first keeps only the entries
    nearest the root (``keep_nearest_root``)."""
    heads = heads_of(table)
    free = int(table[heads, 0])
    if free <= heads:
        free = heads + 1
    elif free >= table.shape[0]:
        free = keep_nearest_root(table)
    table[heads, 0] = free + 1
    table[free, WORD] = 0
    hang(table, chain, free)
    return free


@jit_inlined
def hang(table: Rows, chain: int, entry: int) -> None:
    """``entry`` made the head of ``chain``, linked to the head before and to the one after it (``SKIP``; the
    rest of its word and key kept)."""
    head = max(0, int(table[chain, 0]))
    after = int(table[head, WORD]) & LINK if head > 0 else 0
    table[entry, WORD] = (int(table[entry, WORD]) & ~LINK) | head
    table[entry, META] = (int(table[entry, META]) & META_KEY) | (after << SKIP)
    table[chain, 0] = entry


@jit_counted
def keep_nearest_root(table: Rows) -> int:
    """A full table emptied of all but at most half its entries, those of the most cards left (a search
    near the root cost the most to make, one near the end is made again cheaply; every entry's bounds
    hold for any position it matches, so any of them may go); the chains are linked again, newest first.
    Answers the first free row."""
    heads = heads_of(table)
    end = table.shape[0]
    counts = np.zeros(15, dtype=np.int64)
    for e in range(heads + 1, end):
        counts[min(14, int(table[e, LENGTHS]) >> 48)] += 1
    room = (end - heads - 1) // 2
    least = 15  # the fewest cards left an entry kept has
    kept = 0
    while least > 0 and kept + counts[least - 1] <= room:
        least -= 1
        kept += counts[least]
    for h in range(heads):
        table[h, 0] = -1
    free = heads + 1
    for e in range(heads + 1, end):
        if int(table[e, LENGTHS]) >> 48 >= least:
            if free != e:
                table[free, :] = table[e, :]
            hang(table, entry_chain(table, free), free)
            free += 1
    return int(free)


@jit_inlined
def copy_row(row: Rows, into: Rows) -> None:
    """``into[:] = row`` as a plain loop: numba compiles a slice's assignment with the checks of numpy's
    broadcasting (a clamped index a column), where a row's copy at every node wants the plain copy."""
    for column in range(play_row.ROW):
        into[column] = row[column]


@jit
def in_play_of(row: Rows) -> int:
    return (
        int(row[play_row.HANDS])
        | int(row[play_row.HANDS + 1])
        | int(row[play_row.HANDS + 2])
        | int(row[play_row.HANDS + 3])
    )


@jit
def out_or_in_trick(row: Rows) -> int:
    """The cards still in a hand or in the trick: a card of the trick between two makes them differ."""
    in_play = in_play_of(row)
    for i in range(int(row[play_row.TRICK_N])):
        in_play |= 1 << int(row[play_row.TRICK + i])
    return in_play


ALWAYS = JOKER_MASK | (np.int64(1) << np.int64(FORDAEKT))
"""What every entry keeps in full: the jokers and the fordækt card (no rank makes them alike or not)."""


@jit
def relevant_mask(wins: int, row: Rows, order: Rows) -> int:
    """The cards, in the canonical numbering, a position's entry keeps: in each suit those at or above the
    weakest card that decided a trick below it (``wins``, absolute cards), every card of the partner card's
    suit while it is out and of the fordækt suit (rules that read a card, not a rank), and ``ALWAYS``."""
    in_play = in_play_of(row)
    called = int(row[play_row.CALLED]) if row[play_row.CALLED_PLAYED] == 0 else -1
    fd = int(row[play_row.FD_SUIT])
    mask = ALWAYS
    for suit in range(4):
        full = suit == fd or (0 <= called < 52 and called // 13 == suit)
        k = 0
        count = 0
        for j in range(13):
            card = 13 * suit + int(order[j])
            if (in_play >> card) & 1:
                count += 1
                if full or (wins >> card) & 1:
                    k = max(k, count)
        for j in range(k):
            mask |= np.int64(1) << np.int64(13 * suit + int(order[j]))
    return int(mask)


@jit
def mask_cards(word: int, row: Rows, order: Rows) -> int:
    """The absolute cards an entry's ``word`` stands for in the position ``row``: in each suit as many of the
    highest cards in play as the entry keeps of that suit (a hit's winning ranks, re-derived)."""
    in_play = in_play_of(row)
    cards = 0
    for suit in range(4):
        k = kept_of(word, suit)
        count = 0
        for j in range(13):
            card = 13 * suit + int(order[j])
            if count < k and (in_play >> card) & 1:
                cards |= int(np.int64(1) << np.int64(card))
                count += 1
    return cards


@jit
def trick_rank(row: Rows, child: Rows) -> int:
    """The card whose rank decided the trick that ``child`` (just after the trick) completed from ``row`` (as
    a mask; 0 where no rank did: a joker's trick, or a card that was the only one of its suit)."""
    winner = int(child[play_row.TRICK + (int(child[play_row.LEADER]) - int(row[play_row.LEADER])) % 4])
    if winner >= 52:
        return 0
    fd = int(row[play_row.FD_SUIT])
    suit = play_row.card_suit(winner, fd)
    alike = 0
    for i in range(4):
        if play_row.card_suit(int(child[play_row.TRICK + i]), fd) == suit:
            alike += 1
    return (1 << winner) if alike >= 2 else 0


# --- the cards worth searching -------------------------------------------------------------------


@jit
def next_in_play(card: int, in_play: int, order: Rows) -> int:
    """The next card above ``card`` in its suit, in the contract's order, that is still in ``in_play``;
    -1 if none is."""
    suit = card // 13
    q = int(order[13 + card % 13]) - 1
    while q >= 0 and not (in_play >> (13 * suit + int(order[q]))) & 1:
        q -= 1
    return 13 * suit + int(order[q]) if q >= 0 else -1


@jit
def lead_ruffs(row: Rows, suit: int, seat: int, side: int, declaring: bool, trump: int) -> int:
    """-1 where a seat of the other side can ruff a lead of ``suit`` (void in it, with trumps), 1 where only a
    partner can, else 0 (move ordering only)."""
    fd = int(row[play_row.FD_SUIT])
    cards = play_row.suit_mask(suit, fd)
    trumps = play_row.suit_mask(trump, fd)
    found = 0
    for other in range(4):
        hand = int(row[play_row.HANDS + other])
        if other != seat and hand & cards == 0 and hand & trumps != 0:
            if ((side >> other) & 1 == 1) != declaring:
                return -1
            found = 1
    return found


@jit
def best_reply(row: Rows, seat: int, consts: Rows) -> int:
    """The strongest card ``seat`` could add to the trick: his highest of the led suit, else his highest
    trump; -1 where he has neither, or a joker was led (move ordering only)."""
    fd = int(row[play_row.FD_SUIT])
    led = play_row.card_suit(int(row[play_row.TRICK]), fd)
    if led == JOKER_SUIT:
        return -1
    hand = int(row[play_row.HANDS + seat])
    cards = hand & play_row.suit_mask(led, fd)
    trump = int(row[play_row.TRUMP])
    if cards == 0 and trump >= 0:
        cards = hand & play_row.suit_mask(trump, fd)
    return play_row.strongest_of(cards, int(row[play_row.SOL]), consts)


@jit
def beaten_later(row: Rows, n: int, consts: Rows, side: int, declaring: bool) -> bool:
    """Whether a seat of the other side still to play to the trick of ``n`` cards (in ``row``'s trick slots)
    could beat the card winning it, with his strongest card (move ordering only)."""
    leader = int(row[play_row.LEADER])
    for place in range(n, 4):
        seat = (leader + place) % 4
        if seat == row[play_row.TO_PLAY] or ((side >> seat) & 1 == 1) == declaring:
            continue
        reply = best_reply(row, seat, consts)
        if reply >= 0:
            row[play_row.TRICK + n] = reply
            if play_row.winning_index(row, n + 1, consts) == n:
                return True
    return False


@jit
def lead_facts(
    row: Rows, suit: int, seat: int, in_play: int, side: int, declaring: bool, trump: int, sol: int, consts: Rows
) -> int:
    """For a lead of ``suit`` by ``seat`` (move ordering only), packed in one number: the strength of the
    strongest card of the suit outside his hand (0 for none), whether its holder is of his side, and
    whether a seat of the other side (-1) or only a partner (1) can ruff the lead."""
    fd = int(row[play_row.FD_SUIT])
    mine = int(row[play_row.HANDS + seat])
    strongest = 0
    friend = 0
    card = play_row.strongest_of(in_play & ~mine & play_row.suit_mask(suit, fd), sol, consts)
    if card >= 0 and play_row.card_strength(card, sol, consts) > 0:  # a card of no strength (fordækt) counts as none
        strongest = play_row.card_strength(card, sol, consts)
        for h in range(4):
            if (int(row[play_row.HANDS + h]) >> card) & 1:
                friend = 1 if ((side >> h) & 1 == 1) == declaring else 0
    ruff = 0
    if trump >= 0 and suit != trump:
        ruff = lead_ruffs(row, suit, seat, side, declaring, trump) + 1
    return strongest | (friend << 8) | (ruff << 9)


@jit
def sol_defence(
    row: Rows,
    card: int,
    n: int,
    side: int,
    strength: int,
    takes: bool,
    declarer_winning: bool,
    declarer_played: bool,
    consts: Rows,
) -> int:
    """A card's place for a seat against a sol (move ordering only): leading, a low card under all the
    declaring side's cards of its suit first; following before the declarer, a low card; after him, a card
    that leaves him the trick, the highest first; where the trick is his opponents' anyway, or discarding,
    the highest card (a high card kept would have to take a trick later); a joker thrown in place of a card
    last."""
    fd = int(row[play_row.FD_SUIT])
    suit = play_row.card_suit(card, fd)
    if n == 0:
        theirs = 0
        for seat in range(4):
            if (side >> seat) & 1:
                theirs |= int(row[play_row.HANDS + seat])
        low = (
            play_row.weakest_of(theirs & play_row.suit_mask(suit, fd), int(row[play_row.SOL]), consts)
            if suit != JOKER_SUIT
            else -1
        )
        if low < 0:
            return -strength
        return (200 if play_row.card_strength(low, int(row[play_row.SOL]), consts) > strength else 100) - strength
    led = play_row.card_suit(int(row[play_row.TRICK]), fd)
    if suit == JOKER_SUIT and led != JOKER_SUIT:
        return -300  # a joker thrown keeps a card for later, at the cost of a trick's choice: seldom the defence
    if suit != led:
        return strength
    if not declarer_played:
        return -strength
    if declarer_winning:
        return -strength if takes else 100 + strength
    return strength


@jit
def candidates(
    row: Rows, legal: int, consts: Rows, wants: int, side: int, order: Rows, out: Rows, scores: Rows, best: int
) -> int:
    """The legal cards worth searching, one of each run of equivalent cards, into ``out``; how many.

    Two cards of one suit in the same hand are equivalent when every card ranked between them that
    is still in a hand or in the trick is in that hand too; the jokers of a hand are all alike (a led
    one wins, another is worth nothing). The likeliest best cards come first (the search cuts off
    sooner, on a line that needs fewer ranks): leading, the top card that takes the trick, a low card to
    the partner's highest, then the low ones, a lead into the other side's ruff last. Following, low ones
    where the seat's own side wins the trick and no one after can beat it (macroxue's bridge-solver orders
    so); else, second or third to play in the led suit with the other side next, the highest card that
    takes the trick (it draws the next seat's high cards: third hand high), fourth or ruffing the cheapest,
    then the low ones; a joker thrown in place of following suit last (a joker is worth a trick only led),
    and a joker led late, before a lead into the other side's ruff (its trick is as sure later).
    In a sol the declarer's highest card that stays under. ``order`` is ``strength_order``'s, ``best`` the
    place in the trick of the card winning it so far (``trick_best``).
    """
    seat = int(row[play_row.TO_PLAY])
    n = int(row[play_row.TRICK_N])
    sol = int(row[play_row.SOL])
    in_play = out_or_in_trick(row)
    mine = int(row[play_row.HANDS + seat])
    called = int(row[play_row.CALLED])
    declaring = (side >> seat) & 1 == 1
    safe = False  # the seat's side wins the trick whatever the seats after play
    declarer_winning = False  # in a sol: the declaring side wins the trick so far
    declarer_played = False
    high_first = False  # second or third to play in a suit, the other side next: the highest taker first
    led_suit = -1
    if n > 0:
        ahead = (int(row[play_row.LEADER]) + best) % 4
        declarer_winning = (side >> ahead) & 1 == 1
        for place in range(n):
            declarer_played |= (side >> ((int(row[play_row.LEADER]) + place) % 4)) & 1 == 1
        if wants == MOST and declarer_winning == declaring:
            safe = not beaten_later(row, n, consts, side, declaring)
        led_suit = play_row.card_suit(int(row[play_row.TRICK]), int(row[play_row.FD_SUIT]))
        next_seat = (seat + 1) % 4
        high_first = wants == MOST and n < 3 and led_suit != JOKER_SUIT and ((side >> next_seat) & 1 == 1) != declaring
    count = 0
    trump = int(row[play_row.TRUMP]) if wants == MOST else -1
    facts = np.int64(0)  # a lead's facts per suit (``lead_facts``), 16 bits each, worked out once a suit
    known = 0
    rest = legal
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        ruffed = False
        if 52 <= card < 55 and legal & ((1 << card) - 1) & JOKER_MASK:
            continue
        strength = play_row.card_strength(card, sol, consts)
        takes = card >= 52 if n == 0 else False
        to_partner = False
        if card < 52 and card != called:
            higher = next_in_play(card, in_play, order)  # skip this card when that one is its twin
            if higher >= 0 and (mine >> higher) & 1 and (legal >> higher) & 1 and higher != called:
                continue
            if n == 0:  # a lead of the suit's highest card left wins it unless trumped
                suit = card // 13
                if not (known >> suit) & 1:
                    known |= 1 << suit
                    fact = lead_facts(row, suit, seat, in_play, side, declaring, trump, sol, consts)
                    facts |= np.int64(fact) << np.int64(16 * suit)
                fact = int((facts >> np.int64(16 * suit)) & np.int64(0xFFFF))
                takes = strength > fact & 0xFF
                to_partner = not takes and (fact >> 8) & 1 == 1
                ruff = (fact >> 9) - 1 if trump >= 0 and suit != trump else 0
                if ruff < 0:  # the other side ruffs: a poor lead; a partner ruffs: a good one
                    takes = to_partner = False
                    ruffed = True
                elif ruff > 0 and not takes:
                    to_partner = True
        if n > 0:
            row[play_row.TRICK + n] = card
            takes = play_row.winning_index(row, n + 1, consts) == n
        if wants == FEWEST and declaring:  # the highest card that stays under, else the highest that takes
            score = strength if takes else 100 + strength
        elif wants == FEWEST:
            score = sol_defence(row, card, n, side, strength, takes, declarer_winning, declarer_played, consts)
        elif safe:
            score = -strength - (100 if takes else 0)
        elif to_partner:
            score = 50 - strength
        elif takes and high_first and play_row.card_suit(card, int(row[play_row.FD_SUIT])) == led_suit:
            score = 100 + strength
        else:
            score = 100 - strength if takes else -strength
        if ruffed:
            score -= 200
        if wants == MOST and 52 <= card < 55:  # led, its trick is as sure later; thrown, it is given up
            score = -150 if n == 0 else score - 300
        if n == 0 and trump >= 0 and card < 52 and card // 13 == trump:  # a trump lead, oddly, seldom best
            score -= 100
        j = count  # insertion by score, highest first
        while j > 0 and scores[j - 1] < score:
            scores[j] = scores[j - 1]
            out[j] = out[j - 1]
            j -= 1
        scores[j] = score
        out[j] = card
        count += 1
    return count


@jit
def twins(rows: Rows, cards: Rows, consts: Rows) -> Rows:
    """For each of the seat's legal ``cards``, the index of the card that stands for its run of equivalent
    cards (the highest of the run, by ``candidates``' rule) on every one of the sampled ``rows`` at once.

    A card ranked between two of the seat's cards that is still in a hand on any of the rows, or in the
    trick, makes them differ; the partner card and the fordækt card stand for themselves. The seat's
    legal jokers are one run, stood for by the lowest. On every row, a card and the card that stands for
    it take the same tricks double dummy, so a bot weighs one of them, not both."""
    seat = int(rows[0, play_row.TO_PLAY])
    order = strength_order(rows[0], consts)
    in_play = 0
    for r in range(rows.shape[0]):
        for h in range(4):
            in_play |= int(rows[r, play_row.HANDS + h])
    for i in range(int(rows[0, play_row.TRICK_N])):
        in_play |= 1 << int(rows[0, play_row.TRICK + i])
    mine = int(rows[0, play_row.HANDS + seat])
    called = int(rows[0, play_row.CALLED])
    n = cards.shape[0]
    legal = 0
    for c in range(n):
        legal |= 1 << int(cards[c])
    out = np.arange(n)
    joker = -1
    for c in range(n):
        card = int(cards[c])
        if 52 <= card < 55 and (joker < 0 or card < int(cards[joker])):
            joker = c
    for c in range(n):
        card = int(cards[c])
        if 52 <= card < 55:
            out[c] = joker
        elif card < 52 and card != called:
            top = card  # up the suit: a card gone is no gap; one of the seat's legal cards extends the run
            higher = next_in_play(top, in_play, order)
            while higher >= 0 and (mine >> higher) & 1 and (legal >> higher) & 1 and higher != called:
                top = higher
                higher = next_in_play(top, in_play, order)
            for d in range(n):
                if int(cards[d]) == top:
                    out[c] = d
    return out


# --- the search ----------------------------------------------------------------------------------


@jit
def top_cards(cards: int, count: int, sol: int, consts: Rows) -> int:
    """The ``count`` strongest of ``cards`` (one suit's)."""
    chosen = 0
    for _ in range(count):
        best = play_row.strongest_of(cards & ~chosen, sol, consts)
        if best < 0:
            break
        chosen |= 1 << best
    return chosen


PART = 5
"""Bits a part's count of sure tricks takes in ``fewest_cards``' packed counts."""
PART_MASK = (1 << PART) - 1


@jit
def _rounds(hand: int, cards: int, delays: bool) -> int:
    """The rounds of a suit a hand can follow holding a card of it: its cards of the suit, and a round more
    for each joker where one may be played in place of following."""
    return bit_count(hand & cards) + (bit_count(hand & JOKER_MASK) if delays else 0)


@jit
def quick_tricks(row: Rows, consts: Rows, team: int, need: int) -> tuple[int, int]:
    """Tricks the leader's side takes for certain by cashing, keeping the lead: in each suit the
    leader's cards that beat every other card left in it (a partner's too: one he had to play would
    take the lead), until an opponent holding trumps has run out of it, and where his winners outlast
    every other hand's cards of the suit and no opponent can ruff it, the rest of his cards of it too
    (they win by length); and his jokers where a led
    joker cannot be trumped (DDS's quick tricks, kept to what is sure under every shipped rule). The
    other side's jokers do not stop it: a joker that is not led is worth nothing (001), and playing
    one keeps a seat's cards of the suit, so it never makes him void sooner. Not counted: the suit of
    a partner card the leader must lead, and any suit but trumps where a partner holds only trumps
    (he must ruff, and leads next). Besides the count, the cards it rests on: in each suit the top winners,
    as many as the rounds the longest other hand can follow (once those are out, the leader's cards of the
    suit win whatever their rank, so a position holding those alike, with the same suit lengths and the
    same jokers, has as many); a joker that may be played in place of following suit counts a round more.
    Only the suits that decide ``need`` tricks are counted, those resting on fewest cards first
    (``fewest_cards``)."""
    leader = int(row[play_row.LEADER])
    sol = int(row[play_row.SOL])
    trump = int(row[play_row.TRUMP])
    fd = int(row[play_row.FD_SUIT])
    theirs = 0
    for seat in range(4):
        if not (team >> seat) & 1:
            theirs |= int(row[play_row.HANDS + seat])
    mine = int(row[play_row.HANDS + leader])
    others = 0
    for seat in range(4):
        if seat != leader:
            others |= int(row[play_row.HANDS + seat])
    called = int(row[play_row.CALLED]) if row[play_row.CALLED_PLAYED] == 0 else -1
    trumps = play_row.suit_mask(trump, fd) if trump >= 0 else 0
    forced = False  # a partner holding nothing but trumps must ruff every other suit, and so takes the lead
    for seat in range(4):
        hand = int(row[play_row.HANDS + seat])
        if seat != leader and (team >> seat) & 1 and hand != 0 and hand & ~trumps == 0:
            forced = True
    total = 0
    jokers = mine & JOKER_MASK & ~(1 << FORDAEKT)
    if jokers and (led_beats_trump(consts) or others & trumps == 0):  # a partner's trump would take it too
        total += bit_count(jokers)
    delays = played_any_time(consts)  # a joker played in place of a card of the suit keeps that card a round longer
    counts = 0
    cards = 0
    for suit in range(4):
        suit_cards = play_row.suit_mask(suit, fd)
        if called >= 0 and play_row.card_suit(called, fd) == suit and (mine >> called) & 1:
            continue
        if forced and suit != trump:
            continue
        best = play_row.strength_of_strongest(
            others & suit_cards, sol, consts
        )  # a partner's higher card takes the lead
        winners = 0
        above = 0
        rest = mine & suit_cards
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            if play_row.card_strength(card, sol, consts) > best:
                winners += 1
                above |= 1 << card
        ruffed = False  # an opponent holding trumps ruffs the suit once he is out of it
        if trump >= 0 and suit != trump:
            for seat in range(4):
                hand = int(row[play_row.HANDS + seat])
                if not (team >> seat) & 1 and hand & trumps:
                    winners = min(winners, bit_count(hand & suit_cards))
                    ruffed = True
        needed = 0
        for seat in range(4):
            if seat != leader:
                hand = int(row[play_row.HANDS + seat])
                needed = max(needed, _rounds(hand, suit_cards, delays))
        if winners >= needed and not ruffed:  # his top cards outlast every other hand: the rest of the suit wins too
            counts |= bit_count(mine & suit_cards) << (PART * suit)
        else:
            counts |= winners << (PART * suit)
        cards |= top_cards(above, min(needed, winners), sol, consts)
    return fewest_cards(total, need, counts, cards, trump, fd)


@jit
def fewest_cards(total: int, need: int, counts: int, cards: int, trump: int, fd: int) -> tuple[int, int]:
    """Sure tricks from parts of a plan, on top of ``total`` resting on none: a part a suit, the fifth the
    top trumps (``counts``: each part's tricks, ``PART`` bits each; ``cards``: what they rest on, a part's
    being its suit's). The parts that rest on fewest cards a trick first, until ``need`` tricks (a search cut
    off by the count rests on no more, so a table entry above it keeps fewer cards: DDS's quick tricks stop
    so), else all. The tricks counted and the cards they rest on."""
    relied = 0
    for _ in range(5):
        if total >= need:
            break
        pick = -1
        pick_count = 0
        pick_cost = 0
        pick_cards = 0
        for part in range(5):
            count = (counts >> (PART * part)) & PART_MASK
            if count == 0:
                continue
            part_cards = cards & play_row.suit_mask(part if part < 4 else trump, fd)
            cost = bit_count(part_cards)
            if pick < 0 or cost * pick_count < pick_cost * count:
                pick, pick_count, pick_cost, pick_cards = part, count, cost, part_cards
        if pick < 0:
            break
        total += pick_count
        relied |= pick_cards
        counts &= ~(PART_MASK << (PART * pick))
    return total, relied


@jit
def cashing(
    mine: int, partners: int, winners: int, theirs: int, most: int, entry: bool, order: Rows, suit: int
) -> tuple[int, bool]:
    """Tricks a hand cashes in one suit (``mine``, its ``winners`` top cards of the suit; ``partners``, the
    partner's cards of it, ``theirs`` his top ones; ``most``, the rounds the other hands can follow), and
    whether it gives the partner an entry (its top winner beats his lowest card). Cashing stops where the
    partner's cards block the suit (macroxue's bridge-solver's fast tricks); where the partner holds none of
    its top cards and the hand's winners outlast every other hand, the rest of the suit wins by length."""
    if partners and winners > 0 and _place(mine, order, suit, True) < _place(partners, order, suit, False):
        entry = True
    if theirs == 0:
        return (bit_count(mine) if winners >= most else winners), entry
    if winners == 0:
        return (theirs if mine else 0), entry
    if _place(mine, order, suit, True) > _place(partners, order, suit, False):
        return theirs, entry  # his top card is under all of the partner's: the suit is the partner's
    if _place(mine, order, suit, False) < _place(partners, order, suit, True):
        return winners, entry  # his lowest card is over all of the partner's: the partner's never win
    if theirs == bit_count(partners):
        theirs -= 1
    return min(bit_count(mine), winners + theirs), entry


@jit
def _place(cards: int, order: Rows, suit: int, top: bool) -> int:
    """The place in ``order`` (0: the strongest rank) of the strongest (``top``) or weakest of ``cards``."""
    found = -1
    for k in range(13):
        if (cards >> (13 * suit + int(order[k]))) & 1:
            if top:
                return k
            found = k
    return found


@jit
def partners_quick_tricks(row: Rows, consts: Rows, team: int, order: Rows, need: int) -> tuple[int, int]:
    """Tricks the leader and the partner across from him take for certain by cashing, in a position played
    as bridge is (no fordækt card or partner card still out; the leader's side is he and the seat across):
    the top trumps they hold between them, then each suit's winners of the two hands, reaching the
    partner's where the leader can (macroxue's bridge-solver's fast tricks); a hand whose winners outlast
    every other hand's cards of a suit, the partner holding none of its top cards, wins with the rest of
    it too. In a trump game a suit's winners count only while every opponent holding trumps can still
    follow. Jokers change nothing while
    the side keeps the lead (a joker not led is worth nothing, and one played in place of following keeps
    a card of the suit: the other hands' lengths count a round more for each), but a top trump the leader
    cannot lead to wins late, where an opponent's joker led would take it: in a trump game where an
    opponent holds a joker that cannot be trumped, nothing is counted. Besides the count, the cards it rests
    on: the top trumps counted, and each suit's winners as far as the other hands' rounds make them count
    (both hands' where the partner can be reached: a suit's tricks may then be either's). Only the parts
    that decide ``need`` tricks are counted: the top trumps and each suit, of the leader's cashing or of
    the partner's after the suit that reaches him, those resting on fewest cards first."""
    leader = int(row[play_row.LEADER])
    partner = (leader + 2) % 4
    fd = int(row[play_row.FD_SUIT])
    in_play = in_play_of(row)
    if team != (1 << leader) | (1 << partner) or in_play & ALWAYS & ~JOKER_MASK or fd >= 0:
        return 0, 0
    if row[play_row.CALLED] >= 0 and row[play_row.CALLED_PLAYED] == 0:
        return 0, 0
    trump = int(row[play_row.TRUMP])
    sol = int(row[play_row.SOL])
    mine = int(row[play_row.HANDS + leader])
    theirs_hand = int(row[play_row.HANDS + partner])
    left_hand = int(row[play_row.HANDS + (leader + 1) % 4])
    right_hand = int(row[play_row.HANDS + (leader + 3) % 4])
    if trump >= 0 and led_beats_trump(consts) and (left_hand | right_hand) & JOKER_MASK:
        return 0, 0  # a top trump the leader cannot lead wins late, where a joker led would take it
    relied = 0
    trump_tricks = 0
    trumps = play_row.suit_mask(trump, fd) & in_play if trump >= 0 else 0
    if trumps:
        my_trumps = mine & trumps
        their_trumps = theirs_hand & trumps
        if my_trumps == trumps:
            trump_tricks = bit_count(my_trumps)
        elif their_trumps == trumps:
            trump_tricks = bit_count(their_trumps)
        else:
            most = max(bit_count(my_trumps), bit_count(their_trumps))
            for k in range(13):
                card = 13 * trump + int(order[k])
                if not (trumps >> card) & 1:
                    continue
                if ((my_trumps | their_trumps) >> card) & 1 and trump_tricks < most:
                    trump_tricks += 1
                    relied |= 1 << card
                else:
                    break
    my_counts = their_counts = trump_tricks << (PART * 4)  # a part a suit, the top trumps the fifth
    my_cards = relied
    their_cards = 0
    my_entry = False
    their_entry = False
    entry = -1  # the suit the leader reaches the partner in
    delays = played_any_time(consts)  # a joker played in place of following keeps a card of the suit a round longer
    for suit in range(4):
        if suit == trump:
            continue
        cards = play_row.suit_mask(suit, fd)
        my_suit = mine & cards
        their_suit = theirs_hand & cards
        left = bit_count(left_hand & cards)
        right = bit_count(right_hand & cards)
        others = max(_rounds(left_hand, cards, delays), _rounds(right_hand, cards, delays))
        my_most = max(_rounds(theirs_hand, cards, delays), others)
        their_most = max(_rounds(mine, cards, delays), others)
        if trumps:
            limit = 13
            if left_hand & trumps:
                limit = left
            if right_hand & trumps:
                limit = min(limit, right)
            my_suit = top_cards(my_suit, limit, sol, consts)
            their_suit = top_cards(their_suit, limit, sol, consts)
        my_winners = 0
        their_winners = 0
        for k in range(13):
            card = 13 * suit + int(order[k])
            if not (in_play >> card) & 1:
                continue
            if (my_suit >> card) & 1:
                my_winners += 1
                if my_winners <= my_most:
                    my_cards |= 1 << card
            elif (their_suit >> card) & 1:
                their_winners += 1
                if their_winners <= their_most:
                    their_cards |= 1 << card
            else:
                break
        tricks, my_entry = cashing(my_suit, their_suit, my_winners, their_winners, my_most, my_entry, order, suit)
        my_counts |= tricks << (PART * suit)
        tricks, their_entry = cashing(
            their_suit, my_suit, their_winners, my_winners, their_most, their_entry, order, suit
        )
        their_counts |= tricks << (PART * suit)
        if their_entry and entry < 0:
            entry = suit
    cap = bit_count(mine)
    wanted = min(need, cap)
    if entry >= 0:  # where the partner can be reached, a suit's tricks may be either hand's: both rest on its cards
        my_cards |= their_cards
    mine_total, mine_relied = fewest_cards(0, wanted, my_counts, my_cards, trump, fd)
    if entry < 0:
        return min(mine_total, cap), mine_relied
    first = (their_counts >> (PART * entry)) & PART_MASK  # the partner's tricks, from the suit that reaches him
    their_counts &= ~(PART_MASK << (PART * entry))
    theirs_total, theirs_relied = fewest_cards(first, wanted, their_counts, my_cards, trump, fd)
    theirs_relied |= my_cards & play_row.suit_mask(entry, fd)
    if theirs_total >= wanted and (mine_total < wanted or bit_count(theirs_relied) < bit_count(mine_relied)):
        return min(theirs_total, cap), theirs_relied
    return min(mine_total, cap), mine_relied


@jit
def sure_trumps(row: Rows, consts: Rows, team: int) -> tuple[int, int]:
    """Tricks ``team`` wins whatever happens with its top trumps: the most any one of its hands holds
    of trumps higher than every trump of the other side. Each is played in a trick of its own, and a
    trick with such a trump in it goes to the team (only a partner's higher trump, or a led joker that
    cannot be trumped, beats it: each such joker of the other side may take one, where the hand has nothing
    else to play to it, so one fewer is counted for each). Besides the count, the trumps it rests on: the
    team's trumps above the other side's (the suit's top cards)."""
    trump = int(row[play_row.TRUMP])
    if trump < 0:
        return 0, 0
    fd = int(row[play_row.FD_SUIT])
    sol = int(row[play_row.SOL])
    trumps = play_row.suit_mask(trump, fd)
    theirs = 0
    for seat in range(4):
        if not (team >> seat) & 1:
            theirs |= int(row[play_row.HANDS + seat])
    jokers = bit_count(theirs & JOKER_MASK & ~(1 << FORDAEKT)) if led_beats_trump(consts) else 0
    best = play_row.strength_of_strongest(theirs & trumps, sol, consts)
    most = 0
    relied = 0
    for seat in range(4):
        if (team >> seat) & 1:
            count = 0
            rest = int(row[play_row.HANDS + seat]) & trumps
            while rest:
                card = lowest_card(rest)
                rest &= rest - 1
                if play_row.card_strength(card, sol, consts) > best:
                    count += 1
                    relied |= 1 << card
            most = max(most, count)
    return max(0, most - jokers), relied


@jit
def _rank_safe(mine: int, other: int, spare: int, sol: int, consts: Rows) -> int:
    """The jokers a lone declarer needs to stay under the led card each time the other side leads this suit,
    following with his lowest card, or -1 where ``spare`` jokers are not enough. By the i-th time the suit
    is led the other side has led i-1 of its cards, so its leader's card is at least its i-th lowest (cards
    thrown away only raise that): his lowest card left must be under it, or a joker played in its place
    (where one may be played at any time) lets the round pass with his cards kept. Following while he can
    never needs more jokers later: the card kept would have to pass a round of its own."""
    used = 0
    while mine != 0 and other != 0:
        low = play_row.weakest_of(mine, sol, consts)
        under = play_row.weakest_of(other, sol, consts)
        if play_row.card_strength(low, sol, consts) < play_row.card_strength(under, sol, consts):
            mine &= ~(1 << low)
        elif used < spare:
            used += 1
        else:
            return -1
        other &= ~(1 << under)
    return used


@jit
def _safe_lead(row: Rows, low: int, mine: int, other: int, side: int, sol: int, consts: Rows) -> bool:
    """Whether a lone declarer may lead his lowest card ``low`` of a suit and stay safe: a seat of the other
    side holds the suit only above it (so must take the trick), and his next cards stay under the other
    side's as ``_rank_safe`` asks (the cards it plays to this trick only raise the other side's)."""
    strength = play_row.card_strength(low, sol, consts)
    rest_mine = mine & ~(1 << low)
    if rest_mine != 0 and _rank_safe(rest_mine, other, 0, sol, consts) < 0:
        return False
    for seat in range(4):
        if (side >> seat) & 1:
            continue
        held = int(row[play_row.HANDS + seat]) & other
        if held != 0 and play_row.card_strength(play_row.weakest_of(held, sol, consts), sol, consts) > strength:
            return True
    return False


@jit
def sol_exit(row: Rows, consts: Rows, side: int) -> tuple[int, int]:
    """A sol's sure answers at a trick's start (no trumps, no fordækt card, no partner card out): 1 where the
    declaring side takes no more tricks, 2 where it takes every trick it can; else 0. Besides, the cards it
    rests on, so that a position holding the same cards from those up, with the same suit lengths, answers
    the same.

    A safe exit (1): in every suit both sides hold, its cards are all under the other side's (it never wins
    following; the other side's weakest card is what it rests on), or, for a lone declarer, his cards stay
    under the card led each time the other side leads the suit (``_rank_safe``, his jokers ducking where
    they may be played at any time; it rests on the whole suit); and where it is on lead, it has such a suit
    to lead, or a card whose lead one of the other side must take (``_safe_lead``). The other side's jokers
    count where one may be played instead of following suit: then no lead is sure. A forced winner (2): a
    lone declarer on lead whose every card wins led, for no other card of its suit is above it (it rests on
    his weakest card of each suit)."""
    if (
        row[play_row.TRUMP] >= 0
        or row[play_row.FD_SUIT] >= 0
        or (row[play_row.CALLED] >= 0 and row[play_row.CALLED_PLAYED] == 0)
    ):
        return 0, 0
    ours = 0
    theirs = 0
    for seat in range(4):
        if (side >> seat) & 1:
            ours |= int(row[play_row.HANDS + seat])
        else:
            theirs |= int(row[play_row.HANDS + seat])
    sol = int(row[play_row.SOL])
    leader = int(row[play_row.LEADER])
    leading = (side >> leader) & 1 == 1
    if leading and played_any_time(consts) and theirs & JOKER_MASK:
        return 0, 0
    legal = play_row.legal_mask(row, leader, consts) if leading else 0
    lone = bit_count(side) == 1
    spare = bit_count(ours & JOKER_MASK) if lone and played_any_time(consts) else 0  # a joker ducks any round
    safe = True
    exit_found = not leading
    relied = 0
    for suit in range(4):
        cards = play_row.suit_mask(suit, -1)
        mine = ours & cards
        other = theirs & cards
        if mine == 0 or other == 0:
            continue
        highest = -1
        rest = mine
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            highest = max(highest, play_row.card_strength(card, sol, consts))
        under = play_row.weakest_of(other, sol, consts)
        if highest < play_row.card_strength(under, sol, consts):
            relied |= 1 << under
            if legal & cards:
                exit_found = True
            continue
        used = _rank_safe(mine, other, spare, sol, consts) if lone else -1
        if used < 0:
            safe = False
            break
        spare -= used
        relied |= 1 << play_row.weakest_of(mine | other, sol, consts)
        low = play_row.weakest_of(mine, sol, consts)
        if not exit_found and legal >> low & 1:
            exit_found = _safe_lead(row, low, mine, other, side, sol, consts)
    if safe and exit_found:
        return 1, relied
    if not leading or not lone:
        return 0, 0
    relied = 0
    for suit in range(4):
        cards = play_row.suit_mask(suit, -1)
        mine = ours & cards
        if mine == 0:
            continue
        low = play_row.weakest_of(mine, sol, consts)
        weakest = play_row.card_strength(low, sol, consts)
        rest = theirs & cards
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            if play_row.card_strength(card, sol, consts) > weakest:
                return 0, 0
        relied |= 1 << low
    return 2, relied


@jit
def twins_counted(row: Rows, skipped: int, wins: int, order: Rows) -> int:
    """The cards left out as twins whose ranks count: where no move cut a position off, a card stood for by
    the highest card of its run counts where that card does (its line is the same line with the twin
    played, so what mattered of the one matters of the other)."""
    seat = int(row[play_row.TO_PLAY])
    mine = int(row[play_row.HANDS + seat])
    in_play = out_or_in_trick(row)
    counted = 0
    rest = skipped
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        top = card
        higher = next_in_play(top, in_play, order)
        while higher >= 0 and (mine >> higher) & 1:
            top = higher
            higher = next_in_play(top, in_play, order)
        run = card
        while run != top and not (wins >> run) & 1:
            run = next_in_play(run, in_play, order)
        if (wins >> run) & 1:
            counted |= int(np.int64(1) << np.int64(card))
    return counted


@jit
def plain_suit(row: Rows, card: int) -> int:
    """The suit of ``card`` where its rank alone tells it apart from the suit's other cards (-1 for a joker,
    the fordækt card and the suit of a partner card still out, whose rules read the card itself)."""
    if card >= 52:
        return -1
    suit = card // 13
    called = int(row[play_row.CALLED])
    if suit == row[play_row.FD_SUIT] or (
        row[play_row.CALLED_PLAYED] == 0 and 0 <= called < 52 and called // 13 == suit
    ):
        return -1
    return suit


@jit
def small_cards(row: Rows, card: int, edge: int, floors: int, consts: Rows) -> int:
    """The floors after ``card`` was searched with ``edge`` the ranks its line rested on: where no card of its
    suit mattered, every card of the suit plays as it did (the floor goes over the ace); where it ranked
    below the weakest card that mattered, so does every card below that one (small-card pruning)."""
    suit = plain_suit(row, card)
    if suit < 0:
        return floors
    sol = int(row[play_row.SOL])
    mattered = edge & (((1 << 13) - 1) << (13 * suit))
    floor = 127
    if mattered:
        while mattered:
            other = lowest_card(mattered)
            mattered &= mattered - 1
            floor = min(floor, play_row.card_strength(other, sol, consts))
        if play_row.card_strength(card, sol, consts) >= floor:
            return floors
    if floor > (floors >> (7 * suit)) & 127:
        floors = (floors & ~(127 << (7 * suit))) | (floor << (7 * suit))
    return floors


@jit
def below_floor(row: Rows, card: int, floors: int, consts: Rows) -> bool:
    """Whether ``card`` plays as a card already searched (``small_cards``)."""
    suit = plain_suit(row, card)
    return suit >= 0 and play_row.card_strength(card, int(row[play_row.SOL]), consts) < (floors >> (7 * suit)) & 127


@jit_inlined
def trick_best(row: Rows, consts: Rows) -> int:
    """The place in the trick under way of the card winning it so far (-1 at a lead): asked once a position,
    for the killer card's key and the candidates' order."""
    n = int(row[play_row.TRICK_N])
    return play_row.winning_index(row, n, consts) if n > 0 else -1


@jit
def killer_hash(row: Rows, best: int) -> np.uint64:
    """A hash of what a position's best card depends on most (macroxue's bridge-solver keys its cut-off
    cards so): the seat and its place in the trick, the trump suit and the cards' order (one table serves
    every trump of a hand record, and the bidding's playouts of every contract), and at a lead the seat's
    hand; following suit, the suit's cards still out and the card winning the trick; else the seat's hand
    and that card."""
    seat = int(row[play_row.TO_PLAY])
    n = int(row[play_row.TRICK_N])
    small = seat | (n << 2) | ((int(row[play_row.TRUMP]) + 1) << 11) | (int(row[play_row.SOL]) << 14)
    cards = int(row[play_row.HANDS + seat])
    if n > 0:
        fd = int(row[play_row.FD_SUIT])
        led = play_row.card_suit(int(row[play_row.TRICK]), fd)
        small |= int(row[play_row.TRICK + best]) << 4
        if led != JOKER_SUIT and cards & play_row.suit_mask(led, fd):
            small |= 1 << 10
            cards = in_play_of(row) & play_row.suit_mask(led, fd)
    h = np.uint64(cards) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    h = (h ^ np.uint64(small)) * np.uint64(0xBF58476D1CE4E5B9)
    return h ^ (h >> np.uint64(32))


# The search's own stack of frames, one per depth (``frames[depth]``): what a position still needs
# once its children have answered. The search is a loop over this stack, not a recursion, so that numba
# can cache it on disk (a cached self-recursive function crashes when it is loaded again): a process
# that analyses a deal or plays the expert's late tricks loads it in a moment instead of compiling it.
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
    if at_start and row[play_row.TRICKS] == 12:  # the last trick: each plays his one card (no entry is kept for it)
        child = stack[depth + 1]
        copy_row(row, child)
        for _ in range(4):
            play_row.play_card(
                child, lowest_card(play_row.legal_mask(child, int(child[play_row.TO_PLAY]), consts)), consts
            )
        wins[depth] = trick_rank(row, child)
        return side_won(child, side)
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
                wins[depth] = relied  # sure tricks rest on the top cards that make them
                return won + sure
            if not ours and won + left - sure < target:
                wins[depth] = relied
                return won + left - sure
            sure, relied = sure_trumps(row, consts, side)
            if won + sure >= target:
                wins[depth] = relied
                return won + sure
            sure, relied = sure_trumps(row, consts, 15 & ~side)
            if won + left - sure < target:
                wins[depth] = relied
                return won + left - sure
        if wants == FEWEST and keyed_by_tricks(row):
            sure, relied = sol_exit(row, consts, side)
            if sure == 1 and won < target:
                wins[depth] = relied
                return won
            if sure == 2 and most >= target:
                wins[depth] = relied
                return most
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
    frame[_F_SKIPPED] = _skipped(moves[depth], count, legal)
    frame[_F_CODE] = code
    frame[_F_FLOORS] = 0
    return _OPEN


@jit
def _skipped(listed: Rows, count: int, legal: int) -> int:
    """The legal cards left out of a position's list as twins of listed ones."""
    searched = 0
    for i in range(count):
        searched |= int(np.int64(1) << np.int64(listed[i]))
    return legal & ~searched & ((1 << 52) - 1)


@jit
def stand_in(row: Rows, card: int, legal: int, order: Rows) -> int:
    """The card ``candidates`` lists for ``card``'s run of equivalent cards (-1 where ``card`` is not legal):
    the killer table's card may be a twin of the one listed here."""
    if card < 0 or not (legal >> card) & 1:
        return -1
    if 52 <= card < 55:
        return lowest_card(legal & JOKER_MASK)
    if card >= 52 or card == row[play_row.CALLED]:
        return card
    in_play = out_or_in_trick(row)
    mine = int(row[play_row.HANDS + int(row[play_row.TO_PLAY])])
    top = card
    higher = next_in_play(top, in_play, order)
    while higher >= 0 and (mine >> higher) & 1 and (legal >> higher) & 1 and higher != row[play_row.CALLED]:
        top = higher
        higher = next_in_play(top, in_play, order)
    return top


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
    frame[_F_SKIPPED] = _skipped(moves[depth], count, legal)
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


__all__ = [
    "FEWEST",
    "MOST",
    "NONE",
    "UNKNOWN",
    "Search",
    "Solver",
    "candidates",
    "clear",
    "new_search",
    "new_table",
    "objective",
    "reaches",
    "side_won",
    "twins",
    "value",
]


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
