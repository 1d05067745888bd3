"""The fordækt card's checks: a most-held limit needs fordækt, and fordækt needs a partner card."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    if r.fordaekt.most_held and not r.fordaekt.allowed:
        yield ("fordaekt", "most_held"), said("check_most_held_without_fordaekt")
    if r.fordaekt.allowed and not r.designations:
        yield ("fordaekt", "allowed"), said("check_a_card_is_laid_ford")
