"""Jernhånd's checks: each court rank once."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    ranks = r.jernhaand.court_ranks
    if len(set(ranks)) != len(ranks):
        yield ("jernhaand", "court_ranks"), said("check_a_rank_is_listed_twice")
