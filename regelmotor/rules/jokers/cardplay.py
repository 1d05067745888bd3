"""Jokers: played at any time, not led to the first trick, and after a joker lead any card (001).

A joker that is not led is worth nothing; a led joker wins the trick, even when another joker
follows (001), unless the ruleset lets it be trumped (000 6.4.1; 001: "I nogle klubber kan en
udspillet joker stikkes med trumf").
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card
from regelmotor.compiled import jit
from regelmotor.hooks import Refusal, TrickContext
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.cardplay.masks import JOKER_SUIT, JOKERS, Rows, fd_bit, suit_mask

ANY_TIME = JOKERS  # jokers may be played at any time (001)
LEAD_FIRST = JOKERS + 1  # a joker may be led to the first trick; as a code: a joker refused the first lead
JOKER_LOSES = JOKERS + 2  # a led joker loses to a trump


@jit
def played_any_time(consts: Rows) -> bool:
    """A joker may be played at any time, in place of following suit (001)."""
    return bool(consts[ANY_TIME] != 0)


@jit
def led_beats_trump(consts: Rows) -> bool:
    """A led joker wins its trick even over trumps (001); the house rule "joker can be trumped" (000 6.4.1,
    ``jokers.led_joker: loses_to_trump``) makes it lose to the highest trump in the trick."""
    return bool(consts[JOKER_LOSES] == 0)


@jit
def jokers_of(hand: int, fd_card: int) -> int:
    """The jokers of a hand (a joker laid fordækt counts in the partner card's suit, not as a joker)."""
    return hand & suit_mask(JOKER_SUIT, fd_card, -1) & ~fd_bit(fd_card)


@jit
def not_led_first(cards: int, first_trick: bool, fd_card: int, consts: Rows) -> int:
    """The jokers a leader may not lead: none may be led to the first trick, unless he holds nothing else."""
    if not first_trick or consts[LEAD_FIRST] != 0:
        return 0
    jokers = jokers_of(cards, fd_card)
    return jokers if cards & ~jokers != 0 else 0


@jit
def with_following(hand: int, following: int, fd_card: int, consts: Rows) -> int:
    """The cards that may follow suit: the led suit's, and the jokers where they may be played at any time."""
    if played_any_time(consts):
        return following | jokers_of(hand, fd_card)
    return following


@jit
def is_led_joker(card: int, fd_card: int) -> bool:
    return 52 <= card < 55 and card != fd_card


def write_constants(ruleset: Ruleset, consts: Rows) -> None:
    """The jokers' slots of the play constants: the only place the play rules read this family's keys."""
    jokers = ruleset.jokers
    consts[ANY_TIME] = jokers is not None and jokers.play_any_time
    consts[LEAD_FIRST] = jokers is not None and jokers.lead_first_trick
    consts[JOKER_LOSES] = jokers is not None and jokers.led_joker == "loses_to_trump"


def refusal(rule: int, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> Refusal | None:
    """What the jokers' rule that refused a card says, or None for another family's rule."""
    return Refusal("jokers.lead_first_trick", "joker_lead", {}) if rule == LEAD_FIRST else None
