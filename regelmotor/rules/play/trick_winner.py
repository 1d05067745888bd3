"""Who wins a trick, as the hook hands it out: ``cardplay.trick_winner`` over the trick's cards.

Card order comes from the ruleset: in trump games A K Q ... 2, in sol games K Q ... 2 A
(001; 000 6.2; 003 34-35), the fordækt card below the two. A joker that is not led is worth
nothing; a led joker wins the trick, even when another joker follows (001). Where a led joker
can be trumped, that is the ``joker_trumpable`` rule's business (a wrapper, so that it composes
with a club's own trick-winner plugin).
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card
from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.cardplay.constants import play_constants
from regelmotor.rules.cardplay.trick_winner import winning_index


def trick_winner(ruleset: Ruleset, *, joker_loses: bool = False) -> TrickWinner:
    consts = play_constants(ruleset)
    loses = int(joker_loses)

    def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: tuple[Card, int] | None = None) -> int:
        count = len(cards)
        c0, c1, c2, c3 = (*cards, -1, -1, -1)[:4]
        fd_card, fd_suit = (-1, -1) if fordaekt is None else fordaekt
        t = -1 if trump is None else trump
        return int(winning_index(c0, c1, c2, c3, count, t, int(sol), fd_card, fd_suit, loses, consts))

    return winner


class TrickWinnerRules:
    @hookimpl
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner:
        return trick_winner(ruleset)
