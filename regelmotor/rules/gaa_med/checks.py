"""Gå med's checks: one can only go with a bid the ruleset has."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    rule = r.auction.gaa_med
    if rule.vip_bids and not any(kind_of(d).turns_kitty for d in r.designations):
        phrase = "check_gaa_med_vip_no_kitty" if r.deck.kitty == 0 else "check_gaa_med_vip"
        yield ("auction", "gaa_med", "vip_bids"), said(phrase)
    if rule.sol_bids and not any(s.side == "alone" for s in r.sol_bids):
        yield ("auction", "gaa_med", "sol_bids"), said("check_g_med_on_sol_bids")
