"""The jernhaand family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rank, Rule


class Jernhaand(Rule):
    allowed: bool = Field(description="Om jernhånd må påberåbes.")
    court_ranks: tuple[Rank, ...] = Field(
        default=("A", "K", "Q", "J"),
        description="Kort der gør en hånd til ikke-jernhånd (og enhver joker).",
    )
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        default="same_dealer", description="Hvem der giver om efter jernhånd."
    )
