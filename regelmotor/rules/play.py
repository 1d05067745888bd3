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

from regelmotor.cards import JOKER_SUIT, Card, format_card, suit_of
from regelmotor.hooks import CalledCardBinds, ContractInfo, LegalCards, Made, PlayOver, TrickContext, hookimpl
from regelmotor.rules.contracts import decided, shares, within
from regelmotor.ruleset.model import Ruleset

TRICKS = 13
SUITS: tuple[int, ...] = tuple(suit_of(card) for card in range(55))
"""Card -> the suit it counts in (jokers: ``JOKER_SUIT``)."""


@cache
def suits_with_fordaekt(fordaekt: tuple[Card, int]) -> tuple[int, ...]:
    """The suit table with the fordækt card counted in the partner card's suit (000 6.1.1)."""
    card, suit = fordaekt
    return (*SUITS[:card], suit, *SUITS[card + 1 :])


SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
Refusal = tuple[str, str]
"""(the ruleset key that forbids a card, why)."""


class LegalPlay:
    """The legal cards, and why another card is not: one derivation for both, so that a refusal
    names the rule that decided it (``why_not`` runs the same code, watching one card)."""

    def __init__(self, ruleset: Ruleset) -> None:
        jokers = ruleset.jokers
        self.any_time = jokers is not None and jokers.play_any_time
        self.lead_first = jokers is not None and jokers.lead_first_trick
        self.holder_leads_it = ruleset.called_card.holder_leads_it
        self.must_fall = ruleset.called_card.must_fall_first_time_led
        self.free_first = ruleset.called_card.free_first_trick  # 003 36: "I første runde må spilles alt."

    def __call__(self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> tuple[Card, ...]:
        return self.judge(hand, trick, context, None)[0]

    def why_not(self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext, card: Card) -> Refusal | None:
        """The rule that forbids ``card`` (held in ``hand``) now, or None if it is legal."""
        return self.judge(hand, trick, context, card)[1]

    def judge(
        self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext, watched: Card | None
    ) -> tuple[tuple[Card, ...], Refusal | None]:
        # A table lookup, not a function, for a card's suit: this is on the path of every card played.
        suits = SUITS if context.fordaekt is None else suits_with_fordaekt(context.fordaekt)
        called = context.called
        binding = called is not None and not context.called_suit_led and called in hand
        if binding and self.free_first and context.first_trick:
            binding = False
        if not trick:
            cards = tuple(hand)
            if context.first_trick and not self.lead_first:
                cards = tuple([c for c in cards if suits[c] != JOKER_SUIT]) or cards
                if watched is not None and watched not in cards:
                    return cards, ("jokers.lead_first_trick", "no joker may be led to the first trick")
            if binding and self.holder_leads_it:
                assert called is not None
                called_suit = suits[called]
                cards = tuple([c for c in cards if c == called or suits[c] != called_suit])
                if watched is not None and watched not in cards:
                    return cards, (
                        "called_card.holder_leads_it",
                        f"lead the called card {format_card(called)}: its suit is led for the first time",
                    )
            return cards, None
        led = suits[trick[0]]
        if led == JOKER_SUIT:
            return tuple(hand), None  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
        if binding and self.must_fall and called is not None and suits[called] == led:
            if watched is not None and watched != called:
                return (called,), (
                    "called_card.must_fall_first_time_led",
                    f"the called card {format_card(called)} must be played now",
                )
            return (called,), None
        following: list[Card]
        if self.any_time:  # 001: "Jokere må spilles når som helst"
            following = [c for c in hand if suits[c] == led or suits[c] == JOKER_SUIT]
        else:
            following = [c for c in hand if suits[c] == led]
        for card in following:
            if suits[card] == led:  # he can follow suit, so he must
                if watched is not None and watched not in following:
                    held = sum(1 for c in hand if suits[c] == led)
                    return tuple(following), (
                        "play.follow_suit",
                        f"must follow suit: you hold {held} {SUIT_NAMES[led]}",
                    )
                return tuple(following), None
        return tuple(hand), None


def legal_cards(ruleset: Ruleset) -> LegalCards:
    return LegalPlay(ruleset)


def play_over(ruleset: Ruleset) -> PlayOver:
    named = {s.id: s for s in ruleset.named_bids()}
    early = ruleset.play.sol_ends == "when_all_declarers_lost"

    def over(contract: ContractInfo, tricks_won: Sequence[int], tricks_played: int) -> bool:
        if tricks_played >= TRICKS:
            return True
        if contract.bid.sol is None:
            return False
        return decided(named[contract.bid.sol], contract.declarers, tricks_won, tricks_played, early=early)

    return over


def made(ruleset: Ruleset) -> Made:
    """A sol declarer within his bid's tricks (each of them, with joiners); a trump contract's side with
    at least the tricks bid (001); a named bid of sides as ``rules.contracts`` judges it (in a game
    without a declarer, engelsk whist and pasnolo, "made" means that seat 0's side won)."""
    named = {s.id: s for s in ruleset.named_bids()}

    def was_made(contract: ContractInfo, tricks_won: Sequence[int]) -> bool:
        bid = contract.bid
        if bid.sol is not None:
            rule = named[bid.sol]
            if rule.side == "alone":
                return all(within(rule, tricks_won[seat]) for seat in contract.declarers)
            return shares(rule, contract.declarers, tricks_won)[contract.declarers[0] if contract.declarers else 0].won
        assert bid.level is not None
        side = tricks_won[contract.declarers[0]] + (0 if contract.partner is None else tricks_won[contract.partner])
        return side >= bid.level

    return was_made


def called_card_binds(ruleset: Ruleset) -> CalledCardBinds:
    """Whether the partner card's rules bind a selvmakker is the ruleset's choice (003 37)."""
    exempt_declarer = not ruleset.called_card.applies_to_selvmakker

    def binds(seat: int, contract: ContractInfo) -> bool:
        return not (exempt_declarer and seat in contract.declarers[:1])

    return binds


class PlayRules:
    @hookimpl
    def regelmotor_legal_cards(self, ruleset: Ruleset) -> LegalCards:
        return legal_cards(ruleset)

    @hookimpl
    def regelmotor_made(self, ruleset: Ruleset) -> Made:
        return made(ruleset)

    @hookimpl
    def regelmotor_called_card_binds(self, ruleset: Ruleset) -> CalledCardBinds:
        return called_card_binds(ruleset)

    @hookimpl
    def regelmotor_play_over(self, ruleset: Ruleset) -> PlayOver:
        return play_over(ruleset)
