"""Simulation speed, measured in one run (run by hand: python benchmarks/simulation.py [--openspiel]).

Reports, per ruleset, random and heuristic complete deals per second on one core, the speed-up of
``--jobs 2`` over ``--jobs 1``, and, with ``--openspiel``, OpenSpiel's C++ hearts played out at
random from Python on the same machine in the same run (the plainest driver: ``rng.choice`` of the
legal actions, a uniform pick of the chance outcomes, since hearts deals uniformly), and the ratio of
ours to it. Every figure
is measured ``--rounds`` times, the rounds interleaved (hearts right after standard), and the best
of each is reported with all of them, as ``timeit`` does: on a shared machine the slow runs measure
the neighbours. OpenSpiel is installed for this benchmark alone (into benchmarks/.openspiel), never
as a project dependency.
"""

from __future__ import annotations

import argparse
import json
import time

from regelmotor.simulate import run_deals

RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2")


def deals_per_second(ruleset: str, bots: str, deals: int, jobs: int = 1) -> float:
    run_deals(ruleset, [], 20, 0, [bots] * 4)  # compile the rules outside the timing
    start = time.perf_counter()
    run_deals(ruleset, [], deals, 1, [bots] * 4, jobs=jobs)
    return deals / (time.perf_counter() - start)


def openspiel_hearts_per_second(games: int) -> float:
    from engine_speed import hearts_deals  # the benchmark next door: one driver of OpenSpiel's hearts

    seconds, _ = hearts_deals(games)
    return games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="measure everything this many times, interleaved")
    parser.add_argument("--openspiel", action="store_true", help="also measure OpenSpiel hearts (installs it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {}

    def measure(key: str, rate: float) -> None:
        runs.setdefault(key, []).append(rate)

    for _ in range(args.rounds):  # interleaved, so a slow spell of a shared machine hits every figure alike
        for name in RULESETS:
            measure(f"{name} random", deals_per_second(name, "random", args.deals))
            if args.openspiel and name == "standard":
                measure("openspiel hearts random", openspiel_hearts_per_second(args.deals))
            measure(f"{name} heuristic", deals_per_second(name, "heuristic", args.deals))
        measure("standard heuristic --jobs 1", deals_per_second("standard", "heuristic", args.deals * 2, jobs=1))
        measure("standard heuristic --jobs 2", deals_per_second("standard", "heuristic", args.deals * 2, jobs=2))
    best = {key: max(rates) for key, rates in runs.items()}
    ratios = {"jobs 2 over jobs 1": best["standard heuristic --jobs 2"] / best["standard heuristic --jobs 1"]}
    if args.openspiel:
        ratios["standard random over openspiel hearts"] = best["standard random"] / best["openspiel hearts random"]
    if args.json:
        print(json.dumps({"best": best, "ratios_of_best": ratios, "runs": runs}, indent=2))
        return
    print(f"deals per second on one core, best of {args.rounds} interleaved rounds (all rounds in brackets)")
    for key, rates in runs.items():
        print(f"  {key:<30} {best[key]:>7.0f}/s   [{' '.join(f'{r:.0f}' for r in rates)}]")
    for key, ratio in ratios.items():
        print(f"{key}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
