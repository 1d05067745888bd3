"""The partner card's checks: ranks to call, each once."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    ranks = r.partner_card.ranks
    if not ranks:
        yield ("partner_card", "ranks"), said("check_name_at_least_one_rank")
    if len(set(ranks)) != len(ranks):
        yield ("partner_card", "ranks"), said("check_a_rank_is_listed_twice")
