"""Deals as bots bid and play them, for the solver's benchmarks: each played to its end, with its row at the
first lead after the exchange and its sides (contracts of each player for himself, and declarers each on
his own, are left out: they have no two sides to solve for)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from regelmotor import play_row
from regelmotor.bots.base import Bot
from regelmotor.bots.expert import ExpertBot
from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.double_dummy.analysis import AnalysisError, Sides, sides_of
from regelmotor.engine.game import PLAY, Game
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase


def played_deals(
    rules: Rules, kernel: PlayPhase, rng: random.Random, bidders: str = "heuristic"
) -> Iterator[tuple[Game, play_row.Rows, Sides]]:
    """Endless deals of ``rules``: the game played out, its first lead's row and its sides. ``bidders``
    "expert": the expert bids, declares and exchanges (it bids ren sol and bordlægger, which the heuristic
    bots never do), the heuristic bots play the cards."""
    while True:
        game = Game.from_seed(rules, rng.randrange(2**32), rng.randrange(4))
        bots = [HeuristicBot(rules, rng) for _ in range(4)]
        if bidders == "expert":
            experts: list[Bot] = [ExpertBot(rules, random.Random(rng.randrange(2**32))) for _ in range(4)]
        first = None
        sides = None
        while game.step is not None:
            if game.phase == PLAY and not game.tricks and not game.trick and first is None:
                first = play_row.row_from_game(kernel, game)
                try:
                    sides = sides_of(game, first)
                except AnalysisError:  # declarers each on his own (gå med in a sol): no two sides
                    break
            seat = game.to_act
            assert seat is not None
            bot = experts[seat] if bidders == "expert" and game.phase != PLAY else bots[seat]
            game.apply(bot.choose(game.view(seat), game.legal))
        if first is not None and sides is not None and not sides.per_player:
            yield game, first, sides
