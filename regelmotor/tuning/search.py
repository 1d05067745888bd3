"""The rule search itself: which values to try, checked before any deal is played, then raced on the same
deals (common random numbers, as ``compare`` plays both rulesets on the same deals).

Up to ``MAX_GRID`` candidates (a key's values, or the grid of up to three keys' values) are raced all at once.
A larger grid is searched a key at a time (coordinate search): the values of one key raced with the other keys
held at the best values found so far, key after key, until a whole pass changes nothing. A candidate's deals
are kept, so a value met again in a later race is not played again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from regelmotor.compare import contract_kinds, deal_parts, figures, stake
from regelmotor.errors import RegelmotorError
from regelmotor.numbers import NumberError, number
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.settings import Key, Setting, exact_text
from regelmotor.simulate import DealResult, DealRunner, Estimate, Table, Task, summarize, table_rules
from regelmotor.tuning.goal import OUTCOMES, Goal
from regelmotor.tuning.race import RaceResult, Standing, race

MAX_KEYS = 3
"""Keys searched at once: a grid of three keys' values is already more than a club evening's question."""
MAX_VALUES = 50
"""Values of one key: more than fifty is a typing slip in a range."""
MAX_GRID = 64
"""Candidates raced all at once; a larger grid is searched a key at a time."""
MAX_PASSES = 3
"""Passes over the keys in a coordinate search: the best values seldom move after the second."""
MAX_TUNE_DEALS = 1_000_000
"""The most deals one search may plan for: hours of play on a club's machine; more is a typing slip."""
DEFAULT_DEALS = 500
"""Deals a value gets at most, unless told: a share's 95% interval about ±3.5 points there, and a search over
six values done in minutes with the expert on two cores."""

Candidate = tuple[Fraction, ...]
"""One value for each key, in the keys' order."""


class TuneError(RegelmotorError):
    """A search that cannot be made as asked: said before any deal is played."""


def parse_values(text: str, key: str) -> tuple[Fraction, ...]:
    """``--values 25,50,75`` (a decimal with a point, or a fraction: ``1.5``, ``3/2``)."""
    values = []
    for part in text.split(","):
        try:
            values.append(number(part))
        except NumberError:
            raise TuneError.said("tune_value_not_number", value=part.strip(), key=key) from None
    return _checked(values, key)


def parse_range(text: str, key: str) -> tuple[Fraction, ...]:
    """``--range LOW:HIGH:STEP``: from LOW to HIGH (included where the steps reach it)."""
    parts = text.split(":")
    if len(parts) != 3:
        raise TuneError.said("tune_range_form", range=text[:60], key=key)
    try:
        low, high, step = (number(p) for p in parts)
    except NumberError as exc:  # the part that is no number, said as a number is refused everywhere
        raise TuneError.said("as_is", error=exc) from None
    if step <= 0 or high < low:
        raise TuneError.said("tune_range_form", range=text, key=key)
    count = math.floor((high - low) / step) + 1
    if count > MAX_VALUES:
        raise TuneError.said("tune_too_many_values", key=key, count=count, most=MAX_VALUES)
    return _checked([low + i * step for i in range(count)], key)


def _checked(values: Sequence[Fraction], key: str) -> tuple[Fraction, ...]:
    unique = tuple(dict.fromkeys(values))
    if len(unique) > MAX_VALUES:
        raise TuneError.said("tune_too_many_values", key=key, count=len(unique), most=MAX_VALUES)
    return unique


@dataclass(frozen=True)
class Axis:
    """A key and the values to try for it."""

    key: Key
    values: tuple[Fraction, ...]


@dataclass(frozen=True)
class Plan:
    """The candidates to try, how they are searched, and the most deals the search can take, stated and
    checked before any deal is played."""

    axes: tuple[Axis, ...]
    grid: bool
    """Whether every candidate is raced at once (else a key at a time)."""
    deals: int
    """The most deals one candidate gets."""
    most: int
    """The most deals the whole search can take."""
    uniform: int
    """The deals of playing every candidate (of a grid; of every line, in a coordinate search) to ``deals``."""


def make_plan(axes: Sequence[Axis], deals: int) -> Plan:
    if not axes:
        raise TuneError.said("tune_no_key")
    if len(axes) > MAX_KEYS:
        raise TuneError.said("tune_too_many_keys", count=len(axes), most=MAX_KEYS)
    seen = [a.key.text for a in axes]
    if len(set(seen)) != len(seen):
        raise TuneError.said("tune_key_twice", key=next(k for k in seen if seen.count(k) > 1))
    size = math.prod(len(a.values) for a in axes)
    if size < 2:
        raise TuneError.said("tune_one_value")
    grid = size <= MAX_GRID
    uniform = size * deals if grid else MAX_PASSES * sum(len(a.values) for a in axes) * deals
    if uniform > MAX_TUNE_DEALS:
        raise TuneError.said("tune_too_many_deals", deals=uniform, most=MAX_TUNE_DEALS)
    return Plan(tuple(axes), grid, deals, uniform, uniform)


def settings_of(axes: Sequence[Axis], candidate: Candidate) -> tuple[Setting, ...]:
    return tuple(axis.key.setting(value) for axis, value in zip(axes, candidate, strict=True))


def check_values(ruleset: str, house_rules: Sequence[str], plan: Plan) -> dict[Candidate, Rules]:
    """Every candidate of a grid loaded and compiled (every key's values, the others as the file has them, in
    a coordinate search): a value the schema or the checks refuse is refused now, naming the key and value."""
    axes = plan.axes
    current = tuple(a.key.current for a in axes)
    if plan.grid:
        candidates: list[Candidate] = list(product(*(a.values for a in axes)))
    else:
        candidates = [(*current[:k], v, *current[k + 1 :]) for k, a in enumerate(axes) for v in a.values]
    loaded = {}
    for candidate in candidates:
        loaded[candidate] = load_candidate(ruleset, house_rules, axes, candidate)
    return loaded


def load_candidate(ruleset: str, house_rules: Sequence[str], axes: Sequence[Axis], candidate: Candidate) -> Rules:
    """The candidate's rules, as the runner's processes load them (``simulate.table_rules``: loaded once in
    this process too), or its refusal naming key and value."""
    try:
        return table_rules(Table(ruleset, tuple(house_rules), settings_of(axes, candidate)))
    except RegelmotorError as exc:
        shown = ", ".join(f"{a.key.text} = {exact_text(v)}" for a, v in zip(axes, candidate, strict=True))
        error = TuneError.said("tune_value_refused", values=shown, problem=exc)
        raise error from None


@dataclass
class TuneResult:
    plan: Plan
    goal: Goal
    standings: dict[Candidate, Standing]
    """Every candidate tried, with its deals, its figure and whether the race dropped it."""
    chosen: Candidate
    indistinguishable: list[Candidate]
    deals: int
    current: Candidate
    """The values the ruleset has now (which may be among those tried)."""

    def value_json(self, candidate: Candidate) -> Any:
        if len(candidate) == 1:
            return number_json(candidate[0])
        return {a.key.text: number_json(v) for a, v in zip(self.plan.axes, candidate, strict=True)}

    def as_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal.as_json(),
            "keys": [a.key.text for a in self.plan.axes],
            "values": [
                {
                    "value": self.value_json(c),
                    "n": s.n,
                    "estimate": {"value": s.estimate.value, "low": s.estimate.low, "high": s.estimate.high},
                    "dropped": s.dropped,
                }
                for c, s in self.standings.items()
            ],
            "chosen": self.value_json(self.chosen),
            "indistinguishable": [self.value_json(c) for c in self.indistinguishable],
            "deals": self.deals,
            "most_deals": self.plan.most,
            "uniform_deals": self.plan.uniform,
            "search": "grid" if self.plan.grid else "coordinate",
        }


def number_json(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


class Tuner:
    """Plays the candidates' deals (each deal ``i`` the same deal for every candidate) and races them."""

    def __init__(
        self,
        ruleset: str,
        house_rules: Sequence[str],
        plan: Plan,
        goal: Goal,
        seed: int,
        bots: Sequence[str],
        runner: DealRunner,
        loaded: dict[Candidate, Rules],
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.ruleset, self.house_rules = ruleset, tuple(house_rules)
        self.plan, self.goal, self.seed, self.bots = plan, goal, seed, tuple(bots)
        self.runner, self.loaded, self.progress = runner, dict(loaded), progress
        self.results: dict[Candidate, list[DealResult]] = {}
        self.spent = 0
        self._kinds: dict[Candidate, tuple[list[str], Fraction | None]] = {}
        self._parts: dict[Candidate, list[tuple[Fraction, Fraction]]] = {}
        """Each candidate's deals as parts of the goal's figure, extended as its deals come."""

    def rules(self, candidate: Candidate) -> Rules:
        if candidate not in self.loaded:
            self.loaded[candidate] = load_candidate(self.ruleset, self.house_rules, self.plan.axes, candidate)
        return self.loaded[candidate]

    def task(self, candidate: Candidate, have: int, n: int) -> Task:
        """A candidate's deals ``have`` to ``n``, as the runner plays them: the candidate's rules, the bots."""
        table = Table(self.ruleset, self.house_rules, settings_of(self.plan.axes, candidate))
        return Task(table, self.seed, self.bots, have, n)

    def keep(self, candidate: Candidate, deals: Sequence[Any]) -> None:
        """A candidate's deals just played, kept with those it had."""
        self.results.setdefault(candidate, []).extend(deals)

    def play(self, candidates: Sequence[Candidate], n: int) -> int:
        """Deals up to ``n`` for each candidate (those it has are kept); how many were played."""
        tasks = []
        for candidate in candidates:
            self.rules(candidate)  # loaded and checked, or refused, before its deals
            have = len(self.results.get(candidate, ()))
            if have < n:
                tasks.append((candidate, self.task(candidate, have, n)))
        before = self.spent
        now = sum(task.stop - task.start for _, task in tasks)
        # the most still to come once this round is played: the candidates left, each to its last deal
        total = before + now + len(candidates) * max(0, self.plan.deals - n)

        def told(done: int) -> None:
            if self.progress:
                self.progress(before + done, total)

        played = self.runner.play([task for _, task in tasks], told)
        for (candidate, _), deals in zip(tasks, played, strict=True):
            self.keep(candidate, deals)
            self.spent += len(deals)
        return self.spent - before

    def _of(self, candidate: Candidate) -> tuple[list[str], Fraction | None]:
        """The kinds of contract the candidate's rules have, and its stake where the goal counts in stakes
        (worked out once a candidate: every round asks again)."""
        if candidate not in self._kinds:
            rules = self.rules(candidate)
            per_stake = stake(rules) if self.goal.row.startswith("points per stake") else None
            self._kinds[candidate] = (contract_kinds(rules), per_stake)
        return self._kinds[candidate]

    def standing(self, candidate: Candidate, z: float) -> Estimate:
        """The goal's figure on the candidate's deals so far, its interval at ``z``."""
        kinds, per_stake = self._of(candidate)
        summary = summarize(self.results.get(candidate, []), self.bots, z)
        return figures(summary, kinds, OUTCOMES, per_stake)[self.goal.row].estimate

    def behind(self, other: Candidate, best: Candidate, z: float) -> float:
        """How much farther ``other`` is from the goal than ``best`` at least, at ``z``, deal by deal."""

        def parts(candidate: Candidate) -> list[tuple[Fraction, Fraction]]:
            known = self._parts.setdefault(candidate, [])
            deals = self.results.get(candidate, [])
            if len(known) < len(deals):  # only the deals played since: the best is compared with every other
                kinds, per_stake = self._of(candidate)
                part = deal_parts(kinds, OUTCOMES, per_stake)[self.goal.row]
                known.extend(part(r) for r in deals[len(known) :])
            return known

        return self.goal.paired_behind(parts(other), parts(best), z)

    def _race(self, line: Sequence[Candidate], current: Candidate) -> RaceResult:
        def play(indexes: Sequence[int], n: int) -> int:
            return self.play([line[i] for i in indexes], n)

        def standing(index: int, z: float) -> Estimate:
            return self.standing(line[index], z)

        def behind(other: int, best: int, z: float) -> float:
            return self.behind(line[other], line[best], z)

        prefer = line.index(current) if current in line else None
        result = race(range(len(line)), self.plan.deals, self.goal, play, standing, prefer=prefer, behind=behind)
        for s in result.standings:  # a candidate met in an earlier race kept its deals: it has more than the round's
            s.n = len(self.results.get(line[s.index], ()))
        return result

    def run(self) -> TuneResult:
        axes = self.plan.axes
        current = tuple(a.key.current for a in axes)
        standings: dict[Candidate, Standing] = {}
        if self.plan.grid:
            line: list[Candidate] = list(product(*(a.values for a in axes)))
            result = self._race(line, current)
        else:
            # from the ruleset's own values where they are among those tried, else the middle ones
            best = tuple(
                v if v in a.values else a.values[len(a.values) // 2] for a, v in zip(axes, current, strict=True)
            )
            for _ in range(MAX_PASSES):
                moved = False
                for k, axis in enumerate(axes):
                    line = [(*best[:k], v, *best[k + 1 :]) for v in axis.values]
                    result = self._race(line, current)
                    for s in result.standings:
                        standings[line[s.index]] = s
                    moved = moved or line[result.chosen] != best
                    best = line[result.chosen]
                if not moved:
                    break
        for s in result.standings:  # the last race's standings stand for its candidates
            standings[line[s.index]] = s
        chosen = line[result.chosen]
        if math.isnan(standings[chosen].estimate.value):
            raise TuneError.said("tune_no_figure", row=self.goal.row)
        close = [line[i] for i in result.indistinguishable]
        return TuneResult(self.plan, self.goal, standings, chosen, close, self.spent, current)
