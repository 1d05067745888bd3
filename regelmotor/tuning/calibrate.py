"""Calibration (``regelmotor calibrate``): the expert's style whose game comes closest to a club's score sheets.

It is ``tune``'s search turned on the players' style: the candidates are styles instead of a ruleset's values,
played on the same deals (deal ``i`` is the same deal for every style) and raced by ``race.py``, a setting at a
time (``search.Tuner``'s coordinate search). What is raced is one figure, the *distance* between the bots'
game and the club's: every deal falls in one cell (passed out, or a kind of contract made or lost), and the
distance is ``sum_k 2 (p_k - q_k)**2 / (p_k + q_k)`` with ``p`` the bots' shares and ``q`` the club's (the
symmetric chi-square, 0 for the same game and at most 2: a cell the club never had counts, but does not swamp
the others as a Pearson chi-square would). Its interval holds
the bots' deals' noise (deal by deal, by the delta method) and the club's too (its sheets are a sample: a
club of 42 deals cannot tell two styles apart that 42 deals would not tell apart).

The chosen style's figures, its distance and the fit test are those of deals that took no part in choosing it
(``StyleTuner.fresh``: the deals after the race's, on the same seed): the race chooses the candidate whose deals
happened to come closest, and a test on those deals keeps a fit that fresh deals reject (benchmarks/RESULTS.md,
the recovery of 7-8 December 2026).

The style fitted is a fit of the contract mix and the results, not of each member's play.
"""

from __future__ import annotations

import datetime
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from regelmotor.bots.style import DEFAULT_STYLE, Style, kind_of, styled_bot
from regelmotor.compare import contract_kinds, stake
from regelmotor.engine.game import FINISHED
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import ContractInfo
from regelmotor.phrases import phrases
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.catalogue import is_path
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.settings import Key
from regelmotor.score_sheet import Sheet, _enter, _seat, read_sheet
from regelmotor.session import Session
from regelmotor.simulate import (
    MIN_SIGNIFICANT,
    Z95,
    DealResult,
    DealRunner,
    Estimate,
    Table,
    Task,
    format_estimate,
    rate,
    significant,
)
from regelmotor.simulate import rate_difference as _rate_difference
from regelmotor.tuning.goal import Goal
from regelmotor.tuning.race import RaceResult
from regelmotor.tuning.search import MAX_PASSES, MAX_TUNE_DEALS, Axis, Candidate, Plan, TuneError, Tuner

PASSED = "pass"
"""The cell of a deal passed out (every seat passed: dealt again)."""
LEAST_DEALS = MIN_SIGNIFICANT
"""The fewest deals on the sheets a style is fitted to: below it nothing is said of a fit."""
SMALL_CELL = 5
"""A cell of the fit test with fewer deals expected than this is pooled with the other small ones."""

SETTINGS = ("caution", "passing", "sol", "paahaeng")
"""The settings calibration fits, in the order it searches them: the caution the bots bid with, how soon they
pass, their appetite for the sol bids, and for the designations above the plain one (påhæng)."""
STEPS: dict[str, tuple[Fraction, ...]] = {
    "caution": tuple(Fraction(v) for v in ("0.5", "1.5", "3", "5")),
    "passing": tuple(Fraction(v) for v in (0, 1, 3, 6)),
    "sol": tuple(Fraction(v) for v in (-12, -6, -3, 0, 3)),
    "paahaeng": tuple(Fraction(v) for v in (-6, -3, -1, 0, 2)),
}
"""The values tried: caution in standard errors; the others in stakes (``compare.stake``: what the lowest
plain contract pays), so the same steps fit every ruleset's points. Today's expert is among them."""


class CalibrateError(RegelmotorError):
    """Sheets that cannot be calibrated from as asked: said before any deal is played."""


# --- the club's deals -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """One deal as calibration counts it, from a sheet's line or a bot's deal."""

    cell: str
    """``pass``, or the kind of contract with ``:made``/``:lost`` (``:-`` for a game without a declarer)."""
    kind: str | None = None
    level: int | None = None
    made: bool | None = None
    position: int | None = None
    """The declarer's seat from the dealer's left (0 forhånd, 3 the dealer); None without a declarer."""


def _deal(kind: str, level: int | None, made: bool | None, position: int | None) -> Deal:
    outcome = "-" if made is None else "made" if made else "lost"
    return Deal(f"{kind}:{outcome}", kind, level, made, position)


def bot_deal(result: DealResult) -> Deal | None:
    """A bot's deal as the sheets would show it; None for a deal given again for another reason than all
    passing (a misdeal, a jernhånd): no style bids it."""
    if result.outcome == FINISHED and result.contract is not None:
        position = None if result.declarer is None else (result.declarer - result.dealer - 1) % 4
        return _deal(result.contract, result.level, result.made, position)
    if result.reason == "all_pass":
        return Deal(PASSED)
    return None


@dataclass
class Club:
    """The club's deals from its sheets, and the rules the bots are to play them by."""

    ruleset: str
    """As the bots' runs name it: a shipped name or a path."""
    house_rules: tuple[str, ...]
    label: str
    rules: Rules
    deals: list[Deal]
    sheets: list[str]


def _sheet_label(sheet: Sheet) -> str:
    return " -H ".join([sheet.ruleset, *sheet.house_rules])


def read_club(paths: Sequence[Path], ruleset: str | None = None, house_rules: Sequence[str] = ()) -> Club:
    """The deals of ``paths``, every sheet of one ruleset (and ``ruleset``'s, where given): a sheet of
    another ruleset is refused, naming both."""
    if not paths:
        raise CalibrateError.said("calibrate_no_sheet")
    sheets = [(path, read_sheet(path)) for path in paths]
    first_path, first = sheets[0]
    resolved: ResolvedRuleset | None = None
    if ruleset is not None:
        resolved = load_ruleset(ruleset, list(house_rules))
        played, played_house, label = ruleset, tuple(house_rules), resolved.label
    else:
        played, played_house = _played_ref(first), first.house_rules
        resolved = first.current()
        label = resolved.label
    for path, sheet in sheets:
        fingerprint = sheet.fingerprint or sheet.current().fingerprint
        if fingerprint != resolved.fingerprint:
            ours = label if ruleset is not None else f"{_sheet_label(first)} ({first_path.name})"
            if ruleset is None and path == first_path:  # the club file changed since the sheet was started
                raise CalibrateError.said("calibrate_drift", sheet=path, ruleset=_sheet_label(sheet))
            raise CalibrateError.said("calibrate_other_ruleset", sheet=path, theirs=_sheet_label(sheet), ours=ours)
    rules = compile_rules(resolved)
    deals: list[Deal] = []
    for path, sheet in sheets:
        try:
            deals += sheet_deals(sheet, rules)
        except RegelmotorError as exc:
            raise CalibrateError.said("at_path", path=path, error=exc) from None
    return Club(played, played_house, label, rules, deals, [str(p) for p in paths])


def _played_ref(sheet: Sheet) -> str:
    """The sheet's ruleset as a run names it: a path is taken from the sheet's folder."""
    if sheet.folder is not None and is_path(sheet.ruleset):
        return str(sheet.folder / sheet.ruleset)
    return sheet.ruleset


def sheet_deals(sheet: Sheet, rules: Rules) -> list[Deal]:
    """Every line of ``sheet`` as calibration counts it (the sheet scored as ``session`` scores it, so a line
    it would refuse is refused here too)."""
    session = Session(rules, sheet.players, first_dealer=sheet.first_dealer)
    out: list[Deal] = []
    for number, line in enumerate(sheet.lines, 1):
        try:
            if line.redeal == "all_pass":
                out.append(Deal(PASSED))
            elif line.redeal is None and line.contract is not None:
                out.append(_line_deal(rules, session, line.contract, line.declarer, line.partner, line))
            _enter(rules, session, line)
        except RegelmotorError as exc:
            raise CalibrateError.said("in_deal", number=number, error=exc) from None
    return out


def _line_deal(
    rules: Rules, session: Session, contract: str, declarer_name: str | None, partner_name: str | None, line: Any
) -> Deal:
    bid = rules.contract_bid(contract)
    side = rules.auction.side(bid)
    if side in (Side.PAIRS, Side.EACH):
        return _deal(kind_of(bid), bid.level, None, None)
    declarer = _seat(session, declarer_name, "declarer")
    seats = (declarer, *(_seat(session, j, "joiner") for j in line.joiners))
    partner = None if partner_name is None or bid.is_sol else _seat(session, partner_name, "partner")
    if side is Side.PARTNER:
        partner = rules.declaration.plan(ContractInfo(bid, (declarer,))).partner
    won = [0] * 4
    for seat, taken in zip(seats, line.tricks, strict=False):
        won[seat] = taken
    made = rules.scoring.made(ContractInfo(bid, seats, partner), won)
    return _deal(kind_of(bid), bid.level, bool(made), declarer)


# --- the distance ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """The club's shares of the cells, and each cell's weight in the distance."""

    counts: dict[str, int]
    n: int

    @property
    def cells(self) -> list[str]:
        return list(self.counts)

    def share(self, cell: str) -> float:
        return self.counts.get(cell, 0) / self.n

    @classmethod
    def of(cls, deals: Sequence[Deal]) -> Target:
        counts = Counter(d.cell for d in deals)
        return cls(dict(sorted(counts.items())), len(deals))


def _shares(deals: Sequence[Deal | None], cells: Sequence[str]) -> tuple[dict[str, float], int]:
    counted = [d.cell for d in deals if d is not None]
    m = len(counted)
    found = Counter(counted)
    return ({c: found.get(c, 0) / m for c in cells} if m else {c: math.nan for c in cells}), m


def _cells(target: Target, *runs: Sequence[Deal | None]) -> list[str]:
    seen = dict.fromkeys(target.cells)
    for run in runs:
        seen.update(dict.fromkeys(d.cell for d in run if d is not None))
    return list(seen)


def distance(target: Target, deals: Sequence[Deal | None]) -> float:
    cells = _cells(target, deals)
    p, m = _shares(deals, cells)
    if not m:
        return math.nan
    return sum(_term(p[c], target.share(c)) for c in cells)


def _term(p: float, q: float) -> float:
    """A cell's part of the distance: ``2 (p - q)**2 / (p + q)`` (0 where both are 0)."""
    return 0.0 if p + q == 0 else 2 * (p - q) ** 2 / (p + q)


def _by_p(p: float, q: float) -> float:
    """``_term``'s slope in the bots' share."""
    return 0.0 if p + q == 0 else 2 * (p - q) * (p + 3 * q) / (p + q) ** 2


def _by_q(p: float, q: float) -> float:
    """``_term``'s slope in the club's share."""
    return 0.0 if p + q == 0 else -2 * (p - q) * (3 * p + q) / (p + q) ** 2


def _influence(
    target: Target, deals: Sequence[Deal | None], cells: Sequence[str]
) -> tuple[list[float], dict[str, float]]:
    """Each deal's part in the distance's deviation (the delta method for a ratio of sums) and the gradient
    by the club's shares (for the club's own noise)."""
    p, m = _shares(deals, cells)
    n = len(deals)
    g = {c: _by_p(p[c], target.share(c)) for c in cells}
    mean_g = sum(g[c] * p[c] for c in cells)
    scale = n / m if m else 0.0
    u = [0.0 if d is None else scale * (g[d.cell] - mean_g) for d in deals]
    return u, {c: _by_q(p[c], target.share(c)) for c in cells}


def _club_variance(target: Target, h: dict[str, float]) -> float:
    """The variance the club's sample adds to a linear function of its shares with gradient ``h``."""
    q = {c: target.share(c) for c in h}
    first = sum(h[c] ** 2 * q[c] for c in h)
    second = sum(h[c] * q[c] for c in h) ** 2
    return max(0.0, first - second) / target.n


def standing(target: Target, deals: Sequence[Deal | None], z: float) -> Estimate:
    """The distance of the bots' deals from the club's, with its interval at ``z``."""
    n = len(deals)
    value = distance(target, deals)
    if n < 2 or math.isnan(value):
        return Estimate(value, math.nan, math.nan, n)
    cells = _cells(target, deals)
    u, h = _influence(target, deals, cells)
    spread = math.sqrt(statistics.pvariance(u) / n + _club_variance(target, h))
    return Estimate(value, max(0.0, value - z * spread), value + z * spread, n)


def behind(target: Target, other: Sequence[Deal | None], best: Sequence[Deal | None], z: float) -> float:
    """How much farther ``other``'s deals are from the club's than ``best``'s at least, at ``z``: deal by deal
    (the same deals), with the club's own noise in the difference too. Minus infinity below
    ``MIN_SIGNIFICANT`` common deals."""
    n = min(len(other), len(best))
    if n < MIN_SIGNIFICANT:
        return -math.inf
    o, b = other[:n], best[:n]
    cells = _cells(target, o, b)
    d_o, d_b = distance(target, o), distance(target, b)
    if math.isnan(d_o) or math.isnan(d_b):
        return -math.inf
    u_o, h_o = _influence(target, o, cells)
    u_b, h_b = _influence(target, b, cells)
    paired = statistics.pvariance([x - y for x, y in zip(u_o, u_b, strict=True)]) / n
    club = _club_variance(target, {c: h_o[c] - h_b[c] for c in cells})
    return (d_o - d_b) - z * math.sqrt(paired + club)


# --- the search ----------------------------------------------------------------------------------------------


GOAL = Goal("style distance", False, "minimise")
"""What the race looks for: the least distance (``race`` reads ``loss`` of it: the figure itself)."""


def style_of(axes: Sequence[Axis], candidate: Candidate, rules: Rules) -> Style:
    """The style a candidate's values make: the sol appetite for every sol bid, the påhæng appetite for every
    designation but the plain one; the values in stakes made points."""
    unit = stake(rules)
    values = {a.key.text: v for a, v in zip(axes, candidate, strict=True)}
    appetite: dict[str, float] = {}
    for kind in _sol_kinds(rules):
        appetite[kind] = float(values.get("sol", Fraction(0)) * unit)
    for kind in _paahaeng_kinds(rules):
        appetite[kind] = float(values.get("paahaeng", Fraction(0)) * unit)
    caution = float(values.get("caution", Fraction(DEFAULT_STYLE.caution)))
    return Style.make(caution, float(values.get("passing", Fraction(0)) * unit), appetite)


def _sol_kinds(rules: Rules) -> list[str]:
    return [s.id for s in rules.auction.sol_contracts]


def _paahaeng_kinds(rules: Rules) -> list[str]:
    return [d.id for d in rules.auction.designations[1:]]


def fittable(rules: Rules) -> list[str]:
    """The settings a ruleset's bidding can show: no sol bids, no sol appetite; one designation, no påhæng."""
    out = ["caution", "passing"]
    if _sol_kinds(rules):
        out.append("sol")
    if len(rules.auction.designations) > 1:
        out.append("paahaeng")
    return out if rules.auction.ladder.bids else []


def make_axes(rules: Rules, settings: Sequence[str] | None = None) -> list[Axis]:
    usable = fittable(rules)
    if not usable:
        raise CalibrateError.said("calibrate_nothing", ruleset=rules.name)
    chosen = list(settings) if settings else usable
    for name in chosen:
        if name not in usable:
            raise CalibrateError.said("calibrate_setting", setting=name, settings=", ".join(usable))
    current = {
        "caution": Fraction(DEFAULT_STYLE.caution),
        "passing": Fraction(0),
        "sol": Fraction(0),
        "paahaeng": Fraction(0),
    }
    return [Axis(Key(name, (), None, current[name]), STEPS[name]) for name in SETTINGS if name in chosen]


class StyleTuner(Tuner):
    """``tune``'s search (``search.Tuner``: the coordinate search, the races, the deals kept) with styles for
    candidates: a candidate's deals are played by four experts in its style, under the club's rules."""

    def __init__(
        self,
        club: Club,
        plan: Plan,
        seed: int,
        runner: DealRunner,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        super().__init__(club.ruleset, club.house_rules, plan, GOAL, seed, (), runner, {}, progress)
        self.club = club
        self.target = Target.of(club.deals)
        self.deals_of: dict[Candidate, list[Deal | None]] = {}
        self.lines: dict[str, RaceResult] = {}
        """Each setting's last race (the candidates of its line in ``self.line_of``)."""
        self.line_of: dict[str, list[Candidate]] = {}

    def rules(self, candidate: Candidate) -> Rules:
        return self.club.rules

    def style(self, candidate: Candidate) -> Style:
        return style_of(self.plan.axes, candidate, self.club.rules)

    def task(self, candidate: Candidate, have: int, n: int) -> Task:
        """A candidate's deals: the club's rules, four experts in the candidate's style."""
        bot = styled_bot(self.style(candidate))
        return Task(Table(self.ruleset, self.house_rules), self.seed, (bot,) * 4, have, n)

    def keep(self, candidate: Candidate, deals: Sequence[Any]) -> None:
        super().keep(candidate, deals)
        self.deals_of.setdefault(candidate, []).extend(bot_deal(r) for r in deals)

    def standing(self, candidate: Candidate, z: float) -> Estimate:
        return standing(self.target, self.deals_of.get(candidate, []), z)

    def fresh(self, candidate: Candidate) -> list[Deal | None]:
        """The candidate's deals that took no part in the race: deals ``plan.deals`` to twice that of the same
        seed, which no candidate plays (the same cards whatever ``--jobs``); counted in ``spent``, not kept."""
        n = self.plan.deals
        before = self.spent

        def told(done: int) -> None:
            if self.progress:
                self.progress(before + done, before + n)

        (played,) = self.runner.play([self.task(candidate, n, 2 * n)], told)
        self.spent += len(played)
        return [bot_deal(r) for r in played]

    def behind(self, other: Candidate, best: Candidate, z: float) -> float:
        return behind(self.target, self.deals_of.get(other, []), self.deals_of.get(best, []), z)

    def _race(self, line: Sequence[Candidate], current: Candidate) -> RaceResult:
        result = super()._race(line, current)
        varying = [k for k in range(len(self.plan.axes)) if len({c[k] for c in line}) > 1]
        if len(varying) == 1:
            name = self.plan.axes[varying[0]].key.text
            self.lines[name], self.line_of[name] = result, list(line)
        return result


def make_plan(axes: Sequence[Axis], deals: int) -> Plan:
    """The search's bound, said before a deal is played: a setting at a time, at most ``MAX_PASSES`` passes, and
    the chosen style's fresh deals (``StyleTuner.fresh``)."""
    uniform = _candidates_played(axes) * deals
    most = uniform + deals
    if most > MAX_TUNE_DEALS:
        raise TuneError.said("tune_too_many_deals", deals=most, most=MAX_TUNE_DEALS)
    return Plan(tuple(axes), False, deals, most, uniform)


def _candidates_played(axes: Sequence[Axis]) -> int:
    """How many candidates' deals the search plays at most: every value of every setting in every pass."""
    return MAX_PASSES * sum(len(a.values) for a in axes)


def most_deals_per_style(axes: Sequence[Axis]) -> int:
    """The most ``--deals`` ``make_plan`` allows with these settings (the fresh deals counted)."""
    return MAX_TUNE_DEALS // (_candidates_played(axes) + 1)


# --- the answer ----------------------------------------------------------------------------------------------


@dataclass
class FitTest:
    """Pearson's chi-square test of homogeneity: the club's cells against the fitted bots', small cells pooled."""

    statistic: float
    df: int
    p: float
    cells: list[str]
    rejected: bool | None
    """None: too few deals to say (fewer than ``MIN_SIGNIFICANT`` on the sheets, or fewer than two cells)."""

    def as_json(self) -> dict[str, Any]:
        return {"statistic": self.statistic, "df": self.df, "p": self.p, "cells": self.cells, "rejected": self.rejected}


def fit_test(club: Sequence[Deal], bots: Sequence[Deal | None]) -> FitTest:
    """The club's deals and the bots' in a 2-by-k table, a cell with fewer than ``SMALL_CELL`` deals expected
    in either row pooled with the others so (and with the next smallest while the pool is still small)."""
    a = Counter(d.cell for d in club)
    b = Counter(d.cell for d in bots if d is not None)
    na, nb = sum(a.values()), sum(b.values())
    total = na + nb
    if not na or not nb:
        return FitTest(math.nan, 0, math.nan, [], None)
    cells = sorted(set(a) | set(b), key=lambda c: (a[c] + b[c], c))

    def least(count: int) -> float:
        return min(na, nb) * count / total

    groups: list[list[str]] = []
    pool: list[str] = []
    for cell in cells:
        if least(a[cell] + b[cell]) < SMALL_CELL:
            pool.append(cell)
        else:
            groups.append([cell])
    if pool:
        while groups and least(sum(a[c] + b[c] for c in pool)) < SMALL_CELL:
            pool += groups.pop(0)
        groups.append(pool)
    if len(groups) < 2:
        return FitTest(math.nan, 0, math.nan, ["+".join(g) for g in groups], None)
    statistic = 0.0
    for group in groups:
        col = sum(a[c] + b[c] for c in group)
        for row, n in ((a, na), (b, nb)):
            expected = n * col / total
            statistic += (sum(row[c] for c in group) - expected) ** 2 / expected
    df = len(groups) - 1
    p = chi2_sf(statistic, df)
    rejected = None if na < MIN_SIGNIFICANT else p < 0.05
    return FitTest(statistic, df, p, ["+".join(g) for g in groups], rejected)


def chi2_sf(x: float, df: int) -> float:
    """The chance that a chi-square of ``df`` degrees of freedom is at least ``x`` (the regularised upper
    incomplete gamma function: its series below ``a + 1``, its continued fraction above; Numerical Recipes)."""
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    log_front = a * math.log(y) - y - math.lgamma(a)
    if y < a + 1:
        term = total = 1 / a
        k = a
        for _ in range(1000):
            k += 1
            term *= y / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = y + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


@dataclass
class Row:
    """A figure of the club's beside the bots' of today and the fitted bots', each with its interval."""

    name: str
    club: Estimate
    today: Estimate
    fitted: Estimate

    @property
    def off(self) -> bool:
        """Whether the fitted bots' figure differs significantly from the club's."""
        return significant(_rate_difference(self.club, self.fitted))

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "club": self.club.as_json(),
            "today": self.today.as_json(),
            "fitted": self.fitted.as_json(),
            "differs": self.off,
        }


def figure_rows(
    club: Sequence[Deal], today: Sequence[Deal | None], fitted: Sequence[Deal | None], kinds: Sequence[str]
) -> list[Row]:
    """The figures side by side: passed out (of the deals), each kind's share (of the deals played) and how
    often it was made, the levels bid and the seat that declared (from the dealer's left)."""
    runs = [[d for d in run if d is not None] for run in (club, today, fitted)]

    def row(name: str, hit: Callable[[Deal], bool], of: Callable[[Deal], bool]) -> Row:
        shares = [rate(sum(1 for d in run if of(d) and hit(d)), sum(1 for d in run if of(d))) for run in runs]
        return Row(name, *shares)

    def every(d: Deal) -> bool:
        return True

    def played(d: Deal) -> bool:
        return d.kind is not None

    def made(d: Deal) -> bool:
        return bool(d.made)

    def passed(d: Deal) -> bool:
        return d.cell == PASSED

    def is_kind(kind: str, judged: bool = False) -> Callable[[Deal], bool]:
        return lambda d: d.kind == kind and (not judged or d.made is not None)

    def at_level(level: int) -> Callable[[Deal], bool]:
        return lambda d: d.level == level

    def declared_by(position: int) -> Callable[[Deal], bool]:
        return lambda d: d.position == position

    def leveled(d: Deal) -> bool:
        return d.level is not None

    def declared(d: Deal) -> bool:
        return d.position is not None

    out = [row("passed out", passed, every)]
    seen = [k for k in dict.fromkeys([*kinds, *(d.kind for run in runs for d in run if d.kind)]) if k]
    for kind in seen:
        if any(d.kind == kind for run in runs for d in run):
            out.append(row(f"contract {kind}: share", is_kind(kind), played))
            out.append(row(f"contract {kind}: made", made, is_kind(kind, judged=True)))
    for level in sorted({d.level for run in runs for d in run if d.level is not None}):
        out.append(row(f"level {level}", at_level(level), leveled))
    for position in range(4):
        out.append(row(f"declarer {position}", declared_by(position), declared))
    return out


@dataclass
class Calibration:
    """What ``calibrate`` found: the style, the figures side by side, the fit test, and what the sheets could
    not tell."""

    club: Club
    style: Style
    rows: list[Row]
    test: FitTest
    undecided: dict[str, list[Fraction]]
    """Each setting whose values the race could not tell apart from the chosen one: those values."""
    deals: int
    seed: int
    distance_today: Estimate
    distance_fitted: Estimate
    candidates: dict[str, Any] = field(default_factory=dict)
    per_style: int = 0
    """The most deals a candidate style was played on (``--deals``)."""
    most_per_style: int = 0
    """The most ``--deals`` the search's bound allows with these settings (``make_plan``)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.club.label,
            "sheets": self.club.sheets,
            "club_deals": len(self.club.deals),
            "seed": self.seed,
            "deals": self.deals,
            "deals_per_style": self.per_style,
            "style": self.style.as_json(),
            "bots": styled_bot(self.style),
            "distance": {"today": self.distance_today.as_json(), "fitted": self.distance_fitted.as_json()},
            "fit_test": self.test.as_json(),
            "undecided": {k: [_in_points(k, v, self.club.rules) for v in vs] for k, vs in self.undecided.items()},
            "rows": [r.as_json() for r in self.rows],
        }


def calibrate(
    club: Club,
    deals: int,
    seed: int,
    runner: DealRunner,
    settings: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Calibration:
    """The style whose bots' game comes closest to the club's sheets (``StyleTuner``), with the figures."""
    if len(club.deals) < LEAST_DEALS:
        raise CalibrateError.said("calibrate_too_few", n=len(club.deals), least=LEAST_DEALS)
    axes = make_axes(club.rules, settings)
    plan = make_plan(axes, deals)
    tuner = StyleTuner(club, plan, seed, runner, progress)
    result = tuner.run()
    chosen = result.chosen
    current = result.current
    if current not in tuner.deals_of:  # today's expert on the same deals, to show beside the club
        tuner.play([current], plan.deals)
    undecided: dict[str, list[Fraction]] = {}
    for k, axis in enumerate(axes):
        race_result = tuner.lines.get(axis.key.text)
        line = tuner.line_of.get(axis.key.text)
        if race_result is None or line is None:
            continue
        close = [line[i][k] for i in race_result.indistinguishable]
        if close:
            undecided[axis.key.text] = sorted({line[race_result.chosen][k], *close})
    style = tuner.style(chosen)
    fitted, today = tuner.fresh(chosen), tuner.deals_of[current]  # the chosen style judged on fresh deals
    rows = figure_rows(club.deals, today, fitted, contract_kinds(club.rules))
    return Calibration(
        club,
        style,
        rows,
        fit_test(club.deals, fitted),
        undecided,
        tuner.spent,
        seed,
        standing(tuner.target, today, Z95),
        standing(tuner.target, fitted, Z95),
        per_style=plan.deals,
        most_per_style=most_deals_per_style(axes),
    )


# --- said -----------------------------------------------------------------------------------------------------


def _words(lang: str) -> dict[str, str]:
    return phrases(lang)


def setting_word(name: str, lang: str) -> str:
    """A setting as the report names it (``sol-lysten``)."""
    return _words(lang)[f"calibrate_setting_{name}"]


def row_text(name: str, lang: str) -> str:
    """A figure's name as the report's table prints it."""
    words = _words(lang)
    if name == "passed out":
        return words["calibrate_row_passed"]
    if name.startswith("contract "):
        kind, _, what = name[len("contract ") :].rpartition(": ")
        return words[f"calibrate_row_{what}"].format(kind=kind)
    if name.startswith("level "):
        return words["calibrate_row_level"].format(level=name.split()[1])
    if name.startswith("declarer "):
        seat = ("forhaand", "second", "third", "dealer")[int(name.split()[1])]
        return words["calibrate_row_declarer"].format(seat=words[f"sim_seat_{seat}"])
    return name


def _listed(items: Sequence[str], lang: str) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {_words(lang)['calibrate_and']} {items[-1]}"


def calibration_lines(found: Calibration, lang: str = "da") -> list[str]:
    """The answer in words first (the club, the style, the fit and what the sheets could not tell), then the
    figures side by side, each with its 95% interval and n."""
    words = _words(lang)
    club = found.club
    n = len(club.deals)
    lines = [
        words["calibrate_head"].format(n=n, sheets=len(club.sheets), ruleset=club.label),
        words["calibrate_style"].format(style=found.style.describe(lang)),
        words["calibrate_distance"].format(
            today=format_estimate(found.distance_today, False, lang),
            fitted=format_estimate(found.distance_fitted, False, lang),
        ),
    ]
    test = found.test
    if test.rejected is None:
        lines.append(words["calibrate_test_few"].format(n=n, least=MIN_SIGNIFICANT))
    else:
        verdict = words["calibrate_test_rejected" if test.rejected else "calibrate_test_kept"]
        p = f"{test.p:.3f}".replace(".", "," if lang == "da" else ".")
        statistic = f"{test.statistic:.1f}".replace(".", "," if lang == "da" else ".")
        lines.append(words["calibrate_test"].format(statistic=statistic, df=test.df, p=p, verdict=verdict))
    undecided = [setting_word(name, lang) for name in found.undecided]
    if len(undecided) == 1:
        name = next(iter(found.undecided))
        values = ", ".join(_value_text(name, v, club.rules, lang) for v in found.undecided[name])
        lines.append(words["calibrate_few_one"].format(n=n, setting=undecided[0], values=values))
    elif undecided:
        lines.append(words["calibrate_few_many"].format(n=n, first=_listed(undecided[:-1], lang), last=undecided[-1]))
    more = min(n, found.most_per_style or n)
    if undecided and found.per_style < more:  # the bots' deals, not the club's, may be what is too few
        lines.append(words["calibrate_more_deals"].format(deals=found.per_style, n=n, more=more))
    lines.append(words["calibrate_deals"].format(deals=found.deals, seed=found.seed))
    lines.append("")
    head = (
        words["calibrate_col_figure"],
        words["calibrate_col_club"],
        words["calibrate_col_today"],
        words["calibrate_col_fitted"],
    )
    table: list[tuple[str, ...]] = [head]
    marks = []
    for row in found.rows:
        if row.club.n == 0 and row.fitted.n == 0 and row.today.n == 0:
            continue
        cells = [f"{format_estimate(e, True, lang)} n={e.n}" for e in (row.club, row.today, row.fitted)]
        table.append((row_text(row.name, lang), *cells))
        marks.append("*" if row.off else " ")
    widths = [max(len(r[i]) for r in table) for i in range(4)]
    for mark, r in zip([" ", *marks], table, strict=True):
        lines.append(f"{mark} " + "  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(r)).rstrip())
    lines.append("")
    lines.append(words["calibrate_foot"])
    return lines


def _in_points(name: str, value: Fraction, rules: Rules) -> float:
    """A setting's value as the style file writes it: caution in standard errors, the others in points."""
    return float(value if name == "caution" else value * stake(rules))


def _value_text(name: str, value: Fraction, rules: Rules, lang: str) -> str:
    text = f"{_in_points(name, value, rules):g}"
    return text.replace(".", ",") if lang == "da" else text


def calibration_comment(found: Calibration, lang: str = "da") -> list[str]:
    """The lines the style file begins with: how it was found, for whoever opens it."""
    words = _words(lang)
    test = found.test
    said = "-" if test.rejected is None else f"p = {test.p:.3f}"
    return [
        words["calibrate_comment"].format(
            day=datetime.date.today().isoformat(),
            n=len(found.club.deals),
            sheets=", ".join(Path(s).name for s in found.club.sheets)[:200],
            deals=found.deals,
            seed=found.seed,
            test=said,
        ),
        words["calibrate_comment_what"],
    ]
