"""The kitty turned for trump: one turning rule per kitty card, and the house rules on turning."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of, turns_kitty
from regelmotor.rules.contracts.keys import Designation
from regelmotor.rules.findings import Finding, said


def turns(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """One turning rule per kitty card, the last one must_accept."""
    turns = d.trump.turns
    if turns is None or len(turns) != r.deck.kitty:
        given = 0 if turns is None else len(turns)
        yield (*here, "trump", "turns"), said("check_give_one_turning_rule_per", kitty=r.deck.kitty, given=given)
    elif turns[-1] != "must_accept":
        yield (
            (*here, "trump", "turns", len(turns) - 1),
            said("check_the_last_kitty_card_must"),
        )


def turning(r: Ruleset, d: Designation, here: tuple[str | int, ...]) -> Iterator[Finding]:
    """The house rules on turning the kitty: the partner's vip in halve, a turned joker's previous card."""
    trump = d.trump
    if trump.partner_may_vip:
        if not kind_of(d).partner_names_trump:
            yield (*here, "trump", "partner_may_vip"), said("check_only_a_partner_who_names")
        elif r.deck.kitty == 0:
            yield (*here, "trump", "partner_may_vip"), said("check_the_partner_cannot_vip_this")
        else:
            yield from turns(r, d, here)
    if trump.joker_takes_previous:
        if not turns_kitty(d):
            yield (*here, "trump", "joker_takes_previous"), said("check_only_a_designation_that_turns")
        elif r.deck.jokers == 0:
            yield (*here, "trump", "joker_takes_previous"), said("check_this_ruleset_plays_without_jokers")
