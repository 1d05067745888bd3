"""The meaning of the expert's calls, fitted from its own bidding (run by hand: python benchmarks/call_meanings.py).

Four experts bid ``--deals`` deals of a ruleset. At every call where a trump bid was open, the caller's
hand is measured (``call_reading.HandMeasures``: its tricks with its longest suit as trump, its sol
danger) and it is noted whether it bid a trump contract, and, where a bid to take few tricks was open,
whether it bid one. A logistic curve is fitted to each (maximum likelihood); the figures printed are
``call_reading.Meanings``' fields, with the numbers of calls they rest on. Each shipped game's curves
(``call_reading.MEANINGS_BY_RULESET``) were fitted this way, with ``--deals 300 --reading``.

Nothing here is a test: the figures are reported, and copied into ``call_reading`` by hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from regelmotor import play_row
from regelmotor.bots import call_reading as R
from regelmotor.bots.expert import DEFAULT_BUDGET, ExpertBot
from regelmotor.engine.actions import Verb
from regelmotor.engine.game import Game
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset


def _calls(args: tuple[str, int, int, bool]) -> list[tuple[float, float, int, int, int]]:
    """(tricks, danger, cheapest open trump level or -1, bid a trump contract, bid to take few) per call."""
    name, first, count, read = args
    rules = compile_rules(load_ruleset(name))
    budget = dataclasses.replace(DEFAULT_BUDGET, read_calls=read)
    measures = R.HandMeasures.of(rules)
    trump_bids = [b for b in rules.auction.ladder.bids if b.designation is not None]
    found = []
    for number in range(first, first + count):
        rng = random.Random(number)
        game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
        bots = [ExpertBot(rules, random.Random(rng.randrange(2**32)), budget=budget) for _ in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            legal = game.legal
            action = bots[seat].choose(game.view(seat), legal)
            if game.step[0] == "call":
                bids = [a.bid for a in legal if a.bid is not None]
                open_trump = [b for b in bids if b.designation is not None]
                few = [b for b in bids if R.takes_few(rules, b)]
                if open_trump or few:
                    mask = np.array([play_row.mask_of(list(game.view(seat).hand))], dtype=np.int64)
                    tricks, danger = measures.measure(mask)
                    level = min(b.rank for b in open_trump) if open_trump else None
                    cheapest = next((b.level for b in trump_bids if b.rank == level), -1)
                    chosen = action.bid if action.verb is Verb.BID else None
                    found.append(
                        (
                            float(tricks[0]),
                            float(danger[0]),
                            cheapest if open_trump else -1,
                            int(chosen is not None and chosen.designation is not None),
                            int(bool(few) and chosen is not None and R.takes_few(rules, chosen)) if few else -1,
                        )
                    )
            game.apply(action)
    return found


def fit(name: str, deals: int, jobs: int, read: bool) -> dict[str, Any]:
    chunks = [(name, i * deals // jobs, (i + 1) * deals // jobs - i * deals // jobs, read) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        calls = [c for part in pool.map(_calls, chunks) for c in part]
    trump = [(t - level, y) for t, _, level, y, _ in calls if level >= 0]
    sol = [(-d, y) for _, d, _, _, y in calls if y >= 0]
    offset, scale = R.logistic_fit([x for x, _ in trump], [y for _, y in trump])
    report: dict[str, Any] = {
        "ruleset": name,
        "deals": deals,
        "reading calls while fitted": read,
        "trump calls": len(trump),
        "trump bids among them": sum(y for _, y in trump),
        "offset": round(offset, 2),
        "scale": round(scale, 2),
        "sol calls": len(sol),
        "sol bids among them": sum(y for _, y in sol),
    }
    if sum(y for _, y in sol) >= 5:
        sol_offset, sol_scale = R.logistic_fit([x for x, _ in sol], [y for _, y in sol])
        report |= {"sol_offset": round(-sol_offset, 2), "sol_scale": round(sol_scale, 2)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reading", action="store_true", help="the bidders read the calls while they are fitted")
    args = parser.parse_args()
    print(json.dumps(fit(args.ruleset, args.deals, args.jobs, args.reading), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
