"""Who wins a trick: the highest trump, else the highest card of the led suit.

Card order comes from the ruleset: in trump games A K Q ... 2, in sol games K Q ... 2 A (001;
000 6.2; 003 34-35), the fordækt card below the two (000 6.2.1). A led joker wins the trick, or,
where the ruleset lets it be trumped, loses to the highest trump in it (``jokers``).
"""

from __future__ import annotations

from regelmotor.compiled import jit
from regelmotor.rules.cardplay.masks import Rows, card_strength, card_suit
from regelmotor.rules.jokers.cardplay import is_led_joker


@jit
def nth(i: int, c0: int, c1: int, c2: int, c3: int) -> int:
    if i == 0:
        return c0
    if i == 1:
        return c1
    if i == 2:
        return c2
    return c3


@jit
def highest_of_suit(
    c0: int, c1: int, c2: int, c3: int, count: int, suit: int, sol: int, fd_card: int, fd_suit: int, consts: Rows
) -> int:
    """The index of the strongest card of ``suit`` among the trick's first ``count``, or -1."""
    best = -1
    best_strength = -1
    for i in range(count):
        card = nth(i, c0, c1, c2, c3)
        if card_suit(card, fd_card, fd_suit) == suit:
            strength = card_strength(card, sol, fd_card, consts)
            if strength > best_strength:
                best, best_strength = i, strength
    return best


@jit
def winning_index(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    count: int,
    trump: int,
    sol: int,
    fd_card: int,
    fd_suit: int,
    joker_loses: int,
    consts: Rows,
) -> int:
    """The index (in play order) of the card that wins, or is winning, a trick of ``count`` cards
    (``trump`` -1: no trump; ``joker_loses``: a led joker loses to a trump)."""
    led_joker = is_led_joker(c0, fd_card)
    if trump >= 0:
        best = highest_of_suit(c0, c1, c2, c3, count, trump, sol, fd_card, fd_suit, consts)
        if best >= 0 and (not led_joker or joker_loses != 0):
            return best
    if led_joker:
        return 0
    return highest_of_suit(c0, c1, c2, c3, count, card_suit(c0, fd_card, fd_suit), sol, fd_card, fd_suit, consts)
