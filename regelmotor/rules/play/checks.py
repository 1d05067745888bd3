"""The card order's checks: every rank once in each order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args

from regelmotor.model.base import Rank
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said

RANKS: tuple[str, ...] = get_args(Rank)
"""The thirteen ranks as a ruleset writes them (the model's own list)."""


def check(r: Ruleset) -> Iterator[Finding]:
    for key in ("trump_games", "sol_games"):
        order = getattr(r.card_order, key)
        if sorted(order) != sorted(RANKS):
            missing = [rank for rank in RANKS if rank not in order]
            twice = sorted({rank for rank in order if order.count(rank) > 1})
            shown = {"missing": " ".join(missing), "twice": " ".join(twice)}
            phrase = "check_ranks_" + "_".join(k for k, v in shown.items() if v)
            yield ("card_order", key), said(phrase, **{k: v for k, v in shown.items() if v})
