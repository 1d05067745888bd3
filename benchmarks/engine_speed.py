"""The engine's and the kernel's speed against their fairest baselines, measured in one run (by hand:
``python benchmarks/engine_speed.py [--baseline CHECKOUT]``).

1. Random complete deals through ``Game`` on ``standard`` (every legal action equally likely, a pass
   half the time in the auction so deals finish as at a table) against OpenSpiel's C++ hearts driven
   from Python with the plainest driver (``rng.choice`` of the legal actions, a uniform chance
   outcome): deals/s, µs per action, and the ratio. OpenSpiel is installed for the benchmark alone
   (benchmarks/.openspiel), never a project dependency.
2. Heuristic simulation (``run_deals`` with four heuristic bots) on ``standard``; with ``--baseline``
   the same measured on another checkout (e.g. a worktree of an earlier main) in a subprocess in the
   same run, and the ratio.
3. The kernel's random playouts (``kernel.legal_mask``/``play_card`` with uniformly random legal cards)
   against a plain numba bitmask loop of the same game (follow suit, highest trump or led card wins,
   13 tricks, no jokers' or partner card's rules), from the same first-lead rows.

Each figure is the best of ``--rounds`` interleaved rounds (as ``timeit``): slower rounds measure
the neighbours on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from regelmotor import play_row
from regelmotor.bots import kernel as K
from regelmotor.compiled import jit
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import run_deals

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_deals import play_random_deals

OPENSPIEL_DIR = Path(__file__).resolve().parent / ".openspiel"


def game_deals(deals: int, seed: int) -> tuple[float, int]:
    return play_random_deals("standard", deals, seed)


def hearts_deals(games: int) -> tuple[float, int]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        if not OPENSPIEL_DIR.exists():
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(OPENSPIEL_DIR), "open_spiel"],
                check=True,
            )
        sys.path.insert(0, str(OPENSPIEL_DIR))
        import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return time.perf_counter() - start, actions


def heuristic_per_second(deals: int) -> float:
    run_deals("standard", [], 10, 0, ["heuristic"] * 4)
    start = time.perf_counter()
    run_deals("standard", [], deals, 1, ["heuristic"] * 4)
    return deals / (time.perf_counter() - start)


def baseline_heuristic(checkout: Path, deals: int) -> float:
    code = (
        "import time;from regelmotor.simulate import run_deals;"
        "run_deals('standard', [], 10, 0, ['heuristic'] * 4);t=time.perf_counter();"
        f"run_deals('standard', [], {deals}, 1, ['heuristic'] * 4);print({deals}/(time.perf_counter()-t))"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=checkout, capture_output=True, text=True, check=True
    )
    return float(done.stdout.split()[-1])


@jit
def random_kernel_playouts(rows: play_row.Rows, consts: play_row.Rows, seed: int) -> int:
    np.random.seed(seed)
    total = 0
    for r in range(rows.shape[0]):
        row = rows[r].copy()
        while not play_row.play_over(row, consts):
            play_row.play_card(row, K.random_card(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), consts)), consts)
        total += row[play_row.WON]
    return total


@jit
def plain_playouts(hands: play_row.Rows, trumps: play_row.Rows, leaders: play_row.Rows, seed: int) -> int:
    """A plain bitmask whist loop: follow suit, the highest trump or card of the led suit wins."""
    np.random.seed(seed)
    total = 0
    for r in range(hands.shape[0]):
        h = hands[r].copy()
        trump = trumps[r]
        leader = leaders[r]
        won0 = 0
        for _ in range(13):
            led = -1
            best = -1
            best_seat = leader
            for i in range(4):
                seat = (leader + i) % 4
                hand = h[seat]
                legal = hand
                if led >= 0:
                    suit = hand & (((1 << 13) - 1) << (13 * led))
                    if suit != 0:
                        legal = suit
                card = K.random_card(legal)
                h[seat] &= ~(1 << card)
                if i == 0:
                    led = card // 13 if card < 52 else 0
                value = -1
                if card < 52 and card // 13 == trump:
                    value = 100 + card % 13
                elif card < 52 and card // 13 == led:
                    value = card % 13
                if value > best:
                    best, best_seat = value, seat
            leader = best_seat
            if best_seat == 0:
                won0 += 1
        total += won0
    return total


def kernel_vs_plain(rows_count: int, rounds: int) -> dict[str, float]:
    rules = compile_rules(load_ruleset("standard"))
    kernel = rules.play
    rows = K.first_lead_rows(rules, kernel, rows_count, random.Random(3))
    hands = np.ascontiguousarray(rows[:, play_row.HANDS : play_row.HANDS + 4])
    trumps = np.ascontiguousarray(rows[:, play_row.TRUMP])
    leaders = np.ascontiguousarray(rows[:, play_row.LEADER])
    random_kernel_playouts(rows[:2], kernel.constants, 1)  # compile outside the timing
    plain_playouts(hands[:2], trumps[:2], leaders[:2], 1)
    best_k = best_p = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        random_kernel_playouts(rows, kernel.constants, 1)
        best_k = min(best_k, time.perf_counter() - t)
        t = time.perf_counter()
        plain_playouts(hands, trumps, leaders, 1)
        best_p = min(best_p, time.perf_counter() - t)
    return {
        "kernel_playouts_per_second": rows_count / best_k,
        "plain_numba_playouts_per_second": rows_count / best_p,
        "ratio": best_p / best_k,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--heuristic-deals", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout to measure the heuristic simulation on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game_deals(50, 0)
    hearts_deals(20)
    ours = hearts = (float("inf"), 1)
    heuristic = base = 0.0
    for _ in range(args.rounds):
        ours = min(ours, game_deals(args.deals, 1))
        hearts = min(hearts, hearts_deals(args.deals))
        heuristic = max(heuristic, heuristic_per_second(args.heuristic_deals))
        if args.baseline:
            base = max(base, baseline_heuristic(args.baseline, args.heuristic_deals))
    result: dict[str, object] = {
        "game_standard": {"deals_per_second": args.deals / ours[0], "us_per_action": ours[0] / ours[1] * 1e6},
        "openspiel_hearts": {"deals_per_second": args.deals / hearts[0], "us_per_action": hearts[0] / hearts[1] * 1e6},
        "game_vs_hearts": hearts[0] / ours[0],
        "heuristic_deals_per_second": heuristic,
        "kernel": kernel_vs_plain(20000, args.rounds),
    }
    if args.baseline:
        result["baseline_heuristic_deals_per_second"] = base
        result["heuristic_vs_baseline"] = heuristic / base
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
