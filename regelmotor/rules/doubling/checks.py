"""Doubling's checks: an auction to double in, and a factor that raises the stakes."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    rule = r.doubling
    if rule.allowed and r.auction.procedure == "none":
        yield ("doubling", "allowed"), said("check_with_no_auction_there_is_2")
    if rule.redouble and not rule.allowed:
        yield ("doubling", "redouble"), said("check_redoubling_needs_doubling")
    if rule.during_tricks and not rule.allowed:
        yield ("doubling", "during_tricks"), said("check_doubling_in_play_needs_doubling")
    if rule.factor <= 1:
        yield ("doubling", "factor"), said("check_a_doubling_must_raise_the", rule_factor=rule.factor)
