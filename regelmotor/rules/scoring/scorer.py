"""Scoring from the ruleset's formulas, tables and constants: zero-sum, or the winners' alone.

A formula gives the score of one player from the game's figures and the player's share ``D``
(+1 for the declarer and the partner, -1 for each opponent; +3 for a declarer who plays alone
against three). Thorsen's law writes its scoring that way (000 7.2.2), and a point table such
as 001's is the same thing with ``base`` looked up by the number of tricks bid. Because the
share is a variable, whether a rule sums to zero can be checked when the ruleset is loaded.

Engelsk whist is the one game of the family that is not zero-sum (002: "Det par, der vinder flest stik,
får 1 point pr. stik udover de første 6 stik"): with ``scoring.losers_pay: false`` a seat whose share is
negative gets nothing, and no sum is checked.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from regelmotor.errors import RegelmotorError
from regelmotor.model.formula import Formula, FormulaError, Number, parse_formula, whole
from regelmotor.model.ruleset import Ruleset
from regelmotor.phrase_table import Said
from regelmotor.rounding import points, zero_sum_points
from regelmotor.rules.contracts.named import Share, share_cases, shares, within
from regelmotor.rules.scoring.keys import GameScoring

TRUMP_VARIABLES: dict[str, str] = {
    "C": "antal stik meldt (kontrakten)",
    "T": "stik taget af spilførers side",
    "O": "overstik: max(0, T - C)",
    "U": "understik: max(0, C - T)",
    "V": "+1 når kontrakten holder, -1 når den ikke holder",
    "D": "spillerens andel: +1 for spilfører og makker, -1 for hver modspiller; +3 for en spilfører alene mod tre",
    "K": "nummeret på det vendte kattekort der blev antaget i vip (1-3), ellers 0",
}
SOL_VARIABLES: dict[str, str] = {
    "T": (
        "stik taget af spilføreren (med fast makker: hans side; engelsk whist: det vindende par; "
        "pasnolo: spillerens egne)"
    ),
    "V": "+1 når spilføreren (hans side) holder sig inden for buddet, ellers -1; i spil uden melder altid +1",
    "D": (
        "spillerens andel: +3 for spilføreren alene, -1 for hver modspiller; to mod to: +1 og -1; "
        "pasnolo med k vindere: 4 - k for hver vinder, -k for hver af de andre; afregnet efter forskellen i stik "
        "(settle: trick_difference): summen af forskellene mellem hans stik og hver af de andres"
    ),
}
ALL_VARIABLES = {**TRUMP_VARIABLES, **SOL_VARIABLES}


@dataclass(frozen=True)
class RoleScores:
    """What each role gets in one game; ``partner`` is None when the declarer plays alone."""

    declarer: Fraction
    partner: Fraction | None
    opponent: Fraction
    opponents: int
    others: tuple[Fraction, ...] = ()
    """In a game of each for himself (pasnolo), the other three seats' points; then ``declarer`` is seat 0's."""

    @property
    def total(self) -> Fraction:
        return self.declarer + (self.partner or 0) + self.opponent * self.opponents + sum(self.others, Fraction(0))


@dataclass(frozen=True)
class ShownRoles:
    """One game's points per role as a member reads them, to the ruleset's decimals."""

    declarer: int | float
    """What the others pay him, where his own points do not round to it (3 x 35.16 against -105.48)."""
    partner: int | float | None
    opponent: int | float
    each_opponent: tuple[int | float, ...]
    """Each opponent's points as the score sheet books them: rounded so the seats sum as the points do."""
    total: int | float
    declarer_evened: bool
    """Whether ``declarer`` is what the others pay rather than his own points rounded."""


def shown_roles(scores: RoleScores, decimals: int) -> ShownRoles:
    """``scores`` printed to ``decimals`` places so that the printed numbers sum to zero as the exact ones do:
    the declarer's points are what the others pay (3 x 35.16 against -105.48, not -105.47), and a declarer's
    points that are exact at those places stay his own (-80 is printed -80, never -80.01)."""
    others = [points(scores.opponent, decimals)] * scores.opponents
    if scores.partner is not None:
        others.append(points(scores.partner, decimals))
    exact = (scores.declarer * 10**decimals).denominator == 1
    own = points(scores.declarer, decimals)
    paid = -round(sum(Fraction(str(p)) for p in others), decimals) if scores.total == 0 and not exact else None
    declarer = own if paid is None else points(Fraction(str(paid)), decimals)
    seats = [scores.declarer, *([] if scores.partner is None else [scores.partner])]
    seats += [scores.opponent] * scores.opponents
    return ShownRoles(
        declarer=declarer,
        partner=None if scores.partner is None else points(scores.partner, decimals),
        opponent=points(scores.opponent, decimals),
        each_opponent=tuple(zero_sum_points(seats, decimals)[len(seats) - scores.opponents :]),
        total=points(scores.total, decimals),
        declarer_evened=declarer != own,
    )


def _up(value: Fraction) -> Fraction:
    """A whole point away from zero: -6 2/3 is -7, 6 1/3 is 7."""
    return Fraction(math.ceil(value) if value > 0 else math.floor(value))


def whole_up(scores: RoleScores) -> RoleScores:
    """A game's points rounded up to whole points (``scoring.rounding: whole_up``): each opponent's share
    rounded away from zero, and the declarer's side given what the opponents pay together, so the sum is
    still zero. In a game of each for himself every seat's points are rounded so; the loader checks that
    those still sum to zero."""
    if scores.others:
        return RoleScores(_up(scores.declarer), None, Fraction(0), 0, tuple(_up(p) for p in scores.others))
    opponent = _up(scores.opponent)
    paid = -opponent * scores.opponents
    if scores.partner is None:
        return RoleScores(paid, None, opponent, scores.opponents)
    if scores.partner == scores.declarer:
        return RoleScores(paid / 2, paid / 2, opponent, scores.opponents)
    partner = _up(scores.partner)
    return RoleScores(paid - partner, partner, opponent, scores.opponents)


def _zero_sum(scores: RoleScores) -> RoleScores:
    """The scores, if they sum to zero (000 7.1.2); the loader has checked every game already."""
    if scores.total != 0:  # pragma: no cover - the loader rejects scoring that cannot sum to zero
        raise AssertionError(f"scores do not sum to zero: {scores}")
    return scores


class ScoringProblem(Exception):
    def __init__(
        self, path: tuple[str | int, ...], message: str, missing: str | None = None, said: Exception | None = None
    ) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.missing = missing
        """The bid a table has no value for, where that is the problem."""
        self.said = said
        """The error as the phrase table says it, in the reader's language (a formula's)."""


def _problem(path: tuple[str | int, ...], phrase: str, **values: object) -> ScoringProblem:
    """A problem said in the reader's language from the phrase table (``err_<phrase>``)."""
    said = RegelmotorError.said(phrase, **values)
    return ScoringProblem(path, str(said), said=said)


@dataclass(frozen=True)
class _Game:
    made: Formula
    failed: Formula
    path: tuple[str, ...]


class Scorer:
    """The compiled scoring rules of one ruleset."""

    def __init__(self, ruleset: Ruleset) -> None:
        scoring = ruleset.scoring
        self.ruleset = ruleset
        self.constants = dict(scoring.constants)
        self._constant_values: dict[str, Number] = {name: whole(value) for name, value in self.constants.items()}
        """The constants as a formula computes with them (whole numbers as ``int``), worked out once."""
        self.tables = scoring.tables
        for name in (*self.constants, *self.tables):
            if name in ALL_VARIABLES:
                kind = "constant" if name in self.constants else "table"
                raise _problem(
                    ("scoring", "constants" if kind == "constant" else "tables", name),
                    f"scoring_{kind}_is_variable",
                    name=name,
                    meaning=Said.of(f"letter_{'trump' if name in TRUMP_VARIABLES else 'sol'}_{name}"),
                )
        both = set(self.constants) & set(self.tables)
        if both:
            name = sorted(both)[0]
            raise _problem(("scoring", "tables", name), "scoring_constant_and_table", name=name)
        if scoring.trump is None and ruleset.designations:
            raise _problem(("scoring", "trump"), "scoring_trump_missing")
        self.trump = self._game(scoring.trump or GameScoring(formula="0"), ("scoring", "trump"), TRUMP_VARIABLES)
        self.sol = self._game(scoring.sol, ("scoring", "sol"), SOL_VARIABLES)
        # A game's score depends on a handful of small numbers: each is worked out once.
        self._memo: dict[tuple[object, ...], RoleScores] = {}
        self.whole_up = scoring.rounding == "whole_up"
        self.losers_pay = scoring.losers_pay
        """False where only the winners score (engelsk whist): a losing seat's points are 0, not its formula's."""
        self._zero_sum: tuple[ScoringProblem, ...] | None = None
        self._each: dict[tuple[object, ...], tuple[Fraction, ...]] = {}

    def zero_sum(self) -> tuple[ScoringProblem, ...]:
        """Every scoring rule's first game that does not sum to zero (``zero_sum_problems``), worked out once:
        a scorer is shared by every ruleset that scores alike (``scorer_for``)."""
        if self._zero_sum is None:
            self._zero_sum = tuple(zero_sum_problems(self))
        return self._zero_sum

    def _rounded(self, scores: RoleScores) -> RoleScores:
        """A game's points as the ruleset's rounding rule says (``scoring.rounding``); where the losers pay
        nothing, each seat's own points rounded up (there is no sum to keep)."""
        if self.whole_up and not self.losers_pay:
            partner = None if scores.partner is None else _up(scores.partner)
            others = tuple(_up(p) for p in scores.others)
            return RoleScores(_up(scores.declarer), partner, _up(scores.opponent), scores.opponents, others)
        return whole_up(scores) if self.whole_up else scores

    def _summed(self, scores: RoleScores) -> RoleScores:
        """The scores, checked to sum to zero where the losers pay what the winners get."""
        return _zero_sum(scores) if self.losers_pay else scores

    def _game(self, game: GameScoring, path: tuple[str, ...], variables: dict[str, str]) -> _Game:
        if game.formula is not None and (game.made is not None or game.failed is not None):
            raise _problem(path, "scoring_formula_and_made")
        if game.formula is None and (game.made is None or game.failed is None):
            missing = "made" if game.made is None else "failed"
            raise _problem((*path, missing), "scoring_half_missing", missing=missing)
        parsed: dict[str, Formula] = {}
        for key in ("formula", "made", "failed"):
            text = getattr(game, key)
            if text is None:
                continue
            try:
                formula = parse_formula(text)
            except FormulaError as exc:
                raise ScoringProblem((*path, key), str(exc), said=exc) from None
            known = set(variables) | set(self.constants) | set(self.tables)
            for name in sorted(formula.names - known):
                phrase = "unknown_variable" if name not in ALL_VARIABLES else "unknown_variable_here"
                raise _problem((*path, key), phrase, name=name, known=", ".join(sorted(known)))
            parsed[key] = formula
        if "formula" in parsed:
            return _Game(parsed["formula"], parsed["formula"], path)
        return _Game(parsed["made"], parsed["failed"], path)

    def _env(self, game: _Game, values: dict[str, Number], *, level: int | None, bid: str) -> dict[str, Number]:
        env = dict(self._constant_values)
        for name, table in self.tables.items():
            if name not in game.made.names and name not in game.failed.names:
                continue
            key = str(level) if table.key == "level" else bid
            if table.key == "level" and level is None:
                raise _problem((*game.path,), "table_by_level_in_sol", name=name)
            if key not in table.values:
                phrase = "table_no_level" if table.key == "level" else "table_no_bid"
                said = RegelmotorError.said(phrase, name=name, key=key)
                raise ScoringProblem(
                    ("scoring", "tables", name, "values"), str(said), None if table.key == "level" else key, said
                )
            env[name] = whole(table.values[key])
        env.update(values)
        return env

    def trump_share(self, designation: str, level: int, tricks: int, share: int, vip_card: int = 0) -> Fraction:
        """The score of one player whose share is ``share`` in a trump game."""
        made = tricks >= level
        game = self.trump
        values: dict[str, Number] = {  # whole numbers: a formula computes in them while it can
            "C": level,
            "T": tricks,
            "O": max(0, tricks - level),
            "U": max(0, level - tricks),
            "V": 1 if made else -1,
            "D": share,
            "K": vip_card,
        }
        env = self._env(game, values, level=level, bid=designation)
        try:
            return (game.made if made else game.failed)(env)
        except FormulaError as exc:
            raise ScoringProblem(
                (*game.path, "formula" if game.made is game.failed else ("made" if made else "failed")),
                str(exc),
                said=exc,
            ) from None

    def sol_share(self, sol: str, tricks: int, share: int) -> Fraction:
        """One player's score in a named bid played alone or with a partner: ``tricks`` are the side's."""
        return self.named_share(sol, Share(share, tricks, within(self.ruleset.sol_bid(sol), tricks)))

    def named_share(self, sol: str, share: Share) -> Fraction:
        """One player's score in a named bid, from his share, his tricks and whether he won (nothing for a
        loser where the losers pay nothing: 002's engelsk whist)."""
        if share.share < 0 and not self.losers_pay:
            return Fraction(0)
        game = self.sol
        made = share.made
        values: dict[str, Number] = {"T": share.tricks, "V": 1 if made else -1, "D": share.share}
        env = self._env(game, values, level=None, bid=sol)
        try:
            return (game.made if made else game.failed)(env)
        except FormulaError as exc:
            raise ScoringProblem((*game.path,), str(exc), said=exc) from None

    def score_trump(
        self, designation: str, level: int, tricks: int, *, alone: bool, vip_card: int = 0, doublings: int = 0
    ) -> RoleScores:
        key = (designation, level, tricks, alone, vip_card, doublings)
        scores = self._memo.get(key)
        if scores is None:
            scores = self._memo[key] = self._summed(
                self._rounded(self._score_trump(designation, level, tricks, alone, vip_card, doublings))
            )
        return scores

    def _score_trump(
        self, designation: str, level: int, tricks: int, alone: bool, vip_card: int, doublings: int
    ) -> RoleScores:
        factor = self.ruleset.doubling.factor**doublings
        if alone:
            return RoleScores(
                self.trump_share(designation, level, tricks, 3, vip_card) * factor,
                None,
                self.trump_share(designation, level, tricks, -1, vip_card) * factor,
                3,
            )
        mine = self.trump_share(designation, level, tricks, 1, vip_card) * factor
        return RoleScores(mine, mine, self.trump_share(designation, level, tricks, -1, vip_card) * factor, 2)

    def score_sol(self, sol: str, tricks: int, *, doublings: int = 0) -> RoleScores:
        key = (sol, tricks, doublings)
        scores = self._memo.get(key)
        if scores is None:
            scores = self._memo[key] = self._summed(self._rounded(self._score_sol(sol, tricks, doublings)))
        return scores

    def _score_sol(self, sol: str, tricks: int, doublings: int) -> RoleScores:
        """``tricks`` are the declarer's side's; in a game of pair against pair (engelsk whist) the
        winning pair's, which then stands in the declarer's and the partner's place."""
        factor = self.ruleset.doubling.factor**doublings
        bid = self.ruleset.sol_bid(sol)
        if bid.side == "alone":
            return RoleScores(
                self.sol_share(sol, tricks, 3) * factor, None, self.sol_share(sol, tricks, -1) * factor, 3
            )
        if bid.side == "partner":
            mine = self.sol_share(sol, tricks, 1) * factor
            return RoleScores(mine, mine, self.sol_share(sol, tricks, -1) * factor, 2)
        if bid.side == "pairs":
            won = self.named_share(sol, Share(1, tricks, True)) * factor
            return RoleScores(won, won, self.named_share(sol, Share(-1, tricks, True)) * factor, 2)
        raise _problem(("all_pass", "contract", "side"), "scoring_each", sol=sol)

    def score_each(
        self, sol: str, tricks_won: tuple[int, ...], declarers: tuple[int, ...] = (), *, doublings: int = 0
    ) -> tuple[Fraction, ...]:
        """Every seat's points in a contract of sides (``partner``, ``pairs``, ``each``), from the tricks won
        (``declarers``: the declarer of a ``partner`` contract, whose side is his and his partner's)."""
        key = (sol, tricks_won, declarers, doublings)
        cached = self._each.get(key)
        if cached is None:
            factor = self.ruleset.doubling.factor**doublings
            bid = self.ruleset.sol_bid(sol)
            if bid.side == "partner" and len(declarers) != 1:
                raise ValueError(f'"{sol}" is played by a declarer and his partner: name the declarer')
            cached = tuple(self.named_share(sol, s) * factor for s in shares(bid, declarers, tricks_won))
            if self.whole_up:
                cached = tuple(_up(p) for p in cached)
            if self.losers_pay and sum(cached) != 0:  # pragma: no cover - the loader rejects such scoring
                raise AssertionError(f"scores do not sum to zero: {cached}")
            self._each[key] = cached
        return cached

    def every_game(self, *, distinct: bool = False) -> Iterator[tuple[tuple[str, ...], str, RoleScores]]:
        """Every contract, trick count and side the ruleset allows, scored: for the zero-sum check.

        Scored afresh, not from the memo, which asserts the zero sum this is here to report. ``distinct``:
        a designation that scores as an earlier one does (the same entries in every table keyed by bid, the
        same number of vip turns) is left out, for its games are that one's: the check then costs what the
        distinct scorings cost, not what the length of the list does.
        """
        seen: set[tuple[object, ...]] = set()
        for designation in self.ruleset.designations:
            turns = len(designation.trump.turns or ())
            scoring = (turns, *(t.values.get(designation.id) for t in self.tables.values() if t.key == "bid"))
            if distinct and scoring in seen:
                continue
            seen.add(scoring)
            for level in self.ruleset.levels:
                for tricks in range(14):
                    for alone in (False, True):
                        for vip_card in range(1, turns + 1) if turns else (0,):
                            game = "game_alone" if alone else "game_with_partner"
                            label = Said.of(game, bid=f"{level} {designation.id}", tricks=tricks)
                            scores = self._score_trump(designation.id, level, tricks, alone, vip_card, 0)
                            yield self.trump.path, label, scores
        for sol in self.ruleset.named_bids():
            if sol.side == "alone":
                for tricks in range(14):
                    label = Said.of("game_tricks", bid=sol.id, tricks=tricks)
                    yield self.sol.path, label, self._score_sol(sol.id, tricks, 0)
                continue
            for case_label, case in share_cases(sol):
                points = [self.named_share(sol.id, s) for s in case]
                yield self.sol.path, case_label, RoleScores(points[0], None, Fraction(0), 0, others=tuple(points[1:]))


SCORERS_KEPT = 64
"""How many compiled scorings are kept, by what they read: rulesets that score alike share one, and the
points it has worked out (a club's file over a shipped parent, every game on a server)."""
_scorers: OrderedDict[str, Scorer] = OrderedDict()
_scorers_lock = threading.Lock()


def scoring_key(ruleset: Ruleset) -> str:
    """Everything a ``Scorer`` reads of its ruleset: the scoring, the bids it scores, the doubling factor."""
    return "\n".join(
        (
            ruleset.scoring.model_dump_json(),
            *(d.model_dump_json() for d in ruleset.designations),
            str(ruleset.levels),
            *(s.model_dump_json() for s in ruleset.named_bids()),
            str(ruleset.doubling.factor),
        )
    )


def scorer_for(ruleset: Ruleset) -> Scorer:
    """The ruleset's scoring, compiled once for every ruleset that scores alike (``scoring_key``)."""
    key = scoring_key(ruleset)
    with _scorers_lock:
        found = _scorers.get(key)
        if found is not None:
            _scorers.move_to_end(key)
            return found
    scorer = Scorer(ruleset)  # raises ScoringProblem for scoring that cannot be compiled: nothing is kept
    with _scorers_lock:
        _scorers[key] = scorer
        if len(_scorers) > SCORERS_KEPT:
            _scorers.popitem(last=False)
    return scorer


def check_zero_sum(scorer: Scorer) -> ScoringProblem | None:
    """The first game whose scores do not sum to zero (000 7.1.2), if any."""
    problems = zero_sum_problems(scorer, first_only=True)
    return problems[0] if problems else None


def zero_sum_problems(scorer: Scorer, *, first_only: bool = False) -> list[ScoringProblem]:
    """For each scoring rule (trump games, sol games), the first game whose scores do not sum to zero
    (none where the losers pay nothing: that game is not zero-sum)."""
    found: dict[tuple[str | int, ...], ScoringProblem] = {}
    if not scorer.losers_pay:
        return []
    for path, label, scores in scorer.every_game(distinct=True):
        rounded = whole_up(scores) if scorer.whole_up and scores.total == 0 else None
        if rounded is not None and rounded.total != 0:
            path = ("scoring", "rounding")  # the exact points sum to zero; rounding each seat up does not
        if (scores.total != 0 or (rounded is not None and rounded.total != 0)) and path not in found:
            shown = ", ".join(str(p) for p in _seats(scores if rounded is None else rounded))
            phrase = "not_zero_sum" if rounded is None else "check_whole_up_not_zero"
            found[path] = _problem(path, phrase, game=label, points=shown)
            if first_only:
                break
    return list(found.values())


def _seats(scores: RoleScores) -> list[Fraction]:
    partner = [] if scores.partner is None else [scores.partner]
    return [scores.declarer, *partner, *[scores.opponent] * scores.opponents, *scores.others]
