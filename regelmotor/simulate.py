"""Play many deals with bots and say what a ruleset does to the game.

Deal ``i`` of a run has its own random stream, seeded from the run's seed and ``i`` alone: it
shuffles the deck, then the bots draw from it in turn. So the same seed gives the same deals, the
same play and the same numbers whether the run uses one process or many. Totals are kept exactly
(integers and fractions) and turned into means and spreads only at the end.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from regelmotor.bots import make_bot
from regelmotor.cards import is_joker, new_deck
from regelmotor.engine.game import FINISHED, Game
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import ContractInfo
from regelmotor.phrases import phrases
from regelmotor.records import game_record
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.settings import Setting

Z95 = 1.959963984540054


class DealResult(NamedTuple):
    """What one simulated deal came to (a named tuple: one is made, and sent between processes, per deal)."""

    number: int
    """The deal's number in the run (0 first)."""
    dealer: int
    outcome: str
    reason: str | None
    contract: str | None
    """The designation id or sol bid id of the contract, or None."""
    level: int | None
    declarer: int | None
    made: bool | None
    selvmakker: bool
    called_in_kitty: bool
    called_in_own_hand: bool
    """Where the partner card was when it was called: the dealt kitty, or the declarer's own hand."""
    side_tricks: int | None
    scores: tuple[Fraction, ...]
    joker_leads: int
    joker_lead_wins: int
    record: str | None = None
    """The deal's game record as JSON (docs/notation.md), when the run keeps them (``simulate --records``)."""


def deal_random(seed: int, index: int) -> random.Random:
    """The random stream of deal ``index`` of a run: independent of how the run is split up."""
    return random.Random(f"regelmotor:{seed}:{index}")


class Table(NamedTuple):
    """The rules a run's deals are played under: a ruleset, its house rules, and numbers set in it (a rule
    search's values, ``ruleset.settings``). Hashable and small: it is sent to every process, which loads the
    rules once."""

    ruleset: str
    house_rules: tuple[str, ...] = ()
    settings: tuple[Setting, ...] = ()


@cache
def table_rules(table: Table) -> Rules:
    """The compiled rules of ``table``, loaded once a process (a broken ruleset raises its own error)."""
    return compile_rules(load_ruleset(table.ruleset, list(table.house_rules), settings=table.settings))


def play_deal(
    rules: Rules, index: int, seed: int, bots: Sequence[str], record: tuple[str, tuple[str, ...]] | None = None
) -> DealResult:
    """Deal ``index`` of the run with ``seed``, played by ``bots`` at seats 0-3; with ``record`` (the
    ruleset and house rules as the record names them) the deal's game record too."""
    rng = deal_random(seed, index)
    dealer = index % 4
    deck = new_deck(rules.dealing.jokers)
    rng.shuffle(deck)
    game = Game.from_deck(rules, deck, dealer)
    # The bots draw in turn from the rest of the deal's stream: the order of play fixes who gets what.
    players = [make_bot(name, rules, rng) for name in bots]
    step = game.step
    while step is not None:
        seat = step[1]
        player = players[seat]
        game.apply(player.choose(game.view(seat) if player.needs_view else None, game.legal))
        step = game.step
    result = _result(game, index)
    if record is None:
        return result
    return result._replace(record=json.dumps(game_record(game, *record), ensure_ascii=False, indent=1, default=str))


def _result(game: Game, index: int) -> DealResult:
    contract = None
    made = None
    selvmakker = False
    side = None
    if game.bid is not None:
        contract = game.bid.designation or game.bid.sol
    if game.phase == FINISHED and game.bid is not None and game.declarers:  # a game nobody bid is not "made"
        made = game.rules.scoring.made(ContractInfo(game.bid, game.declarers, game.partner), game.tricks_won)
        if not game.bid.is_sol:
            declarer = game.declarers[0]
            selvmakker = game.partner is None
            side = game.tricks_won[declarer] + (0 if game.partner is None else game.tricks_won[game.partner])
    leads = [t for t in game.tricks if is_joker(t.cards[0]) and t.cards[0] != game.fordaekt]
    return DealResult(
        number=index,
        dealer=game.dealer,
        outcome=game.phase,
        reason=None if game.redeal is None else game.redeal.reason,
        contract=contract,
        level=None if game.bid is None else game.bid.level,
        declarer=game.declarers[0] if game.declarers else None,
        made=made,
        selvmakker=selvmakker,
        called_in_kitty=game.called is not None and game.called in game.initial_kitty,
        called_in_own_hand=game.called is not None
        and bool(game.declarers)
        and game.called in game.initial_hands[game.declarers[0]],
        side_tricks=side,
        scores=tuple(game.scores) if game.scores is not None else (Fraction(0),) * 4,
        joker_leads=len(leads),
        joker_lead_wins=sum(1 for t in leads if t.winner == t.leader),
    )


def _play_range(
    table: Table,
    seed: int,
    bots: tuple[str, ...],
    start: int,
    stop: int,
    records: tuple[str, tuple[str, ...]] | None = None,
) -> list[DealResult]:
    rules = table_rules(table)
    return [play_deal(rules, i, seed, bots, records) for i in range(start, stop)]


class Task(NamedTuple):
    """Deals ``start`` to ``stop`` (not included) of a run, under ``table``."""

    table: Table
    seed: int
    bots: tuple[str, ...]
    start: int
    stop: int
    records: tuple[str, tuple[str, ...]] | None = None


class DealRunner:
    """Plays tasks of deals on this process, a pool of processes kept for the runner's life, or a Dask
    cluster. A run of many parts (a rule search's rounds) keeps one pool: each process loads a ruleset's
    rules, and compiles the expert's search, once, not once a round."""

    def __init__(self, jobs: int = 1, dask: str | None = None) -> None:
        self.jobs, self.dask = max(jobs, 1), dask
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None

    def __enter__(self) -> DealRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._pool is not None:
            if kind is not None:  # stopped (Ctrl-C, an error): the pieces under way are not waited for
                _stop_workers(self._pool)
            self._pool.shutdown(wait=kind is None, cancel_futures=True)
        if self._client is not None:
            self._client.close()

    def split(self, tasks: Sequence[Task]) -> list[Task]:
        """The tasks cut into pieces of about an eighth of a process's share: enough to keep every process
        busy to the end, few enough that sending them costs nothing to speak of."""
        total = sum(t.stop - t.start for t in tasks)
        chunk = max(1, min(500, math.ceil(total / (self.jobs * 8))))
        return [t._replace(start=s, stop=min(s + chunk, t.stop)) for t in tasks for s in range(t.start, t.stop, chunk)]

    def play(self, tasks: Sequence[Task], progress: Callable[[int], None] | None = None) -> list[list[DealResult]]:
        """Each task's deals, in deal order; ``progress`` is told how many deals are done in all."""
        for table in dict.fromkeys(t.table for t in tasks):
            table_rules(table)  # a broken ruleset fails here, once, with its own error
        pieces = self.split(tasks)
        done = 0
        results: list[list[DealResult]] = []

        def collect(part: list[DealResult]) -> None:
            nonlocal done
            results.append(part)
            done += len(part)
            if progress:
                progress(done)

        if self.dask is not None:
            for future in self._dask_map(pieces):
                collect(future.result())
        elif self.jobs <= 1 or len(pieces) <= 1:  # one process: no pool to start
            for piece in pieces:
                collect(_play_range(*piece))
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=self.jobs, initializer=_worker_start)
            for future in [self._pool.submit(_play_range, *piece) for piece in pieces]:
                collect(future.result())
        deals = [result for part in results for result in part]  # the pieces come back in the tasks' order
        out: list[list[DealResult]] = []
        at = 0
        for task in tasks:
            out.append(deals[at : at + task.stop - task.start])
            at += task.stop - task.start
        return out

    def _dask_map(self, pieces: list[Task]) -> list[Any]:
        """The pieces on a Dask cluster: the workers need regelmotor and the ruleset files."""
        try:
            from distributed import Client
        except ImportError:
            raise RegelmotorError("--dask needs the dask extra: pip install 'regelmotor[dask]'") from None
        if self._client is None:
            self._client = Client(self.dask)  # type: ignore[no-untyped-call]
        columns = [[getattr(piece, name) for piece in pieces] for name in Task._fields]
        return list(self._client.map(_play_range, *columns, pure=False))


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the process that started it: the terminal sends it to every process of the
    command, and a worker's own KeyboardInterrupt would print its traceback; the runner stops it instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Every worker of ``pool`` ended now, not after the piece it is playing (Python 3.14 has
    ``terminate_workers``; before it, the pool's processes are reached through its table of them)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(OSError, AttributeError):
            process.terminate()


def run_deals(
    ruleset: str,
    house_rules: Sequence[str],
    deals: int,
    seed: int,
    bots: Sequence[str],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
    records: tuple[str, tuple[str, ...]] | None = None,
) -> list[DealResult]:
    """Every deal of the run, in deal order, however many processes (or Dask workers) play them;
    with ``records`` (the ruleset and house rules as a record names them) each deal's record too."""
    task = Task(Table(ruleset, tuple(house_rules)), seed, tuple(bots), 0, deals, records)
    with DealRunner(jobs, dask) as runner:
        return runner.play([task], progress)[0]


# --- statistics -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean or a rate with its 95% confidence interval."""

    value: float
    low: float
    high: float
    n: int

    def as_json(self) -> dict[str, float | int]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def rate(hits: int, n: int, z: float = Z95) -> Estimate:
    """A share with its 95% Wilson score interval, which stays honest at small n and at 0% or 100%
    (the normal approximation gives a zero-width interval there); ``z`` for another level."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


T95: tuple[float, ...] = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131),
    *(2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048),
)
"""Student's t, the 97.5% point, for 1 to 28 degrees of freedom: a mean's 95% interval from fewer than
``MIN_SIGNIFICANT`` (30) values; from 30 on, the normal approximation's ``Z95``."""


def mean(values: Sequence[Fraction], within: tuple[float, float] = (-math.inf, math.inf), z: float = Z95) -> Estimate:
    """A mean with its 95% interval (Student's t below ``MIN_SIGNIFICANT`` values). One value, or a few
    all alike, say nothing of the spread: no interval then (NaN bounds, printed "[—]"), not a zero-width one.

    ``within``: the least and the most any value can be (a count of tricks: 0 to 13). The interval is
    kept within them, where at small n it would reach past them (tricks taken 1.3 [-0.1, 2.8]). ``z``: another
    level than 95% (below 30 values Student's t is widened in the same proportion)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    total = sum(values, Fraction(0))
    m = total / n
    variance = sum(((v - m) ** 2 for v in values), Fraction(0)) / (n - 1) if n > 1 else Fraction(0)
    if n < MIN_SIGNIFICANT and variance == 0:
        return Estimate(float(m), math.nan, math.nan, n)
    half = (T95[n - 2] if n < MIN_SIGNIFICANT else Z95) * (z / Z95) * math.sqrt(float(variance) / n)
    least, most = within
    return Estimate(float(m), float(max(least, float(m) - half)), float(min(most, float(m) + half)), n)


@dataclass
class Summary:
    """What a run of deals says about a ruleset."""

    deals: int
    finished: int = 0
    """The deals played to the end with a contract: what the contracts' shares are shares of."""
    outcomes: dict[str, Estimate] = field(default_factory=dict)
    contracts: dict[str, Estimate] = field(default_factory=dict)
    success: dict[str, Estimate] = field(default_factory=dict)
    selvmakker: Estimate = field(default_factory=lambda: rate(0, 0))
    called_in_kitty: Estimate = field(default_factory=lambda: rate(0, 0))
    points_per_seat: dict[str, Estimate] = field(default_factory=dict)
    points_per_bot: dict[str, Estimate] = field(default_factory=dict)
    side_tricks: Estimate = field(default_factory=lambda: rate(0, 0))
    joker_leads: Estimate = field(default_factory=lambda: rate(0, 0))
    joker_lead_wins: Estimate = field(default_factory=lambda: rate(0, 0))

    def as_json(self) -> dict[str, Any]:
        def table(items: dict[str, Estimate]) -> dict[str, Any]:
            return {k: v.as_json() for k, v in items.items()}

        return {
            "deals": self.deals,
            "outcomes": table(self.outcomes),
            "contracts": table(self.contracts),
            "success": table(self.success),
            "selvmakker": self.selvmakker.as_json(),
            "called_in_kitty": self.called_in_kitty.as_json(),
            "points_per_seat": table(self.points_per_seat),
            "points_per_bot": table(self.points_per_bot),
            "declarer_side_tricks": self.side_tricks.as_json(),
            "joker_leads_per_deal": self.joker_leads.as_json(),
            "joker_lead_won": self.joker_lead_wins.as_json(),
        }


POSITIONS = ("forhaand", "second", "third", "dealer")


def summarize(results: Sequence[DealResult], bots: Sequence[str], z: float = Z95) -> Summary:
    """What the deals say, each figure with its 95% interval (``z``: another level)."""
    n = len(results)
    summary = Summary(n)
    outcomes = Counter(r.reason or r.outcome for r in results)
    summary.outcomes = {k: rate(v, n, z) for k, v in sorted(outcomes.items())}
    finished = [r for r in results if r.outcome == FINISHED and r.contract is not None]
    summary.finished = len(finished)
    kinds = Counter(r.contract for r in finished)
    summary.contracts = {str(k): rate(v, len(finished), z) for k, v in kinds.most_common()}
    summary.success = {
        str(k): rate(sum(1 for r in finished if r.contract == k and r.made), v, z)
        for k, v in kinds.most_common()
        if any(r.made is not None for r in finished if r.contract == k)  # pasnolo, engelsk whist: no declarer
    }
    trump = [r for r in finished if r.side_tricks is not None]
    summary.selvmakker = rate(sum(r.selvmakker for r in trump), len(trump), z)
    summary.called_in_kitty = rate(sum(r.called_in_kitty for r in trump), len(trump), z)
    summary.side_tricks = mean([Fraction(r.side_tricks or 0) for r in trump], within=(0, 13), z=z)
    for position, name in enumerate(POSITIONS):
        # the seat ``position`` places after the dealer: forhånd first
        summary.points_per_seat[name] = mean([r.scores[(r.dealer + 1 + position) % 4] for r in results], z=z)
    for name in dict.fromkeys(bots):
        seats = [s for s, b in enumerate(bots) if b == name]
        summary.points_per_bot[name] = mean([r.scores[s] for r in results for s in seats], z=z)
    summary.joker_leads = mean([Fraction(r.joker_leads) for r in results], within=(0, math.inf), z=z)
    leads = sum(r.joker_leads for r in results)
    summary.joker_lead_wins = rate(sum(r.joker_lead_wins for r in results), leads, z)
    return summary


def paired_difference(
    a: Sequence[DealResult],
    b: Sequence[DealResult],
    value_a: Callable[[DealResult], Fraction],
    value_b: Callable[[DealResult], Fraction],
) -> Estimate:
    """The mean of B's value minus A's over the same deals (each ruleset's value in its own unit), with its
    95% interval."""
    return mean([value_b(y) - value_a(x) for x, y in zip(a, b, strict=True)])


def rate_difference(a: Estimate, b: Estimate) -> Estimate:
    """B minus A for two rates from independent samples, with Newcombe's hybrid score interval (built
    from the two Wilson intervals: honest at small n and at 0% or 100%)."""
    if a.n == 0 or b.n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    d = b.value - a.value
    low = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Estimate(d, low, high, min(a.n, b.n))


MIN_SIGNIFICANT = 30
"""The fewest observations a difference is called significant from: below it the normal
approximation behind the intervals does not hold, whatever the interval says."""


def significant(estimate: Estimate) -> bool:
    if estimate.n < MIN_SIGNIFICANT or math.isnan(estimate.value):
        return False
    return estimate.low > 0 or estimate.high < 0


def format_estimate(estimate: Estimate, percent: bool = False, lang: str = "en") -> str:
    """A value and its 95% interval; in Danish with a decimal comma (11,5 % [9,0; 14,3])."""
    if math.isnan(estimate.value):
        return "—"
    if math.isnan(estimate.low):  # too few values for an interval
        text = f"{100 * estimate.value:.1f}% [—]" if percent else f"{estimate.value:.2f} [—]"
    elif percent:
        text = f"{100 * estimate.value:.1f}% [{100 * estimate.low:.1f}, {100 * estimate.high:.1f}]"
    else:
        text = f"{estimate.value:.2f} [{estimate.low:.2f}, {estimate.high:.2f}]"
    if lang == "da":
        text = text.replace(", ", "; ").replace(".", ",").replace("%", " %")
    return text


def iter_lines(summary: Summary, label: str, lang: str = "en") -> Iterable[str]:
    """The summary as ``simulate`` prints it, in ``lang`` (the phrase table's words)."""
    words = phrases(lang)

    def est(estimate: Estimate, percent: bool = False) -> str:
        return format_estimate(estimate, percent, lang)

    def outcome(key: str) -> str:
        return words["sim_outcome_finished"] if key == "finished" else words.get(f"redeal_{key}", key)

    yield words["sim_head"].format(label=label, n=summary.deals)
    yield f"{words['sim_outcomes']}: " + ", ".join(f"{outcome(k)} {est(v, True)}" for k, v in summary.outcomes.items())
    yield words["sim_contracts"]
    for kind, share in summary.contracts.items():
        success = summary.success.get(kind)
        made = words["sim_no_declarer"] if success is None else f"{words['sim_made']} {est(success, True)}"
        yield f"  {kind:<20} {est(share, True):<28} {made}"
    kitty = est(summary.called_in_kitty, True)
    yield f"{words['sim_selvmakker']}: {est(summary.selvmakker, True)}; {words['sim_kitty']}: {kitty}"
    yield f"{words['sim_side_tricks']}: {est(summary.side_tricks)}"
    won = est(summary.joker_lead_wins, True)
    yield f"{words['sim_joker_leads']}: {est(summary.joker_leads)}; {words['sim_joker_won']}: {won}"
    yield f"{words['sim_by_seat']}: " + ", ".join(
        f"{words.get(f'sim_seat_{k}', k)} {est(v)}" for k, v in summary.points_per_seat.items()
    )
    yield f"{words['sim_by_bot']}: " + ", ".join(f"{k} {est(v)}" for k, v in summary.points_per_bot.items())
    yield words["sim_interval"]
