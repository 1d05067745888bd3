"""The partner card: it must fall the first time its suit is led, also when its holder leads the
suit, also for a selvmakker (001; 003 37); where the ruleset says so, not in the first trick
("I første runde må spilles alt", 003 36), and where a club says so, whenever its suit is led (a
holder the first lead did not bind, in the free first trick or leading the suit himself, must play
it the next time). Whether it binds a selvmakker at all is the hook ``regelmotor_called_card_binds``:
the callers pass ``called`` -1 for a seat it does not bind.
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card
from regelmotor.compiled import jit
from regelmotor.hooks import Refusal, TrickContext
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.cardplay.masks import CALLED_CARD, NO_RULE, Rows, card_suit, suit_mask

HOLDER_LEADS = CALLED_CARD  # the partner card's holder must lead it when he leads its suit
MUST_FALL = CALLED_CARD + 1  # the partner card falls the first time its suit is led
FIRST_FREE = CALLED_CARD + 2  # the partner card's rules do not bind in the first trick (003 36)
MUST_FALL_ALWAYS = CALLED_CARD + 3  # the partner card falls whenever its suit is led, not only the first time


@jit
def binds(hand: int, called: int, called_suit_led: bool, first_trick: bool, consts: Rows) -> bool:
    """Whether the partner card's play rules bind the holder of ``hand`` now (he holds it, its suit not yet
    led, or led before where it binds whenever its suit is led; ``called`` -1: no partner card binds this
    seat, or it has been played)."""
    if called < 0 or (called_suit_led and consts[MUST_FALL_ALWAYS] == 0) or (hand >> called) & 1 == 0:
        return False
    return not (first_trick and consts[FIRST_FREE] != 0)


@jit
def not_led(cards: int, called: int, fd_card: int, fd_suit: int, trump: int, consts: Rows) -> tuple[int, int]:
    """The cards a bound holder may not lead, and the code of the rule that removed them: the partner card's
    suit but the card itself. (``trump``, -1 for none: what a lead rule of this family may also ask.)"""
    if consts[HOLDER_LEADS] == 0:
        return 0, NO_RULE
    out = cards & suit_mask(card_suit(called, fd_card, fd_suit), fd_card, fd_suit) & ~(1 << called)
    return out, HOLDER_LEADS if out != 0 else NO_RULE


@jit
def lead_rule_of(card: int, cards: int, called: int, fd_card: int, fd_suit: int, trump: int, consts: Rows) -> int:
    """The code of this family's rule that keeps a bound holder from leading ``card`` (``not_led``, one card)."""
    return HOLDER_LEADS if (not_led(cards, called, fd_card, fd_suit, trump, consts)[0] >> card) & 1 else NO_RULE


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


def write_constants(ruleset: Ruleset, consts: Rows) -> None:
    """The partner card's slots of the play constants: the only place the play rules read this family's keys."""
    rule = ruleset.called_card
    consts[HOLDER_LEADS] = rule.holder_leads_it
    consts[MUST_FALL] = rule.must_fall_first_time_led
    consts[FIRST_FREE] = rule.free_first_trick
    consts[MUST_FALL_ALWAYS] = rule.must_fall_every_time_led


def refusal(rule: int, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> Refusal | None:
    """What the partner card's rule that refused a card says, or None for another family's rule."""
    if rule == HOLDER_LEADS:
        return Refusal("called_card.holder_leads_it", "lead_called", {"card": context.called})
    if rule == MUST_FALL:  # led before: it falls this time by the rule that it falls every time
        key = (
            "called_card.must_fall_every_time_led"
            if context.called_suit_led
            else "called_card.must_fall_first_time_led"
        )
        return Refusal(key, "called_must_fall", {"card": context.called})
    return None
