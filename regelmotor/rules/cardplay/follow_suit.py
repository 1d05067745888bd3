"""Follow suit if you can, else play any card; there is no duty to trump (001; 003 38-39)."""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card
from regelmotor.compiled import jit
from regelmotor.hooks import Refusal, TrickContext
from regelmotor.rules.cardplay.masks import FOLLOW_SUIT, JOKER_SUIT, bit_count, card_suit, mask_of, suit_mask


@jit
def following(hand: int, led_suit: int, fd_card: int, fd_suit: int) -> int:
    """The cards of ``hand`` that follow the led suit (0: he cannot follow, so any card may be played)."""
    return hand & suit_mask(led_suit, fd_card, fd_suit)


def refusal(rule: int, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> Refusal | None:
    """What "follow suit" says when it refused a card, or None for another family's rule."""
    if rule != FOLLOW_SUIT:
        return None
    fd_card, fd_suit = (-1, -1) if context.fordaekt is None else context.fordaekt
    led = card_suit(trick[0], fd_card, fd_suit)
    assert led != JOKER_SUIT
    held = bit_count(following(mask_of(hand), led, fd_card, fd_suit))
    return Refusal("play.follow_suit", "follow_suit", {"count": held, "suit": led})
