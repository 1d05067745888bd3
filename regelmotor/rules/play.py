"""Which cards may be played, and when play ends.

Follow suit if you can, else play any card; there is no duty to trump (001; 003 38-39).
Jokers may be played at any time, but not led to the first trick, and after a joker lead any
card may be played (001). The called card must fall the first time its suit is led, also when
its holder leads the suit, also for a selvmakker (001; 003 37). A sol game ends as soon as
every declarer has taken more tricks than his bid allows (001; 000 6.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from regelmotor.cards import JOKER_SUIT, Card, suit_of
from regelmotor.hooks import ContractInfo, LegalCards, PlayOver, TrickContext, hookimpl
from regelmotor.ruleset.model import Ruleset

TRICKS = 13
SUITS: tuple[int, ...] = tuple(suit_of(card) for card in range(55))
"""Card -> the suit it counts in (jokers: ``JOKER_SUIT``)."""


@cache
def suits_with_fordaekt(fordaekt: tuple[Card, int]) -> tuple[int, ...]:
    """The suit table with the fordækt card counted in the partner card's suit (000 6.1.1)."""
    card, suit = fordaekt
    return (*SUITS[:card], suit, *SUITS[card + 1 :])


def legal_cards(ruleset: Ruleset) -> LegalCards:
    jokers = ruleset.jokers
    any_time = jokers is not None and jokers.play_any_time
    lead_first = jokers is not None and jokers.lead_first_trick
    called_rule = ruleset.called_card

    def legal(hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> tuple[Card, ...]:
        # A table lookup, not a function, for a card's suit: this is on the path of every card played.
        suits = SUITS if context.fordaekt is None else suits_with_fordaekt(context.fordaekt)
        called = context.called
        binding = called is not None and not context.called_suit_led and called in hand
        if not trick:
            cards = tuple(hand)
            if context.first_trick and not lead_first:
                cards = tuple([c for c in cards if suits[c] != JOKER_SUIT]) or cards
            if binding and called_rule.holder_leads_it:
                assert called is not None
                called_suit = suits[called]
                cards = tuple([c for c in cards if c == called or suits[c] != called_suit])
            return cards
        led = suits[trick[0]]
        if led == JOKER_SUIT:
            return tuple(hand)  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
        if binding and called_rule.must_fall_first_time_led and called is not None and suits[called] == led:
            return (called,)
        following: list[Card]
        if any_time:  # 001: "Jokere må spilles når som helst"
            following = [c for c in hand if suits[c] == led or suits[c] == JOKER_SUIT]
        else:
            following = [c for c in hand if suits[c] == led]
        for card in following:
            if suits[card] == led:  # he can follow suit, so he must
                return tuple(following)
        return tuple(hand)

    return legal


def play_over(ruleset: Ruleset) -> PlayOver:
    limits = {s.id: s.max_tricks for s in ruleset.sol_bids}
    early = ruleset.play.sol_ends == "when_all_declarers_lost"

    def over(contract: ContractInfo, tricks_won: Sequence[int], tricks_played: int) -> bool:
        if tricks_played >= TRICKS:
            return True
        if contract.bid.sol is None or not early:
            return False
        limit = limits[contract.bid.sol]
        return all(tricks_won[seat] > limit for seat in contract.declarers)

    return over


class PlayRules:
    @hookimpl
    def regelmotor_legal_cards(self, ruleset: Ruleset) -> LegalCards:
        return legal_cards(ruleset)

    @hookimpl
    def regelmotor_play_over(self, ruleset: Ruleset) -> PlayOver:
        return play_over(ruleset)
