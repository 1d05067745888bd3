"""Which cards may be played, and when play ends.

Follow suit if you can, else play any card; there is no duty to trump (001; 003 38-39).
Jokers may be played at any time, but not led to the first trick, and after a joker lead any
card may be played (001). The called card must fall the first time its suit is led, also when
its holder leads the suit, also for a selvmakker (001; 003 37). A sol game ends as soon as
every declarer has taken more tricks than his bid allows (001; 000 6.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import JOKER_SUIT, Card, suit_of
from regelmotor.hooks import ContractInfo, LegalCards, PlayOver, TrickContext, hookimpl
from regelmotor.ruleset.model import Ruleset

TRICKS = 13


def legal_cards(ruleset: Ruleset) -> LegalCards:
    jokers = ruleset.jokers
    any_time = jokers is not None and jokers.play_any_time
    lead_first = jokers is not None and jokers.lead_first_trick
    called_rule = ruleset.called_card

    def legal(hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> tuple[Card, ...]:
        fordaekt = context.fordaekt

        def suit(card: Card) -> int:
            if fordaekt is not None and card == fordaekt[0]:
                return fordaekt[1]  # 000 6.1.1: it counts as a card of the partner card's suit
            return JOKER_SUIT if card >= 52 else card // 13

        called = context.called if context.called in hand else None
        binding = called is not None and not context.called_suit_led
        if not trick:
            cards = tuple(hand)
            if context.first_trick and not lead_first:
                cards = tuple(c for c in cards if suit(c) != JOKER_SUIT) or cards
            if binding and called_rule.holder_leads_it:
                assert called is not None
                called_suit = suit_of(called)
                cards = tuple(c for c in cards if c == called or suit(c) != called_suit)
            return cards
        led = suit(trick[0])
        if led == JOKER_SUIT:
            return tuple(hand)  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
        if binding and called_rule.must_fall_first_time_led and called is not None and suit_of(called) == led:
            return (called,)
        follow = tuple(c for c in hand if suit(c) == led)
        if not follow:
            return tuple(hand)
        if any_time:
            return follow + tuple(c for c in hand if suit(c) == JOKER_SUIT)
        return follow

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
