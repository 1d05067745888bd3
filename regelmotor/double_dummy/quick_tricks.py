"""Quick tricks, sure trumps, a sol's safe exit and the small cards a line never needed: the tricks a side is
sure of without a search, each with the cards it relied on (see ``solver``'s account).
"""

from __future__ import annotations

import numpy as np

from regelmotor import play_row
from regelmotor.compiled import jit, jit_inlined
from regelmotor.double_dummy.ordering import (
    next_in_play,
)
from regelmotor.double_dummy.transposition import (
    ALWAYS,
    in_play_of,
    out_or_in_trick,
)
from regelmotor.rules.cardplay.masks import FORDAEKT, JOKER_MASK, JOKER_SUIT, Rows, bit_count, lowest_card
from regelmotor.rules.jokers.cardplay import led_beats_trump, played_any_time

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
        above = play_row.stronger_than(mine & suit_cards, best, sol, consts)
        winners = bit_count(above)
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
            above = play_row.stronger_than(int(row[play_row.HANDS + seat]) & trumps, best, sol, consts)
            relied |= above
            most = max(most, bit_count(above))
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
