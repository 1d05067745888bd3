"""The solver's work counted, not timed: nodes per solve, and (under callgrind) instructions per node.

    python benchmarks/solver_counts.py --deals 6                 # nodes of 30 full engelsk solves
    python benchmarks/solver_counts.py --deals 8 --cards 10      # smaller deals, for callgrind
    python benchmarks/solver_counts.py --ruleset standard --deals 12   # 12 full solves of the bots' contracts

A change to the search is judged by its nodes (the same for the same code on any machine) and by the
instructions a node costs, which a machine shared with other work does not disturb either (wall time here
has differed by half between two runs of the same solves). Instructions per node, with valgrind:

    export NUMBA_CPU_NAME=generic NUMBA_CACHE_DIR=/tmp/solver-generic
    python benchmarks/solver_counts.py --deals 8 --cards 10       # fills the cache outside valgrind
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$(python -c 'import sys; print(sys.executable)')" \\
        benchmarks/solver_counts.py --deals 3 --cards 10
    (the same with --deals 8)

and divide the difference of the two "Collected" totals by the difference of the two node counts (what the
imports cost falls out). ``NUMBA_CPU_NAME=generic`` matters: numba compiles for the host's processor, and
valgrind's differs, so without it every compiled function would be compiled again under valgrind (minutes).
Run valgrind on the interpreter itself, not a pyenv shim, or it counts the shim. Nothing here is a timed test.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_deals import played_deals

from regelmotor import play_row as K
from regelmotor.cards import new_deck
from regelmotor.double_dummy import solver as S
from regelmotor.double_dummy.table import table_row
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--cards", type=int, default=13, help="cards to each hand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ruleset",
        help="instead: the heuristic bots' contracts of this ruleset's deals (jokers, partner card, sols), "
        "each solved once from its first lead",
    )
    args = parser.parse_args()
    if args.ruleset:
        contracts(args.ruleset, args.deals, args.seed)
        return
    solver = S.Solver(K.KernelRules.build(compile_rules(load_ruleset("engelsk"))).constants)
    rng = random.Random(args.seed)
    nodes: list[int] = []
    for _ in range(args.deals):
        deck = new_deck(0)
        rng.shuffle(deck)
        hands = [sorted(deck[13 * s : 13 * s + args.cards]) for s in range(4)]
        for trump in ("S", "H", "D", "C", None):
            leader = rng.randrange(4)
            declarer = (leader - 1) % 4
            S.clear(solver.table)
            solver.value(
                table_row(hands, trump, declarer), (1 << declarer) | (1 << ((declarer + 2) % 4)), S.MOST, 10**9
            )
            nodes.append(int(solver.budget[1]))
    print(f"nodes {sum(nodes)}: {len(nodes)} solves, median {statistics.median(nodes):,.0f}")


def contracts(name: str, deals: int, seed: int) -> None:
    """The nodes of one full solve of each of ``deals`` contracts the heuristic bots play in ``name``, from
    the first lead after the exchange (contracts of each player for himself left out: no two sides)."""
    rules = compile_rules(load_ruleset(name))
    kernel = K.KernelRules.build(rules)
    solver = S.Solver(kernel.constants)
    nodes: list[int] = []
    for game, first, sides in itertools.islice(played_deals(rules, kernel, random.Random(seed)), deals):
        S.clear(solver.table)
        value = solver.value(first, sides.side, sides.wants, 5 * 10**7)
        nodes.append(int(solver.budget[1]))
        print(f"{game.contract}: {value} tricks, {nodes[-1]:,} nodes", flush=True)
    print(f"nodes {sum(nodes)}: {len(nodes)} solves, median {statistics.median(nodes):,.0f}")


if __name__ == "__main__":
    main()
