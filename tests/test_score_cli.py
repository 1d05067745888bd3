"""regelmotor score (docs/notation.md): the points of one finished game per role, from the ruleset's own rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from regelmotor.cli import main


def score(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["score", *argv, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out else None, out.err


def test_001_example_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """001: "Melder man 8 og tager 10 stik, giver det 20 + 2 × 20 = 60 point." """
    assert score(capsys, "standard", "--contract", "8", "--tricks", "10")[1] == {
        "declarer": 60,
        "partner": 60,
        "opponent": -60,
        "opponents": 2,
        "each_opponent": [-60, -60],
        "sum": 0,
    }


@pytest.mark.parametrize(
    ("sol", "points"), [("sol", 50), ("ren sol", 100), ("bordlægger", 150), ("ren bordlægger", 200)]
)
def test_001_sol_values(capsys: pytest.CaptureFixture[str], sol: str, points: int) -> None:
    """001: "Sol giver 50, ren sol 100, bordlægger 150 og ren bordlægger 200 point fra hver af de tre andre." """
    result = score(capsys, "standard", "--contract", sol, "--tricks", "0")[1]
    assert result == {
        "declarer": 3 * points,
        "partner": None,
        "opponent": -points,
        "opponents": 3,
        "each_opponent": [-points] * 3,
        "sum": 0,
    }


def test_selvmakker_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """001: "Er melderen selvmakker, betaler hver af de tre modspillere, så melderen får tre gange så meget." """
    result = score(capsys, "standard", "--contract", "8 gode", "--tricks", "10", "--selvmakker")[1]
    assert result == {
        "declarer": 360,
        "partner": None,
        "opponent": -120,
        "opponents": 3,
        "each_opponent": [-120] * 3,
        "sum": 0,
    }


def test_thorsen_prints_fractions_as_decimals(capsys: pytest.CaptureFixture[str]) -> None:
    """000 7.2.2: (V + O - 3/2 U) ...: 7 halve with 5 tricks = (-1 - 3) * 7/4 * 2/5 = -14/5 = -2.8."""
    result = score(capsys, "thorsen", "--contract", "7 halve", "--tricks", "5")[1]
    assert result == {
        "declarer": -2.8,
        "partner": -2.8,
        "opponent": 2.8,
        "opponents": 2,
        "each_opponent": [2.8, 2.8],
        "sum": 0,
    }


def test_doubling_doubles_and_needs_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """003 42: "En doubling betyder, at taksten bliver forhøjet til det dobbelte." """
    assert score(capsys, "gruppe2", "--contract", "8", "--tricks", "10", "--doubled", "1")[1]["declarer"] == 120
    code, _, err = score(capsys, "standard", "--contract", "8", "--tricks", "10", "--doubled", "1")
    assert code == 1 and "standard har ingen dobling (tilføj -H dobling)" in err
    assert (
        score(capsys, "standard", "-H", "dobling", "--contract", "8", "--tricks", "10", "--doubled", "1")[1]["sum"] == 0
    )


@pytest.mark.parametrize(
    ("argv", "dansk", "english"),
    [
        (
            ["--contract", "14", "--tricks", "7"],
            '"14" er ikke en melding i dette reglesæt',
            '"14" is not a bid in this ruleset',
        ),
        (
            ["--contract", "8", "--tricks", "14"],
            "--tricks er, hvad melderens side tog: 0 til 13, ikke 14",
            "--tricks is what the declarer's side took: 0 to 13, not 14",
        ),
        (
            ["--contract", "sol", "--tricks", "0", "--selvmakker"],
            "--selvmakker er for trumfmeldinger",
            "--selvmakker is for trump bids",
        ),
        (["--contract", "8", "--tricks", "8", "--vip-card", "2"], "8 er ikke en vipmelding", "8 is not a vip bid"),
        (
            ["--contract", "8 vip", "--tricks", "8", "--vip-card", "4"],
            "--vip-card er det antagne kattekort (1-3)",
            "--vip-card is the accepted kitty card (1-3)",
        ),
    ],
)
def test_bad_score_input_exits_1_and_says_why_in_danish_or_english(
    capsys: pytest.CaptureFixture[str], argv: list[str], dansk: str, english: str
) -> None:
    """The table issue: "Danish everywhere a club member reads, English with --lang en"."""
    code, out, err = score(capsys, "standard", *argv)
    assert code == 1 and out is None and dansk in err
    code, out, err = score(capsys, "standard", *argv, "--lang", "en")
    assert code == 1 and out is None and english in err


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    """The table issue: the command line spoke English ("declarer with a partner"); Danish first."""
    assert main(["score", "standard", "--contract", "8", "--tricks", "10"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "standard: 8 med 10 stik (melderen med makker)",
        "melder      +60",
        "makker      +60",
        "modspiller  -60  (hver af 2)",
        "sum         0",
    ]
    assert main(["score", "standard", "--contract", "8", "--tricks", "10", "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "standard: 8 with 10 tricks (declarer with a partner)",
        "declarer    +60",
        "partner     +60",
        "opponent    -60  (each of 2)",
        "sum         0",
    ]
