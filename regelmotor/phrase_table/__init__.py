"""The phrase table itself: every sentence a club member reads, by key, in Danish and English.

It depends on nothing of regelmotor, so that the errors (``errors.py``) say themselves from it; the
cards, actions and refusals are rendered on top of it by ``phrases``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Self

import yaml

PHRASES = Path(__file__).resolve().parent
"""The phrase files, beside the table that owns them: ``da.yaml``, ``en.yaml`` and ``help.da.yaml``."""
LANGUAGES = ("da", "en")


@cache
def phrases(lang: str) -> dict[str, str]:
    """The sentences in one language, from ``phrase_table/<lang>.yaml``."""
    if lang not in LANGUAGES:
        raise ValueError(f"no phrases in {lang!r}: the languages are {', '.join(LANGUAGES)}")
    loaded = yaml.safe_load((PHRASES / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return {str(k): str(v) for k, v in loaded.items()}


def seat_no(seat: int) -> int:
    """A seat as a person counts it: "plads 1" is seat 0 (forhånd when the dealer is seat 3); a phrase's
    ``seat``, ``to_act``, ``dealer``, ``forhaand``, ``winner`` and ``leader`` given as seats are said so. Records,
    ``--json`` and the API keep seats 0-3 (docs/notation.md); what a person reads counts from 1."""
    return seat + 1


SEAT_VALUES = frozenset(("seat", "to_act", "dealer", "forhaand", "winner", "leader"))
"""The values of a phrase that are seats (0-3), said as a person counts them."""


class Word(str):
    """A word of the phrase table (``word_<key>``), said in the reader's language where it is a value."""


class Said(str):
    """A sentence of the phrase table that is the English text itself (a ``str``) and says itself in the
    reader's language (``text``): for words that travel inside other sentences and records."""

    phrase: str
    values: Mapping[str, object]

    @staticmethod
    def render(key: str, values: Mapping[str, object], lang: str) -> str:
        """How the sentence is said: the table's ``say`` (a subclass may say cards too)."""
        return say(key, values, lang)

    @classmethod
    def of(cls, phrase: str, **values: object) -> Self:
        said = cls(cls.render(phrase, values, "en"))
        said.phrase, said.values = phrase, values
        return said

    def text(self, lang: str = "da") -> str:
        return self.render(self.phrase, self.values, lang)


Value = Callable[[str, object, str], str]
"""How a value the table does not know is said (``phrases`` says cards and actions)."""


COUNTED_VALUES = frozenset({"size", "most"})
"""Values that are counts a reader reads in thousands (a file's bytes): grouped as his language groups them."""


def grouped(number: int, lang: str) -> str:
    """A whole number in thousands as ``lang`` writes it: 1.048.576 in Danish, 1,048,576 in English."""
    text = f"{number:,}"
    return text.replace(",", ".") if lang == "da" else text


def say(key: str, values: Mapping[str, object], lang: str = "da", value: Value | None = None) -> str:
    """The phrase ``key`` in ``lang`` with its values: a value that is an error is said in ``lang`` too; a
    ``Word``, a ``role``, a ``place`` and a redeal's ``reason`` by their words; alternatives (a tuple)
    joined by "eller"; anything else by ``value``, or as it is."""
    words = phrases(lang)

    def shown(name: str, item: object) -> str:
        if isinstance(item, (Exception, Said)) and hasattr(item, "text"):
            return str(item.text(lang))
        if hasattr(item, "said_as"):  # a ruleset file's problem, its message alone
            return str(item.said_as(lang))
        if isinstance(item, Word):
            return words[f"word_{item}"]
        if isinstance(item, tuple):  # alternatives: "et helt tal eller tekst"
            return words["word_or"].join(shown(name, v) for v in item)
        if name == "role":
            return words[f"person_{item}"]
        if name == "place":  # "the deal", or where in a file (deals[3])
            return words.get(f"person_{item}", str(item))
        if name == "reason":
            return words.get(f"redeal_{item}", str(item))
        if name in SEAT_VALUES and isinstance(item, int) and not isinstance(item, bool):
            return str(seat_no(item))
        if name in COUNTED_VALUES and isinstance(item, int) and not isinstance(item, bool):
            return grouped(item, lang)
        return value(name, item, lang) if value is not None else str(item)

    return words[key].format(**{name: shown(name, item) for name, item in values.items()})


__all__ = ["LANGUAGES", "PHRASES", "Said", "Word", "phrases", "say", "seat_no"]
