"""Rounding that keeps a sum: printed points and money that sum to zero still do."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

OERE = Fraction(1, 100)


def round_keeping_sum(amounts: Sequence[Fraction], unit: Fraction) -> list[Fraction]:
    """Each amount in whole ``unit``s, their sum kept (itself rounded to the unit): each is rounded down
    and the largest remainders get the last unit. Amounts that sum to zero still do."""
    floors = [math.floor(a / unit) for a in amounts]
    target = round(sum(amounts, Fraction(0)) / unit)
    order = sorted(range(len(amounts)), key=lambda i: (amounts[i] / unit - floors[i], -i), reverse=True)
    for i in order[: max(0, target - sum(floors))]:
        floors[i] += 1
    return [f * unit for f in floors]


def to_oere(amounts: Sequence[Fraction]) -> list[Fraction]:
    """Each amount in whole øre; money that sums to zero still sums to zero, to the øre."""
    return round_keeping_sum(amounts, OERE)


def zero_sum_points(values: Sequence[Fraction], decimals: int) -> list[int | float]:
    """Several players' points for printing, rounded so that what is printed sums as the points do.

    Each is rounded down to ``decimals`` places and the largest remainders get the last unit (the
    rounding rule the rule book states); exact points are unchanged."""
    return [points(v, decimals) for v in round_keeping_sum(values, Fraction(1, 10**decimals))]


def points(value: Fraction, decimals: int) -> int | float:
    """Points for printing: exact in the engine, a whole number or a decimal on paper (docs/notation.md)."""
    if value.denominator == 1:
        return value.numerator
    return round(float(value), decimals)


def number_text(number: int | float, lang: str = "da", *, signed: bool = False) -> str:
    """Points as a reader reads them: a decimal comma in Danish (6,67), as the rule book and the money
    print them; ``signed``: +6,67 and -6,67 (and 0 as 0)."""
    plain = str(number) if isinstance(number, int) else f"{number:f}".rstrip("0").rstrip(".")  # never 1e-05
    text = ("+" + plain if number > 0 else plain) if signed else plain
    return text.replace(".", ",") if lang == "da" else text
