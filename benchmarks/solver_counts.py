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

Where a node's time goes, by compiled function (Linux ``perf``; numba's functions named through a perf map
this script writes, ``/tmp/perf-PID.map``, after compiling afresh (about a minute); what numba compiled
into its callers counts as theirs):

    python benchmarks/solver_counts.py --deals 6 --perf            # the share of each function, top 30
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_deals import played_deals

from regelmotor.cards import new_deck
from regelmotor.double_dummy import position, transposition
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
    parser.add_argument("--perf", action="store_true", help="the time by compiled function (Linux perf), not nodes")
    args = parser.parse_args()
    run: Callable[[], None] = (
        (lambda: contracts(args.ruleset, args.deals, args.seed))
        if args.ruleset
        else (lambda: solves(args.deals, args.cards, args.seed))
    )
    if args.perf and "SOLVER_PROFILE" not in os.environ:  # compiled afresh, so numba keeps each function's code
        with tempfile.TemporaryDirectory() as cache:
            child = {**os.environ, "NUMBA_CACHE_DIR": cache, "SOLVER_PROFILE": "1"}
            sys.exit(subprocess.call([sys.executable, *sys.argv], env=child))
    if args.perf:
        profiled(run)
    else:
        run()


def profiled(run: Callable[[], None]) -> None:
    """``run`` under ``perf record``, after a first run that compiles every function (in this process, not
    loaded from numba's cache, whose code has lost its functions' names) and a perf map that names them;
    prints the functions' shares of the samples."""
    run()
    perf_map()
    with tempfile.TemporaryDirectory() as folder:
        data = str(Path(folder) / "perf.data")
        recorder = subprocess.Popen(
            ["perf", "record", "-F", "999", "-p", str(os.getpid()), "-o", data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        run()
        recorder.send_signal(signal.SIGINT)
        recorder.wait()
        report = subprocess.run(
            ["perf", "report", "-i", data, "--stdio", "--sort", "symbol"], capture_output=True, text=True, check=False
        ).stdout
    lines = [line.split(None, 2) for line in report.splitlines() if "%" in line and not line.startswith("#")]
    for share, _, name in lines[:30]:
        print(f"{share:>8}  {readable(name.split()[0])}")


def readable(name: str) -> str:
    """A numba function's mangled name as its module and name (``regelmotor.double_dummy.solver.at_least``)."""
    parts: list[str] = []
    i = 0
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        parts.append(name[j : j + int(name[i:j])])
        i = j + int(name[i:j])
    return ".".join(parts) if parts else name


def perf_map() -> None:
    """``/tmp/perf-PID.map``: the address and size of every function numba has compiled in this process,
    so that perf names them (each runs to the next one's address)."""
    import numba

    found: list[tuple[int, str]] = []
    for dispatcher in gc.get_objects():
        if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
            continue
        for compiled in dispatcher.overloads.values():
            library = compiled.library
            for function in library._final_module.functions:  # empty where loaded from numba's cache
                if not function.is_declaration:
                    address = library.get_pointer_to_function(function.name)
                    if address:
                        found.append((address, function.name.removeprefix("_ZN")))
    found = sorted(set(found))
    with open(f"/tmp/perf-{os.getpid()}.map", "w", encoding="utf-8") as out:
        for (address, name), (following, _) in zip(found, [*found[1:], (found[-1][0] + 4096, "")], strict=True):
            out.write(f"{address:x} {min(following - address, 1 << 20):x} {name}\n")


def solves(deals: int, cards: int, seed: int) -> None:
    """The nodes of full engelsk solves: each deal's five trumps, a random leader each."""
    solver = S.Solver(compile_rules(load_ruleset("engelsk")).play.constants)
    rng = random.Random(seed)
    nodes: list[int] = []
    for _ in range(deals):
        deck = new_deck(0)
        rng.shuffle(deck)
        hands = [sorted(deck[13 * s : 13 * s + cards]) for s in range(4)]
        for trump in ("S", "H", "D", "C", None):
            leader = rng.randrange(4)
            declarer = (leader - 1) % 4
            transposition.clear(solver.table)
            solver.value(
                table_row(hands, trump, declarer), (1 << declarer) | (1 << ((declarer + 2) % 4)), position.MOST, 10**9
            )
            nodes.append(solver.searched)
    print(f"nodes {sum(nodes)}: {len(nodes)} solves, median {statistics.median(nodes):,.0f}")


def contracts(name: str, deals: int, seed: int) -> None:
    """The nodes of one full solve of each of ``deals`` contracts the heuristic bots play in ``name``, from
    the first lead after the exchange (contracts of each player for himself left out: no two sides)."""
    rules = compile_rules(load_ruleset(name))
    kernel = rules.play
    solver = S.Solver(kernel.constants)
    nodes: list[int] = []
    for game, first, sides in itertools.islice(played_deals(rules, kernel, random.Random(seed)), deals):
        transposition.clear(solver.table)
        value = solver.value(first, sides.side, sides.wants, 5 * 10**7)
        nodes.append(solver.searched)
        print(f"{game.contract}: {value} tricks, {nodes[-1]:,} nodes", flush=True)
    print(f"nodes {sum(nodes)}: {len(nodes)} solves, median {statistics.median(nodes):,.0f}")


if __name__ == "__main__":
    main()
