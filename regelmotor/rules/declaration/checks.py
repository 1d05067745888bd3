"""The declaration's checks: the partner card's ranks to call, each once; each designation's trump and call."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.rules.findings import Finding, said
from regelmotor.rules.vip import checks as vip_checks


def check(r: Ruleset) -> Iterator[Finding]:
    ranks = r.partner_card.ranks
    if not ranks:
        yield ("partner_card", "ranks"), said("check_name_at_least_one_rank")
    if len(set(ranks)) != len(ranks):
        yield ("partner_card", "ranks"), said("check_a_rank_is_listed_twice")


def designations(r: Ruleset) -> Iterator[Finding]:
    """Each designation's trump and partner card: who decides trump and from what, and what may be called.
    Run with the bids' checks, before the scoring's: the scores are worked out only on sound designations."""
    for i, d in enumerate(r.designations):
        here = ("designations", i)
        trump, kind = d.trump, kind_of(d)
        if kind.turns_kitty:
            if trump.choices is not None:
                yield (*here, "trump", "choices"), said("check_the_kitty_decides_trump_here")
            if r.deck.kitty == 0:
                yield (*here, "trump", "by"), said("check_turns_the_kitty_for_trump", d_id=d.id)
            else:
                yield from vip_checks.turns(r, d, here)
            if d.call.suits == "not_trump":
                yield (
                    (*here, "call", "suits"),
                    said("check_the_partner_card_is_named"),
                )
        else:
            if trump.turns is not None and not trump.partner_may_vip:
                yield (*here, "trump", "turns"), said("check_turns_are_only_used_when")
            choices = trump.choices or ()
            if not choices:
                yield (*here, "trump", "choices"), said("check_has_no_trump_to_choose", d_id=d.id)
            elif len(set(choices)) != len(choices):
                yield (*here, "trump", "choices"), said("check_a_denomination_is_listed_twice")
            elif kind.trump_fixed and len(choices) != 1:
                yield (*here, "trump", "choices"), said("check_a_fixed_trump_has_exactly")
            elif trump.not_called_suit and len([c for c in choices if c != "none"]) <= 1 and "none" not in choices:
                yield (
                    (*here, "trump", "choices"),
                    said("check_with_not_called_suit_the"),
                )
            if kind.partner_names_trump and d.call.suits == "not_trump":
                yield (*here, "call", "suits"), said("check_the_partner_names_trump_after")
        yield from vip_checks.turning(r, d, here)
