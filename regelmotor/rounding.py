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
