"""What a rule search looks for: one of ``compare``'s figures brought to a value, or made as small or as large
as it can be.

The figure is named as ``compare`` names it: its ``--json`` row (``contract sol: share``), its Danish label
as the table prints it (``sol: andel``), or as a club says it (``kontrakt sol``, ``fordel forhånd``). A name
that is none of these is refused naming the nearest, before any deal is played.
"""

from __future__ import annotations

import difflib
import math
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from regelmotor.compare import contract_kinds, row_label
from regelmotor.errors import RegelmotorError
from regelmotor.numbers import number
from regelmotor.ruleset.compile import Rules
from regelmotor.simulate import MIN_SIGNIFICANT, POSITIONS, Estimate

Direction = Literal["target", "minimise", "maximise"]

OUTCOMES = ("finished", "all_pass", "misdeal", "jernhaand", "omblanding")
"""How a deal can end (``compare``'s ``outcome`` rows): played, or given again and why."""

_SEAT_NAMES = {
    "forhaand": ("forhånd",),
    "second": ("anden hånd", "anden"),
    "third": ("tredje hånd", "tredje"),
    "dealer": ("giveren", "kortgiver", "kortgiveren"),
}
"""The seats as a club names them (``compare``'s rows count from the dealer's left: forhånd first)."""


class GoalError(RegelmotorError):
    """A goal that names no figure, or a target that is not a number of that figure."""


def _norm(text: str) -> str:
    return re.sub(r"[\s:,]+", " ", text.lower().replace("å", "aa")).strip()


def row_names(rules: Rules) -> dict[str, tuple[str, bool, str]]:
    """Every figure a search may aim at, by every name it is known by (normalised), to its ``--json`` row,
    whether it is a share, and the name as it is written."""
    kinds = contract_kinds(rules)
    names: dict[str, tuple[str, bool, str]] = {}

    def add(row: str, percent: bool, *aliases: str) -> None:
        for alias in (row, row_label(row, "da"), *aliases):
            names.setdefault(_norm(alias), (row, percent, alias))

    for kind in kinds:
        add(f"contract {kind}: share", True, f"kontrakt {kind}", f"contract {kind}", kind, f"{kind} andel")
        add(f"contract {kind}: made", True, f"kontrakt {kind} vundet", f"{kind} vundet", f"{kind} holdt")
    for outcome in OUTCOMES:
        add(f"outcome {outcome}", True)
    add("selvmakker", True)
    add("declarer side tricks", False)
    add("joker leads per deal", False)
    add("joker lead won by leader", True)
    for position in POSITIONS:
        said = _SEAT_NAMES[position]
        add(f"points, {position}", False, *(f"{w} {s}" for w in ("point", "fordel") for s in (*said, position)))
        add(f"points per stake, {position}", False, *(f"point pr. indsats {s}" for s in said))
    return names


def find_row(rules: Rules, text: str) -> tuple[str, bool]:
    """The ``--json`` row ``text`` names and whether it is a share; an error naming the nearest names."""
    names = row_names(rules)
    wanted = _norm(text)
    if wanted in names:
        row, percent, _ = names[wanted]
        return row, percent
    near = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.4)
    said = [names[n][2] for n in near]
    raise GoalError.said("tune_row_unknown", row=text.strip(), near=", ".join(dict.fromkeys(said)) or "-")


def _number(text: str) -> float:
    return float(number(text.replace(" ", "")))


@dataclass(frozen=True)
class Goal:
    """A figure (``compare``'s row) and what is wanted of it: ``target`` (a share as a fraction: 5 % is 0.05),
    or the least or the most of it."""

    row: str
    percent: bool
    direction: Direction
    target: float | None = None

    def as_json(self) -> dict[str, Any]:
        if self.direction == "target":
            return {"row": self.row, "target": self.target}
        return {"row": self.row, "direction": self.direction}

    def loss(self, estimate: Estimate) -> Estimate:
        """How far a value is from the goal (smaller is better), with its interval: the distance to the
        target, or the figure itself (its negative where the most is wanted). NaN where the figure has none."""
        value, low, high = estimate.value, estimate.low, estimate.high
        if math.isnan(value):
            return Estimate(math.nan, math.nan, math.nan, estimate.n)
        if math.isnan(low):  # too few to say a spread: nothing is ruled out, nothing is sure
            low, high = -math.inf, math.inf
        if self.direction == "minimise":
            return Estimate(value, low, high, estimate.n)
        if self.direction == "maximise":
            return Estimate(-value, -high, -low, estimate.n)
        assert self.target is not None
        t = self.target
        near = 0.0 if low <= t <= high else min(abs(low - t), abs(high - t))
        return Estimate(abs(value - t), near, max(abs(low - t), abs(high - t)), estimate.n)

    def behind(self, other: Estimate, best: Estimate) -> float:
        """The lower bound of how much farther from the goal ``other`` is than ``best``: the difference of the
        two distances less the two intervals' half-widths, each on the side that would close the gap, combined
        as Newcombe's interval for two shares combines them (the method of variance estimates recovery).
        Above 0: ``other`` is behind at the intervals' level. Minus infinity where either has no interval."""
        if any(math.isnan(v) for v in (other.value, other.low, best.value, best.low)):
            return -math.inf
        x, b = other, best
        if self.direction == "minimise":
            return (x.value - b.value) - math.hypot(x.value - x.low, b.high - b.value)
        if self.direction == "maximise":
            return (b.value - x.value) - math.hypot(x.high - x.value, b.value - b.low)
        assert self.target is not None
        t = self.target
        side_x = 1 if x.value >= t else -1
        gap = abs(x.value - t) - abs(b.value - t)
        near_x = x.value - x.low if side_x > 0 else x.high - x.value  # what would bring ``other`` closer
        if b.value > t:
            far_b = b.high - b.value  # what would take ``best`` farther
        elif b.value < t:
            far_b = b.value - b.low
        else:
            far_b = max(b.high - b.value, b.value - b.low)
        return gap - math.hypot(near_x, far_b)

    def paired_behind(
        self, other: Sequence[tuple[Fraction, Fraction]], best: Sequence[tuple[Fraction, Fraction]], z: float
    ) -> float:
        """``behind`` for two values played on the same deals, from each deal's part of the figure (``compare.
        deal_parts``): the difference's spread is that of the deal-by-deal differences (a ratio's linearised
        parts, the delta method), far less than the two figures' own spreads added, as most deals go alike
        under two values of one rule. Minus infinity below ``MIN_SIGNIFICANT`` common deals, where either has
        no denominator, and where ``other``'s own interval reaches the target (it may be right on it)."""
        n = min(len(other), len(best))
        if n < MIN_SIGNIFICANT:
            return -math.inf
        o, b = other[:n], best[:n]
        den_o, den_b = exact_sum(d for _, d in o), exact_sum(d for _, d in b)
        if den_o == 0 or den_b == 0:
            return -math.inf
        x_o, x_b = float(exact_sum(v for v, _ in o) / den_o), float(exact_sum(v for v, _ in b) / den_b)
        mean_o, mean_b = float(den_o) / n, float(den_b) / n
        u_o = [(float(v) - x_o * float(d)) / mean_o for v, d in o]
        u_b = [(float(v) - x_b * float(d)) / mean_b for v, d in b]
        t = self.target if self.target is not None else 0.0
        if self.direction == "minimise":
            sides_o, sides_b = 1, [1]
        elif self.direction == "maximise":
            sides_o, sides_b = -1, [-1]
        else:
            if abs(x_o - t) <= z * statistics.pstdev(u_o) / math.sqrt(n):
                return -math.inf
            sides_o = 1 if x_o > t else -1
            sides_b = [1] if x_b > t else [-1] if x_b < t else [1, -1]
        bounds = []
        for side_b in sides_b:
            gap = sides_o * (x_o - t) - side_b * (x_b - t)
            spread = statistics.stdev(sides_o * a - side_b * c for a, c in zip(u_o, u_b, strict=True))
            bounds.append(gap - z * spread / math.sqrt(n))
        return min(bounds)


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of ``values``, its numerators added per denominator: a race asks for the sums of every
    deal's parts at every look, and a deal's points have few denominators (adding ``Fraction``s one by one
    cost a race most of its time)."""
    numerators: dict[int, int] = {}
    for value in values:
        numerators[value.denominator] = numerators.get(value.denominator, 0) + value.numerator
    return sum((Fraction(n, d) for d, n in numerators.items()), Fraction(0))


def parse_goal(rules: Rules, target: str | None, minimise: str | None, maximise: str | None) -> Goal:
    """The goal of ``--target 'ROW = VALUE'``, ``--minimise ROW`` or ``--maximise ROW`` (exactly one)."""
    given = [g for g in (target, minimise, maximise) if g is not None]
    if len(given) != 1:
        raise GoalError.said("tune_one_goal")
    if minimise is not None or maximise is not None:
        row, percent = find_row(rules, str(minimise if minimise is not None else maximise))
        return Goal(row, percent, "minimise" if minimise is not None else "maximise")
    assert target is not None
    name, equals, value_text = target.rpartition("=")
    if not equals or not name.strip():
        raise GoalError.said("tune_target_form", target=target)
    row, percent = find_row(rules, name)
    has_percent = "%" in value_text
    try:
        value = _number(value_text.replace("%", ""))
    except (ValueError, ZeroDivisionError):
        raise GoalError.said("tune_target_number", value=value_text.strip(), row=name.strip()) from None
    if has_percent and not percent:
        raise GoalError.said("tune_target_not_share", row=name.strip())
    if percent:
        value /= 100  # "5 %" and a bare "5" alike: a share is said in percent
        if not 0 <= value <= 1:
            raise GoalError.said("tune_target_share_range", value=value_text.strip())
    return Goal(row, percent, "target", value)
