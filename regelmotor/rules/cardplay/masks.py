"""The card encoding the play rules work on: card numbers, suit masks, rank strengths.

The fordækt card (000 6.1.1) counts as the lowest card of the partner card's suit and as nothing else:
every function takes it as ``fd_card`` (its number, -1 for none) and ``fd_suit`` (the suit it counts in).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from regelmotor.cards import FACE_DOWN
from regelmotor.compiled import JIT, jit, ones, zeros_below

Rows = npt.NDArray[np.int64]

FORDAEKT = FACE_DOWN
"""The fordækt card, face down as the table sees it (every row, whether or not the real card is known)."""
JOKER_SUIT = 4
JOKER_MASK = (1 << 52) | (1 << 53) | (1 << 54)
SUIT_MASKS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)] + [JOKER_MASK], dtype=np.int64)

# --- the constants of a ruleset's play rules (an int64 array; ``constants.play_constants`` fills it) --
# Each family that the fast path plays owns a block of slots, named and written in its own home
# (``rules/<family>/cardplay.py``): a new flag of a family takes a free slot of its block, and no other
# family's slot moves. A slot is also the code of the rule it makes, where that rule refuses a card
# (``legal.legal_cards``' third answer), so the codes of two families never meet.
BLOCK = 8
JOKERS = 0  # rules/jokers/cardplay.py
CALLED_CARD = 8  # rules/called_card/cardplay.py
PLAY = 16  # the play family: rules/cardplay (following suit, the end of play)
SOL_EARLY = PLAY  # a bid with a most of tricks ends when every declarer's side has taken more
FOLLOW_SUIT = PLAY + 1  # no flag: the code of the rule "follow suit if you can" (001)
TRUMP_STRENGTH = 24  # 24-79: strength by card in trump games (higher wins; 0 for a joker), read without a division
SOL_STRENGTH = 80  # 80-135: strength by card in the sol games' order
CONSTANTS = 136
NO_RULE = -1
"""The code of no rule: the card is legal."""


@jit
def fd_bit(fd_card: int) -> int:
    return (1 << fd_card) if fd_card >= 0 else 0


@jit
def card_suit(card: int, fd_card: int, fd_suit: int) -> int:
    """The suit a card counts in (``JOKER_SUIT`` for a joker)."""
    if card == fd_card:
        return fd_suit
    if card < 52:
        return card // 13
    return JOKER_SUIT


@jit
def suit_mask(suit: int, fd_card: int, fd_suit: int) -> int:
    """The cards that count in ``suit`` (the jokers for ``JOKER_SUIT``)."""
    bit = fd_bit(fd_card)
    mask = int(SUIT_MASKS[suit]) & ~bit
    if suit == fd_suit:
        mask |= bit
    return mask


@jit
def card_strength(card: int, sol: int, fd_card: int, consts: Rows) -> int:
    """A card's strength within its suit (higher wins): the fordækt card and jokers 0, below the two."""
    if card == fd_card:
        return 0
    return int(consts[(SOL_STRENGTH if sol else TRUMP_STRENGTH) + card])


if JIT:

    @jit
    def lowest_card(mask: int) -> int:
        """The lowest card of a non-empty mask (its lowest set bit's index)."""
        return int(zeros_below(np.int64(mask)))

    @jit
    def bit_count(mask: int) -> int:
        """The cards in a mask."""
        return int(ones(np.int64(mask)))

else:  # pragma: no cover - plain Python has the bit's index at hand (and no 64-bit wrap-around)

    def lowest_card(mask: int) -> int:
        return int((mask & -mask).bit_length() - 1)

    def bit_count(mask: int) -> int:
        return int(mask).bit_count()


BITS = tuple(1 << card for card in range(56))


def mask_of(cards: Sequence[int]) -> int:
    """The mask of distinct cards (a sum of their bits)."""
    return sum(map(BITS.__getitem__, cards))


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest first: one step per card held, not per card in the deck."""
    cards = []
    mask = int(mask)
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
