"""Who wins a trick: the highest trump, else the highest card of the led suit.

Card order comes from the ruleset: in trump games A K Q ... 2, in sol games K Q ... 2 A
(001; 000 6.2; 003 34-35), the fordækt card below the two. A joker that is not led is worth
nothing; a led joker wins the trick, even when another joker follows (001). Where a led joker
can be trumped, that is the ``joker_trumpable`` rule's business.
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import RANK_LETTERS, Card
from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.ruleset.model import Rank, Ruleset


def strengths(order: Sequence[Rank]) -> tuple[int, ...]:
    """Rank index -> strength (higher wins) for a card order written highest first."""
    table = [0] * 13
    for position, rank in enumerate(order):
        table[RANK_LETTERS.index(rank)] = len(order) - position
    return tuple(table)


def highest_of_suit(
    cards: Sequence[Card], suit: int, strength: Sequence[int], fordaekt: tuple[Card, int] | None = None
) -> int | None:
    """The index of the strongest card of ``suit`` among ``cards``, or None.

    The fordækt card counts as the lowest card of its suit, below the two (000 6.2.1), and as
    nothing else.
    """
    best, best_strength = None, -1
    for index, card in enumerate(cards):
        if fordaekt is not None and card == fordaekt[0]:
            if fordaekt[1] == suit and best_strength < 0:
                best, best_strength = index, 0
        elif card < 52 and card // 13 == suit and strength[card % 13] > best_strength:
            best, best_strength = index, strength[card % 13]
    return best


def trick_winner(ruleset: Ruleset) -> TrickWinner:
    trump_strength = strengths(ruleset.card_order.trump_games)
    sol_strength = strengths(ruleset.card_order.sol_games)

    def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: tuple[Card, int] | None = None) -> int:
        strength = sol_strength if sol else trump_strength
        led = cards[0]
        led_joker = led >= 52 and (fordaekt is None or led != fordaekt[0])
        if trump is not None:
            trumped = highest_of_suit(cards, trump, strength, fordaekt)
            if trumped is not None and not led_joker:
                return trumped
        if led_joker:
            return 0
        led_suit = fordaekt[1] if fordaekt is not None and led == fordaekt[0] else led // 13
        best = highest_of_suit(cards, led_suit, strength, fordaekt)
        assert best is not None
        return best

    return winner


class TrickWinnerRules:
    @hookimpl
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner:
        return trick_winner(ruleset)
