"""The expert bot's targets, measured (run by hand: python benchmarks/expert.py [--part NAME] [--deals N]).

1. Strength: ``match expert expert-v1`` and ``match expert heuristic`` over ``--deals`` deals on each
   shipped ruleset: the expert's points per seat per deal, with its 95% interval (target: better than
   ``expert-v1`` on all six, significantly on four).
2. Scores move decisions: with expert bots, ``compare`` standard against docs/examples/richsol.yaml
   (sol paid three times as much: target, more sol contracts) and against
   docs/examples/halvpris.yaml (a failed contract costs half: target, fewer passed-out deals).
3. Calibration: what the expert expected of the contracts it played, against what they brought.
4. Speed: expert deals per second on one core on ``standard`` (target: at least 20), and the
   kernel's playouts per second (greedy), beside the engine's random deals per second; where an expert
   deal's time goes, and the speed its compiled parts alone would allow.
5. Distribution: the contracts four experts play on ``standard`` beside four heuristic bots', passed-out
   deals among them.
6. Stability: forhånd's first call on 40 random hands, 6 seeds each (target: the same call on 4 of the 6
   seeds on most hands).
7. The double-dummy leaf: the expert against itself without it, head to head.
8. Tricks lost to double-dummy play (``ddloss``): every card of 300 engelsk deals (``--ddloss-deals``)
   judged by DDS through ``endplay`` (the extra ``regelmotor[dds]``; target: at most 2.0 per side per
   deal); with ``--budget NAME=N`` (repeatable), the expert so changed beside it on the same deals, and
   the difference deal by deal.

Nothing here is a test: the figures depend on the machine and are reported, not asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from regelmotor.bots import kernel as K
from regelmotor.bots.base import make_bot
from regelmotor.bots.expert import Budget, ExpertBot
from regelmotor.engine.game import Game
from regelmotor.match import run_match
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import MIN_SIGNIFICANT, mean, rate, rate_difference, run_deals, significant

RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2", "dansk", "engelsk")
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def strength(deals: int, jobs: int, rivals: tuple[str, ...] = ("expert-v1", "heuristic")) -> dict[str, Any]:
    """The expert against ``expert-v1`` (the expert when the bots issue was filed: bidding on its means,
    dealing hidden cards at random whatever the calls said) and the heuristic, on every shipped ruleset,
    the same cards both ways."""
    found = {}
    for rival in rivals:
        for name in RULESETS:
            start = time.perf_counter()
            result = run_match("expert", rival, name, [], deals, 1, jobs=jobs)
            found[f"{name} against {rival}"] = {**result.as_json(), "seconds": time.perf_counter() - start}
    return found


def share(results: list[Any], test: Any) -> tuple[int, int]:
    return sum(1 for r in results if test(r)), len(results)


def decisions(deals: int, jobs: int) -> dict[str, Any]:
    bots = ["expert"] * 4
    standard = run_deals("standard", [], deals, 1, bots, jobs=jobs)
    rich = run_deals(str(EXAMPLES / "richsol.yaml"), [], deals, 1, bots, jobs=jobs)
    half = run_deals(str(EXAMPLES / "halvpris.yaml"), [], deals, 1, bots, jobs=jobs)
    sol_ids = {"sol", "ren sol", "bordlægger", "ren bordlægger"}

    def sol(r: Any) -> bool:
        return r.outcome == "finished" and r.contract in sol_ids

    def passed_out(r: Any) -> bool:
        return r.reason == "all_pass"

    out: dict[str, Any] = {}
    for label, a, b, test in (
        ("sol contracts: standard -> richsol", standard, rich, sol),
        ("passed-out deals: standard -> halvpris", standard, half, passed_out),
    ):
        ra, rb = rate(*share(a, test)), rate(*share(b, test))
        d = rate_difference(ra, rb)
        out[label] = {"a": ra.as_json(), "b": rb.as_json(), "difference": d.as_json(), "significant": significant(d)}
    return out


CALIBRATION_BUDGET = Budget(honest_samples=32)
"""The expert as it plays, its chosen bid priced again on 32 fresh deals (``Budget.honest_samples``)."""


def _calibration_part(args: tuple[str, int, int, dict[str, float]]) -> list[tuple[str, float, float, float]]:
    """(kind, expected on fresh deals, expected on the deals that chose, got) for the declarer of each
    deal of ``range(first, stop)``, the experts' budget changed by ``changes``."""
    name, first, stop, changes = args
    budget = dataclasses.replace(CALIBRATION_BUDGET, **changes)
    rules = compile_rules(load_ruleset(name))
    found = []
    for number in range(first, stop):
        rng = random.Random(f"calibration {name} {number}")
        game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
        bots = [ExpertBot(rules, random.Random(rng.randrange(2**32)), budget=budget) for _ in range(4)]
        last: dict[int, tuple[float, float]] = {}
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            bot = bots[seat]
            action = bot.choose(game.view(seat), game.legal)
            if game.step[0] == "call" and action in bot.estimates:
                last[seat] = (bot.estimates[action], bot.chosen_on.get(action, bot.estimates[action]))
            game.apply(action)
        if game.scores is not None and game.bid is not None and game.declarers[0] in last:
            kind = game.bid.sol or game.bid.designation or ""
            fresh, choosing = last[game.declarers[0]]
            found.append((kind, fresh, choosing, float(game.scores[game.declarers[0]])))
    return found


def calibration(
    deals: int, name: str = "standard", jobs: int = 2, changes: dict[str, float] | None = None
) -> dict[str, Any]:
    """What the expert expected of the contract it ended up playing (its value of the last call it made)
    against the points the deal then brought it, by kind of contract: where the two differ by more than
    the interval, its playouts misjudge that kind (the target: inside the interval for every kind bid at
    least 30 times). "Expected" is the bid's price on fresh deals, which took no part in choosing it;
    beside it, its price on the deals that chose it (higher by the winner's curse)."""
    from concurrent.futures import ProcessPoolExecutor

    parts = [(name, i * deals // jobs, (i + 1) * deals // jobs, changes or {}) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        rows = [row for part in pool.map(_calibration_part, parts) for row in part]
    by_kind: dict[str, list[tuple[float, float, float]]] = {}
    for kind, fresh, choosing, points in rows:
        by_kind.setdefault(kind, []).append((fresh, choosing, points))
    found = {}
    for kind in sorted(by_kind, key=lambda k: -len(by_kind[k])):
        e, c, g = (mean([Fraction(row[i]) for row in by_kind[kind]]) for i in range(3))
        found[f"{name} {kind}"] = {
            "expected": e.as_json(),
            "expected_when_chosen": c.as_json(),
            "got": g.as_json(),
            "inside": g.low <= e.value <= g.high if g.n >= MIN_SIGNIFICANT else None,  # None: too few to judge
        }
    return found


def distribution(deals: int, jobs: int) -> dict[str, Any]:
    """The contracts played on ``standard`` by four experts and by four heuristic bots, passed-out deals
    among them: the share of deals, with its interval, and the share made."""
    found: dict[str, Any] = {}
    for bot in ("expert", "heuristic"):
        results = run_deals("standard", [], deals, 1, [bot] * 4, jobs=jobs)
        kinds: dict[str, list[Any]] = {}
        for r in results:
            kind = "passed out" if r.reason == "all_pass" else r.contract or r.reason or r.outcome
            kinds.setdefault(kind, []).append(r)
        found[bot] = {
            kind: {
                "share": rate(len(rs), len(results)).as_json(),
                "made": rate(sum(1 for r in rs if r.made), len(rs)).as_json() if kind != "passed out" else None,
            }
            for kind, rs in sorted(kinds.items(), key=lambda item: -len(item[1]))
        }
    return found


def stability(hands: int, seeds: int) -> dict[str, Any]:
    """Forhånd's first call on ``hands`` random ``standard`` deals, each decided with ``seeds`` seeds:
    on how many hands the same call comes on at least two thirds of the seeds, and how many calls a hand
    gets on average."""
    rules = compile_rules(load_ruleset("standard"))
    rng = random.Random(11)
    same = 0
    distinct = 0
    for _ in range(hands):
        game = Game.from_seed(rules, rng.randrange(2**32), 0)
        while game.step is not None and game.step[0] != "call":
            game.apply(game.legal[0])
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        calls = [ExpertBot(rules, random.Random(s)).choose(view, game.legal) for s in range(seeds)]
        top = max(calls.count(c) for c in set(calls))
        same += top * 3 >= 2 * seeds
        distinct += len(set(calls))
    return {"hands": hands, "seeds": seeds, "same call on 2/3 of the seeds": same, "calls per hand": distinct / hands}


def leaf(deals: int) -> dict[str, Any]:
    """The expert with its double-dummy leaf against the same expert valuing every card by playouts
    only (``dd_cards = 0``), head to head on ``standard`` and ``engelsk`` (one process)."""
    playouts_only = changed_budget({"dd_cards": 0, "dd_sol_cards": 0}, "expert-playouts")
    found = {}
    for name in ("standard", "engelsk"):
        start = time.perf_counter()
        result = run_match("expert", playouts_only, name, [], deals, 1, jobs=1)
        found[name] = {**result.as_json(), "seconds": time.perf_counter() - start}
    return found


def changed_budget(changes: dict[str, float], name: str = "expert-changed") -> str:
    """The bot ``name``: the expert with ``changes`` to its budget (registered in this process)."""
    from regelmotor.bots import base
    from regelmotor.bots.expert import DEFAULT_BUDGET

    budget = dataclasses.replace(DEFAULT_BUDGET, **changes)
    base.BOTS[name] = lambda rules, rng: ExpertBot(rules, rng, budget=budget)
    return name


def _dd_loss_part(args: tuple[str, int, int, dict[str, float]]) -> list[tuple[int, int, int]]:
    """Each engelsk deal of ``range(first, stop)`` played by four bots: the tricks each side lost to
    double-dummy play, every card judged by DDS (``solve_board`` on the position before it), and how many
    of both sides' were lost leading a trick."""
    from double_dummy import pbn  # the DDS benchmark's writer of a deal (this folder is on the path)
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    bot, first, stop, changes = args
    if changes:
        bot = changed_budget(changes)
    rules = compile_rules(load_ruleset("engelsk"))
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
    found = []
    for number in range(first, stop):
        rng = random.Random(f"dd loss {number}")
        game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
        bots = [make_bot(bot, rules, random.Random(rng.randrange(2**32))) for _ in range(4)]
        deal: Any = None
        lost = [0, 0]
        leading = 0
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            if game.phase == "play" and deal is None:
                deal = Deal.from_pbn(pbn([list(hand) for hand in game.hands]))
                deal.first = Player(seat)
                deal.trump = denoms.get(game.trump or "", Denom.nt)
            view = game.view(seat) if bots[seat].needs_view else None
            action = bots[seat].choose(view, game.legal)
            if game.phase == "play" and deal is not None and action.card is not None:
                name = "SHDC"[action.card // 13] + "23456789TJQKA"[action.card % 13]
                values = {str(card): tricks for card, tricks in solve_board(deal)}
                given = max(values.values()) - values[str(Card(name))]
                lost[seat % 2] += given
                leading += given if not game.trick else 0
                deal.play(name)
            game.apply(action)
        found.append((lost[0], lost[1], leading))
    return found


def dd_loss(deals: int, jobs: int, changes: dict[str, float] | None = None) -> dict[str, Any]:
    """The tricks a side gives away to double-dummy play per deal, on engelsk (the expert and the heuristic
    on the same deals): a card costs what DDS says the side loses by it against the best card there.

    With ``changes`` (``--budget``), the expert with that budget is measured instead of the heuristic, on
    the same deals, and the difference deal by deal (the same cards both ways: a paired difference)."""
    from concurrent.futures import ProcessPoolExecutor

    found = {}
    by_bot = {}
    rivals = [(f"expert ({budget_text(changes)})", changes)] if changes else [("heuristic", {})]
    for label, changed in [("expert", {}), *rivals]:
        bot = "expert" if changed else label
        parts = [(bot, i * deals // jobs, (i + 1) * deals // jobs, changed) for i in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            rows = [row for part in pool.map(_dd_loss_part, parts) for row in part]
        by_bot[label] = rows
        per_side = [Fraction(side) for row in rows for side in row[:2]]
        found[label] = {
            "tricks lost per side per deal": mean(per_side).as_json(),
            "of them leading a trick": mean([Fraction(row[2], 2) for row in rows]).as_json(),
            "deals": len(rows),
        }
    if changes:
        base, other = by_bot.values()
        paired = [Fraction(sum(b[:2]) - sum(a[:2]), 2) for a, b in zip(base, other, strict=True)]
        found["difference, the same deals"] = {"tricks lost per side per deal": mean(paired).as_json(), "deals": deals}
    return found


def budget_text(changes: dict[str, float] | None) -> str:
    return ", ".join(f"{key}={value}" for key, value in (changes or {}).items())


def parse_budget(items: list[str]) -> dict[str, float]:
    """``--budget lead_samples=48 --budget bid_caution=1.0``: changes to the expert's ``Budget`` (its
    integer and real settings)."""
    kinds = {field.name: type(field.default) for field in dataclasses.fields(Budget)}
    known = {name: kind for name, kind in kinds.items() if kind in (int, float)}
    changes: dict[str, float] = {}
    for item in items:
        key, _, value = item.partition("=")
        try:
            changes[key] = known[key](value)
        except (KeyError, ValueError):
            raise SystemExit(f"--budget {item}: give NAME=NUMBER, NAME one of {', '.join(sorted(known))}") from None
    return changes


def speed(deals: int) -> dict[str, float]:
    rules = compile_rules(load_ruleset("standard"))
    kernel = rules.play
    # compile (or load from numba's disk cache) the kernel and the double-dummy leaf outside the timing
    run_deals("standard", [], 4, 0, ["expert"] * 4, jobs=1)
    start = time.perf_counter()
    run_deals("standard", [], deals, 1, ["expert"] * 4, jobs=1)
    expert = deals / (time.perf_counter() - start)
    start = time.perf_counter()
    run_deals("standard", [], 2000, 1, ["random"] * 4, jobs=1)
    engine_random = 2000 / (time.perf_counter() - start)
    batch = K.first_lead_rows(rules, kernel, 2000, random.Random(1))
    K.playout_rows(batch[:2], kernel.constants, 0)
    start = time.perf_counter()
    K.playout_rows(batch, kernel.constants, 1)
    greedy = len(batch) / (time.perf_counter() - start)
    return {
        "expert deals/s (one core, standard)": expert,
        "engine random deals/s (one core, standard)": engine_random,
        "kernel greedy playouts/s (play phase, one core)": greedy,
    }


def time_split(deals: int) -> dict[str, float]:
    """Where an expert deal's time goes on ``standard`` (one core): seconds a deal in each part, each
    part's own time (a part's calls into another part counted there), and the deals a second the compiled
    parts alone would allow: the ceiling of any work on the Python around them at this budget."""
    from regelmotor.bots import double_dummy as DD
    from regelmotor.bots import expert as E

    spent: dict[str, float] = {}
    stack: list[float] = []
    restore: list[tuple[Any, str, Any]] = []

    def timed(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        spent[label] = 0.0

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            stack.append(0.0)
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                spent[label] += elapsed - stack.pop()
                if stack:
                    stack[-1] += elapsed

        restore.append((owner, name, original))
        setattr(owner, name, wrapper)

    run_deals("standard", [], 4, 0, ["expert"] * 4, jobs=1)  # compiled (or loaded from the cache) first
    for owner, name in ((K, "evaluate_cards"), (DD, "evaluate_cards"), (K, "sample_rows")):
        timed(owner, name, f"compiled, card play: {owner.__name__.rsplit('.', 1)[-1]}.{name}")
    for owner, name in ((K, "play_rows_to"), (DD, "finish_rows"), (K, "playout_rows"), (K, "playout_rows_looking")):
        timed(owner, name, f"compiled, before play: {owner.__name__.rsplit('.', 1)[-1]}.{name}")
    timed(E, "sample_worlds", "sampling the deals before play (Python)")
    timed(E, "read_rows", "reading the calls in card play (Python)")
    timed(E.ExpertBot, "_play_out", "playouts before play: the engine's steps, rows (Python)")
    timed(E, "first_lead", "playouts before play taken to the first lead without a Game (Python)")
    timed(E.ExpertBot, "_deal_points", "scoring the playouts (Python)")
    start = time.perf_counter()
    try:
        run_deals("standard", [], deals, 1, ["expert"] * 4, jobs=1)
    finally:
        for owner, name, original in reversed(restore):
            setattr(owner, name, original)
    total = time.perf_counter() - start
    found = {label: seconds / deals for label, seconds in spent.items()}
    found["the rest (Python)"] = (total - sum(spent.values())) / deals
    compiled = sum(seconds for label, seconds in found.items() if label.startswith("compiled"))
    found["deals/s with only the compiled parts"] = 1 / compiled
    found["deals/s, all of it (timed)"] = deals / total
    return found


def print_match(bots: str, name: str, row: dict[str, Any]) -> None:
    p = row["a_points_per_deal"]
    mark = "significant" if row["significant"] else "not significant"
    print(
        f"match {bots} {name}: {p['value']:.2f} [{p['low']:.2f}, {p['high']:.2f}] points per seat per deal, "
        f"n = {p['n']}, {mark} ({row['seconds']:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000, help="deals per match and per compare (default 1000)")
    parser.add_argument("--speed-deals", type=int, default=200)
    parser.add_argument("--ddloss-deals", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--part",
        choices=(
            "all",
            "strength",
            "decisions",
            "speed",
            "calibration",
            "distribution",
            "stability",
            "leaf",
            "ddloss",
        ),
        default="all",
    )
    parser.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="NAME=N",
        help="ddloss: measure the expert with this change to its Budget beside the default, on the same deals; "
        "calibration: the experts' budget so changed",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"deals": args.deals, "jobs": args.jobs}
    if args.part in ("all", "speed"):
        report["speed"] = speed(args.speed_deals)
        report["time split"] = time_split(args.speed_deals // 4)
    if args.part in ("all", "decisions"):
        report["decisions"] = decisions(args.deals, args.jobs)
    if args.part in ("all", "strength"):
        report["strength"] = strength(args.deals, args.jobs)
    if args.part in ("all", "calibration"):
        report["calibration"] = {
            key: row
            for name in ("standard", "thorsen")
            for key, row in calibration(args.deals, name, args.jobs, parse_budget(args.budget)).items()
        }
    if args.part in ("all", "distribution"):
        report["distribution"] = distribution(args.deals, args.jobs)
    if args.part in ("all", "stability"):
        report["stability"] = stability(40, 6)
    if args.part in ("all", "ddloss"):
        report["ddloss"] = dd_loss(args.ddloss_deals, args.jobs, parse_budget(args.budget))
    if args.part in ("all", "leaf"):
        report["leaf"] = leaf(args.deals // 4)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    for bot, kinds in report.get("distribution", {}).items():
        print(f"contracts on standard, four {bot} bots ({args.deals} deals):")
        for kind, row in kinds.items():
            sh, made = row["share"], row["made"]
            tail = "" if made is None else f", made {100 * made['value']:.0f}% (n = {made['n']})"
            print(f"  {kind:16} {100 * sh['value']:5.1f}% [{100 * sh['low']:.1f}, {100 * sh['high']:.1f}]{tail}")
    if "stability" in report:
        st = report["stability"]
        print(
            f"stability: the same first call on 2/3 of {st['seeds']} seeds on {st['same call on 2/3 of the seeds']} of "
            f"{st['hands']} hands; {st['calls per hand']:.1f} different calls per hand"
        )
    for name, row in report.get("leaf", {}).items():
        print_match("expert expert-playouts", name, row)
    for key, value in report.get("speed", {}).items():
        print(f"{key}: {value:.1f}")
    for key, value in report.get("time split", {}).items():
        print(f"{key}: {value:.2f}" if key.startswith("deals/s") else f"{key}: {1000 * value:.0f} ms a deal")
    for label, row in report.get("decisions", {}).items():
        a, b, d = row["a"], row["b"], row["difference"]
        mark = "significant" if row["significant"] else "not significant"
        print(
            f"{label}: {100 * a['value']:.1f}% -> {100 * b['value']:.1f}% "
            f"(difference {100 * d['value']:+.1f} points [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}], "
            f"n = {a['n']}, {mark})"
        )
    for kind, row in report.get("calibration", {}).items():
        e, g = row["expected"], row["got"]
        verdict = {True: "inside the interval", False: "outside the interval", None: "too few to judge"}
        interval = "[—]" if g["low"] != g["low"] else f"[{g['low']:.1f}, {g['high']:.1f}]"  # NaN: no interval
        print(
            f"calibration {kind}: expected {e['value']:.1f} (on the deals that chose it "
            f"{row['expected_when_chosen']['value']:.1f}), got {g['value']:.1f} {interval} "
            f"points for the declarer (n = {g['n']}; {verdict[row['inside']]})"
        )
    for name, row in report.get("strength", {}).items():
        print_match("expert", name, row)
    for bot, row in report.get("ddloss", {}).items():
        lost = row["tricks lost per side per deal"]
        leading = row.get("of them leading a trick")
        if leading is None:  # the difference, deal by deal
            print(
                f"double-dummy loss, engelsk, {bot}: {lost['value']:+.2f} [{lost['low']:+.2f}, "
                f"{lost['high']:+.2f}] tricks per side per deal ({row['deals']} deals)"
            )
        else:
            print(
                f"double-dummy loss, engelsk, four {bot} bots: {lost['value']:.2f} [{lost['low']:.2f}, "
                f"{lost['high']:.2f}] tricks per side per deal, {leading['value']:.2f} of them leading a trick "
                f"({row['deals']} deals)"
            )


if __name__ == "__main__":
    main()
