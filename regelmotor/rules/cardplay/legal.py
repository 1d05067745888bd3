"""The legal cards, and the rule that removed each other card: one derivation for both, so that a
refusal names the rule that decided it."""

from __future__ import annotations

from regelmotor.rules.cardplay import called_card, follow_suit, jokers
from regelmotor.rules.cardplay.masks import JOKER_SUIT, Rows, card_suit, jit

NO_RULE = 0
JOKER_LEAD = 1  # jokers.lead_first_trick
HOLDER_LEADS = 2  # called_card.holder_leads_it
MUST_FALL = 3  # called_card.must_fall_first_time_led
FOLLOW_SUIT = 4  # play.follow_suit


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
    the last rule that removed any (``removed_by`` tells for one card). The arguments are the hook's
    ``TrickContext`` as numbers (``trump`` -1: none; in sol no partner card binds, ``called`` -1), so that a
    play rule added here reads what it needs without a caller changing."""
    bound = called_card.binds(hand, called, called_suit_led, first_trick, consts)
    if trick_n == 0:
        out_jokers = jokers.not_led_first(hand, first_trick, fd_card, consts)
        cards = hand & ~out_jokers
        out_called = called_card.not_led(cards, called, fd_card, fd_suit, consts) if bound else 0
        cards &= ~out_called
        if out_called != 0:
            return cards, hand & ~cards, HOLDER_LEADS
        return cards, out_jokers, JOKER_LEAD if out_jokers != 0 else NO_RULE
    led_suit = card_suit(led, fd_card, fd_suit)
    if led_suit == JOKER_SUIT:
        return hand, 0, NO_RULE  # 001: "Når en joker spilles ud, må de andre lægge et hvilket som helst kort."
    if bound and called_card.must_fall(called, led_suit, fd_card, fd_suit, consts):
        return 1 << called, hand & ~(1 << called), MUST_FALL
    following = follow_suit.following(hand, led_suit, fd_card, fd_suit)
    if following == 0:
        return hand, 0, NO_RULE
    cards = jokers.with_following(hand, following, fd_card, consts)
    return cards, hand & ~cards, FOLLOW_SUIT if hand & ~cards != 0 else NO_RULE


def removed_by(legal: tuple[int, int, int], card: int, hand: int, first_trick: bool, fd_card: int, consts: Rows) -> int:
    """The rule that forbids ``card`` (held in ``hand``) now, or ``NO_RULE``, from ``legal_cards``' own
    answer ``legal`` for that hand: the same steps, watching one card."""
    cards, _, rule = legal
    if (cards >> card) & 1:
        return NO_RULE
    if rule == HOLDER_LEADS and (jokers.not_led_first(hand, first_trick, fd_card, consts) >> card) & 1:
        return JOKER_LEAD  # both lead rules removed cards: this one the joker rule
    return rule
