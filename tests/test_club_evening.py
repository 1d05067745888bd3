"""A club evening without a stumble (issue 48): the club's file as written, and said in the club's words.

Each test quotes the stumble it mends, as a new club secretary met it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.errors import RulesetError
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

OWN_SOL_BIDS = """\
kind: ruleset
extends: standard
name: klub
title: Klubben
description: standard med klubbens egne solbud
source: Klubbens vedtægter
sol_bids:
  - id: sol
    display: Sol
    after: "9"
    max_tricks: 1
    open_hand: never
    source: Klubbens vedtægter § 4
  - id: ren sol
    display: Ren sol
    after: "10"
    max_tricks: 0
    open_hand: never
    source: Klubbens vedtægter § 4
  - id: oplægger
    display: Oplægger
    after: "11"
    max_tricks: 0
    open_hand: after_first_trick
    source: Klubbens vedtægter § 4
scoring:
  tables:
    S:
      values: {sol: 4, ren sol: 8, oplægger: 12%s}
  source: Klubbens vedtægter § 9
"""


def _own_sol_bids(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "klub.yaml"
    path.write_text(OWN_SOL_BIDS % extra, encoding="utf-8")
    return path


def test_a_club_with_its_own_sol_bids_and_point_table_over_standard_is_valid(tmp_path: Path) -> None:
    """Item 1: "The club wrote `sol_bids:` (its list) and `scoring.tables.S.values: {sol: 4, ren sol: 8,
    oplægger: 12}`; the entries for `bordlægger` and `ren bordlægger` come from `standard`'s table, for
    bids the club's list no longer has". They go with the bids."""
    resolved = load_ruleset(str(_own_sol_bids(tmp_path)))
    assert dict(resolved.ruleset.scoring.tables["S"].values) == {"sol": 4, "ren sol": 8, "oplægger": 12}
    assert [s.id for s in resolved.ruleset.sol_bids] == ["sol", "ren sol", "oplægger"]
    rules = compile_rules(resolved)
    assert "oplægger" in rules.ladder.by_text and "bordlægger" not in rules.ladder.by_text
    assert not any("bordlægger" in problem.text() for problem in resolved.warnings)


def test_an_entry_the_club_writes_for_a_bid_that_does_not_exist_stays_an_error_at_its_line(tmp_path: Path) -> None:
    """Item 1: "an entry the club's own file writes for a bid that does not exist stays an error at the
    club's line"."""
    path = _own_sol_bids(tmp_path, ", bordlæger: 3")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    [problem] = caught.value.problems
    assert problem.location.file == str(path) and problem.location.line == 29
    assert problem.path == ("scoring", "tables", "S", "values", "bordlæger")


def test_show_where_says_where_the_inherited_entries_went(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 1: "(and `show --where` says where it went)"."""
    path = _own_sol_bids(tmp_path)
    assert main(["show", str(path), "--where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    gone = [line for line in lines if line.startswith("# scoring.tables.S.values.")]
    assert gone == [
        f"# scoring.tables.S.values.bordlægger  udgår: sat i rulesets/standard.yaml:197:51 for en melding, "
        f"som listen i {path}:7 ikke har",
        f"# scoring.tables.S.values.ren bordlægger  udgår: sat i rulesets/standard.yaml:197:72 for en melding, "
        f"som listen i {path}:7 ikke har",
    ]


def test_show_where_credits_no_file_with_a_value_it_never_set(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 2: "`auction.kan_selv: false  # rulesets/house/gaa-med.yaml:9` (that line only opens the
    section), and a default with a file's line where nothing sets it"."""
    assert main(["show", "standard", "-H", "gaa-med", "--where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "auction.kan_selv: false  # forvalg: ingen fil sætter den" in lines
    assert "auction.gaa_med.sol_bids: true  # rulesets/house/gaa-med.yaml:11" in lines
    assert main(["show", "standard", "-H", "gaa-med", "--where", "--lang", "en"]) == 0
    assert "auction.kan_selv: false  # default: no file sets it" in capsys.readouterr().out.splitlines()
