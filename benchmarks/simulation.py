"""Simulation speed, measured in one run (run by hand: python benchmarks/simulation.py [--openspiel]).

Reports, per ruleset, random and heuristic complete deals per second on one core, the speed-up of
``--jobs 2`` over ``--jobs 1``, and, with ``--openspiel``, OpenSpiel's C++ hearts played out at
random from Python on the same machine in the same run, and the ratio of ours to it. OpenSpiel is
installed for this benchmark alone (into benchmarks/.openspiel), never as a project dependency.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from regelmotor.simulate import run_deals

RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2")
OPENSPIEL_DIR = Path(__file__).resolve().parent / ".openspiel"


def deals_per_second(ruleset: str, bots: str, deals: int, jobs: int = 1) -> float:
    run_deals(ruleset, [], 20, 0, [bots] * 4)  # compile the rules outside the timing
    start = time.perf_counter()
    run_deals(ruleset, [], deals, 1, [bots] * 4, jobs=jobs)
    return deals / (time.perf_counter() - start)


def openspiel_hearts_per_second(games: int) -> float:
    if not OPENSPIEL_DIR.exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(OPENSPIEL_DIR), "open_spiel"],
            check=True,
        )
    sys.path.insert(0, str(OPENSPIEL_DIR))
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--openspiel", action="store_true", help="also measure OpenSpiel hearts (installs it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {}
    for name in RULESETS:
        report[name] = {
            "random_deals_per_second": deals_per_second(name, "random", args.deals),
            "heuristic_deals_per_second": deals_per_second(name, "heuristic", args.deals),
        }
    one = deals_per_second("standard", "heuristic", args.deals * 2, jobs=1)
    two = deals_per_second("standard", "heuristic", args.deals * 2, jobs=2)
    report["jobs_2_over_jobs_1"] = two / one
    if args.openspiel:
        hearts = openspiel_hearts_per_second(args.deals)
        report["openspiel_hearts_random_per_second"] = hearts
        standard = report["standard"]
        assert isinstance(standard, dict)
        report["standard_random_over_openspiel_hearts"] = standard["random_deals_per_second"] / hearts
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name in RULESETS:
        row = report[name]
        assert isinstance(row, dict)
        random_rate, heuristic_rate = row["random_deals_per_second"], row["heuristic_deals_per_second"]
        print(f"{name:<14} random {random_rate:>7.0f}/s   heuristic {heuristic_rate:>6.0f}/s")
    print(f"--jobs 2 over --jobs 1 (standard, heuristic): {report['jobs_2_over_jobs_1']:.2f}x")
    if args.openspiel:
        print(f"OpenSpiel hearts, random playouts from Python: {report['openspiel_hearts_random_per_second']:.0f}/s")
        print(f"standard random deals / OpenSpiel hearts: {report['standard_random_over_openspiel_hearts']:.2f}x")


if __name__ == "__main__":
    main()
