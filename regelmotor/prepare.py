"""The first run after installing, kept out of the member's way: the compiled search and expert compiled
ahead, with a line that says so.

The compiled search is not yet in the cache on a new install, and compiling it takes a minute or two of one
core (numba's cold compile: the kernel about 26 s, the double-dummy leaf about 78 s, the analysis's search
about 40 s). Whether a part is compiled is asked of numba's own cache index before anything is compiled
(``compiled``); a part that is not is compiled before the command's work, after a line on stderr saying what
it is and how long it takes (``prepare``). ``regelmotor prepare`` compiles every part ahead, after installing.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable
from typing import TextIO

from regelmotor.numba_cache import folder, in_cache

PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "search": (
        ("regelmotor.double_dummy.solver", "value"),
        ("regelmotor.double_dummy.solver", "reaches"),
    ),
    "kernel": (
        ("regelmotor.bots.kernel", "sample_rows"),
        ("regelmotor.bots.kernel", "playout_rows"),
        ("regelmotor.bots.kernel", "evaluate_cards"),
        ("regelmotor.bots.kernel", "play_rows_to"),
    ),
    "leaf": (
        ("regelmotor.bots.double_dummy", "_evaluate"),
        ("regelmotor.bots.double_dummy", "_finish"),
    ),
}
"""Each part compiled ahead, by the compiled functions the commands call first (from Python): the
analysis's search (``analyse``), and the expert's kernel (its sampling and playouts) and double-dummy leaf
(``play --bots expert``, ``simulate``, ``compare``, ``match``). A part is compiled when all of them are in
the cache."""

EXPERT = ("kernel", "leaf")
"""The parts the expert bot uses."""

BOT_PARTS: dict[str, tuple[str, ...]] = {"expert": EXPERT, "expert-v1": ("kernel",)}
"""The parts each shipped bot uses (the others use none)."""


def parts_of_bots(bots: Iterable[str]) -> list[str]:
    """The parts the bots use, each once, in ``PARTS``'s order."""
    used = {part for bot in bots for part in BOT_PARTS.get(bot.partition(":")[0], ())}  # expert:<style> too
    return [part for part in PARTS if part in used]


def compiled(part: str) -> bool:
    """Whether ``part`` (one of ``PARTS``) is in the compiled functions' cache already, so a command that uses
    it starts at once; also where nothing is compiled (numba off, ``NUMBA_DISABLE_JIT=1``)."""
    import importlib

    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover - numba is a dependency
        return True
    for module, name in PARTS[part]:
        function = getattr(importlib.import_module(module), name)
        if not isinstance(function, Dispatcher):
            return True  # plain Python: nothing to compile
        if not in_cache(function):
            return False
    return True


def _compile_search() -> None:
    """The analysis's search, called as ``analyse`` calls it: the last tricks of a deal of engelsk whist
    played at random, analysed card by card (``value`` and ``reaches``; the rows and the solver's buffers
    are alike for every ruleset, so one ruleset compiles them for all)."""
    import random

    from regelmotor.double_dummy.analysis import analyse_game
    from regelmotor.engine.game import Game
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    rules = compile_rules(load_ruleset("engelsk"))
    game = Game.from_seed(rules, 1, 0)
    rng = random.Random(1)
    while game.step is not None:
        game.apply(rng.choice(game.legal))
    analyse_game(game, "engelsk", 20_000, from_trick=12)


def _compile_kernel() -> None:
    """The expert's kernel: its sampling, playouts and card weighing, on a deal of ``expert-v1`` (which
    has no double-dummy leaf) on a ruleset with an auction, and the playouts before play to their leaf."""
    import random

    from regelmotor.bots import kernel as K
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset
    from regelmotor.simulate import run_deals

    run_deals("standard", [], 1, 1, ["expert-v1"] * 4, jobs=1)
    rules = compile_rules(load_ruleset("standard"))
    kernel_rules = rules.play
    K.play_rows_to(K.first_lead_rows(rules, kernel_rules, 2, random.Random(1)), kernel_rules.constants, 1, 16)


def _compile_leaf() -> None:
    """The expert's double-dummy leaf on a late position of engelsk whist, called as the expert calls it
    (on a card it weighs, and at the end of a playout before play)."""
    import random

    import numpy as np

    from regelmotor import play_row
    from regelmotor.bots import double_dummy as DD
    from regelmotor.engine.game import Game
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    rules = compile_rules(load_ruleset("engelsk"))
    kernel_rules = rules.play
    game = Game.from_seed(rules, 1, 0)
    rng = random.Random(1)
    while game.step is not None and (game.phase != "play" or sum(len(h) for h in game.hands) > 16):
        game.apply(rng.choice(game.legal))
    rows = np.ascontiguousarray(play_row.row_from_game(kernel_rules, game)[None, :])
    cards = [a.card for a in game.legal_actions() if a.card is not None]
    candidates = np.array(cards, dtype=np.int64)
    won = np.zeros((1, len(cards), 4), dtype=np.int64)
    DD.evaluate_cards(won, rows, candidates, kernel_rules.constants, DD.new_table(), 2_000)
    DD.finish_rows(np.zeros((1, 4), dtype=np.int64), rows, kernel_rules.constants, DD.new_table(), 2_000)


COMPILE: dict[str, Callable[[], None]] = {"search": _compile_search, "kernel": _compile_kernel, "leaf": _compile_leaf}
"""How each part is compiled: a small piece of the work that uses it, run once."""


def prepare(
    parts: Iterable[str],
    lang: str = "da",
    stream: TextIO | None = None,
    quiet: bool = False,
    always: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> list[str]:
    """Compiles the ``parts`` not yet in the cache, before the command's work, said first on ``stream``
    (stderr): "Forbereder søgningen første gang (...) ..." and then "færdig efter 84 s". Said only where
    the stream is a terminal (or ``always``), never with ``quiet``; a part already compiled is loaded where
    it is used, as before, without a word. Returns the parts it compiled.

    A part's work that fails is left to the command, which compiles what it needs where it uses it."""
    from regelmotor.progress import FirstCompile

    cold = [part for part in dict.fromkeys(parts) if not compiled(part)]
    if not cold:
        return []
    what = "expert" if set(cold) <= set(EXPERT) else "search" if cold == ["search"] else "all"
    with FirstCompile(what, lang, stream if stream is not None else sys.stderr, quiet, always, clock):
        for part in cold:
            with contextlib.suppress(Exception):  # the command's own work compiles it, and says what is wrong
                COMPILE[part]()
    return cold


def compiled_already(lang: str) -> str:
    """What ``regelmotor prepare`` says where every part is compiled already, and where."""
    from regelmotor.phrase_table import phrases

    return phrases(lang)["compile_ready"].format(folder=folder())


__all__ = ["PARTS", "compiled", "compiled_already", "parts_of_bots", "prepare"]
