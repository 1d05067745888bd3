"""Scoring from the rulesets' tables and formulas (001 "Pointene"; 000 7; 003 40-42)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from regelmotor.rules.scoring.scorer import RoleScores

from .conftest import CONFIGS, rules_of


def trump(name: str, designation: str, level: int, tricks: int, alone: bool = False, doublings: int = 0) -> RoleScores:
    return rules_of(name).scoring.scorer.score_trump(designation, level, tricks, alone=alone, doublings=doublings)


def test_001_example_8_bid_10_tricks_gives_60() -> None:
    """001: "Hvert overstik giver det samme som grundtaksten. Melder man 8 og tager 10 stik, giver det
    20 + 2 × 20 = 60 point." and "Melderen og makkeren får pointene hver, og de to modspillere betaler hver
    det samme." """
    assert trump("standard", "alm", 8, 10) == RoleScores(F(60), F(60), F(-60), 2)


@pytest.mark.parametrize(("level", "base"), [(7, 10), (8, 20), (9, 40), (10, 80), (11, 160), (12, 320), (13, 640)])
def test_the_base_rate_doubles_with_each_trick_bid(level: int, base: int) -> None:
    """001: "| Grundtakst | 10 | 20 | 40 | 80 | 160 | 320 | 640 |" for 7 to 13 tricks bid."""
    assert trump("standard", "alm", level, level).declarer == base


@pytest.mark.parametrize("designation", ["vip", "gode", "sans", "halve"])
def test_a_designation_doubles_the_points(designation: str) -> None:
    """001: "Et påhæng (vip, gode, sans, halve) fordobler pointene." """
    assert trump("standard", designation, 8, 10).declarer == 120


def test_selvmakker_gets_three_times_as_much() -> None:
    """001: "Er melderen selvmakker, betaler hver af de tre modspillere, så melderen får tre gange så meget." """
    assert trump("standard", "alm", 8, 10, alone=True) == RoleScores(F(180), None, F(-60), 3)


def test_a_failed_contract_pays_double_the_base_rate() -> None:
    """001: "Går meldingen ikke hjem, betaler melderens side den dobbelte takst." """
    assert trump("standard", "alm", 8, 7) == RoleScores(F(-40), F(-40), F(40), 2)
    assert trump("standard", "alm", 8, 2).declarer == -40  # as written: not per missing trick


@pytest.mark.parametrize(
    ("sol", "points"), [("sol", 50), ("ren sol", 100), ("bordlægger", 150), ("ren bordlægger", 200)]
)
def test_001_sol_values_from_each_of_the_three(sol: str, points: int) -> None:
    """001: "Sol giver 50, ren sol 100, bordlægger 150 og ren bordlægger 200 point fra hver af de tre andre.
    Taber melderen, betaler han den dobbelte takst til hver." """
    scorer = rules_of("standard").scoring.scorer
    assert scorer.score_sol(sol, 0) == RoleScores(F(3 * points), None, F(-points), 3)
    assert scorer.score_sol(sol, 2) == RoleScores(F(-6 * points), None, F(2 * points), 3)


def test_sol_allows_one_trick_and_ren_sol_none() -> None:
    """001: "I sol må melderen højst tage ét stik, i ren sol slet ingen." """
    scorer = rules_of("standard").scoring.scorer
    assert scorer.score_sol("sol", 1).declarer > 0
    assert scorer.score_sol("ren sol", 1).declarer < 0


# Thorsen 7.2.2: P = (V + O - 3/2 U) D M G B (5/2)^(C - 8), each value below worked out by hand.
@pytest.mark.parametrize(
    ("designation", "level", "tricks", "alone", "declarer", "opponent"),
    [
        # 8 alm made exactly: (1 + 0 - 0) * 1 * 1 * 1 * 1 * (5/2)^0 = 1
        ("alm", 8, 8, False, F(1), F(-1)),
        # 10 vip2 with 11 tricks alone: (1 + 1) * 3 * 2 * (5/2)^2 = 2 * 3 * 2 * 25/4 = 75; opponents share -1
        ("vip2", 10, 11, True, F(75), F(-25)),
        # 7 halve with 5 tricks: (-1 - 3/2 * 2) * 7/4 * (5/2)^-1 = -4 * 7/4 * 2/5 = -14/5
        ("halve", 7, 5, False, F(-14, 5), F(14, 5)),
        # 9 gode with 13 tricks: (1 + 4) * 5/4 * 5/2 = 125/8
        ("gode", 9, 13, False, F(125, 8), F(-125, 8)),
        # 13 vip3 made alone: 1 * 3 * 5/2 * (5/2)^5 = 3 * (5/2)^6 = 3 * 15625/64
        ("vip3", 13, 13, True, F(46875, 64), F(-15625, 64)),
    ],
)
def test_thorsen_trump_formula(
    designation: str, level: int, tricks: int, alone: bool, declarer: F, opponent: F
) -> None:
    """000 7.2.2: "P = (V + O – 3/2 U) D M G B (5/2)^(C – 8)" (variables inferred: rules-matrix.md section 8)."""
    scores = trump("thorsen", designation, level, tricks, alone)
    assert (scores.declarer, scores.opponent) == (declarer, opponent)
    assert scores.partner == (None if alone else declarer)


@pytest.mark.parametrize(
    ("sol", "tricks", "declarer", "opponent"),
    [
        ("sol", 1, F(135, 4), F(-45, 4)),  # 45/4 * 1 * 3 * 1
        ("ren sol", 1, F(-135, 2), F(45, 2)),  # 45/4 * -1 * 3 * 2
        ("ren bordlæggersol", 0, F(135), F(-45)),  # 45/4 * 3 * 4
    ],
)
def test_thorsen_sol_formula(sol: str, tricks: int, declarer: F, opponent: F) -> None:
    """000 7.3 "7.2.3": "P = 45/4 V D G B"; "7.2.1": "Hvis en spilfører ingen stik vinder, vinder han tillige
    hvis kontrakten er ren sol"."""
    scores = rules_of("thorsen").scoring.scorer.score_sol(sol, tricks)
    assert (scores.declarer, scores.opponent) == (declarer, opponent)


def test_gruppe2_doubling_doubles_the_stake() -> None:
    """003 42: "En doubling betyder, at taksten bliver forhøjet til det dobbelte." """
    assert trump("gruppe2", "alm", 8, 10, doublings=1) == RoleScores(F(120), F(120), F(-120), 2)


@pytest.mark.parametrize(("name", "house"), CONFIGS)
def test_every_game_every_ruleset_can_score_sums_to_zero(name: str, house: str | None) -> None:
    """000 7.1.2: "I alle spil og i straftildeling skal summen af spillernes scorer være nul." Where the game
    is zero-sum: engelsk whist scores the winning pair alone (002)."""
    scorer = rules_of(name, *([house] if house else [])).scoring.scorer
    games = list(scorer.every_game())
    # every trick bid at every count (hundreds); without trick bids every named bid and every split of the tricks
    assert len(games) > (500 if scorer.ruleset.designations else 30)
    if scorer.losers_pay:
        assert all(scores.total == 0 for _, _, scores in games)
    else:  # engelsk whist: 002 "Det par, der vinder flest stik, får 1 point pr. stik udover de første 6 stik"
        assert all(scores.total > 0 and 0 in (scores.opponent, *scores.others) for _, _, scores in games)
