"""Where the play rules read a ruleset: its flags and card orders as the constants array (each family
writes its own slots: ``jokers.cardplay``, ``called_card.cardplay``), and a named bid's end-of-play
parameters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from regelmotor.cards import RANK_LETTERS
from regelmotor.model.base import Rank
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.called_card import cardplay as called_card
from regelmotor.rules.cardplay import masks as M
from regelmotor.rules.cardplay.end_of_play import SIDES, TRUMP_GAME
from regelmotor.rules.contracts.keys import SolBid
from regelmotor.rules.jokers import cardplay as jokers


def strengths(order: Sequence[Rank]) -> tuple[int, ...]:
    """Rank index -> strength (higher wins) for a card order written highest first."""
    table = [0] * 13
    for position, rank in enumerate(order):
        table[RANK_LETTERS.index(rank)] = len(order) - position
    return tuple(table)


def strength_table(consts: M.Rows, sol: bool) -> tuple[int, ...]:
    """Rank index -> strength (higher wins) in trump games or in the sol games' order, as the constants hold it:
    the first suit's cards are its ranks."""
    start = M.SOL_STRENGTH if sol else M.TRUMP_STRENGTH
    return tuple(int(v) for v in consts[start : start + 13])


def play_constants(ruleset: Ruleset) -> M.Rows:
    """The ruleset's play rules as the constants every play function takes (read-only)."""
    consts = np.zeros(M.CONSTANTS, dtype=np.int64)
    jokers.write_constants(ruleset, consts)
    called_card.write_constants(ruleset, consts)
    consts[M.SOL_EARLY] = ruleset.play.sol_ends == "when_all_declarers_lost"
    trump_games, sol_games = strengths(ruleset.card_order.trump_games), strengths(ruleset.card_order.sol_games)
    for card in range(52):  # by card: the jokers and the fordækt card stay 0
        consts[M.TRUMP_STRENGTH + card] = trump_games[card % 13]
        consts[M.SOL_STRENGTH + card] = sol_games[card % 13]
    consts.setflags(write=False)
    return consts


@dataclass(frozen=True, slots=True)
class Ending:
    """A contract's end-of-play parameters (``end_of_play.play_over``)."""

    side: int
    max_tricks: int
    first_tricks: int


TRUMP_ENDING = Ending(TRUMP_GAME, -1, -1)


def ending(bid: SolBid | None) -> Ending:
    """The end-of-play parameters of a named bid (None: a trump contract, which runs to the end)."""
    if bid is None:
        return TRUMP_ENDING
    return Ending(
        SIDES[bid.side],
        -1 if bid.max_tricks is None else bid.max_tricks,
        -1 if bid.first_tricks is None else bid.first_tricks,
    )
