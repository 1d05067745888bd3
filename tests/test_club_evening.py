"""A club evening without a stumble (issue 48): the club's file as written, and said in the club's words.

Each test quotes the stumble it mends, as a new club secretary met it.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.errors import RulesetError
from regelmotor.hooks import ContractInfo
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.session import Session

from .conftest import rules_of

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


# --- item 3: engelsk whist as 002 scores it ------------------------------------------------------


def test_engelsk_the_pair_with_most_tricks_scores_and_the_other_pair_gets_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """002: "Det par, der vinder flest stik, får 1 point pr. stik udover de første 6 stik". `score engelsk
    --contract whist --tricks 9` gave the losers −3 each; by 002 they get nothing."""
    assert main(["score", "engelsk", "--contract", "whist", "--tricks", "9", "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["declarer"] == scored["partner"] == 3 and scored["each_opponent"] == [0, 0]
    rules = rules_of("engelsk")
    whist = ContractInfo(rules.contract_bid("whist"), ())
    assert rules.settle(whist, [2, 4, 2, 5], 0, 0) == [0, 3, 0, 3]  # seats 1 and 3 took 9


def test_engelsk_the_game_to_5_counts_what_a_pair_won_and_the_money_goes_by_the_tables_mean() -> None:
    """002: "Der spilles typisk flere spil, indtil et makkerpar når 5 point." The evening's points are what
    each pair won; paid in money, each player gets his points above the table's mean from those below it
    (as zero-sum points are already paid)."""
    session = Session(rules_of("engelsk"), ["A", "B", "C", "D"])
    session.enter([F(0), F(3), F(0), F(3)])  # dealer A: seats 0-3 are B, C, D, A; A and C take 9
    won = session.enter([F(0), F(2), F(0), F(2)])  # dealer B: seats 0-3 are C, D, A, B; B and D take 8
    assert session.totals == [3, 2, 3, 2] and won.game_won_by == ()
    money = session.settlement(1)
    assert money.money == (F(1, 2), F(-1, 2), F(1, 2), F(-1, 2))


def test_engelsk_is_scored_so_in_the_rule_book() -> None:
    """The rule book says what 002 says: the winners score, and no sum to zero."""
    resolved = load_ruleset("engelsk")
    book = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(book, str)
    assert "Kun vinderne får point; taberne får intet" in book and "går altid op i nul" not in book
    assert "det andet par får intet" in book and "med minus" not in book


def test_only_the_winners_scoring_is_refused_where_a_declarer_plays(tmp_path: Path) -> None:
    """``losers_pay: false`` is 002's rule for a game of pair against pair; an es-makker ruleset, where the
    declarer's side and the opponents are settled against each other (002: "Es-makker whist er et
    nulsumsspil"), is refused at the key."""
    path = tmp_path / "klub.yaml"
    path.write_text(
        "kind: ruleset\nextends: standard\nname: klub\ntitle: K\ndescription: K\nsource: K\n"
        "scoring:\n  losers_pay: false\n  source: K\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    [problem] = caught.value.problems
    assert problem.path == ("scoring", "losers_pay") and problem.location.line == 8
    assert "kun spil par mod par" in problem.text()


def test_dansk_stays_zero_sum_as_002_says() -> None:
    """002: "I dansk whist er regnskabet et nulsumsspil: det, vinderne får, trækkes tilsvarende fra taberne, så
    summen altid er 0." """
    assert load_ruleset("dansk").ruleset.scoring.losers_pay
    assert all(scores.total == 0 for _, _, scores in rules_of("dansk").scorer.every_game())
