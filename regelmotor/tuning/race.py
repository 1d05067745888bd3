"""Racing: every value on the same deals, the values that are clearly out dropped early, so that most deals
go to the values that are close (successive halving on the intervals, as Hoeffding races and TAG's
parameter search do).

The deals are given in rounds that double: with 600 deals a value at most, 150, then 300, then 600. After
each round a value is dropped when it lies behind the value closest to the goal: the interval of the
difference between the two lies wholly above 0, at a level strict enough for every comparison the race may
make (Bonferroni over the values and the rounds). So a value that is truly best is dropped in fewer than one
race in twenty (as far as the intervals' normal approximation holds: no value is judged on fewer than 100
deals), however many values there are. The race stops early when one value is left.

The race knows nothing of whist: ``play`` gives candidates more deals, ``standing`` says what the deals so
far say of a candidate's figure at a level ``z``, ``behind`` compares two of them. The tests race synthetic
noisy objectives through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from regelmotor.simulate import Z95, Estimate
from regelmotor.tuning.goal import Goal

FIRST_ROUND = 100
"""The fewest deals a value is judged on: below it an interval of a share is too wide to rule anything out,
and a mean's normal approximation is not yet sound."""
LEVEL = 0.05
"""The chance, over the whole race, of dropping a value that is truly best (at most)."""


def rounds(deals: int, first: int = FIRST_ROUND) -> list[int]:
    """The deals a value has after each round: doubling up to ``deals`` (``rounds(600)``: 150, 300, 600)."""
    count = max(0, math.floor(math.log2(deals / first))) if deals >= 2 * first else 0
    return [math.ceil(deals / 2 ** (count - k)) for k in range(count + 1)]


def drop_z(candidates: int, checkpoints: int) -> float:
    """The interval's z at which a race drops values: 95% spread over every comparison it may make."""
    comparisons = max(1, (candidates - 1) * checkpoints)
    return NormalDist().inv_cdf(1 - LEVEL / (2 * comparisons))


@dataclass
class Standing:
    """A candidate in the race: how many deals it has had, its figure (95%) and whether it is out."""

    index: int
    n: int = 0
    estimate: Estimate = field(default_factory=lambda: Estimate(math.nan, math.nan, math.nan, 0))
    dropped: bool = False


@dataclass
class RaceResult:
    standings: list[Standing]
    chosen: int
    """The candidate whose figure comes closest to the goal."""
    indistinguishable: list[int]
    """The candidates still in the race not surely farther from the goal than the chosen one, at 95%."""
    deals: int
    """The deals played in all (a candidate played earlier counts again only for its new deals)."""


Behind = Callable[[int, int, float], float]
"""``behind(other, best, z)``: the lower bound, at ``z``, of how much farther from the goal ``other`` is than
``best`` (above 0: behind). A race of values played on the same deals judges them pair by pair, deal by deal
(``Goal.paired_behind``); without it, from the two figures' own intervals (``Goal.behind``)."""


def _ruled_out(
    goal: Goal, alive: Sequence[int], figure: Callable[[int], Estimate], behind: Behind, z: float
) -> list[int]:
    """The candidates that lie behind the one closest to the goal, at the strict level ``z``."""
    known = {i: figure(i) for i in alive}
    known = {i: f for i, f in known.items() if not math.isnan(f.value)}
    if len(known) < 2:
        return []
    best = min(known, key=lambda i: goal.loss(known[i]).value)
    return [i for i in known if i != best and behind(i, best, z) > 0]


def race(
    candidates: Sequence[int],
    deals: int,
    goal: Goal,
    play: Callable[[Sequence[int], int], int],
    standing: Callable[[int, float], Estimate],
    first: int = FIRST_ROUND,
    prefer: int | None = None,
    behind: Behind | None = None,
) -> RaceResult:
    """Race ``candidates`` on up to ``deals`` deals each. ``play(candidates, n)`` gives each of them its first
    ``n`` deals (those it has kept) and says how many deals that took; ``standing(candidate, z)`` is its figure
    on its deals so far, with the interval at ``z``."""
    if behind is None:

        def behind(other: int, best: int, z: float) -> float:
            return goal.behind(standing(other, z), standing(best, z))

    checkpoints = rounds(deals, first)
    z = drop_z(len(candidates), len(checkpoints))
    table = {i: Standing(i) for i in candidates}
    alive = list(candidates)
    spent = 0
    for n in checkpoints:
        spent += play(alive, n)
        for i in alive:
            table[i].n = n
        if len(alive) == 1:
            break
        out = set(_ruled_out(goal, alive, lambda i: standing(i, Z95), behind, z))
        for i in out:
            table[i].dropped = True
        alive = [i for i in alive if i not in out]
        if len(alive) == 1:
            break
    for s in table.values():
        s.estimate = standing(s.index, Z95)
    chosen, close = choose(goal, [table[i] for i in alive], behind, prefer)
    return RaceResult([table[i] for i in candidates], chosen, close, spent)


def choose(
    goal: Goal, standings: Sequence[Standing], behind: Behind, prefer: int | None = None
) -> tuple[int, list[int]]:
    """The candidate closest to the goal, and those that cannot be told apart from it at 95%: their intervals
    of the goal reach its own. Where no candidate has the figure at all (no sol was bid, so none was made),
    the first is returned: the caller says there is nothing to choose by. Between values that come exactly as
    close, ``prefer`` (the ruleset's own value) is chosen: a search never moves a club for nothing."""
    judged = [(goal.loss(s.estimate), s) for s in standings]
    known = [(loss, s) for loss, s in judged if not math.isnan(loss.value)]
    if not known:
        return standings[0].index, []
    _, best = min(known, key=lambda pair: (pair[0].value, -pair[1].n, pair[1].index != prefer))
    close = [s.index for _, s in known if s is not best and behind(s.index, best.index, Z95) <= 0]
    return best.index, close
