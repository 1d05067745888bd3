"""The dealing family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rule


class Deck(Rule):
    jokers: int = Field(ge=0, le=3, description="Antal jokere i spil (0-3); 0 betyder 52 kort.")
    kitty: int = Field(ge=0, le=3, description="Antal kort i katten (bytterne); 0 betyder ingen kat.")


DealStep = int | Literal["kat"]


class Dealing(Rule):
    pattern: tuple[DealStep, ...] = Field(
        description=(
            "Kortgivningens mønster i rækkefølge: et tal n giver n kort til hver af de fire "
            'deltagere med uret fra forhånden; "kat" lægger ét kort i katten (det første nederst).'
        )
    )
    packet_sizes: tuple[int, ...] = Field(
        default=(1, 2, 3),
        description="De pakkestørrelser en kortgiver må bruge, når han giver efter andet mønster end standardmønstret.",
    )
    kitty_last_allowed: bool = Field(default=True, description="Om kortgivningens sidste kort må gå til katten.")
