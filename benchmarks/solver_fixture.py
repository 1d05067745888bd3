"""Writes ``tests/records/solver_values.json``: positions of every shipped ruleset and house rule, with seven
tricks (and a part of one) left, each with its double-dummy value by the exact solver of an earlier release
(``--reference``: a copy of that release's ``double_dummy/solver.py``), so that a faster search must find the
same values (``tests/test_analyse.py``). Run by hand; the reference is slow but exact.

    git show 0f31da1:regelmotor/double_dummy/solver.py > /tmp/reference_solver.py
    python benchmarks/solver_fixture.py --reference /tmp/reference_solver.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from regelmotor.bots import kernel as K  # noqa: E402
from tests.conftest import CONFIGS, rules_of  # noqa: E402
from tests.test_double_dummy import _late  # noqa: E402

TRICKS = 7
POSITIONS = 2
NODES = 10**8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "records" / "solver_values.json")
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("reference_solver", args.reference)
    assert spec is not None and spec.loader is not None
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rng = random.Random("solver fixture")
    cases = []
    for name, house in CONFIGS:
        rules = rules_of(name, *((house,) if house else ()))
        kernel = K.rules.play
        solver = ref.Solver(kernel.constants, bits=18)
        for first in K.first_lead_rows(rules, kernel, POSITIONS, rng):
            row = _late(first, kernel.constants, rng, TRICKS)
            if K.play_over(row, kernel.constants):
                continue
            wants = ref.objective(row)
            sides = [(K.side_mask(row), wants)] if wants != ref.NONE else []
            sides += [(1 << seat, ref.FEWEST if rng.random() < 0.5 else ref.MOST) for seat in range(4)]
            for side, aim in sides:
                found = solver.value(row, side, aim, NODES)
                if found != ref.UNKNOWN:
                    cases.append(
                        {
                            "ruleset": name,
                            "house": house,
                            "row": [int(v) for v in row],
                            "side": side,
                            "wants": aim,
                            "value": int(found),
                        }
                    )
        print(name, house, len(cases), flush=True)
    args.out.write_text(json.dumps({"tricks_left": TRICKS, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} values to {args.out}")


if __name__ == "__main__":
    main()
