"""The cards worth searching, in the order they are tried: cheap winners first, ducks, no lead into a ruff;
equivalent cards searched once (see ``solver``'s account of move ordering).
"""

from __future__ import annotations

import numpy as np

from regelmotor import play_row
from regelmotor.compiled import jit
from regelmotor.double_dummy.position import (
    FEWEST,
    MOST,
)
from regelmotor.double_dummy.transposition import (
    out_or_in_trick,
    strength_order,
)
from regelmotor.rules.cardplay.masks import JOKER_MASK, JOKER_SUIT, Rows, lowest_card

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


@jit
def skipped_twins(listed: Rows, count: int, legal: int) -> int:
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
