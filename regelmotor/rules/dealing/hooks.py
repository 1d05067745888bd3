"""Dealing by the ruleset's pattern, so a deck order reproduces the hands exactly.

Thorsen's laws (000 2.4-2.5) deal in packets of one to three cards, clockwise from the dealer's
left, with one kitty card right after each of the dealer's packets, the first kitty card at the
bottom. Dealing a given deck order by a given pattern therefore yields exactly the hands the
table saw, which is what settles a dispute about a deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from regelmotor.cards import Card, format_card, new_deck
from regelmotor.errors import DealError, RegelmotorError
from regelmotor.hooks import Deal, Dealer, hookimpl
from regelmotor.model.ruleset import Ruleset

HAND_SIZE = 13
SEATS = 4


def pattern_problem(ruleset: Ruleset, pattern: Sequence[int | str]) -> RegelmotorError | None:
    """Why ``pattern`` cannot deal this ruleset's deck, or None when it can."""
    rule = ruleset.dealing
    per_player = 0
    kitty = 0
    for step in pattern:
        if step == "kat":
            kitty += 1
        elif isinstance(step, int) and not isinstance(step, bool):
            if step not in rule.packet_sizes:
                sizes = ", ".join(str(s) for s in rule.packet_sizes)
                return RegelmotorError.said("pattern_packet", step=step, sizes=sizes)
            per_player += step
        else:
            return RegelmotorError.said("pattern_step", step=step)
    if per_player != HAND_SIZE:
        return RegelmotorError.said("pattern_hand", cards=per_player, hand=HAND_SIZE)
    if kitty != ruleset.deck.kitty:
        return RegelmotorError.said("pattern_kitty", cards=kitty, kitty=ruleset.deck.kitty)
    if pattern and pattern[-1] == "kat" and not rule.kitty_last_allowed:
        return RegelmotorError.said("pattern_last_to_kitty")
    return None


def deal(ruleset: Ruleset, order: Sequence[Card], dealer: int, pattern: Sequence[int | str] | None = None) -> Deal:
    """Deal ``order`` (top card first) from ``dealer``'s left, by ``pattern``."""
    steps = ruleset.dealing.pattern if pattern is None else tuple(pattern)
    problem = pattern_problem(ruleset, steps)
    if problem is not None:
        raise DealError(f"cannot deal by this pattern: {problem}")
    return deal_by(steps, frozenset(new_deck(ruleset.deck.jokers)), order, dealer)


def deal_by(steps: Sequence[int | str], expected: frozenset[Card], order: Sequence[Card], dealer: int) -> Deal:
    """Deal ``order`` by ``steps``, a pattern already found sound for the deck ``expected``."""
    if len(order) != len(expected) or set(order) != expected:
        missing = sorted(expected - set(order))
        extra = sorted(set(order) - expected)
        detail = []
        if missing:
            detail.append("missing " + " ".join(format_card(c) for c in missing))
        if extra:
            detail.append("not in this deck " + " ".join(format_card(c) for c in extra))
        if len(order) != len(set(order)):
            detail.append("a card appears twice")
        raise DealError(f"the deck order must hold the {len(expected)} cards once each: " + "; ".join(detail))
    if not 0 <= dealer < SEATS:
        raise DealError(f"the dealer is a seat 0-3, not {dealer}")
    hand_places, kitty_places = places(tuple(steps), dealer)
    return Deal(tuple(tuple(order[i] for i in hand) for hand in hand_places), tuple(order[i] for i in kitty_places))


@cache
def places(steps: tuple[int | str, ...], dealer: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Which positions of the deck order each seat's hand gets, and the kitty's (top card first).

    A pattern deals the same positions to the same seats every time, so this is worked out once.
    """
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    placed: list[int] = []  # kitty, bottom first
    position = 0
    for step in steps:
        if step == "kat":
            placed.append(position)
            position += 1
            continue
        assert isinstance(step, int)
        for offset in range(1, SEATS + 1):
            seat = (dealer + offset) % SEATS
            hands[seat].extend(range(position, position + step))
            position += step
    return tuple(tuple(hand) for hand in hands), tuple(reversed(placed))


class DealingRules:
    @hookimpl
    def regelmotor_dealer(self, ruleset: Ruleset) -> Dealer:
        # The ruleset's own pattern is checked once, here, not on every deal.
        own = ruleset.dealing.pattern
        own_problem = pattern_problem(ruleset, own)
        expected = frozenset(new_deck(ruleset.deck.jokers))

        def dealer(order: Sequence[Card], dealer_seat: int, pattern: Sequence[int | str] | None = None) -> Deal:
            if pattern is None and own_problem is None:
                return deal_by(own, expected, order, dealer_seat)
            return deal(ruleset, order, dealer_seat, pattern)

        return dealer
