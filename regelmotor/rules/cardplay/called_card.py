"""The partner card: it must fall the first time its suit is led, also when its holder leads the
suit, also for a selvmakker (001; 003 37); where the ruleset says so, not in the first trick
("I første runde må spilles alt", 003 36), and where a club says so, whenever its suit is led (a
holder the first lead did not bind, in the free first trick or leading the suit himself, must play
it the next time). Whether it binds a selvmakker at all is the hook ``regelmotor_called_card_binds``:
the callers pass ``called`` -1 for a seat it does not bind.
"""

from __future__ import annotations

from regelmotor.rules.cardplay.masks import (
    FIRST_FREE,
    HOLDER_LEADS,
    MUST_FALL,
    MUST_FALL_ALWAYS,
    Rows,
    card_suit,
    jit,
    suit_mask,
)


@jit
def binds(hand: int, called: int, called_suit_led: bool, first_trick: bool, consts: Rows) -> bool:
    """Whether the partner card's play rules bind the holder of ``hand`` now (he holds it, its suit not yet
    led, or led before where it binds whenever its suit is led; ``called`` -1: no partner card binds this
    seat, or it has been played)."""
    if called < 0 or (called_suit_led and consts[MUST_FALL_ALWAYS] == 0) or (hand >> called) & 1 == 0:
        return False
    return not (first_trick and consts[FIRST_FREE] != 0)


@jit
def not_led(cards: int, called: int, fd_card: int, fd_suit: int, consts: Rows) -> int:
    """The cards a bound holder may not lead: the partner card's suit, but the card itself."""
    if consts[HOLDER_LEADS] == 0:
        return 0
    return cards & suit_mask(card_suit(called, fd_card, fd_suit), fd_card, fd_suit) & ~(1 << called)


@jit
def must_fall(called: int, led_suit: int, fd_card: int, fd_suit: int, consts: Rows) -> bool:
    """Whether a bound holder must play the partner card to this trick (its suit is led)."""
    return consts[MUST_FALL] != 0 and card_suit(called, fd_card, fd_suit) == led_suit


@jit
def leads_its_suit(led: int, called: int, fd_card: int, fd_suit: int) -> bool:
    """Whether a trick led with ``led`` leads the partner card's suit: once that trick is over, the suit "has
    been led" and the partner card's rules bind no more where it falls only the first time (001). The fordækt
    card counts in the partner card's suit (000 6.1.1); ``called`` -1: there is no partner card."""
    return called >= 0 and card_suit(led, fd_card, fd_suit) == card_suit(called, fd_card, fd_suit)
