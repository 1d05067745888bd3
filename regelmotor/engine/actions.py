"""The engine's actions as typed values, and their notation (docs/notation.md) at the edges.

Inside the engine an action is an ``Action``: a verb and the fields it takes (a card, a bid, a
trump, a seat), frozen and hashable, as pokerkit's operations are. The phases offer and apply
these and never read a string; ``str(action)`` writes the canonical notation (``trump S``,
``call AH``, ``discard AS KH 2C``, ``fordækt 7H``, ``8 vip``) for records, the terminal and the web
page, and ``parse_action`` reads what people type (symbols, lower case, ``10``, ASCII spellings).

Two hook contracts speak the notation themselves and keep doing so, so that a plugin needs no
engine types: an auction advances by call text (``pass``, ``gå med``, bids), and a vip offer
names its accepting actions (``accept``, ``accept S``). Their strings are turned into actions where
the engine offers them and back where it hands them to the hook.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple, cast

from regelmotor.bids import HOLD, JOIN, PASS, Bid, Ladder, fold, parse_call
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
from regelmotor.hooks import Denomination


class Verb(StrEnum):
    """What an action does; each verb compares equal to its word in the notation."""

    PASS = PASS
    BID = "bid"
    JOIN = JOIN
    HOLD = HOLD
    MISDEAL = "misdeal"
    CLAIM = "claim"
    """A redeal claim offered as its own action (``jernhånd``, ``omblanding``, a plugin's)."""
    KEEP = "keep"
    """No claim, or no exchange."""
    TRUMP = "trump"
    VIP = "vip"
    """The partner, where the declaration lets him, turns the kitty instead of naming trump."""
    CALL = "call"
    """The partner card."""
    ACCEPT = "accept"
    REJECT = "reject"
    EXCHANGER = "exchanger"
    """``exchanger 2``: the seat a player chooses to exchange with the kitty."""
    DISCARD = "discard"
    FORDAEKT = "fordækt"
    NO_FORDAEKT = "no fordækt"
    DOUBLE = "double"
    REDOUBLE = "redouble"
    PLAY = "play"


class Action(NamedTuple):
    """One action: its verb and the fields that verb takes (the others keep their defaults).

    A named tuple: immutable, hashable, made and compared at C speed (the engine checks every action
    against the legal ones, and the exchange makes hundreds). ``hidden`` is set only in the public
    view of another seat's action: the number of cards it moved face down (``discard ? ? ?``,
    ``fordækt ?``), whose ``cards``/``card`` are then empty.
    """

    verb: Verb
    card: Card | None = None
    """The card played, called as partner card, or laid fordækt."""
    cards: tuple[Card, ...] = ()
    """The cards discarded, in canonical order (``card_order_key``)."""
    bid: Bid | None = None
    trump: Denomination | None = None
    """The trump named (``trump S``, ``trump none``), or the suit an ``accept S`` names."""
    seat: int | None = None
    """The seat named: the culprit of a misdeal, the exchanger chosen."""
    name: str | None = None
    """A redeal claim's name (``jernhånd``)."""
    hidden: int = 0

    def __str__(self) -> str:
        return notation(self)

    def __repr__(self) -> str:
        return f"Action({notation(self)!r})"

    @property
    def is_call(self) -> bool:
        """A call of the auction: the auction hook takes it as its notation."""
        return self.verb in _CALLS


_CALLS = frozenset({Verb.PASS, Verb.BID, Verb.JOIN, Verb.HOLD})


def notation(action: Action) -> str:
    """The canonical notation of an action (docs/notation.md)."""
    verb = action.verb
    if verb is Verb.PLAY:
        assert action.card is not None
        return format_card(action.card)
    if verb is Verb.BID:
        assert action.bid is not None
        return action.bid.text
    if verb is Verb.CLAIM:
        assert action.name is not None
        return action.name
    if verb is Verb.DISCARD:
        if action.hidden:
            return "discard" + " ?" * action.hidden
        return "discard " + " ".join(format_card(c) for c in action.cards)
    if verb is Verb.FORDAEKT:
        return "fordækt ?" if action.hidden else f"fordækt {format_card(cast(Card, action.card))}"
    if verb is Verb.CALL:
        return f"call {format_card(cast(Card, action.card))}"
    if verb is Verb.TRUMP:
        return f"trump {action.trump}"
    if verb is Verb.ACCEPT and action.trump is not None:
        return f"accept {action.trump}"
    if verb in (Verb.EXCHANGER, Verb.MISDEAL) and action.seat is not None:
        return f"{verb} {action.seat}"
    return str(verb)


def public(action: Action, actor: int, viewer: int) -> Action:
    """``action`` of seat ``actor`` as seat ``viewer`` sees it: another seat's discards and fordækt card
    lie face down. The one place that hides them (views, the web page's log, the terminal)."""
    if actor == viewer:
        return action
    if action.verb is Verb.DISCARD and not action.hidden:
        return Action(Verb.DISCARD, hidden=len(action.cards))
    if action.verb is Verb.FORDAEKT and not action.hidden:
        return Action(Verb.FORDAEKT, hidden=1)
    return action


def card_order_key(card: Card) -> tuple[int, int]:
    """Cards in an action are written by suit (S H D C, jokers last), high to low."""
    return (suit_of(card), -rank_of(card))


PLAYS = tuple(Action(Verb.PLAY, card=card) for card in range(55))
"""Card -> the action of playing it: made once, the commonest action of all."""
PASS_ACTION = Action(Verb.PASS)
KEEP_ACTION = Action(Verb.KEEP)
ACCEPT_ACTION = Action(Verb.ACCEPT)
REJECT_ACTION = Action(Verb.REJECT)
VIP_ACTION = Action(Verb.VIP)
DOUBLE_ACTION = Action(Verb.DOUBLE)
REDOUBLE_ACTION = Action(Verb.REDOUBLE)
NO_FORDAEKT_ACTION = Action(Verb.NO_FORDAEKT)
MISDEAL_ACTION = Action(Verb.MISDEAL)
JOIN_ACTION = Action(Verb.JOIN)
HOLD_ACTION = Action(Verb.HOLD)


def discard(cards: tuple[Card, ...] | list[Card]) -> Action:
    """Discarding ``cards`` (in any order; the action holds them in canonical order)."""
    return Action(Verb.DISCARD, cards=tuple(sorted(cards, key=card_order_key)))


def play(card: Card) -> Action:
    return PLAYS[card]


def claim(name: str) -> Action:
    return Action(Verb.CLAIM, name=name)


@cache
def trump(denomination: Denomination) -> Action:
    return Action(Verb.TRUMP, trump=denomination)


@cache
def partner_card(card: Card) -> Action:
    return Action(Verb.CALL, card=card)


@cache
def fordaekt(card: Card) -> Action:
    return Action(Verb.FORDAEKT, card=card)


def seat_action(verb: Verb, seat: int) -> Action:
    """``exchanger 2``, ``misdeal 1``."""
    return Action(verb, seat=seat)


_CALL_ACTIONS = {PASS: PASS_ACTION, JOIN: JOIN_ACTION, HOLD: HOLD_ACTION}


def call_action(text: str, ladder: Ladder) -> Action:
    """The action of a call in the auction hook's notation (``pass``, ``gå med``, ``selv``, a bid's text)."""
    word = _CALL_ACTIONS.get(text)
    if word is not None:
        return word
    return Action(Verb.BID, bid=ladder.parse(text))


def accept_action(text: str) -> Action:
    """The action of a vip offer's accepting action (``accept``, or a house rule's ``accept S``)."""
    head, _, rest = text.partition(" ")
    if head != Verb.ACCEPT:
        raise NotationError(f'"{text}" is not an accepting action: write accept or accept S')
    return Action(Verb.ACCEPT, trump=cast(Denomination, SUIT_LETTERS[parse_suit(rest)]) if rest else None)


_WORDS: dict[str, Action] = {
    fold("accept"): ACCEPT_ACTION,
    fold("reject"): REJECT_ACTION,
    fold("keep"): KEEP_ACTION,
    fold("double"): DOUBLE_ACTION,
    fold("redouble"): REDOUBLE_ACTION,
    fold("no fordækt"): NO_FORDAEKT_ACTION,
    fold("no fordaekt"): NO_FORDAEKT_ACTION,
    fold("misdeal"): MISDEAL_ACTION,
    fold("vip"): VIP_ACTION,
}


def parse_action(text: str, ladder: Ladder) -> Action:
    """The action ``text`` writes, in any spelling the notation accepts; ``NotationError`` when it is none.

    A redeal claim is not parsed here: its name is the ruleset's (a plugin's), so ``Game.parse`` matches
    it against the claims offered.
    """
    raw = " ".join(text.split())
    key = fold(raw)
    if key in _WORDS:
        return _WORDS[key]
    head, _, rest = raw.partition(" ")
    head_key = fold(head)
    try:
        if head_key == "trump" and rest:
            if fold(rest) in ("none", "sans", "uden trumf"):
                return trump("none")
            return trump(cast(Denomination, SUIT_LETTERS[parse_suit(rest)]))
        if head_key == "call" and rest:
            return partner_card(parse_card(rest))
        if head_key == "discard" and rest:
            return discard(parse_cards(rest))
        if head_key in (fold("fordækt"), "fordaekt") and rest:
            return fordaekt(parse_card(rest))
        if head_key == "accept" and rest:
            return accept_action(f"accept {rest}")
        if head_key == "exchanger" and rest.isdigit():
            return seat_action(Verb.EXCHANGER, int(rest))
        if head_key == "misdeal" and rest.isdigit():
            return seat_action(Verb.MISDEAL, int(rest))
    except CardError as exc:
        raise NotationError(f'"{text}": {exc}') from None
    if not rest:
        try:
            return play(parse_card(raw))
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
    return _CALL_ACTIONS[call] if isinstance(call, str) else Action(Verb.BID, bid=call)


def canonical(text: str, ladder: Ladder) -> str:
    """The canonical notation of ``text`` (``parse_action``, written back)."""
    return notation(parse_action(text, ladder))


__all__ = [
    "PLAYS",
    "Action",
    "Verb",
    "call_action",
    "canonical",
    "card_order_key",
    "discard",
    "notation",
    "parse_action",
    "public",
]
