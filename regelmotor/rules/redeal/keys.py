"""The redeal family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from regelmotor.model.base import Exact, Rule
from regelmotor.rules.contracts.keys import SolBid


class Misdeal(Rule):
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        description="Hvem der giver om efter en fejlgivning: samme kortgiver eller den næste."
    )
    penalty: Exact = Field(
        default=Fraction(0),
        description="Strafscore til hver af de andre spillere efter en fejlgivning (0 = ingen straf aftalt).",
    )
    culprit_pays: bool = Field(
        default=False,
        description="Om en anden spiller, der er skyld i fejlgivningen, betaler straffen i stedet for kortgiveren.",
    )


class AllPass(Rule):
    redeal_by: Literal["same_dealer", "next_dealer"] | None = Field(
        default=None, description="Hvem der giver nye kort, når alle har meldt pas."
    )
    contract: SolBid | None = Field(
        default=None,
        description=(
            "Spillet der spilles, når alle melder pas (pasnolo i dansk whist) eller der ikke meldes "
            "(engelsk whist), i stedet for at give nye kort: det står ikke i stigerækken."
        ),
    )


class Omblanding(Rule):
    allowed: bool = Field(
        default=False,
        description="Om enhver spiller kan bede om omblanding, før han har kigget på sine kort (ny kortgivning).",
    )
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        default="same_dealer", description="Hvem der giver om efter en omblanding."
    )
