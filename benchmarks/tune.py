"""Rule search, measured (run by hand: python benchmarks/tune.py [--bots expert] [--deals 500] [--jobs 2]).

The issue's question: what must sol pay for sol to be bid in about 5 % of the deals? ``tune`` over six
values of sol's points on ``standard``, with the default bots unless told, on this machine's cores. Reports
the wall time, the deals the race spent against playing every value to the same precision (every value
``--deals`` deals: the uniform plan), and the answer with the values it cannot be told from.

The race's honesty is not measured here but in the tests (``tests/test_tune.py``: on synthetic objectives
the value truly best is never dropped, over many seeds).
"""

from __future__ import annotations

import argparse
import io
import json
import time

from regelmotor.cli import main as regelmotor

VALUES = "1,2,5,10,20,50"


def run(bots: str, deals: int, jobs: int, seed: int, plot: str | None = None) -> dict[str, object]:
    out = io.StringIO()
    argv = ["tune", "standard", "--key", "scoring.tables.S.values.sol", "--values", VALUES]
    argv += ["--target", "kontrakt sol = 5 %", "--bots", bots, "--deals", str(deals), "--jobs", str(jobs)]
    argv += ["--seed", str(seed), "--json", "--quiet", *(["--plot", plot] if plot else [])]
    start = time.perf_counter()
    code = regelmotor(argv, out)
    seconds = time.perf_counter() - start
    assert code == 0, code
    result: dict[str, object] = json.loads(out.getvalue())
    result["seconds"] = seconds
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bots", default="expert")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", help="write the chart too (docs/images/tune-sol.svg is made so)")
    args = parser.parse_args()
    result = run(args.bots, args.deals, args.jobs, args.seed, args.plot)
    spent, uniform = int(str(result["deals"])), int(str(result["uniform_deals"]))
    print(f"tune standard sol over {VALUES}, target 5 %, bots {args.bots}, --deals {args.deals}, --jobs {args.jobs}")
    print(
        f"  wall time {float(str(result['seconds'])):.0f} s; deals {spent} of {uniform} uniform ({spent / uniform:.0%})"
    )
    print(f"  chosen {result['chosen']}, cannot be told apart from it: {result['indistinguishable']}")
    for value in result["values"]:  # type: ignore[attr-defined]
        e = value["estimate"]
        shown = f"{100 * e['value']:5.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"
        print(f"  {value['value']:>6}  n={value['n']:>5}  {shown} {'dropped' if value['dropped'] else ''}")


if __name__ == "__main__":
    main()
