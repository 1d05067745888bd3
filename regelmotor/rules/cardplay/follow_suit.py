"""Follow suit if you can, else play any card; there is no duty to trump (001; 003 38-39)."""

from __future__ import annotations

from regelmotor.rules.cardplay.masks import jit, suit_mask


@jit
def following(hand: int, led_suit: int, fd_card: int, fd_suit: int) -> int:
    """The cards of ``hand`` that follow the led suit (0: he cannot follow, so any card may be played)."""
    return hand & suit_mask(led_suit, fd_card, fd_suit)
