"""The exchange's checks: a kitty to exchange with."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    rule = r.exchange
    if rule.allowed and r.deck.kitty == 0:
        yield ("exchange", "allowed"), said("check_exchanging_needs_a_kitty_and")
    if rule.sol.allowed and not rule.allowed:
        yield ("exchange", "sol", "allowed"), said("check_sol_declarers_cannot_exchange_in")
    if rule.required == "compulsory" and not rule.allowed:
        yield ("exchange", "required"), said("check_the_exchange_cannot_be_compulsory")
