"""Random complete deals per second, per ruleset (run by hand: python benchmarks/random_deals.py).

Each deal is dealt from a seed and played to the end (or a redeal) by choosing uniformly among
the legal actions, with a pass half the time in the auction so deals finish as often as they
would at a table. Reports deals per second on one core and each ruleset's ratio to standard,
all measured in one run.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from regelmotor.engine.actions import PASS_ACTION
from regelmotor.engine.game import Game
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2")


def play_random_deals(name: str, deals: int, seed: int) -> tuple[float, int]:
    rules = compile_rules(load_ruleset(name))
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for number in range(deals):
        game = Game.from_seed(rules, rng.randrange(2**32), dealer=number % 4)
        while game.step is not None:
            legal = game.legal
            game.apply(PASS_ACTION if PASS_ACTION in legal and rng.random() < 0.5 else rng.choice(legal))
            actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for name in RULESETS:
        seconds, actions = play_random_deals(name, args.deals, args.seed)
        results[name] = {"deals_per_second": args.deals / seconds, "actions_per_deal": actions / args.deals}
    base = results["standard"]["deals_per_second"]
    for result in results.values():
        result["ratio_to_standard"] = result["deals_per_second"] / base
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'ruleset':<14}{'deals/s':>10}{'actions/deal':>14}{'vs standard':>13}")
    for name, r in results.items():
        print(f"{name:<14}{r['deals_per_second']:>10.0f}{r['actions_per_deal']:>14.1f}{r['ratio_to_standard']:>13.2f}")


if __name__ == "__main__":
    main()
