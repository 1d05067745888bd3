"""The legal cards, and the rule that removed each other card: one derivation for both, so that a
refusal names the rule that decided it."""

from __future__ import annotations

from regelmotor.compiled import jit
from regelmotor.rules.called_card import cardplay as called_card
from regelmotor.rules.cardplay import follow_suit
from regelmotor.rules.cardplay.masks import FOLLOW_SUIT, JOKER_SUIT, NO_RULE, Rows, card_suit
from regelmotor.rules.jokers import cardplay as jokers


@jit
def legal_cards(
    hand: int,
    trick_n: int,
    led: int,
    first_trick: bool,
    called: int,
    called_suit_led: bool,
    fd_card: int,
    fd_suit: int,
    trump: int,
    consts: Rows,
) -> tuple[int, int, int]:
    """The cards of ``hand`` that may be played to a trick of ``trick_n`` cards led by ``led``:
    ``(legal, removed, rule)``, where ``removed`` are the cards of the hand a rule forbids and ``rule``
    the code of the last rule that removed any (its family's slot; ``removed_by`` tells for one card). The
    arguments are the hook's ``TrickContext`` as numbers (``trump`` -1: none; in sol no partner card binds,
    ``called`` -1), so that a play rule added to a family reads what it needs without a caller changing."""
    bound = called_card.binds(hand, called, called_suit_led, first_trick, consts)
    if trick_n == 0:
        out_jokers = jokers.not_led_first(hand, first_trick, fd_card, consts)
        cards = hand & ~out_jokers
        out_called, code = (
            called_card.not_led(cards, called, fd_card, fd_suit, trump, consts) if bound else (0, NO_RULE)
        )
        cards &= ~out_called
        if out_called != 0:
            return cards, hand & ~cards, code
        return cards, out_jokers, jokers.LEAD_FIRST if out_jokers != 0 else NO_RULE
    led_suit = card_suit(led, fd_card, fd_suit)
    if led_suit == JOKER_SUIT:
        return hand, 0, NO_RULE  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
    if bound and called_card.must_fall(called, led_suit, fd_card, fd_suit, consts):
        return 1 << called, hand & ~(1 << called), called_card.MUST_FALL
    following = follow_suit.following(hand, led_suit, fd_card, fd_suit)
    if following == 0:
        return hand, 0, NO_RULE
    cards = jokers.with_following(hand, following, fd_card, consts)
    return cards, hand & ~cards, FOLLOW_SUIT if hand & ~cards != 0 else NO_RULE


@jit
def removed_by(
    legal: tuple[int, int, int],
    card: int,
    hand: int,
    trick_n: int,
    first_trick: bool,
    called: int,
    fd_card: int,
    fd_suit: int,
    trump: int,
    consts: Rows,
) -> int:
    """The code of the rule that forbids ``card`` (held in ``hand``) now, or ``NO_RULE``, from
    ``legal_cards``' own answer ``legal`` for that hand: the same steps, watching one card."""
    cards, _, rule = legal
    if (cards >> card) & 1:
        return NO_RULE
    if trick_n != 0:
        return rule
    if (jokers.not_led_first(hand, first_trick, fd_card, consts) >> card) & 1:
        return jokers.LEAD_FIRST
    rest = hand & ~jokers.not_led_first(hand, first_trick, fd_card, consts)
    return called_card.lead_rule_of(card, rest, called, fd_card, fd_suit, trump, consts)
