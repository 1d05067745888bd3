"""The double-dummy solver: the most (or, in a sol, the fewest) tricks a side can be sure of with every
hand known and everyone at their best.

It searches the play functions of ``rules.cardplay`` on the kernel's rows (``bots.kernel``: the same
legal cards, trick winner and end of play as ``Game`` plays by), so it is exact for every shipped
game and house rule: jokers, the partner card's rules, fordækt, sol bids that end early, games of the
first tricks, pairs and each-for-himself games. The search is the one bridge solvers use (Bo
Haglund's DDS, Ginsberg's GIB):

- **null-window tests**: "does the side end with at least ``t`` tricks?" is a yes/no search, cut off as
  soon as one card answers it; the exact value is found by a few such tests (``value``), starting
  from a guess, as MTD(f) does;
- a **transposition table** at the start of each trick, keyed by the cards still in the hands and what
  the rules still remember (the leader, whether the partner card has fallen or its suit been led, the
  side), holding bounds on the tricks still to come: a position reached by another order of tricks
  is not searched again, and every test of one deal shares what the earlier ones learnt;
- **equivalent cards** searched once (two cards of a suit in one hand with nothing still out between
  them), the partner card and the fordækt card always on their own;
- **move ordering**: a card that takes the trick cheaply first, low cards when a partner is winning;
- a **node budget**: a search that would cost more returns ``UNKNOWN``, so a bot's leaf never stalls.

The side's value is its tricks at the end of play, whatever ends it: a sol ends when the declarer
takes one too many, so there its value is at most the bid's limit plus one.
"""

from __future__ import annotations

import numpy as np

from regelmotor.bots import kernel as K
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS, TRUMP_GAME
from regelmotor.rules.cardplay.masks import JOKER_LOSES, JOKER_MASK, Rows, bit_count, jit, lowest_card

NONE = 0
MOST = 1
"""The side takes as many tricks as it can (a trump game, grand, engelsk's pairs)."""
FEWEST = -1
"""The side keeps to as few as it can (a sol bid, nolo, pasnolo)."""
UNKNOWN = -1
"""What a search returns when it ran out of its node budget."""

DEPTH = 57
"""Cards a search can go deep (one deal's cards and one)."""
KEY = 6
"""Key columns of a table entry: the four hands, the position's flags and the contract."""
LOWER = KEY
UPPER = KEY + 1
ENTRY = KEY + 2
DEFAULT_BITS = 20
"""A table of 2^20 entries (64 MB): a whole deal's analysis fits without many overwrites."""


# --- what the side wants -------------------------------------------------------------------------


@jit
def objective(row: Rows) -> int:
    """Whether the declaring side wants ``MOST`` or ``FEWEST`` tricks, or ``NONE`` (each for himself,
    or a sol of several declarers each on his own: no two sides)."""
    side = int(row[K.SIDE])
    if side == EACH:
        return NONE
    if side == TRUMP_GAME:
        return MOST
    if bit_count(int(row[K.DECLARERS])) > 1 and side != PAIRS:
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
def wants_high(row: Rows, seat: int, side: int, wants: int) -> bool:
    """Whether ``seat`` plays for the side's tricks to be many (the side in a ``MOST`` game, its
    opponents in a ``FEWEST`` one)."""
    return ((side >> seat) & 1 == 1) == (wants == MOST)


# --- the transposition table ---------------------------------------------------------------------


def new_table(bits: int = DEFAULT_BITS) -> Rows:
    """An empty table of ``2**bits`` entries (no key equals an empty entry's)."""
    table = np.zeros((1 << bits, ENTRY), dtype=np.int64)
    table[:, 0] = -1
    return table


def clear(table: Rows) -> None:
    table[:, 0] = -1


@jit
def keyed_by_tricks(row: Rows) -> bool:
    """Whether the tricks already won decide when play ends (a named bid of one side that ends early),
    so two positions with the same cards left but other tricks won are not the same position."""
    side = int(row[K.SIDE])
    return not (side == TRUMP_GAME or side == PAIRS or side == EACH or row[K.DECLARERS] == 0)  # noqa: SIM109


@jit
def flags(row: Rows, side: int, wants: int) -> int:
    """What, besides the hands and the contract, decides the rest of play at the start of a trick."""
    meta = int(row[K.LEADER]) | (int(row[K.CALLED_PLAYED]) << 2) | (int(row[K.SUIT_LED]) << 3)
    meta |= (int(row[K.PARTNER]) + 2) << 4
    meta |= side << 7
    meta |= (wants + 1) << 11
    if keyed_by_tricks(row):
        for seat in range(4):
            meta |= int(row[K.WON + seat]) << (13 + 4 * seat)
    return meta


@jit
def contract(row: Rows) -> int:
    """The contract's fields, so one table never mixes two contracts' values."""
    c = int(row[K.TRUMP]) + 1
    c |= int(row[K.SOL]) << 3
    c |= (int(row[K.CALLED]) + 1) << 4
    c |= (int(row[K.FD_SUIT]) + 1) << 10
    c |= (int(row[K.SIDE]) + 1) << 13
    c |= (int(row[K.SOL_LIMIT]) + 1) << 16
    c |= (int(row[K.FIRST_TRICKS]) + 1) << 21
    c |= (int(row[K.EXEMPT]) + 1) << 26
    c |= int(row[K.DECLARERS]) << 29
    c |= int(row[K.FIXED_SIDE]) << 33
    return c


@jit
def strength_order(row: Rows, consts: Rows) -> Rows:
    """The ranks from the strongest to the weakest in the contract's order (trump games' or sol's),
    then each rank's place in that order."""
    order = np.empty(26, dtype=np.int64)
    strengths = np.empty(13, dtype=np.int64)
    for rank in range(13):
        strengths[rank] = K.card_strength(rank, int(row[K.SOL]), consts)
    for k in range(13):
        best = -1
        for rank in range(13):
            if strengths[rank] >= 0 and (best < 0 or strengths[rank] > strengths[best]):
                best = rank
        order[k] = best
        order[13 + best] = k
        strengths[best] = -1
    return order


@jit
def canonical(row: Rows, order: Rows, out: Rows) -> int:
    """The hands with each suit's cards renumbered by their place among the suit's cards still in
    play (the highest left is the ace, the next the king, ...), into ``out``; the partner card's new
    number (-1 once it has fallen). Two positions that differ only in which low cards have gone play
    the same, so they share one entry (DDS's relative ranks)."""
    called = int(row[K.CALLED]) if row[K.CALLED_PLAYED] == 0 else -1
    new_called = -1
    joker = 52  # the jokers are alike (a led one wins, another is worth nothing): numbered by hand
    for h in range(4):
        out[h] = int(row[K.HANDS + h]) & (np.int64(1) << np.int64(K.FORDAEKT))
        for _ in range(bit_count(int(row[K.HANDS + h]) & JOKER_MASK)):
            out[h] |= np.int64(1) << np.int64(joker)
            joker += 1
    for suit in range(4):
        place = 12
        for k in range(13):
            card = 13 * suit + int(order[k])
            bit = np.int64(1) << np.int64(card)
            for h in range(4):
                if int(row[K.HANDS + h]) & bit:
                    out[h] |= np.int64(1) << np.int64(13 * suit + int(order[12 - place]))
                    if card == called:
                        new_called = 13 * suit + int(order[12 - place])
                    place -= 1
                    break
    return new_called


@jit
def slot_of(hands: Rows, meta: int, deal: int, mask: int) -> int:
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    for i in range(4):
        h = (h ^ np.uint64(hands[i])) * prime
        h ^= h >> np.uint64(29)
    h = (h ^ np.uint64(meta)) * prime
    h = (h ^ np.uint64(deal)) * prime
    h ^= h >> np.uint64(32)
    return int(np.int64(h & np.uint64(mask)))


@jit
def entry_cards(table: Rows, slot: int) -> int:
    if table[slot, 0] == -1:
        return -1
    return bit_count(int(table[slot, 0]) | int(table[slot, 1]) | int(table[slot, 2]) | int(table[slot, 3]))


@jit
def matches(table: Rows, slot: int, hands: Rows, meta: int, deal: int) -> bool:
    for i in range(4):
        if table[slot, i] != hands[i]:
            return False
    return bool(table[slot, 4] == meta and table[slot, 5] == deal)


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
def candidates(row: Rows, legal: int, consts: Rows, wants: int, side: int, order: Rows, out: Rows, scores: Rows) -> int:
    """The legal cards worth searching, one of each run of equivalent cards, into ``out``; how many.

    Two cards of one suit in the same hand are equivalent when every card ranked between them that
    is still in a hand or in the trick is in that hand too; the jokers of a hand are all alike (a led
    one wins, another is worth nothing). The likeliest best cards come first (the search cuts off
    sooner): the cheapest card that takes the trick, a low card to the partner's highest, then the
    low ones; low ones first when the seat's own side is winning the trick; in a sol the declarer's
    highest card that stays under. ``order`` is ``strength_order``'s.
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
    friend_winning = False
    if n > 0:
        ahead = (int(row[K.LEADER]) + K.winning_index(row, n, consts)) % 4
        friend_winning = ((side >> ahead) & 1 == 1) == declaring
    count = 0
    rest = legal
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        if 52 <= card < 55 and legal & ((1 << card) - 1) & JOKER_MASK:
            continue
        strength = K.card_strength(card, sol, consts)
        takes = card >= 52 if n == 0 else False
        to_partner = False
        if card < 52 and card != called:
            suit = card // 13
            place = int(order[13 + card % 13])
            higher = next_in_play(card, in_play, order)  # skip this card when that one is its twin
            if higher >= 0 and (mine >> higher) & 1 and (legal >> higher) & 1 and higher != called:
                continue
            if n == 0:  # a lead of the suit's highest card left wins it unless trumped
                holder = -1
                q = place - 1
                while q >= 0:
                    other = 13 * suit + int(order[q])
                    if (in_play >> other) & 1 and not (mine >> other) & 1:
                        for h in range(4):
                            if (int(row[K.HANDS + h]) >> other) & 1:
                                holder = h
                    q -= 1
                takes = holder < 0
                to_partner = holder >= 0 and ((side >> holder) & 1 == 1) == declaring
        if n > 0:
            row[K.TRICK + n] = card
            takes = K.winning_index(row, n + 1, consts) == n
        if wants == FEWEST and declaring:
            score = -strength if takes else 100 + strength
        elif wants == FEWEST:
            score = -strength
        elif friend_winning:
            score = -strength - (100 if takes else 0)
        elif to_partner:
            score = 50 - strength
        else:
            score = 100 - strength if takes else -strength
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
    seat = int(rows[0, K.TO_PLAY])
    order = strength_order(rows[0], consts)
    in_play = 0
    for r in range(rows.shape[0]):
        for h in range(4):
            in_play |= int(rows[r, K.HANDS + h])
    for i in range(int(rows[0, K.TRICK_N])):
        in_play |= 1 << int(rows[0, K.TRICK + i])
    mine = int(rows[0, K.HANDS + seat])
    called = int(rows[0, K.CALLED])
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
def quick_tricks(row: Rows, consts: Rows, team: int) -> int:
    """Tricks the leader's side takes for certain by cashing, keeping the lead: in each suit the
    leader's cards that beat every other card left in it (a partner's too: one he had to play would
    take the lead), until an opponent holding trumps has run out of it; and his jokers where a led
    joker cannot be trumped (DDS's quick tricks, kept to what is sure under every shipped rule). The
    other side's jokers do not stop it: a joker that is not led is worth nothing (001), and playing
    one keeps a seat's cards of the suit, so it never makes him void sooner. Not counted: the suit of
    a partner card the leader must lead, and any suit but trumps where a partner holds only trumps
    (he must ruff, and leads next)."""
    leader = int(row[K.LEADER])
    sol = int(row[K.SOL])
    trump = int(row[K.TRUMP])
    fd = int(row[K.FD_SUIT])
    theirs = 0
    for seat in range(4):
        if not (team >> seat) & 1:
            theirs |= int(row[K.HANDS + seat])
    mine = int(row[K.HANDS + leader])
    others = 0
    for seat in range(4):
        if seat != leader:
            others |= int(row[K.HANDS + seat])
    called = int(row[K.CALLED]) if row[K.CALLED_PLAYED] == 0 else -1
    trumps = K.suit_mask(trump, fd) if trump >= 0 else 0
    forced = False  # a partner holding nothing but trumps must ruff every other suit, and so takes the lead
    for seat in range(4):
        hand = int(row[K.HANDS + seat])
        if seat != leader and (team >> seat) & 1 and hand != 0 and hand & ~trumps == 0:
            forced = True
    total = 0
    for suit in range(4):
        suit_cards = K.suit_mask(suit, fd)
        if called >= 0 and K.card_suit(called, fd) == suit and (mine >> called) & 1:
            continue
        if forced and suit != trump:
            continue
        best = -1
        rest = others & suit_cards  # a partner's higher card, if he had to play it, would take the lead
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            best = max(best, K.card_strength(card, sol, consts))
        winners = 0
        rest = mine & suit_cards
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            if K.card_strength(card, sol, consts) > best:
                winners += 1
        if winners and trump >= 0 and suit != trump:
            for seat in range(4):
                hand = int(row[K.HANDS + seat])
                if not (team >> seat) & 1 and hand & trumps:
                    winners = min(winners, bit_count(hand & suit_cards))
        total += winners
    jokers = mine & JOKER_MASK & ~(1 << K.FORDAEKT)
    if jokers and (consts[JOKER_LOSES] == 0 or others & trumps == 0):  # a partner's trump would take it too
        total += bit_count(jokers)
    return total


@jit
def sure_trumps(row: Rows, consts: Rows, team: int) -> int:
    """Tricks ``team`` wins whatever happens with its top trumps: the most any one of its hands holds
    of trumps higher than every trump of the other side. Each is played in a trick of its own, and a
    trick with such a trump in it goes to the team (only a partner's higher trump, or a led joker that
    cannot be trumped, beats it: so none is counted where the other side holds such a joker)."""
    trump = int(row[K.TRUMP])
    if trump < 0:
        return 0
    fd = int(row[K.FD_SUIT])
    sol = int(row[K.SOL])
    trumps = K.suit_mask(trump, fd)
    theirs = 0
    for seat in range(4):
        if not (team >> seat) & 1:
            theirs |= int(row[K.HANDS + seat])
    if consts[JOKER_LOSES] == 0 and theirs & JOKER_MASK & ~(1 << K.FORDAEKT):
        return 0
    best = -1
    rest = theirs & trumps
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        best = max(best, K.card_strength(card, sol, consts))
    most = 0
    for seat in range(4):
        if (team >> seat) & 1:
            count = 0
            rest = int(row[K.HANDS + seat]) & trumps
            while rest:
                card = lowest_card(rest)
                rest &= rest - 1
                if K.card_strength(card, sol, consts) > best:
                    count += 1
            most = max(most, count)
    return most


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
_F_LOWER = 8
_F_UPPER = 9
_F_WON = 10
FRAME = 11
_OPEN = 2
"""``_enter``'s answer where the position needs its children searched (its frame is set up)."""


@jit
def _enter(
    stack: Rows,
    depth: int,
    consts: Rows,
    side: int,
    wants: int,
    target: int,
    table: Rows,
    moves: Rows,
    keys: Rows,
    order: Rows,
    budget: Rows,
    frames: Rows,
) -> int:
    """A position's answer where it needs no search (1, 0 or ``UNKNOWN``), else ``_OPEN`` with its frame
    set up: bounds that already decide it, the table's bounds, and the tricks a side is sure of."""
    row = stack[depth]
    won = side_won(row, side)
    if won >= target:
        return 1
    if K.play_over(row, consts):
        return 0
    if won + 13 - int(row[K.TRICKS]) < target:
        return 0
    budget[0] -= 1
    if budget[0] < 0:
        return UNKNOWN
    at_start = row[K.TRICK_N] == 0
    slot = 0
    meta = 0
    deal = 0
    lower = 0
    upper = 13 - int(row[K.TRICKS])
    hands = keys[depth]
    if at_start:
        called = canonical(row, order, hands)
        meta = flags(row, side, wants) | ((called + 1) << 29)
        deal = contract(row)
        slot = slot_of(hands, meta, deal, table.shape[0] - 1) & ~1  # a bucket of two entries
        if not matches(table, slot, hands, meta, deal):
            slot += 1
        if matches(table, slot, hands, meta, deal):
            lower = int(table[slot, LOWER])
            upper = int(table[slot, UPPER])
            if won + lower >= target:
                return 1
            if won + upper < target:
                return 0
        if wants == MOST and row[K.TRICKS] > 0 and not keyed_by_tricks(row):
            leader = int(row[K.LEADER])
            ours = (side >> leader) & 1 == 1
            team = side if ours else 15 & ~side
            sure = quick_tricks(row, consts, team)
            if ours and won + sure >= target:
                return 1
            if not ours and won + 13 - int(row[K.TRICKS]) - sure < target:
                return 0
            if won + sure_trumps(row, consts, side) >= target:
                return 1
            if won + 13 - int(row[K.TRICKS]) - sure_trumps(row, consts, 15 & ~side) < target:
                return 0
    seat = int(row[K.TO_PLAY])
    legal = K.legal_mask(row, seat, consts)
    count = candidates(row, legal, consts, wants, side, order, moves[depth], moves[depth + DEPTH])
    high = wants_high(row, seat, side, wants)
    frame = frames[depth]
    frame[_F_COUNT] = count
    frame[_F_NEXT] = 0
    frame[_F_HIGH] = 1 if high else 0
    frame[_F_RESULT] = 0 if high else 1
    frame[_F_START] = 1 if at_start else 0
    frame[_F_SLOT] = slot
    frame[_F_META] = meta
    frame[_F_DEAL] = deal
    frame[_F_LOWER] = lower
    frame[_F_UPPER] = upper
    frame[_F_WON] = won
    return _OPEN


@jit
def _store(table: Rows, hands: Rows, frame: Rows, target: int) -> None:
    """A searched position's bounds kept in the table (at the start of a trick)."""
    slot = int(frame[_F_SLOT])
    meta = int(frame[_F_META])
    deal = int(frame[_F_DEAL])
    won = int(frame[_F_WON])
    lower = int(frame[_F_LOWER])
    upper = int(frame[_F_UPPER])
    if not matches(table, slot, hands, meta, deal):  # the first entry kept for the larger position
        slot &= ~1
        if entry_cards(table, slot) > bit_count(hands[0] | hands[1] | hands[2] | hands[3]):
            slot += 1
    if frame[_F_RESULT] == 1:
        lower = max(lower, target - won)
    else:
        upper = min(upper, target - 1 - won)
    for i in range(4):
        table[slot, i] = hands[i]
    table[slot, 4] = meta
    table[slot, 5] = deal
    table[slot, LOWER] = lower
    table[slot, UPPER] = upper


@jit
def at_least(
    stack: Rows,
    depth: int,
    consts: Rows,
    side: int,
    wants: int,
    target: int,
    table: Rows,
    moves: Rows,
    keys: Rows,
    order: Rows,
    budget: Rows,
) -> int:
    """1 if the side ends play with at least ``target`` tricks from ``stack[depth]``, both sides at
    their best; 0 if not; ``UNKNOWN`` when the node budget ran out.

    A depth-first search: a seat that wants the side to reach the target stops at the first card
    that does, the other at the first that keeps it short (null-window alpha-beta)."""
    frames = np.empty((DEPTH + 1, FRAME), dtype=np.int64)
    top = depth
    answer = _enter(stack, depth, consts, side, wants, target, table, moves, keys, order, budget, frames)
    while True:
        if answer == _OPEN:  # search the next candidate of the position at ``depth``
            frame = frames[depth]
            child = stack[depth + 1]
            child[:] = stack[depth]
            K.play_card(child, int(moves[depth, frame[_F_NEXT]]), consts)
            depth += 1
            answer = _enter(stack, depth, consts, side, wants, target, table, moves, keys, order, budget, frames)
            continue
        if answer == UNKNOWN:
            return UNKNOWN
        if depth == top:
            return answer
        depth -= 1  # the child's answer, to its parent
        frame = frames[depth]
        high = frame[_F_HIGH] == 1
        if (high and answer == 1) or (not high and answer == 0):
            frame[_F_RESULT] = answer
        else:
            frame[_F_NEXT] += 1
            if frame[_F_NEXT] < frame[_F_COUNT]:
                answer = _OPEN
                continue
        if frame[_F_START] == 1:
            _store(table, keys[depth], frame, target)
        answer = int(frame[_F_RESULT])


def new_buffers() -> tuple[Rows, Rows, Rows]:
    """The rows, move lists and table keys a search works in, one of each per depth."""
    return (
        np.zeros((DEPTH + 1, K.ROW), dtype=np.int64),
        np.zeros((2 * DEPTH, 14), dtype=np.int64),
        np.zeros((DEPTH + 1, 4), dtype=np.int64),
    )


@jit
def value(
    row: Rows,
    consts: Rows,
    side: int,
    wants: int,
    table: Rows,
    stack: Rows,
    moves: Rows,
    keys: Rows,
    nodes: int,
    guess: int,
) -> int:
    """The side's tricks at the end of play from ``row``, exactly (``UNKNOWN`` past ``nodes`` nodes).

    A few null-window tests, each narrowing the range the value lies in, starting from ``guess`` (the
    parent position's value is a good one)."""
    stack[0, :] = row
    budget = np.empty(1, dtype=np.int64)
    budget[0] = nodes
    order = strength_order(row, consts)
    low = side_won(row, side)
    high = low + 13 - int(row[K.TRICKS])
    if K.play_over(row, consts):
        return low
    while low < high:
        target = min(max(guess, low + 1), high)
        answer = at_least(stack, 0, consts, side, wants, target, table, moves, keys, order, budget)
        if answer == UNKNOWN:
            return UNKNOWN
        if answer == 1:
            low = target
            guess = target + 1
        else:
            high = target - 1
            guess = target - 1
    return low


@jit
def reaches(
    row: Rows,
    consts: Rows,
    side: int,
    wants: int,
    target: int,
    table: Rows,
    stack: Rows,
    moves: Rows,
    keys: Rows,
    nodes: int,
) -> int:
    """One null-window test: 1 if the side ends with at least ``target`` tricks, else 0 (or ``UNKNOWN``)."""
    stack[0, :] = row
    budget = np.empty(1, dtype=np.int64)
    budget[0] = nodes
    order = strength_order(row, consts)
    return at_least(stack, 0, consts, side, wants, target, table, moves, keys, order, budget)


__all__ = [
    "FEWEST",
    "MOST",
    "NONE",
    "UNKNOWN",
    "Solver",
    "candidates",
    "clear",
    "new_buffers",
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
        self.stack, self.moves, self.keys = new_buffers()

    def value(self, row: Rows, side: int, wants: int, nodes: int, guess: int = 7) -> int:
        """The side's tricks at the end of play from ``row`` (``UNKNOWN`` past ``nodes`` nodes)."""
        return int(value(row, self.consts, side, wants, self.table, self.stack, self.moves, self.keys, nodes, guess))

    def reaches(self, row: Rows, side: int, wants: int, target: int, nodes: int) -> int:
        """1 if the side ends with at least ``target`` tricks from ``row``, 0 if not, ``UNKNOWN``."""
        return int(reaches(row, self.consts, side, wants, target, self.table, self.stack, self.moves, self.keys, nodes))
