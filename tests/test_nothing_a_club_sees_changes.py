"""Nothing a club sees changes when the code is reshaped (issue 72, "Done when"): every shipped ruleset's
ladder and scores and the seeded decisions of every bot are those of main before the rule-family redesign,
kept in ``tests/golden/behaviour.json`` (made by ``tests/golden/make.py`` from that checkout). The rule
books (``docs/rulebooks``), the stored records' replays (``tests/records``) and the double-dummy values
(``tests/records/solver_values.json``) are held by their own tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelmotor.simulate import run_deals

from .conftest import REPO

GOLDEN = json.loads((REPO / "tests" / "golden" / "behaviour.json").read_text(encoding="utf-8"))
SEED = 7


@pytest.mark.parametrize("ruleset", sorted(GOLDEN))
def test_the_ladder_is_as_before(ruleset: str) -> None:
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    rules = compile_rules(load_ruleset(ruleset))
    assert [bid.text for group in rules.auction.ladder.groups for bid in group] == GOLDEN[ruleset]["ladder"]


@pytest.mark.parametrize(
    ("ruleset", "bot"), [(r, b) for r in sorted(GOLDEN) for b in sorted(GOLDEN[r]["games"])], ids=str
)
def test_every_bots_seeded_games_are_as_before(ruleset: str, bot: str) -> None:
    """The same seed deals the same cards, every bot makes the same decisions, and every deal scores the
    same: actions, tricks and scores alike."""
    kept = GOLDEN[ruleset]["games"][bot]
    played = run_deals(ruleset, [], len(kept), SEED, [bot] * 4, records=(ruleset, ()))
    for number, (deal, before) in enumerate(zip(played, kept, strict=True)):
        assert deal.record is not None
        record = json.loads(deal.record)
        assert record["actions"] == before["actions"], f"{ruleset}, {bot}, deal {number + 1}: other decisions"
        assert record.get("result") == before["result"], f"{ruleset}, {bot}, deal {number + 1}: another result"


def test_the_golden_file_was_made_by_its_script() -> None:
    """The reference names what it holds: every shipped ruleset, and the script that made it is kept."""
    assert set(GOLDEN) == {"standard", "thorsen", "whistklubben", "gruppe2", "engelsk", "dansk"}
    assert Path(REPO / "tests" / "golden" / "make.py").is_file()
