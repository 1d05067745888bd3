"""Vip: trump found by turning the kitty, one card at a time, top first.

Standard (001): the declarer accepts the turned card's suit or turns the next; the third
cannot be refused. Thorsen grades vip in three degrees (000 4.3.3): in the second degree the
first card cannot be accepted, in the third neither the first nor the second. A joker accepted
means no trump (000 4.3.2; 001). Some clubs let a turned joker give the previously turned
card's suit instead ("Hvis man vender en joker må man tage det forrige vendte kort som trumf",
tanya.dk, Whist regler 10): the designation's ``joker_takes_previous``.
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import JOKER_SUIT, SUIT_LETTERS, Card, suit_of
from regelmotor.hooks import Denomination, VipOffer, VipRule, VipTurns, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import turns_kitty
from regelmotor.rules.declaration.keys import KittyTurn

ACCEPT = "accept"


def denomination(card: Card) -> Denomination:
    """The trump a turned card makes: its suit, or no trump for a joker (000 4.3.2)."""
    suit = suit_of(card)
    return "none" if suit == JOKER_SUIT else SUIT_LETTERS[suit]  # type: ignore[return-value]


def vip_rule(ruleset: Ruleset) -> VipRule:
    turns: dict[str, tuple[KittyTurn, ...]] = {}
    previous: set[str] = set()
    for d in ruleset.designations:
        if turns_kitty(d):
            turns[d.id] = d.trump.turns or ()
            if d.trump.joker_takes_previous:
                previous.add(d.id)

    def offer(designation_id: str, turned: Sequence[Card]) -> VipOffer:
        table = turns.get(designation_id)
        if not table:
            raise ValueError(f"{designation_id} does not turn the kitty")
        number = len(turned)
        if not 1 <= number <= len(table):
            raise ValueError(f"the kitty has {len(table)} cards to turn, not a card number {number}")
        card = turned[-1]
        accepts: tuple[tuple[str, Denomination], ...] = ((ACCEPT, denomination(card)),)
        if designation_id in previous and suit_of(card) == JOKER_SUIT:
            earlier = [c for c in turned[:-1] if suit_of(c) != JOKER_SUIT]
            if earlier:
                suit = denomination(earlier[-1])
                accepts += ((f"{ACCEPT} {suit}", suit),)
        return VipOffer(table[number - 1], accepts)

    return offer


def vip_turns(ruleset: Ruleset) -> VipTurns:
    turns = {d.id: len(d.trump.turns or ()) for d in ruleset.designations if turns_kitty(d)}

    def count(designation_id: str) -> int:
        return turns.get(designation_id, 0)

    return count


class VipRules:
    @hookimpl
    def regelmotor_vip(self, ruleset: Ruleset) -> VipRule:
        return vip_rule(ruleset)

    @hookimpl
    def regelmotor_vip_turns(self, ruleset: Ruleset) -> VipTurns:
        return vip_turns(ruleset)
