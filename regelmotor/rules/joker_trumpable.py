"""Joker can be trumped: a led joker loses to the highest trump in the trick.

Thorsen's table (000 6.4.1) and the house rule 001 mentions ("I nogle klubber kan en
udspillet joker stikkes med trumf"); with no trump in the trick the leader still wins.

A wrapper around whatever trick-winner rule is in force: it decides only the tricks a joker
leads with a trump in them and leaves every other trick to the rule beneath it, so a club's own
trick-winner plugin and this house rule hold together.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from regelmotor.cards import Card
from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.rules.trick_winner import highest_of_suit, strengths
from regelmotor.ruleset.model import Ruleset


def joker_trumpable(inner: TrickWinner, trump_strength: Sequence[int]) -> TrickWinner:
    def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: tuple[Card, int] | None = None) -> int:
        led = cards[0]
        if trump is not None and led >= 52 and (fordaekt is None or led != fordaekt[0]):
            trumped = highest_of_suit(cards, trump, trump_strength, fordaekt)
            if trumped is not None:
                return trumped
        return inner(cards, trump, sol, fordaekt)

    return winner


class JokerTrumpable:
    @hookimpl(wrapper=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> Generator[None, TrickWinner | None, TrickWinner | None]:
        inner = yield
        if inner is None or ruleset.jokers is None or ruleset.jokers.led_joker != "loses_to_trump":
            return inner
        return joker_trumpable(inner, strengths(ruleset.card_order.trump_games))
