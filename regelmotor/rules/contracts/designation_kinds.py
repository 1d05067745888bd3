"""The kinds of designation, by who decides trump: one registry in place of branches on ``trump.by``.

000 4.1.1 orders the declaration by who names trump: the declarer names it first, then the
partner card (almindelige); the contract fixes it (gode, sans); the partner names it after the
call and shows himself (halve); the kitty decides it after every declarer has named his card
(vip, 000 4.3.1). Each kind holds its declaration steps, whether it turns the kitty, the rule
book's phrase for it and what a bot may assume about trump.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from regelmotor.hooks import PARTNER, DeclarationStep
from regelmotor.rules.contracts.keys import Designation

Steps = tuple[tuple[DeclarationStep, int], ...]


@dataclass(frozen=True)
class DesignationKind:
    name: str
    steps: Callable[[Designation, Sequence[int]], Steps]
    """The declaration steps of a contract of this kind, before the designation's own additions."""
    turns_kitty: bool
    """Trump is found by turning the kitty (vip): gå med may apply, and the turning rules are needed."""
    phrase: str
    """The rule book's phrase for who decides trump (``phrase_table``)."""
    trump_fixed: bool = False
    """The contract fixes trump (gode, sans): its one choice is the trump, and nobody names it."""
    partner_names_trump: bool = False
    """The partner names trump after the call and so shows himself (halve, 000 4.2.2)."""


def _declarer(d: Designation, declarers: Sequence[int]) -> Steps:
    return (("trump", declarers[0]), ("call", declarers[0]))


def _fixed(d: Designation, declarers: Sequence[int]) -> Steps:
    return (("call", declarers[0]),)


def _partner(d: Designation, declarers: Sequence[int]) -> Steps:
    """000 4.2.2: the partner shows himself at once after the call, then names trump (or vips, where he may)."""
    return (
        ("call", declarers[0]),
        ("reveal", PARTNER),
        ("trump_or_vip" if d.trump.partner_may_vip else "trump", PARTNER),
    )


def _kitty(d: Designation, declarers: Sequence[int]) -> Steps:
    """000 4.3.1: the declarer names his card, then each joiner his, then the kitty is turned."""
    return (*(("call", seat) for seat in declarers), ("kitty", declarers[0]))


KINDS: dict[str, DesignationKind] = {
    "declarer": DesignationKind("declarer", _declarer, False, "d_declarer"),
    "fixed": DesignationKind("fixed", _fixed, False, "d_fixed", trump_fixed=True),
    "partner": DesignationKind("partner", _partner, False, "d_partner", partner_names_trump=True),
    "kitty": DesignationKind("kitty", _kitty, True, "d_kitty"),
}
"""``trump.by`` -> its kind."""


def kind_of(designation: Designation) -> DesignationKind:
    return KINDS[designation.trump.by]


def turns_kitty(designation: Designation) -> bool:
    """Whether a contract in this designation may turn the kitty (vip, or halve where the partner may vip)."""
    return kind_of(designation).turns_kitty or designation.trump.partner_may_vip
