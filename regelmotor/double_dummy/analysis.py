"""What each card cost: a played deal against double-dummy play.

After a deal the table asks "could it have been made?" and "which card lost it?". From the first lead
(the hands after the exchange), for every card played: the declaring side's double-dummy tricks with
the mover's best card and with the card he played, and the difference, counted for the mover's own
side (0 for a best card). The declaring side is the declarer and his partner(s); in a game without a
declarer the pair of seats 0 and 2 (engelsk), and where each plays for himself (pasnolo) every seat is
judged by his own tricks, the three others playing against him.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from regelmotor import play_row
from regelmotor.cards import Card
from regelmotor.double_dummy import position
from regelmotor.double_dummy import solver as S
from regelmotor.engine.actions import PLAYS, Verb
from regelmotor.engine.game import PLAY, Game
from regelmotor.errors import RegelmotorError
from regelmotor.rules.cardplay.end_of_play import EACH, PAIRS
from regelmotor.rules.cardplay.masks import FORDAEKT, Rows, cards_of
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

NODES = 20_000_000
"""A search's node budget (about ten seconds): a position that costs more is reported unknown."""


class AnalysisError(RegelmotorError, ValueError):
    """A deal the solver cannot analyse, and why."""


@dataclass(frozen=True)
class CardCost:
    """One card played, against the best the mover had."""

    trick: int
    """The trick's number, from 1."""
    seat: int
    card: Card
    best: int | None
    """The side's double-dummy tricks had the mover played a best card (None: over the node budget)."""
    played: int | None
    """The side's double-dummy tricks after the card he played."""
    cost: int | None
    """The tricks the card cost the mover's own side (0 for a best card)."""
    best_cards: tuple[Card, ...]
    """Every card the search showed would have kept ``best``."""
    unsettled: tuple[Card, ...] = ()
    """The mover's cards whose tricks the search did not settle within its limit: any of them may have kept
    ``best`` too, so ``best_cards`` is complete only where this is empty."""
    cost_bounds: tuple[int, int] | None = None
    """Where ``cost`` is not settled: the fewest and the most tricks the card may have cost, as the search
    proved them ("koster 0-1 stik"), never a bare "?"."""


@dataclass(frozen=True)
class Analysis:
    """A deal's play against double-dummy play (docs/notation.md "Analysis")."""

    ruleset: str
    trump: str | None
    leader: int
    """The seat that leads the first trick analysed."""
    declarers: tuple[int, ...]
    """The declaring side's seats; empty where each plays for himself (``per_player``)."""
    per_player: bool
    hands: tuple[tuple[Card, ...], ...]
    """The hands at the first lead (of ``from_trick``)."""
    start: int | None
    """The declaring side's double-dummy tricks there, counting those it has won (None per player:
    ``start_by_seat``; None too where the search did not settle it)."""
    start_by_seat: tuple[int | None, ...] | None
    cards: tuple[CardCost, ...]
    from_trick: int = 1
    """The first trick analysed (``--from-trick``: the end of a deal alone is quick to analyse)."""

    @property
    def total_cost(self) -> dict[int, int]:
        totals = dict.fromkeys(range(4), 0)
        for card in self.cards:
            totals[card.seat] += card.cost or 0
        return totals

    @property
    def unknown(self) -> int:
        """Cards whose cost the node budget did not settle."""
        return sum(1 for card in self.cards if card.cost is None)


@dataclass(frozen=True)
class Sides:
    """How a contract's tricks are counted: the declaring side and what it wants, or per player."""

    side: int
    wants: int
    per_player: bool

    def of(self, seat: int) -> tuple[int, int]:
        """The side whose tricks judge ``seat``'s card, and what that side wants."""
        return (1 << seat, self.wants) if self.per_player else (self.side, self.wants)


def sides_of(game: Game, row: Rows) -> Sides:
    """The declaring side of ``game``'s contract as the solver counts it."""
    assert game.bid is not None
    named = game.rules.auction.named(game.bid)
    fewest = named is not None and named.fewest_tricks
    kind = int(row[play_row.SIDE])
    if kind == EACH:
        return Sides(0, position.FEWEST if fewest else position.MOST, True)
    if kind == PAIRS:
        return Sides(play_row.side_mask(row), position.FEWEST if fewest else position.MOST, False)
    wants = position.objective(row)  # a trump game's side takes the most, a sol's the fewest
    if wants == position.NONE:
        raise AnalysisError(
            f"{game.contract} is played by {len(game.declarers)} declarers each on his own (gå med): "
            "there are more than two sides, so there is no double-dummy value to analyse"
        )
    return Sides(play_row.side_mask(row), wants, False)


def kernel_of(rules: Rules) -> PlayPhase:
    """The kernel's play rules, or a refusal where a plugin decides a play rule the solver cannot play."""
    kernel = rules.play
    if not kernel.exact:
        raise AnalysisError(
            "a plugin of this ruleset replaces a play rule (legal cards, trick winner or end of play): "
            "the solver plays the shipped rules, so it cannot analyse this deal"
        )
    return kernel


class Analyser:
    """The solver and its table for one deal's positions."""

    def __init__(self, game: Game, nodes: int = NODES) -> None:
        self.kernel = kernel_of(game.rules)
        self.solver = S.Solver(self.kernel.constants)
        self.nodes = nodes
        self.fordaekt = game.fordaekt

    def value(self, row: Rows, side: int, wants: int, guess: int = 7, nodes: int = 0) -> int | None:
        found = self.solver.value(row, side, wants, nodes or self.nodes, guess)
        return None if found == position.UNKNOWN else found

    def bounds(self, row: Rows, side: int, wants: int, nodes: int = 0) -> tuple[int, int]:
        """The fewest and the most tricks the side takes from ``row``, as far as a search within ``nodes``
        proves them (one value twice where it settles)."""
        self.value(row, side, wants, nodes=nodes)
        return self.solver.bounds()

    def card_values(self, row: Rows, side: int, wants: int, best: int) -> dict[int, int | None]:
        """Each legal card's value (kernel codes), knowing the position's value ``best``: one
        null-window test settles every card that keeps it, a search only the ones that do not.

        The cards share their budgets: a card its own did not settle is searched again, once the others
        are done, with what they left of theirs (the table still holds what its first search learnt)."""
        seat = int(row[play_row.TO_PLAY])
        high = position.wants_high(row, seat, side, wants)
        legal = cards_of(play_row.legal_mask(row, seat, self.kernel.constants))
        values: dict[int, int | None] = {}
        pool = len(legal) * self.nodes
        spent = 0
        for again in (False, True):
            for card in legal:
                if again and (values[card] is not None or spent >= pool):
                    continue
                child = row.copy()
                play_row.play_card(child, card, self.kernel.constants)
                nodes = pool - spent if again else self.nodes
                keeps = self.solver.reaches(child, side, wants, best if high else best + 1, nodes)
                spent += self.solver.searched
                values[card] = None
                if keeps == int(high):  # the child is at least (high) or below (low) the best
                    values[card] = best
                elif keeps != position.UNKNOWN and (not again or spent < pool):
                    nodes = pool - spent if again else self.nodes
                    values[card] = self.value(child, side, wants, best - 1 if high else best + 1, nodes)
                    spent += self.solver.searched
        return values


def at_first_lead(game: Game) -> bool:
    return game.phase == PLAY and not game.tricks and not game.trick


def analyse(
    start: Game,
    plays: Sequence[Card],
    label: str,
    nodes: int = NODES,
    from_trick: int = 1,
    seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """The analysis of ``plays`` (the cards in order) from ``start`` at its first lead; the cards of
    tricks before ``from_trick`` are played on without being analysed. Within ``seconds`` (None: no
    limit but ``nodes`` per search) the analysis runs from the last card back, so what time leaves
    unknown is the first tricks."""
    if not at_first_lead(start):
        raise AnalysisError.said("analysis_no_first_lead")
    game = start.clone()
    analyser = Analyser(game, nodes)
    kernel = analyser.kernel
    sides = sides_of(game, play_row.row_from_game(kernel, game))
    fordaekt = game.fordaekt
    cards = list(plays)
    while cards and len(game.tricks) + 1 < from_trick and game.phase == PLAY:
        game.apply(PLAYS[cards.pop(0)], game.to_act)
    if game.phase != PLAY or game.trick:
        raise AnalysisError(f"the deal has no trick {from_trick} to analyse ({len(game.tricks)} tricks were played)")
    first = play_row.row_from_game(kernel, game)

    def real(code: int) -> Card:
        return fordaekt if code == FORDAEKT and fordaekt is not None else code

    hands = tuple(tuple(sorted(game.hands[seat])) for seat in range(4))
    positions: list[tuple[Rows, int, Card, int]] = []
    for card in cards:  # every position first: they are analysed from the last, where search is cheap
        if game.phase != PLAY:
            break
        row = play_row.row_from_game(kernel, game)
        positions.append((row, int(row[play_row.TO_PLAY]), card, len(game.tricks) + 1))
        game.apply(PLAYS[card], game.to_act)
    ends = None if seconds is None else time.monotonic() + seconds
    costs: list[CardCost] = []
    for done, (row, seat, card, trick) in enumerate(reversed(positions)):  # each serves the one before
        if progress is not None:
            progress(done)
        side, wants = sides.of(seat)
        out_of_time = ends is not None and time.monotonic() > ends
        best = None if out_of_time else analyser.value(row, side, wants)
        high = position.wants_high(row, seat, side, wants)
        if best is None:
            proven = analyser.solver.bounds()  # what the search of the position proved before its budget ran out
            bounds = None if out_of_time else _cost_bounds(analyser, row, card, side, wants, high, proven)
            costs.append(CardCost(trick, seat, card, None, None, None, (), cost_bounds=bounds))
            continue
        values = analyser.card_values(row, side, wants, best)
        played = values.get(FORDAEKT if card == fordaekt else card)
        cost = None if played is None else (best - played if high else played - best)
        bounds = None
        if cost is None:
            bounds = _cost_bounds(analyser, row, card, side, wants, high, (best, best))
        best_cards = tuple(sorted(real(c) for c, v in values.items() if v == best))
        unsettled = tuple(sorted(real(c) for c, v in values.items() if v is None))
        costs.append(CardCost(trick, seat, card, best, played, cost, best_cards, unsettled, bounds))
    costs.reverse()
    if progress is not None:
        progress(len(positions))
    late = ends is not None and time.monotonic() > ends
    if sides.per_player:
        start_by_seat: tuple[int | None, ...] | None = tuple(
            None if late else analyser.value(first, *sides.of(seat)) for seat in range(4)
        )
        start_value = None
    else:
        start_by_seat = None
        start_value = costs[0].best if costs else analyser.value(first, *sides.of(0))
    trump = game.trump if game.trump not in (None, "none") else None
    declarers = () if sides.per_player else tuple(s for s in range(4) if (sides.side >> s) & 1)
    return Analysis(
        label,
        trump,
        int(first[play_row.LEADER]),
        declarers,
        sides.per_player,
        hands,
        start_value,
        start_by_seat,
        tuple(costs),
        from_trick,
    )


BOUNDS_SHARE = 4
"""The bounds of an unsettled card's position are searched with a quarter of a card's budget: a range is
enough where the exact value was too dear."""


def _cost_bounds(
    analyser: Analyser, row: Rows, card: Card, side: int, wants: int, high: bool, best: tuple[int, int]
) -> tuple[int, int]:
    """What a card may have cost, from what the search proved of the best (``best``: its fewest and most
    tricks) and of the position after the card: never below 0 (no card does better than the best)."""
    child = row.copy()
    play_row.play_card(child, FORDAEKT if card == analyser.fordaekt else card, analyser.kernel.constants)
    low, top = analyser.bounds(child, side, wants, max(1, analyser.nodes // BOUNDS_SHARE))
    if high:  # the side wants many: the cost is the best less what the card keeps
        return max(0, best[0] - top), max(0, best[1] - low)
    return max(0, low - best[1]), max(0, top - best[0])


def played_cards(game: Game) -> list[Card]:
    """The cards a finished (or stopped) game's play phase saw, in order."""
    return [action.card for _, action in game.history if action.verb is Verb.PLAY and action.card is not None]


def first_lead(game: Game) -> Game:
    """``game`` as it stood at its first lead: the actions replayed on a new deal of the same cards
    until the first card is due."""
    again = Game(
        game.rules,
        game.initial_hands,
        game.initial_kitty,
        game.dealer,
        seed=game.seed,
        dealer_at_table=game.dealer_at_table,
    )
    for seat, action in game.history:
        if at_first_lead(again):
            break
        again.apply(action, seat)
    return again


def analyse_game(
    game: Game,
    label: str,
    nodes: int = NODES,
    from_trick: int = 1,
    seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """The analysis of a played (or partly played) game's cards (``progress(done)`` after each card)."""
    return analyse(first_lead(game), played_cards(game), label, nodes, from_trick, seconds, progress)
