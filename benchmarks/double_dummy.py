"""The double-dummy solver against DDS (Bo Haglund's, through the ``endplay`` package), in one run.

    python benchmarks/double_dummy.py --part dds --deals 20 --cards 13
    python benchmarks/double_dummy.py --part dds --deals 1000 --cards 9
    python benchmarks/double_dummy.py --part tables --deals 1000
    python benchmarks/double_dummy.py --part esmakker --deals 10
    python benchmarks/double_dummy.py --part esmakker --deals 2 --kind "ren sol" --bidders expert

``dds``: random engelsk deals (52 cards: bridge's play with a fixed trump), every trump and no trump,
a random leader; the tricks must agree exactly, and the time per solve is reported beside DDS's
``solve_board`` for the same position (its answer for every card, as ``analyse`` needs) and its
``calc_dd_table`` per strain and declarer. ``--cards`` deals that many cards to each hand (13 for
full deals). ``tables``: every cell (5 trumps, 4 declarers) of full engelsk deals against ``calc_dd_table``,
the agreement only (the issue's "at least 1,000 deals and every trump and declarer"). ``esmakker``: the
median time of a full 13-trick deal of ``standard`` (jokers, a partner card, the declarer's side), from the
first lead after the exchange, and of ``analyse`` on it.

``endplay`` is a benchmark extra: ``pip install endplay``. Nothing here is a timed test.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from regelmotor.cards import new_deck
from regelmotor.double_dummy import position, transposition
from regelmotor.double_dummy import solver as S
from regelmotor.double_dummy.analysis import NODES as ANALYSE_NODES
from regelmotor.double_dummy.table import TRUMPS, hand_table, table_row, table_solvers
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

NODES = 2 * 10**8
"""A solve's node budget (about a minute): one over it counts as not agreeing, with the time it took."""


def pbn(hands: list[list[int]]) -> str:
    """The four hands (seat 0 first, cards as regelmotor numbers them) as a PBN deal for DDS."""
    return "N:" + " ".join(
        ".".join("".join("23456789TJQKA"[r] for r in range(12, -1, -1) if suit * 13 + r in hand) for suit in range(4))
        for hand in hands
    )


def dds(deals: int, cards: int, seed: int, threads: int) -> None:
    from endplay.dds import analyse_start, calc_dd_table, solve_board
    from endplay.types import Deal, Denom, Player

    rules = compile_rules(load_ruleset("engelsk"))
    kernel = rules.play
    solver = S.Solver(kernel.constants)
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, None: Denom.nt}
    rng = random.Random(seed)
    ours: list[float] = []
    theirs: list[float] = []
    starts: list[float] = []
    nodes: list[int] = []
    tables: list[float] = []
    our_tables: list[float] = []
    our_threaded: list[float] = []
    tables_agreed = 0
    one_solver = table_solvers(rules, 1)
    solvers = table_solvers(rules, threads)
    solved = agreed = over = 0
    solver.value(table_row([[0], [1], [2], [3]], "S", 0), 5, position.MOST, 100)  # compile first
    for number in range(deals):
        deck = new_deck(0)
        rng.shuffle(deck)
        hands = [sorted(deck[13 * s : 13 * s + cards]) for s in range(4)]
        deal = Deal.from_pbn(pbn(hands))
        if cards == 13:
            started = time.perf_counter()
            theirs_table = calc_dd_table(deal).to_list()  # [spades, hearts, diamonds, clubs, no trump][seat]
            tables.append((time.perf_counter() - started) / 20)
            started = time.perf_counter()
            ours_table = hand_table(rules, "engelsk", hands, NODES, solvers=one_solver)
            our_tables.append((time.perf_counter() - started) / 20)
            started = time.perf_counter()
            threaded = hand_table(rules, "engelsk", hands, NODES, solvers=solvers)
            our_threaded.append((time.perf_counter() - started) / 20)
            assert threaded.tricks == ours_table.tricks
            tables_agreed += all(list(ours_table.tricks[trump]) == theirs_table[t] for t, trump in enumerate(TRUMPS))
        for trump in TRUMPS:
            leader = rng.randrange(4)
            declarer = (leader - 1) % 4
            row = table_row(hands, trump, declarer)
            side = (1 << declarer) | (1 << ((declarer + 2) % 4))
            transposition.clear(solver.table)
            started = time.perf_counter()
            value = solver.value(row, side, position.MOST, NODES)  # the solver's own first guess
            ours.append(time.perf_counter() - started)
            nodes.append(solver.searched)
            deal.first = Player(leader)
            deal.trump = denoms[trump]
            started = time.perf_counter()  # one search first: after solve_board DDS would answer from its table
            analyse_start(deal)
            starts.append(time.perf_counter() - started)
            started = time.perf_counter()
            best = max(tricks for _, tricks in solve_board(deal))
            theirs.append(time.perf_counter() - started)
            solved += 1
            agreed += value == cards - best
            over += value == position.UNKNOWN
        print(f"deal {number + 1}: {agreed}/{solved} agree, ours {statistics.median(ours) * 1000:.1f} ms", flush=True)
    print(f"\n{deals} deals of {cards} cards a hand, {solved} solves (every trump and no trump): {agreed} agree")
    print(f"over the node budget ({NODES:,} nodes): {over} (timed as far as they went: the medians are lower bounds)")
    print(
        f"median per solve: regelmotor {statistics.median(ours) * 1000:.2f} ms, DDS solve_board "
        f"{statistics.median(theirs) * 1000:.2f} ms: ratio {statistics.median(ours) / statistics.median(theirs):.0f}x"
    )
    print(
        f"median against one DDS search (analyse_start, {statistics.median(starts) * 1000:.2f} ms): "
        f"ratio {statistics.median(ours) / statistics.median(starts):.1f}x; "
        f"nodes per solve: median {statistics.median(nodes):,.0f}"
    )
    mean_ours, mean_dds = statistics.fmean(ours) * 1000, statistics.fmean(theirs) * 1000
    print(f"mean per solve: regelmotor {mean_ours:.2f} ms, DDS {mean_dds:.2f} ms")
    print(f"slowest solve: regelmotor {max(ours) * 1000:.0f} ms")
    if tables:
        table = statistics.median(tables)
        print(
            f"DDS calc_dd_table per strain and declarer: median {table * 1000:.2f} ms; regelmotor's solve "
            f"{statistics.median(ours) / table:.1f}x that"
        )
        print(
            f"a whole table (hand_table, one table for the 20 cells, as analyse --table): {tables_agreed}/"
            f"{len(our_tables)} equal DDS's; per cell median {statistics.median(our_tables) * 1000:.2f} ms, "
            f"{statistics.median(our_tables) / table:.1f}x calc_dd_table"
        )
        print(
            f"the same tables on {len(solvers)} threads (calc_dd_table uses every core: {threads} here, as "
            f"analyse --table does): per cell median {statistics.median(our_threaded) * 1000:.2f} ms, "
            f"{statistics.median(our_threaded) / table:.1f}x calc_dd_table"
        )


def tables(deals: int, seed: int, threads: int) -> None:
    """Every cell of ``deals`` full engelsk tables (``analyse --table``'s search, on ``threads`` threads)
    against DDS's ``calc_dd_table``: how many cells and tables agree (no times: ``dds`` measures those)."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    rules = compile_rules(load_ruleset("engelsk"))
    solvers = table_solvers(rules, threads)
    rng = random.Random(seed)
    cells = agreed = tables_agreed = unknown = 0
    started = time.perf_counter()
    for number in range(deals):
        deck = new_deck(0)
        rng.shuffle(deck)
        hands = [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)]
        theirs = calc_dd_table(Deal.from_pbn(pbn(hands))).to_list()  # [spades, hearts, diamonds, clubs, no trump]
        ours = hand_table(rules, "engelsk", hands, NODES, solvers=solvers)
        same = 0
        for strain, trump in enumerate(TRUMPS):
            for seat in range(4):
                found = ours.tricks[trump][seat]
                unknown += found is None
                same += found == theirs[strain][seat]
        cells += 20
        agreed += same
        tables_agreed += same == 20
        if (number + 1) % 50 == 0 or number + 1 == deals:
            print(f"deal {number + 1}: {agreed}/{cells} cells agree, {time.perf_counter() - started:.0f} s", flush=True)
    print(
        f"\n{deals} full engelsk deals, every trump and no trump, every declarer: {agreed}/{cells} cells and "
        f"{tables_agreed}/{deals} tables equal DDS's calc_dd_table; {unknown} cells over the node budget"
    )


def esmakker(
    deals: int,
    seed: int,
    name: str,
    table: bool,
    nodes: int,
    kind: str | None = None,
    bidders: str = "heuristic",
    threads: int = 2,
) -> None:
    from bot_deals import played_deals

    from regelmotor.double_dummy.analysis import analyse_game, first_lead
    from regelmotor.double_dummy.table import hand_table, table_solvers

    rules = compile_rules(load_ruleset(name))
    kernel = rules.play
    solver = S.Solver(kernel.constants)
    solvers = table_solvers(rules, threads)
    rng = random.Random(seed)
    solves: list[float] = []
    analyses: list[float] = []
    tables: list[float] = []
    unknown = unsettled = open_cards = 0
    kinds: dict[str, list[float]] = {}
    chosen = (
        (game, first, sides)
        for game, first, sides in played_deals(rules, kernel, rng, bidders)
        if kind is None or (game.bid is not None and (game.bid.sol or "trumf") == kind)
    )
    for game, first, sides in itertools.islice(chosen, deals):
        transposition.clear(solver.table)
        started = time.perf_counter()
        value = solver.value(first, sides.side, sides.wants, nodes)
        solves.append(time.perf_counter() - started)
        started = time.perf_counter()
        analysis = analyse_game(game, name, nodes=nodes)
        analyses.append(time.perf_counter() - started)
        unsettled += analysis.unknown
        open_here = sum(len(card.unsettled) for card in analysis.cards)
        open_cards += open_here
        assert game.bid is not None
        kinds.setdefault(game.bid.sol or "trumf", []).append(analyses[-1])
        line = (
            f"deal {len(solves)}: {game.contract}, {value} tricks, solve {solves[-1]:.2f} s, "
            f"analyse {analyses[-1]:.1f} s ({analysis.unknown} unknown, "
            f"{open_here} other cards unsettled)"
        )
        if table:
            started = time.perf_counter()
            cells = hand_table(rules, "", [sorted(h) for h in first_lead(game).hands], nodes, solvers=solvers)
            tables.append(time.perf_counter() - started)
            unknown += sum(v is None for row in cells.tricks.values() for v in row)
            line += f", table {tables[-1]:.1f} s"
        print(line, flush=True)
    print(
        f"\n{name}, {deals} deals: median full-deal solve {statistics.median(solves):.2f} s, "
        f"median analyse (52 cards) {statistics.median(analyses):.1f} s, slowest {max(analyses):.1f} s, "
        f"{unsettled} cards played unsettled, {open_cards} other cards' values unsettled (the best cards listed "
        "may be incomplete there)"
    )
    for bid, times in sorted(kinds.items()):
        print(
            f"  {bid}: {len(times)} deals, median analyse {statistics.median(times):.1f} s, slowest {max(times):.1f} s"
        )
    if tables:
        print(
            f"analyse --table ({len(solvers)} threads): median {statistics.median(tables):.1f} s, "
            f"slowest {max(tables):.1f} s, "
            f"{unknown} cells '?'"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("dds", "tables", "esmakker"), default="dds")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="standard", help="esmakker: the ruleset whose deals are analysed")
    parser.add_argument("--table", action="store_true", help="esmakker: time analyse --table on each deal too")
    parser.add_argument(
        "--kind", help="esmakker: only deals of this kind of contract (a sol bid's name, e.g. 'ren sol', or trumf)"
    )
    parser.add_argument(
        "--bidders",
        choices=("heuristic", "expert"),
        default="heuristic",
        help="esmakker: who bids (the heuristic bots never bid ren sol or bordlægger); the heuristic bots play",
    )
    parser.add_argument(
        "--nodes", type=int, default=ANALYSE_NODES, help="esmakker: a search's node budget (analyse's own by default)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=2,
        help="the threads a whole table is searched on (calc_dd_table uses every core; analyse --table one a core)",
    )
    args = parser.parse_args()
    if args.part == "dds":
        dds(args.deals, args.cards, args.seed, args.threads)
    elif args.part == "tables":
        tables(args.deals, args.seed, args.threads)
    else:
        esmakker(args.deals, args.seed, args.ruleset, args.table, args.nodes, args.kind, args.bidders, args.threads)


if __name__ == "__main__":
    main()
