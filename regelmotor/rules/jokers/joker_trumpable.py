"""Joker can be trumped: a led joker loses to the highest trump in the trick.

Thorsen's table (000 6.4.1) and the house rule 001 mentions ("I nogle klubber kan en
udspillet joker stikkes med trumf"); with no trump in the trick the leader still wins.

A wrapper around whatever trick-winner rule is in force: it decides only the tricks a joker
leads with a trump in them (by ``cardplay.trick_winner``, the one implementation) and leaves every
other trick to the rule beneath it, so a club's own trick-winner plugin and this house rule hold
together.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from regelmotor.cards import Card
from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.jokers.cardplay import is_led_joker
from regelmotor.rules.play.trick_winner import trick_winner


def joker_trumpable(inner: TrickWinner, ruleset: Ruleset) -> TrickWinner:
    trumpable = trick_winner(ruleset, joker_loses=True)

    def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: tuple[Card, int] | None = None) -> int:
        if trump is not None and is_led_joker(cards[0], -1 if fordaekt is None else fordaekt[0]):
            won = trumpable(cards, trump, sol, fordaekt)
            if won != 0:
                return won
        return inner(cards, trump, sol, fordaekt)

    return winner


class JokerTrumpable:
    @hookimpl(wrapper=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> Generator[None, TrickWinner | None, TrickWinner | None]:
        inner = yield
        if inner is None or ruleset.jokers is None or ruleset.jokers.led_joker != "loses_to_trump":
            return inner
        return joker_trumpable(inner, ruleset)
