"""The one place the play rules read a ruleset: its flags and card orders as the constants array, and
a named bid's end-of-play parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from regelmotor.cards import RANK_LETTERS
from regelmotor.model.ruleset import Rank, Ruleset, SolBid
from regelmotor.rules.cardplay import masks as M
from regelmotor.rules.cardplay.end_of_play import SIDES, TRUMP_GAME


def strengths(order: Sequence[Rank]) -> tuple[int, ...]:
    """Rank index -> strength (higher wins) for a card order written highest first."""
    table = [0] * 13
    for position, rank in enumerate(order):
        table[RANK_LETTERS.index(rank)] = len(order) - position
    return tuple(table)


def play_constants(ruleset: Ruleset) -> M.Rows:
    """The ruleset's play rules as the constants every play function takes (read-only)."""
    jokers = ruleset.jokers
    consts = np.zeros(M.CONSTANTS, dtype=np.int64)
    consts[M.ANY_TIME] = jokers is not None and jokers.play_any_time
    consts[M.LEAD_FIRST] = jokers is not None and jokers.lead_first_trick
    consts[M.HOLDER_LEADS] = ruleset.called_card.holder_leads_it
    consts[M.MUST_FALL] = ruleset.called_card.must_fall_first_time_led
    consts[M.FIRST_FREE] = ruleset.called_card.free_first_trick
    consts[M.MUST_FALL_ALWAYS] = ruleset.called_card.must_fall_every_time_led
    consts[M.JOKER_LOSES] = jokers is not None and jokers.led_joker == "loses_to_trump"
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


@dataclass(frozen=True)
class CardPlay:
    """A ruleset's play rules as the bitmask functions take them: compiled once, the same for ``Game``'s
    hooks and the expert's playouts."""

    constants: M.Rows
    endings: Mapping[str, Ending]
    """Each named bid's end-of-play parameters, by id."""

    @property
    def trump_strength(self) -> tuple[int, ...]:
        """Rank index -> strength in trump games (higher wins): the first suit's cards are its ranks."""
        return tuple(int(v) for v in self.constants[M.TRUMP_STRENGTH : M.TRUMP_STRENGTH + 13])

    @property
    def sol_strength(self) -> tuple[int, ...]:
        """Rank index -> strength in the sol games' order."""
        return tuple(int(v) for v in self.constants[M.SOL_STRENGTH : M.SOL_STRENGTH + 13])


def card_play(ruleset: Ruleset) -> CardPlay:
    return CardPlay(play_constants(ruleset), {s.id: ending(s) for s in ruleset.named_bids()})
