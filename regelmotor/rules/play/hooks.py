"""Which cards may be played, and when play ends.

Follow suit if you can, else play any card; there is no duty to trump (001; 003 38-39).
Jokers may be played at any time, but not led to the first trick, and after a joker lead any
card may be played (001). The called card must fall the first time its suit is led, also when
its holder leads the suit, also for a selvmakker (001; 003 37). A sol game ends as soon as
every declarer has taken more tricks than his bid allows (001; 000 6.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.cards import Card
from regelmotor.hooks import ContractInfo, LegalCards, Made, PlayOver, Refusal, TrickContext, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.called_card import cardplay as called_card
from regelmotor.rules.cardplay import follow_suit
from regelmotor.rules.cardplay import legal as L
from regelmotor.rules.cardplay.constants import ending, play_constants
from regelmotor.rules.cardplay.end_of_play import play_over as ends
from regelmotor.rules.cardplay.masks import NO_RULE, mask_of
from regelmotor.rules.contracts.named import shares, within
from regelmotor.rules.jokers import cardplay as jokers

TRICKS = 13
REFUSALS = (jokers.refusal, called_card.refusal, follow_suit.refusal)
"""Each family that refuses cards says its own refusal, by the code of its rule (its slot)."""


class LegalPlay:
    """The legal cards of a hand as the hook hands them out (cards, not masks), and why another card is
    not, both from ``cardplay.legal``: the one implementation the kernel's playouts run too."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.constants = play_constants(ruleset)

    def arguments(
        self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext
    ) -> tuple[int, int, int, bool, int, bool, int, int, int]:
        mask = mask_of(hand)
        fd_card, fd_suit = (-1, -1) if context.fordaekt is None else context.fordaekt
        called = -1 if context.called is None else context.called
        led = trick[0] if trick else -1
        trump = -1 if context.trump is None else context.trump
        return mask, len(trick), led, context.first_trick, called, context.called_suit_led, fd_card, fd_suit, trump

    def __call__(self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext) -> tuple[Card, ...]:
        legal = L.legal_cards(*self.arguments(hand, trick, context), self.constants)[0]
        return tuple([c for c in hand if (legal >> c) & 1])

    def why_not(self, hand: Sequence[Card], trick: Sequence[Card], context: TrickContext, card: Card) -> Refusal | None:
        """The rule that forbids ``card`` (held in ``hand``) now, or None if it is legal."""
        mask, trick_n, led, first, called, suit_led, fd_card, fd_suit, trump = self.arguments(hand, trick, context)
        answer = L.legal_cards(mask, trick_n, led, first, called, suit_led, fd_card, fd_suit, trump, self.constants)
        rule = L.removed_by(answer, card, mask, trick_n, first, called, fd_card, fd_suit, trump, self.constants)
        if rule == NO_RULE:
            return None
        for refusal in REFUSALS:
            found = refusal(rule, hand, trick, context)
            if found is not None:
                return found
        raise AssertionError(f"no rule family says why rule {rule} refused a card")


def legal_cards(ruleset: Ruleset) -> LegalCards:
    return LegalPlay(ruleset)


def play_over(ruleset: Ruleset) -> PlayOver:
    """``cardplay.end_of_play`` for a contract: its parameters worked out once per named bid."""
    endings = {s.id: ending(s) for s in ruleset.named_bids()}
    early = int(ruleset.play.sol_ends == "when_all_declarers_lost")

    def over(contract: ContractInfo, tricks_won: Sequence[int], tricks_played: int) -> bool:
        if tricks_played >= TRICKS:
            return True
        if contract.bid.sol is None:
            return False
        e = endings[contract.bid.sol]
        w0, w1, w2, w3 = tricks_won
        declarers = mask_of(contract.declarers)
        return bool(ends(tricks_played, w0, w1, w2, w3, declarers, e.side, e.max_tricks, e.first_tricks, early))

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


class PlayRules:
    @hookimpl
    def regelmotor_legal_cards(self, ruleset: Ruleset) -> LegalCards:
        return legal_cards(ruleset)

    @hookimpl
    def regelmotor_made(self, ruleset: Ruleset) -> Made:
        return made(ruleset)

    @hookimpl
    def regelmotor_play_over(self, ruleset: Ruleset) -> PlayOver:
        return play_over(ruleset)
