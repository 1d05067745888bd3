"""The one phrase table: every sentence a club member reads, in Danish and English.

The rule book's phrase files (``phrase_table/da.yaml``, ``en.yaml``) hold them by key; the rule
book fills in its sentences from them, and so does a refusal (``RuleViolation``): the engine says
which rule refused what, with the refusal's phrase key and its values, and the terminal, the web
page and ``replay`` each render that in the reader's language here. Values are rendered by their
name: ``card`` as the reader writes a card (``A♠`` in Danish, ``AS`` in English), ``suit`` by its
name, ``action`` and ``legal`` (a short list of actions) as the table says them (``said``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from regelmotor import phrase_table
from regelmotor.bids import fold
from regelmotor.cards import FACE_DOWN, FACE_DOWN_TEXT, SUIT_NAMES_DA, SUIT_SYMBOLS, format_card, parse_card
from regelmotor.phrase_table import LANGUAGES, PHRASES, SEAT_VALUES, Word, phrases, seat_no

SUIT_NAMES = {"da": SUIT_NAMES_DA, "en": ("spades", "hearts", "diamonds", "clubs")}
SHOWN_ACTIONS = 12
"""The most legal actions a refusal lists (then ``...``)."""

SUIT_WORDS = {
    "da": {"S": "spar ♠", "H": "hjerter ♥", "D": "ruder ♦", "C": "klør ♣", "none": "uden trumf"},
    "en": {"S": "spades ♠", "H": "hearts ♥", "D": "diamonds ♦", "C": "clubs ♣", "none": "no trump"},
}
RANK_WORDS = {
    "da": {
        "A": ("es", "esser", "esserne"),
        "K": ("konge", "konger", "kongerne"),
        "Q": ("dame", "damer", "damerne"),
        "J": ("knægt", "knægte", "knægtene"),
        "T": ("tier", "tiere", "tierne"),
    },
    "en": {
        "A": ("ace", "aces", "the aces"),
        "K": ("king", "kings", "the kings"),
        "Q": ("queen", "queens", "the queens"),
        "J": ("jack", "jacks", "the jacks"),
        "T": ("ten", "tens", "the tens"),
    },
}
"""The words for suits and ranks a sentence names (singular, plural, definite plural), by language."""


SECTION_OF: dict[str, str] = {
    "game": "s_cards",
    "table": "s_cards",
    "session": "s_cards",
    "deck": "s_cards",
    "dealing": "s_deal",
    "misdeal": "s_deal",
    "all_pass": "s_deal",
    "omblanding": "s_deal",
    "bids": "s_bids",
    "sol_bids": "s_bids",
    "auction": "s_bids",
    "designations": "s_decl",
    "partner_card": "s_decl",
    "exchange": "s_exchange",
    "fordaekt": "s_fordaekt",
    "doubling": "s_doubling",
    "jokers": "s_play",
    "called_card": "s_play",
    "card_order": "s_play",
    "play": "s_play",
    "scoring": "s_scoring",
    "money": "s_scoring",
    "jernhaand": "s_house",
    "notes": "s_notes",
    "plugins": "s_plugins",
}
"""A ruleset's top-level key -> the rule book section it is printed in (its title's phrase key); ``diff`` groups
its differences under the same sections."""


def card_shown(card: int, lang: str) -> str:
    """A card as a club member reads it: ``A♠``, ``10♥``, ``joker 1`` in Danish; the notation in English
    (a card lying face down: ``fordækt`` in both)."""
    if card == FACE_DOWN:
        return FACE_DOWN_TEXT
    if lang == "en":
        return format_card(card)
    if card >= 52:
        return f"joker {card - 51}"
    text = format_card(card)
    return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[card // 13]


_JOKER_SHOWN = re.compile(r"\bjoker\s*([123])\b", re.IGNORECASE)
_CARD_WORD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK[123])\b")
TABLE_WORDS = {
    "no fordækt": "act_no_fordaekt",
    "pass": "act_pass",
    "keep": "act_keep",
    "accept": "act_accept",
    "reject": "act_reject",
    "double": "act_double",
    "redouble": "act_redouble",
    "fordækt": "act_fordaekt",
    "misdeal": "act_misdeal",
    "discard": "act_discard",
    "trump": "act_trump",
    "call": "act_call",
    "exchanger": "act_exchanger",
}
"""The notation's action words -> their keys in the phrase table (``act_*``): the words a table says. A bid,
gå med, selv, vip and a claim are said as they are named."""
_SUIT_LETTER = {letter: symbol for letter, symbol in zip("SHDC", SUIT_SYMBOLS, strict=True)}


def _cards_shown(text: str, lang: str) -> str:
    """The cards in an action's notation as the reader writes them (``call AH`` -> ``call A♥`` in Danish)."""
    if lang == "en":
        return text
    return _CARD_WORD.sub(lambda found: card_shown(parse_card(found.group()), lang), text)


def said(action: str, lang: str = "da") -> str:
    """An action, given in the notation, as the table says it: ``pas``, ``trumf ♠``, ``uden trumf``,
    ``makker A♥``, ``læg A♠ K♥ joker 1`` (the phrase table's words, its cards as the reader writes them)."""
    if lang == "en":
        return action  # the notation is the English table's words
    words = phrases(lang)
    if action == "trump none":
        return words["act_no_trump"]
    for notation, key in TABLE_WORDS.items():
        if action == notation or action.startswith(notation + " "):
            rest = action[len(notation) + 1 :].split()
            if notation in ("trump", "accept"):
                rest = [_SUIT_LETTER.get(word, word) for word in rest]
            return _cards_shown(" ".join([words[key], *rest]), lang)
    return _cards_shown(action, lang)


def in_notation(text: str, lang: str = "da") -> str:
    """What a person typed, with the table's words for an action (``pas``, ``trumf ♠``, ``makker A♥``,
    ``læg 2♠ 3♦``, ``uden trumf``) written in the notation, which the game reads; anything else as it is."""
    words = phrases(lang)
    tokens = _JOKER_SHOWN.sub(r"JK\1", text).split()  # a joker as the table shows it (joker 1) is JK1
    typed = [fold(t) for t in tokens]
    if typed == fold(words["act_no_trump"]).split():
        return "trump none"
    for notation, key in TABLE_WORDS.items():
        word = fold(words[key]).split()
        if typed[: len(word)] == word:
            return " ".join([notation, *tokens[len(word) :]])
    return " ".join(tokens)


def _value(name: str, value: object, lang: str) -> str:
    if name in SEAT_VALUES and isinstance(value, int) and not isinstance(value, bool):
        return str(seat_no(value))  # a person counts seats from 1
    if name == "card" and isinstance(value, int):
        return card_shown(value, lang)
    if name == "suit" and isinstance(value, int):
        return SUIT_NAMES[lang][value]
    if name == "action":
        return said(str(value), lang)
    if name == "legal" and isinstance(value, Sequence) and not isinstance(value, str):
        shown = [said(str(v), lang) for v in value[:SHOWN_ACTIONS]]
        return ", ".join(shown) + (", ..." if len(value) > SHOWN_ACTIONS else "")
    if name == "counts" and isinstance(value, Sequence) and not isinstance(value, str):
        return phrases(lang)["refusal_or"].join(str(v) for v in value)
    return str(value)


def say(key: str, values: Mapping[str, object], lang: str = "da") -> str:
    """The phrase ``key`` in ``lang`` with its values (``phrase_table.say``), its cards as the reader writes
    them and its actions as the table says them."""
    return phrase_table.say(key, values, lang, _value)


PLAIN = "plain"
"""The phrase of a refusal a plugin wrote as one sentence (``{"text": ...}``): shown as it is."""


def refusal(phrase: str, values: Mapping[str, object], lang: str = "da") -> str:
    """The sentence of a refusal in ``lang``: its phrase with its values rendered."""
    if phrase == PLAIN:
        return str(values.get("text", ""))
    template = phrases(lang)[f"refusal_{phrase}"]
    return template.format(**{name: _value(name, value, lang) for name, value in values.items()})


__all__ = [
    "LANGUAGES",
    "PHRASES",
    "PLAIN",
    "SHOWN_ACTIONS",
    "SUIT_NAMES",
    "TABLE_WORDS",
    "Word",
    "card_shown",
    "in_notation",
    "phrases",
    "refusal",
    "said",
    "say",
]
