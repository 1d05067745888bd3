"""Cards and their text notation.

Inside the engine a card is a small int (suit * 13 + rank, jokers 52-54) so hands can be
bitmasks and comparisons are integer work; the notation strings of docs/notation.md exist only at
the edges, where people and records meet the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from regelmotor.errors import CardError

Card = int
"""A card: ``suit * 13 + rank`` for the 52 ordinary cards, 52-54 for the jokers."""

SUIT_LETTERS: Final = "SHDC"
"""Suit index -> letter: spar, hjerter, ruder, klør."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES_DA: Final = ("spar", "hjerter", "ruder", "klør")
JOKER_SUIT: Final = 4
"""The suit index of a joker: it belongs to no suit."""

RANK_LETTERS: Final = "23456789TJQKA"
"""Rank index -> letter; the index is also the rank's height in trump games."""
RANK_NAMES_DA: Final = (
    "to",
    "tre",
    "fire",
    "fem",
    "seks",
    "syv",
    "otte",
    "ni",
    "ti",
    "knægt",
    "dame",
    "konge",
    "es",
)
ACE: Final = 12
KING: Final = 11
QUEEN: Final = 10
JACK: Final = 9

JOKERS: Final = (52, 53, 54)
ORDINARY: Final = tuple(range(52))
FACE_DOWN: Final = 55
"""A card lying face down: the fordækt card as the table sees it, which only its owner knows."""
FACE_DOWN_TEXT: Final = "fordækt"
"""How a card lying face down is written (docs/notation.md: a trick shows ``fordækt``)."""

_SUIT_INPUT: Final = {
    **{letter: i for i, letter in enumerate(SUIT_LETTERS)},
    **{symbol: i for i, symbol in enumerate(SUIT_SYMBOLS)},
    # Text presentation variants of the symbols, as pasted from some editors.
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}
_RANK_INPUT: Final = {**{letter: i for i, letter in enumerate(RANK_LETTERS)}, "10": 8}
_CARD_HELP: Final = (
    "a card is a rank (A K Q J T 9 8 7 6 5 4 3 2, or 10) followed by a suit "
    "(S H D C or ♠ ♥ ♦ ♣), e.g. AS, 10H, TD; or a joker JK1, JK2, JK3"
)


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = two ... 12 = ace) in ``suit`` (0-3)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"no card has rank index {rank} and suit index {suit}")
    return suit * 13 + rank


def is_joker(card: Card) -> bool:
    return card >= 52


def suit_of(card: Card) -> int:
    """The suit index, or ``JOKER_SUIT`` for a joker."""
    return JOKER_SUIT if card >= 52 else card // 13


def rank_of(card: Card) -> int:
    """The rank index (0 = two ... 12 = ace); a joker has rank -1."""
    return -1 if card >= 52 else card % 13


def parse_suit(text: str) -> int:
    """A suit letter or symbol, in either case."""
    key = text.strip()
    key = key.upper() if key.isascii() else key
    if key in _SUIT_INPUT:
        return _SUIT_INPUT[key]
    raise CardError(f'"{text}" is not a suit: write S, H, D or C (or ♠ ♥ ♦ ♣)')


_SUIT_SYMBOLS_FIRST = frozenset("♠♥♦♣")


def parse_card(text: str) -> Card:
    """Parse one card in the input notation; the error says what is wrong with it."""
    raw = text.strip()
    if raw[:1] in _SUIT_SYMBOLS_FIRST and len(raw) >= 2:
        raw = raw[1:] + raw[0]  # "♠A" as it is printed in a hand grouped by suit: the ace of spades
    key = raw.upper().replace(" ", "")
    if key.startswith("JOKER") and key[5:] in ("1", "2", "3"):
        key = "JK" + key[5:]  # "joker 1", as the terminal shows it
    if key.startswith("JK"):
        if key in ("JK1", "JK2", "JK3"):
            return 52 + int(key[2]) - 1
        raise CardError(f'"{text}" is not a card: the jokers are JK1, JK2 and JK3')
    if len(raw) < 2:
        raise CardError(f'"{text}" is not a card: {_CARD_HELP}')
    rank_text, suit_text = key[:-1], raw[-1]
    suit_key = suit_text.upper() if suit_text.isascii() else suit_text
    if rank_text not in _RANK_INPUT:
        raise CardError(f'"{text}" is not a card: "{raw[:-1]}" is not a rank; {_CARD_HELP}')
    if suit_key not in _SUIT_INPUT:
        raise CardError(f'"{text}" is not a card: "{suit_text}" is not a suit; {_CARD_HELP}')
    return _SUIT_INPUT[suit_key] * 13 + _RANK_INPUT[rank_text]


def format_card(card: Card) -> str:
    """The canonical short ASCII form: ``AS``, ``TD``, ``JK2``."""
    if not 0 <= card < 55:
        raise CardError(f"{card} is not a card index (0-54)")
    if card >= 52:
        return f"JK{card - 51}"
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Several cards, space separated or as a list; a card named twice is an error."""
    items = text.split() if isinstance(text, str) else list(text)
    cards = [parse_card(item) for item in items]
    seen: set[Card] = set()
    for item, card in zip(items, cards, strict=True):
        if card in seen:
            raise CardError(f'"{item}" is named twice: {format_card(card)}')
        seen.add(card)
    return cards


def shown_card(card: Card) -> str:
    """A card as the table shows it: its notation, or ``fordækt`` where it lies face down."""
    return FACE_DOWN_TEXT if card == FACE_DOWN else format_card(card)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(card) for card in cards)


def new_deck(jokers: int) -> list[Card]:
    """The cards in play: the 52 ordinary cards and the first ``jokers`` jokers."""
    if not 0 <= jokers <= 3:
        raise CardError(f"a deck has 0 to 3 jokers, not {jokers}")
    return [*ORDINARY, *JOKERS[:jokers]]
