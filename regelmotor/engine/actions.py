"""Action strings (notation.md) to canonical form, so input spellings compare equal.

The engine offers and records canonical strings (``trump S``, ``call AH``, ``discard AS KH 2C``,
``fordækt 7H``, ``8 vip``); people may type symbols, lower case, ``10`` and ASCII spellings.
"""

from __future__ import annotations

from regelmotor.bids import Ladder, fold
from regelmotor.cards import (
    SUIT_LETTERS,
    Card,
    format_card,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_of,
)
from regelmotor.errors import CardError, NotationError
from regelmotor.rules.auction import HOLD, JOIN, PASS, parse_call
from regelmotor.rules.redeal import OMBLANDING

ACCEPT, REJECT, KEEP = "accept", "reject", "keep"
NO_FORDAEKT = "no fordækt"
DOUBLE, REDOUBLE = "double", "redouble"
JERNHAAND = "jernhånd"
MISDEAL = "misdeal"
VIP = "vip"
"""The partner, where the declaration lets him, turns the kitty instead of naming trump."""
EXCHANGER = "exchanger"
"""``exchanger 2``: the seat a player chooses to exchange with the kitty."""

_WORDS = {
    fold("accept"): ACCEPT,
    fold("reject"): REJECT,
    fold("keep"): KEEP,
    fold("double"): DOUBLE,
    fold("redouble"): REDOUBLE,
    fold("jernhånd"): JERNHAAND,
    fold("jernhaand"): JERNHAAND,
    fold("no fordækt"): NO_FORDAEKT,
    fold("no fordaekt"): NO_FORDAEKT,
    fold("misdeal"): MISDEAL,
    fold("vip"): VIP,
    fold("omblanding"): OMBLANDING,
}


def card_order_key(card: Card) -> tuple[int, int]:
    """Cards in an action are written by suit (S H D C, jokers last), high to low."""
    return (suit_of(card), -rank_of(card))


def format_discard(cards: list[Card] | tuple[Card, ...]) -> str:
    return "discard " + " ".join(format_card(c) for c in sorted(cards, key=card_order_key))


def canonical(text: str, ladder: Ladder) -> str:
    """The canonical form of an action; ``NotationError`` when it is not in the notation."""
    raw = " ".join(text.split())
    key = fold(raw)
    if key in _WORDS:
        return _WORDS[key]
    head, _, rest = raw.partition(" ")
    head_key = fold(head)
    try:
        if head_key == "trump" and rest:
            if fold(rest) in ("none", "sans", "uden trumf"):
                return "trump none"
            return f"trump {SUIT_LETTERS[parse_suit(rest)]}"
        if head_key == "call" and rest:
            return f"call {format_card(parse_card(rest))}"
        if head_key == "discard" and rest:
            return format_discard(parse_cards(rest))
        if head_key in (fold("fordækt"), "fordaekt") and rest:
            return f"fordækt {format_card(parse_card(rest))}"
        if head_key == "accept" and rest:
            return f"accept {SUIT_LETTERS[parse_suit(rest)]}"
        if head_key == "exchanger" and rest.isdigit():
            return f"exchanger {int(rest)}"
        if head_key == "misdeal" and rest.isdigit():
            return f"misdeal {int(rest)}"
    except CardError as exc:
        raise NotationError(f'"{text}": {exc}') from None
    if not rest:
        try:
            return format_card(parse_card(raw))
        except CardError:
            pass
    try:
        call = parse_call(raw, ladder)
    except NotationError:
        raise NotationError(
            f'"{text}" is not an action: write a call (pass, 8, 8 vip, sol, gå med), trump S, call AH, '
            "accept, reject, vip, discard AS KH 2C, keep, fordækt 7H, no fordækt, double, redouble, jernhånd, "
            "omblanding or a card"
        ) from None
    return call if isinstance(call, str) else call.text


__all__ = [
    "ACCEPT",
    "DOUBLE",
    "EXCHANGER",
    "HOLD",
    "JERNHAAND",
    "JOIN",
    "KEEP",
    "MISDEAL",
    "NO_FORDAEKT",
    "OMBLANDING",
    "PASS",
    "REDOUBLE",
    "REJECT",
    "VIP",
    "canonical",
    "format_discard",
]
