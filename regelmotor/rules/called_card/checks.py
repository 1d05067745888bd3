"""The partner card in play: every time it is led needs the first time."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    if r.called_card.must_fall_every_time_led and not r.called_card.must_fall_first_time_led:
        yield ("called_card", "must_fall_every_time_led"), said("check_every_time_without_first_time")
