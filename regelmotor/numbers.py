"""Numbers a person writes (a rate, a value to try, a number of tricks), read the one way: bounded first.

Python's own readers take far more than a person means and cost without bound: ``Fraction("1e100000000")``
builds a number of a hundred million digits (minutes, before any range is checked), and ``int("1_0")`` is
10. So a number's text is checked against a small form before any arithmetic: at most ``MAX_DIGITS``
digits on each side of the point, an exponent of at most ``MAX_EXPONENT_DIGITS`` digits, no ``_``, no
spaces inside, no ``inf`` or ``nan``. A decimal comma is read as the point (Danish writes ``0,25``); a
fraction ``3/2`` is two such whole numbers. Within the form, the value is exact (``Fraction``).
"""

from __future__ import annotations

import re
from fractions import Fraction

from regelmotor.errors import RegelmotorError

MAX_DIGITS = 15
"""Digits before and after the point: no rate, point or value a club writes needs more."""
MAX_EXPONENT_DIGITS = 2
"""``1e-3`` is a number; ``1e100000000`` is an attack on the arithmetic."""
MAX_TEXT = 2 * MAX_DIGITS + MAX_EXPONENT_DIGITS + 6
"""A number's text is refused by its length before any pattern is tried on it."""

_DECIMAL = re.compile(
    rf"[+-]?(?:\d{{1,{MAX_DIGITS}}}(?:[.,]\d{{0,{MAX_DIGITS}}})?|[.,]\d{{1,{MAX_DIGITS}}})"
    rf"(?:[eE][+-]?\d{{1,{MAX_EXPONENT_DIGITS}}})?",
    re.ASCII,
)
_FRACTION = re.compile(rf"([+-]?\d{{1,{MAX_DIGITS}}})/(\d{{1,{MAX_DIGITS}}})", re.ASCII)
_WHOLE = re.compile(rf"[+-]?\d{{1,{MAX_DIGITS}}}", re.ASCII)


class NumberError(RegelmotorError, ValueError):
    """A text that is not a number of the form a person writes (said, with the text)."""


def number(text: str, *, fraction: bool = True) -> Fraction:
    """The exact value of ``text``: ``0.25``, ``0,25``, ``-3``, ``1e-3`` and (where ``fraction``) ``3/2``;
    a ``NumberError`` for anything else, before any arithmetic is done."""
    shown = text.strip()
    if len(shown) > MAX_TEXT:
        raise NumberError.said("number_long", text=shown[:MAX_TEXT] + "…", most=MAX_DIGITS)
    if _DECIMAL.fullmatch(shown):
        return Fraction(shown.replace(",", "."))
    split = _FRACTION.fullmatch(shown) if fraction else None
    if split is not None:
        bottom = int(split.group(2))
        if bottom == 0:
            raise NumberError.said("number_zero_below", text=shown)
        return Fraction(int(split.group(1)), bottom)
    raise NumberError.said("number_not", text=shown)


def whole(text: str) -> int:
    """A whole number as a person writes it (``10``, ``-3``): no ``1_0``, no ``1e1``, no ``١٠``; a
    ``NumberError`` for anything else."""
    shown = text.strip()
    if len(shown) <= MAX_DIGITS + 1 and _WHOLE.fullmatch(shown):
        return int(shown)
    raise NumberError.said("whole_not", text=shown[:MAX_TEXT])


__all__ = ["MAX_DIGITS", "MAX_EXPONENT_DIGITS", "NumberError", "number", "whole"]
