"""docs/writing-a-ruleset.md: every example works as written, and the variable table is complete."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from regelmotor.errors import RulesetError
from regelmotor.rules.scoring.scorer import TRUMP_VARIABLES
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.validate import validate_file

from .conftest import REPO

GUIDE = (REPO / "docs" / "writing-a-ruleset.md").read_text(encoding="utf-8")
FILES = dict(re.findall(r"```yaml\n# file: (\S+)\n(.*?)```", GUIDE, re.DOTALL))


def _write_all(club: Callable[..., str]) -> None:
    for name, text in FILES.items():
        club(name, text)


@pytest.mark.parametrize("name", [n for n in FILES if n != "broken.yaml" and not n.startswith("tidlig-")])
def test_every_example_ruleset_is_valid(club: Callable[..., str], name: str) -> None:
    _write_all(club)
    assert validate_file(name) == []
    compile_rules(load_ruleset(name))


def test_extends_standard_plus_a_few_lines_is_a_ruleset(club: Callable[..., str]) -> None:
    """The issue: "A club can write extends: standard plus five lines and get a valid ruleset"."""
    _write_all(club)
    lines = [line for line in FILES["myclub.yaml"].splitlines() if line and not line.startswith("#")]
    assert lines[:2] == ["kind: ruleset", "extends: standard"] and len(lines) <= 8
    resolved = load_ruleset("myclub.yaml")
    assert resolved.house_rules == ("jernhaand", "joker-trumpable")
    assert resolved.ruleset.jernhaand.allowed and resolved.ruleset.jokers is not None
    assert resolved.ruleset.jokers.led_joker == "loses_to_trump"


def test_the_changed_stakes_example_halves_the_points(club: Callable[..., str]) -> None:
    _write_all(club)
    rules = compile_rules(load_ruleset("halvdelen.yaml"))
    assert rules.scoring.scorer.score_trump("alm", 8, 10, alone=False).declarer == 30
    assert "gå med" in rules.auction.procedure([1, 2, 3, 0], ["sol"]).legal


def test_the_house_rule_example_applies(club: Callable[..., str]) -> None:
    _write_all(club)
    assert validate_file("tidlig-joker.yaml") == []
    resolved = load_ruleset("thorsen", ["./tidlig-joker.yaml"])
    assert resolved.house_rules == ("tidlig-joker",)
    assert resolved.ruleset.jokers is not None and resolved.ruleset.jokers.lead_first_trick
    with pytest.raises(RulesetError, match='the house rule "tidlig-joker" cannot apply'):
        load_ruleset("gruppe2", ["./tidlig-joker.yaml"])


def test_the_broken_example_gives_the_errors_the_guide_shows(club: Callable[..., str]) -> None:
    _write_all(club)
    danish = re.search(r"gives \(exit code 1\), in Danish[^\n]*\n\n```text\n(.*?)```", GUIDE, re.DOTALL)
    english = re.search(r"with `--lang en`[^\n]*\n\n```text\n(.*?)```", GUIDE, re.DOTALL)
    assert danish is not None and english is not None
    assert [p.text("da") for p in validate_file("broken.yaml")] == danish.group(1).splitlines()
    assert [str(p) for p in validate_file("broken.yaml")] == english.group(1).splitlines()


def test_the_guide_lists_every_scoring_variable() -> None:
    for name in TRUMP_VARIABLES:
        assert f"| `{name}` |" in GUIDE


def test_the_comparing_variants_examples_are_valid_club_files() -> None:
    """docs/comparing-variants.md compares standard with two club files; both validate and differ from
    standard exactly where the guide says."""
    examples = REPO / "docs" / "examples"
    rich = load_ruleset(str(examples / "richsol.yaml")).ruleset
    half = load_ruleset(str(examples / "halvpris.yaml")).ruleset
    standard = load_ruleset("standard").ruleset
    assert {k: 3 * v for k, v in standard.scoring.tables["S"].values.items()} == rich.scoring.tables["S"].values
    assert half.scoring.trump.failed == "-1 * base * B * D" and standard.scoring.trump.failed == "-2 * base * B * D"
    guide = (REPO / "docs" / "comparing-variants.md").read_text(encoding="utf-8")
    for command in ("compare standard docs/examples/richsol.yaml", "compare standard docs/examples/halvpris.yaml"):
        assert f"regelmotor {command} --bots expert" in guide
