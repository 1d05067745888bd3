"""The auction family's checks: kan selv needs an auction to say it in."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    if r.auction.kan_selv and r.auction.procedure == "none":
        yield ("auction", "kan_selv"), said("check_with_no_auction_there_is")
    if r.auction.kan_selv_for != "forhaand" and not r.auction.kan_selv:
        yield ("auction", "kan_selv_for"), said("check_kan_selv_for_without_kan_selv")
