"""The search's transposition table of winning ranks: the canonical position, its key and chain, an entry's
bounds and kept cards, and the cards whose ranks a position rests on (see ``solver``'s account).
"""

from __future__ import annotations

import numpy as np

from regelmotor import play_row
from regelmotor.compiled import jit, jit_counted, jit_inlined
from regelmotor.double_dummy.position import (
    DEAL,
    DEFAULT_BITS,
    ENTRY,
    HEADS,
    KEPT,
    KILLER_TAG,
    LENGTHS,
    LINK,
    META,
    META_KEY,
    OWNERS,
    SKIP,
    WORD,
)
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, TRUMP_GAME
from regelmotor.rules.cardplay.end_of_play import PARTNER as PARTNER_SIDE
from regelmotor.rules.cardplay.masks import FORDAEKT, JOKER_MASK, Rows, bit_count

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
