"""The jokers' checks: rules for the jokers when, and only when, the deck has them."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    if r.deck.jokers and r.jokers is None:
        yield ("jokers",), said("check_the_deck_has_jokers_say", r_deck_jokers=r.deck.jokers)
    if not r.deck.jokers and r.jokers is not None:
        yield ("jokers",), said("check_joker_rules_on_a_ruleset")
