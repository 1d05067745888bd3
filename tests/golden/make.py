"""Write ``behaviour.json``: what a club sees of the shipped rulesets, taken from a checkout of main before a
redesign, for ``tests/test_nothing_a_club_sees_changes.py`` to hold every later version to.

Run by hand from the checkout whose behaviour is the reference: ``python3 tests/golden/make.py``. It holds,
for every shipped ruleset: its ladder, the points of every contract at every number of tricks for each
role (the score command's answer), and the seeded games of every bot (each deal's actions and scores).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from regelmotor.simulate import run_deals  # noqa: E402

RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2", "engelsk", "dansk")
BOTS = ("random", "heuristic", "expert")
DEALS = {"random": 6, "heuristic": 4, "expert": 2}
SEED = 7


def games(ruleset: str, bot: str) -> list[dict[str, object]]:
    """Each seeded deal as the record keeps it: the actions, the tricks and the scores."""
    played = run_deals(ruleset, [], DEALS[bot], SEED, [bot] * 4, records=(ruleset, ()))
    kept = []
    for deal in played:
        assert deal.record is not None
        record = json.loads(deal.record)
        kept.append({"actions": record["actions"], "result": record.get("result")})
    return kept


def ladder(ruleset: str) -> list[str]:
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    rules = compile_rules(load_ruleset(ruleset))
    return [bid.text for group in rules.auction.ladder.groups for bid in group]


def behaviour() -> dict[str, object]:
    return {
        ruleset: {"ladder": ladder(ruleset), "games": {bot: games(ruleset, bot) for bot in BOTS}}
        for ruleset in RULESETS
    }


if __name__ == "__main__":
    (HERE / "behaviour.json").write_text(json.dumps(behaviour(), ensure_ascii=False, indent=0) + "\n", "utf-8")
