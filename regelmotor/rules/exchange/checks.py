"""The exchange's checks: a kitty to exchange with, and each designation's exchange."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    rule = r.exchange
    if rule.allowed and r.deck.kitty == 0:
        yield ("exchange", "allowed"), said("check_exchanging_needs_a_kitty_and")
    if rule.sol.allowed and not rule.allowed:
        yield ("exchange", "sol", "allowed"), said("check_sol_declarers_cannot_exchange_in")
    if rule.required == "compulsory" and not rule.allowed:
        yield ("exchange", "required"), said("check_the_exchange_cannot_be_compulsory")


def designations(r: Ruleset) -> Iterator[Finding]:
    """Each designation's exchange: who exchanges, and whether he must. Run with the bids' checks."""
    for i, d in enumerate(r.designations):
        here = ("designations", i)
        kind = kind_of(d)
        if d.exchange is None:
            continue
        if d.exchange.by in ("partner", "partner_chooses") and not (d.reveal_partner or kind.partner_names_trump):
            yield (*here, "exchange", "by"), said("check_the_partner_can_only_exchange")
        if d.exchange.by == "partner_chooses" and not r.exchange.allowed:
            yield (*here, "exchange", "by"), said("check_the_partner_cannot_choose_who")
        if d.exchange.required == "compulsory" and not r.exchange.allowed:
            yield (*here, "exchange", "required"), said("check_the_exchange_is_compulsory_here")
