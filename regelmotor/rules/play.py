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
from regelmotor.hooks import CalledCardBinds, ContractInfo, LegalCards, Made, PlayOver, Refusal, TrickContext, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.cardplay import legal as L
from regelmotor.rules.cardplay.constants import ending, play_constants
from regelmotor.rules.cardplay.end_of_play import play_over as ends
from regelmotor.rules.cardplay.follow_suit import following
from regelmotor.rules.cardplay.masks import JOKER_SUIT, bit_count, card_suit, mask_of
from regelmotor.rules.contracts import shares, within

TRICKS = 13
KEYS = {
    L.JOKER_LEAD: "jokers.lead_first_trick",
    L.HOLDER_LEADS: "called_card.holder_leads_it",
    L.MUST_FALL: "called_card.must_fall_first_time_led",
    L.FOLLOW_SUIT: "play.follow_suit",
}


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
        arguments = self.arguments(hand, trick, context)
        answer = L.legal_cards(*arguments, self.constants)
        rule = L.removed_by(answer, card, arguments[0], context.first_trick, arguments[6], self.constants)
        if rule == L.NO_RULE:
            return None
        if rule == L.JOKER_LEAD:
            return Refusal(KEYS[rule], "joker_lead", {})
        assert context.called is not None or rule == L.FOLLOW_SUIT
        if rule == L.HOLDER_LEADS:
            return Refusal(KEYS[rule], "lead_called", {"card": context.called})
        if rule == L.MUST_FALL:  # led before: it falls this time by the rule that it falls every time
            key = "called_card.must_fall_every_time_led" if context.called_suit_led else KEYS[rule]
            return Refusal(key, "called_must_fall", {"card": context.called})
        mask, fd_card, fd_suit = arguments[0], arguments[6], arguments[7]
        led = card_suit(trick[0], fd_card, fd_suit)
        assert led != JOKER_SUIT
        held = bit_count(following(mask, led, fd_card, fd_suit))
        return Refusal(KEYS[rule], "follow_suit", {"count": held, "suit": led})


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
