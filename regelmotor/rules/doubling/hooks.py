"""Dobling: Whistgruppe 2 lets the players who are not the declarer double a contract once, and
the declarer redouble (rules-matrix.md section 9); the ruleset says whether the partner may
double too (``by: not_declarer``) or only the opponents (``by: opponents``). Some groups let a player
double ("banke") during the first tricks too, at his turn to play (``during_tricks``): issue 23's list."""

from __future__ import annotations

from collections.abc import Sequence

from regelmotor.hooks import ContractInfo, DoublingRule, hookimpl
from regelmotor.model.ruleset import Ruleset


def _nobody(contract: ContractInfo, seats: Sequence[int]) -> tuple[int, ...]:
    return ()


def doubling(ruleset: Ruleset) -> DoublingRule:
    rule = ruleset.doubling
    if not rule.allowed:
        return DoublingRule(_nobody, redouble=False)
    opponents_only = rule.by == "opponents"

    def doublers(contract: ContractInfo, seats: Sequence[int]) -> tuple[int, ...]:
        if not contract.declarers:
            return ()  # a game nobody bid has nothing to double
        return tuple(s for s in seats if s not in contract.declarers and not (opponents_only and s == contract.partner))

    return DoublingRule(
        doublers, redouble=rule.redouble, most=2 if rule.redouble else 1, during_tricks=rule.during_tricks
    )


class DoublingRules:
    @hookimpl
    def regelmotor_doubling(self, ruleset: Ruleset) -> DoublingRule:
        return doubling(ruleset)
