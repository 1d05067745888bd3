"""The deck's and the dealing's checks: 52 cards dealt, packets and patterns that can be dealt."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.dealing.hooks import pattern_problem
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    cards = 52 + r.deck.jokers
    if cards - r.deck.kitty != 52:
        yield (
            ("deck", "kitty"),
            said("check_cards_dealt_to_each_of", cards=cards, cards_52=cards - 52, kitty=r.deck.kitty),
        )
    for i, size in enumerate(r.dealing.packet_sizes):
        if not 1 <= size <= 13:
            yield ("dealing", "packet_sizes", i), said("check_a_packet_of_cards_is", size=size)
    problem = pattern_problem(r, r.dealing.pattern)
    if problem is not None:
        yield ("dealing", "pattern"), problem
