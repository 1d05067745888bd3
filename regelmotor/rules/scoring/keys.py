"""The scoring family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from regelmotor.model.base import Exact, Formula, Rule


class PointTable(Rule):
    """A point table; as every rule, it may cite where its numbers come from (``source``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)

    key: Literal["level", "bid"] = Field(
        description=(
            'Hvad tabellen slås op efter: "level" (antal stik meldt) eller "bid" (betegnelsens eller solbuddets id).'
        )
    )
    values: dict[str, Exact] = Field(
        description="Tabellens værdier: antal stik (7, 8, ...) eller meldingens id -> point."
    )


class GameScoring(Rule):
    formula: Formula | None = Field(
        default=None, description="Én formel for en spillers score, med V = +1 vundet og -1 tabt."
    )
    made: Formula | None = Field(default=None, description="Formlen for en spillers score, når kontrakten holder.")
    failed: Formula | None = Field(
        default=None, description="Formlen for en spillers score, når kontrakten ikke holder."
    )


class Scoring(Rule):
    constants: dict[str, Exact] = Field(
        default_factory=dict, description="Navngivne konstanter til formlerne (fx M og G hos Thorsen)."
    )
    tables: dict[str, PointTable] = Field(
        default_factory=dict, description="Navngivne pointtabeller til formlerne (fx grundtaksten pr. antal stik)."
    )
    trump: GameScoring | None = Field(
        default=None, description="Afregning af trumfspil (udelades i spil uden stikbud: dansk og engelsk whist)."
    )
    sol: GameScoring = Field(description="Afregning af solspil.")
    decimals: int = Field(
        default=2, ge=0, le=6, description="Antal decimaler når ikke-hele point udskrives (regningen er eksakt)."
    )
    rounding: Literal["exact", "whole_up"] = Field(
        default="exact",
        description=(
            'Afrunding af hvert spils point: "exact": regnes eksakt (brøker udskrives med decimals); "whole_up": '
            "hvert spils point rundes op til hele point: hver modspillers andel rundes op (væk fra nul), og "
            "melderens side får, hvad modspillerne tilsammen betaler, så summen stadig er nul."
        ),
    )
    losers_pay: bool = Field(
        default=True,
        description=(
            "Om taberne betaler, hvad vinderne får, så hvert spils point går i nul (es-makker og dansk whist). "
            'false: kun vinderne får point, taberne intet (engelsk whist, 002: "Det par, der vinder flest stik, '
            'får 1 point pr. stik udover de første 6 stik"); kun i spil par mod par.'
        ),
    )
