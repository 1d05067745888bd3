"""The doubling family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from regelmotor.model.base import Exact, Rule


class Doubling(Rule):
    allowed: bool = Field(description="Om der må dobles.")
    by: Literal["opponents", "not_declarer"] = Field(
        default="not_declarer",
        description="Hvem der må doble: modspillerne, eller alle undtagen spilføreren.",
    )
    redouble: bool = Field(default=False, description="Om spilføreren må svare med en redobling.")
    factor: Exact = Field(default=Fraction(2), description="Hvad en dobling ganger alle betalinger med.")
    during_tricks: int = Field(
        default=0,
        ge=0,
        le=12,
        description=(
            'I hvor mange af de første stik der stadig må dobles ("bankes"), af en spiller, når det er hans tur '
            "til at lægge et kort, så længe der ikke er doblet: 0 = kun før første udspil; 3 = også under de tre "
            "første stik. Spilføreren må redoble på samme måde, hvor redouble er tilladt."
        ),
    )
