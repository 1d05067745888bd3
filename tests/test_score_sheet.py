"""The evening's score sheet (`regelmotor session`): a table playing with real cards keeps its score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelmotor.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_sheet_scores_each_deal_by_the_rules_and_settles_the_evening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """001: "Melder man 8 og tager 10 stik, giver det 20 + 2 × 20 = 60 point"; "Sol giver 50 ... fra hver af de
    tre andre"."""
    sheet = str(tmp_path / "aften.json")
    assert run(capsys, "session", "new", sheet, "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25")[0] == 0
    code, out, _ = run(
        capsys, "session", "add", sheet, "--contract", "8", "--declarer", "Anna", "--partner", "Carl", "--tricks", "10"
    )
    assert code == 0 and out == "deal 1: Anna 60, Bo -60, Carl 60, Dorte -60\n"
    assert run(capsys, "session", "add", sheet, "--redeal", "all_pass")[0] == 0
    assert run(capsys, "session", "add", sheet, "--contract", "sol", "--declarer", "Bo", "--tricks", "0")[1] == (
        "deal 3: Anna -50, Bo 150, Carl -50, Dorte -50\n"
    )
    code, out, _ = run(capsys, "session", "show", sheet, "--json")
    report = json.loads(out)
    assert report["totals"] == {"Anna": 10, "Bo": 90, "Carl": 10, "Dorte": -110}
    assert [d["dealer"] for d in report["deals"]] == ["Anna", "Bo", "Bo"]  # after all pass the same dealer deals
    money = report["settlement"]["money"]
    assert money == {"Anna": 2.5, "Bo": 22.5, "Carl": 2.5, "Dorte": -27.5} and sum(money.values()) == 0
    code, out, _ = run(capsys, "session", "show", sheet)
    assert "I alt" in out and "Dorte betaler Bo 22.50 kr." in out


def test_a_line_that_cannot_be_scored_is_refused_and_the_sheet_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "aften.json"
    run(capsys, "session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte")
    before = sheet.read_text(encoding="utf-8")
    for argv, message in (
        (["--contract", "8", "--declarer", "Nils", "--tricks", "9"], 'no player is called "Nils"'),
        (["--contract", "8 vipp", "--declarer", "Anna", "--tricks", "9"], "vipp"),
        (["--contract", "8", "--declarer", "Anna", "--tricks", "14"], "tricks are 0 to 13"),
        (["--contract", "8", "--declarer", "Anna", "--partner", "Anna", "--tricks", "9"], "selvmakker"),
        (["--contract", "8", "--declarer", "Anna", "--tricks", "9", "--doubled", "1"], "doubled is at most 0"),
    ):
        code, _, err = run(capsys, "session", "add", str(sheet), *argv)
        assert code == 1 and message in err, err
    assert sheet.read_text(encoding="utf-8") == before


def test_at_five_players_the_one_sitting_out_cannot_declare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke." """
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "thorsen", "--players", "A,B,C,D,E")
    code, _, err = run(capsys, "session", "add", sheet, "--contract", "8", "--declarer", "A", "--tricks", "8")
    assert code == 1 and "A sits out this deal" in err


def test_the_club_box_takes_the_losses_and_the_evening_fee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """jeberg.eu/kort/reglement.htm: "De ved den endelige spilletids ophør tabte beløb, det faste gebyr der betales
    af hver spiller per kortaften ... indgår i kortklubbens kasse." """
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "standard", "-H", "klubkasse", "--players", "A,B,C,D", "--rate", "0.5")
    run(capsys, "session", "add", sheet, "--contract", "8", "--declarer", "A", "--partner", "C", "--tricks", "10")
    report = json.loads(run(capsys, "session", "show", sheet, "--json")[1])
    assert report["settlement"]["money"] == {"A": -100.0, "B": -130.0, "C": -100.0, "D": -130.0}
    assert report["settlement"]["box"] == 460.0
    assert all(t["payee"] == "kassen" for t in report["settlement"]["transfers"])


def test_a_new_sheet_never_overwrites_an_evening(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "standard", "--players", "A,B,C,D")
    code, _, err = run(capsys, "session", "new", sheet, "standard", "--players", "A,B,C,D")
    assert code == 1 and "exists already" in err
