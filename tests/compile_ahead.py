"""Compile the expert's numba functions into their on-disk cache before the test workers start.

On a fresh checkout nothing is cached, and every process that plays an expert deal compiles the kernel
(about 15 s of one core) and the double-dummy leaf (about 20 s): both xdist workers at once, and any
``--jobs`` pool, Dask worker or command-line subprocess a test starts before the cache is written. Run
once at the start of a parallel test run, one process per part (the two parts share only small
functions), every later process loads the compiled code from the cache in a second or two.

``python tests/compile_ahead.py kernel|leaf``; ``start()`` runs both side by side and waits for them.
"""

from __future__ import annotations

import subprocess
import sys


def kernel() -> None:
    """The kernel's sampling, playouts and card weighing: a deal of ``expert-v1`` (which has no
    double-dummy leaf) on a ruleset with an auction, and the playouts before play played to their leaf."""
    import random

    from regelmotor.bots import kernel as K
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset
    from regelmotor.simulate import run_deals

    run_deals("standard", [], 1, 1, ["expert-v1"] * 4, jobs=1)
    rules = compile_rules(load_ruleset("standard"))
    kernel_rules = K.KernelRules.build(rules)
    K.play_rows_to(K.first_lead_rows(rules, kernel_rules, 2, random.Random(1)), kernel_rules.constants, 1, 16)


def leaf() -> None:
    """The double-dummy leaf on a late position of engelsk whist, called as the expert calls it (on a
    card it weighs, and at the end of a playout before play)."""
    import random

    import numpy as np

    from regelmotor.bots import double_dummy as DD
    from regelmotor.bots import kernel as K
    from regelmotor.engine.game import Game
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    rules = compile_rules(load_ruleset("engelsk"))
    kernel_rules = K.KernelRules.build(rules)
    game = Game.from_seed(rules, 1, 0)
    rng = random.Random(1)
    while game.step is not None and (game.phase != "play" or sum(len(h) for h in game.hands) > 16):
        game.apply(rng.choice(game.legal))
    rows = np.ascontiguousarray(K.row_from_game(kernel_rules, game)[None, :])
    cards = [a.card for a in game.legal_actions() if a.card is not None]
    candidates = np.array(cards, dtype=np.int64)
    won = np.zeros((1, len(cards), 4), dtype=np.int64)
    DD.evaluate_cards(won, rows, candidates, kernel_rules.constants, DD.new_table(), 2_000)
    DD.finish_rows(np.zeros((1, 4), dtype=np.int64), rows, kernel_rules.constants, DD.new_table(), 2_000)


def start() -> None:
    """Both parts side by side (numba compiles under one lock a process), waited for; a part that fails
    says so on stderr and leaves its functions to be compiled where they are first used."""
    parts = [subprocess.Popen([sys.executable, __file__, part]) for part in ("kernel", "leaf")]
    for process in parts:
        process.wait()


if __name__ == "__main__":
    {"kernel": kernel, "leaf": leaf}[sys.argv[1]]()
