"""The ruleset's value types and the two base models every family's keys are made of.

Every model is frozen and forbids unknown keys, so a typo in a club's file is an error, not a
silently ignored rule. Every rule object carries ``source`` so the rule book and the diff can
say where a rule comes from, and whether it is inferred. Descriptions are Danish because they
are what a club member sees on hover in an editor, on the club's page and in ``regelmotor schema``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema

from regelmotor.errors import RegelmotorError

MAX_BITS = 128
"""Exact numbers in a ruleset stay below 2**128: points, stakes and factors are small."""


_FRACTION = re.compile(r"^\s*-?\d+(\s*/\s*\d+|\.\d+)?\s*$")


class ExactNumberError(RegelmotorError, ValueError):
    """A number a ruleset cannot mean, said in the reader's language (a ``ValueError``: pydantic reports it at
    its key, and the loader says it from the phrase table)."""


MAX_WRITTEN = 40
"""The longest number a ruleset writes: no point, stake or factor needs more digits."""


def _to_fraction(value: Any) -> Any:
    """Exact numbers: ints, ``"5/4"`` and decimals as written (``1.25`` is exactly 5/4)."""
    if isinstance(value, bool):
        return value  # let pydantic reject it with its own message
    if isinstance(value, int) and value.bit_length() > MAX_BITS:
        raise ExactNumberError.said("exact_bits", most=MAX_BITS)
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, str) and len(value) > MAX_WRITTEN:
        raise ExactNumberError.said("exact_long", most=MAX_WRITTEN)
    if isinstance(value, str) and _FRACTION.match(value):
        try:
            return Fraction(value.replace(" ", ""))
        except ZeroDivisionError:
            raise ExactNumberError.said("exact_zero", value=value) from None
    return value


def _fraction_out(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else str(value)


EXACT_DESCRIPTION = 'Et eksakt tal: heltal, decimaltal eller brøk som "5/4".'


Exact = Annotated[
    Fraction,
    BeforeValidator(_to_fraction),
    PlainSerializer(_fraction_out),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer"},
                {"type": "number"},
                {"type": "string", "pattern": r"^\s*-?\d+(\s*/\s*\d+|\.\d+)?\s*$"},
            ],
            "description": EXACT_DESCRIPTION,
        }
    ),
]
"""An exact rational number."""


Suit = Literal["S", "H", "D", "C"]


Denomination = Literal["S", "H", "D", "C", "none"]
"""A trump denomination: a suit letter, or ``none`` for no trump (sans)."""


Rank = Literal["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]


SOURCE_DESCRIPTION = (
    'Kilde til reglen: dokument og afsnit (fx "000_5ff45d385a286ea5.txt 3.5"), '
    'eller "inferred: ..." med begrundelse, når kilden tier, er uklar eller modsiger sig selv.'
)


Source = Annotated[str, Field(min_length=1, description=SOURCE_DESCRIPTION)]


BidId = Annotated[
    str,
    Field(
        pattern=r"^[a-zæøå0-9]+( [a-zæøå0-9]+)*$",
        description='Meldingens id i notationen: små bogstaver, tal og enkelte mellemrum (fx "vip1", "ren sol").',
    ),
]


Formula = Annotated[
    str,
    Field(
        min_length=1,
        description=(
            "En formel med + - * / ** (eller ^) og parenteser over tal, brøker og variablerne "
            "(se docs/writing-a-ruleset.md), regnet eksakt i brøker."
        ),
    ),
]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Rule(Model):
    """A rule object: everything a ruleset says can cite where it comes from."""

    source: Source | None = Field(default=None, description=SOURCE_DESCRIPTION)

    @property
    def inferred(self) -> bool:
        """The ruleset marks this rule, or part of it, as inferred (the source is silent, garbled or
        contradicts itself): its ``source`` says "inferred", with the reason."""
        return self.source is not None and "inferred" in self.source.lower()


class Note(Rule):
    text: str = Field(min_length=1, description="En klubregel som motoren ikke kan kontrollere (fx hvem der blander).")


class PluginUse(Model):
    name: str = Field(min_length=1, description='Pluginets navn (dets entry point i gruppen "regelmotor").')
    settings: dict[str, Any] = Field(
        default_factory=dict, description="Pluginets indstillinger; pluginet kontrollerer dem selv."
    )
