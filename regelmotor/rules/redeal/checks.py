"""Dealing again's checks: when all pass, either a new deal or a game played, never both or neither."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    rule = r.all_pass
    if (rule.redeal_by is None) == (rule.contract is None):
        yield ("all_pass",), said("check_say_either_redeal_by_new")
