"""The fordaekt family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from pydantic import Field

from regelmotor.model.base import Rule


class Fordaekt(Rule):
    allowed: bool = Field(
        description=(
            "Fordækt kort: en spilfører der er fri i makkerkortets farve må lægge ét kort skjult, "
            "som tæller som det laveste kort i den farve."
        )
    )
    most_held: int = Field(
        default=0,
        ge=0,
        le=12,
        description=(
            "Hvor mange kort i makkerkortets farve spilføreren højst må have og alligevel lægge et fordækt kort "
            "(et markeringskort): 0 når han skal være fri i farven (000 6.1.1), 1 når han højst har ét."
        ),
    )
