"""The evening family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from regelmotor.model.base import Exact, Rule

SitOutSeat = Literal["dealer", "right_of_dealer", "left_of_dealer"]


class SitOut(Rule):
    players: int = Field(ge=5, le=6, description="Antal spillere ved bordet, som reglen gælder for (5 eller 6).")
    seats: tuple[SitOutSeat, ...] = Field(
        description=(
            'Hvem der sidder over i hvert spil: "dealer" (kortgiveren), "right_of_dealer" '
            '(spilleren til højre for kortgiveren), "left_of_dealer".'
        )
    )


class Table(Rule):
    players: tuple[int, ...] = Field(
        description="De tilladte antal spillere ved bordet (4, 5 eller 6); fire deltager i hvert spil."
    )
    sitting_out: tuple[SitOut, ...] = Field(
        default=(), description="Hvem der sidder over, når der er flere end fire spillere."
    )
    dealer_rotation: Literal["clockwise"] = Field(
        default="clockwise", description="Hvordan kortgiverrollen går videre: med uret."
    )
    same_dealer_after_sol: bool = Field(
        default=False,
        description=(
            "Om samme kortgiver giver igen efter et solspil (melderen alene mod tre) i stedet for at give videre."
        ),
    )
    partnerships: Literal["called", "fixed"] = Field(
        default="called",
        description=(
            'Hvordan makkerne findes: "called" (melderen kalder et makkerkort, es-makker whist) eller "fixed" '
            "(faste makkerpar over for hinanden hele aftenen: plads 1 og 3, plads 2 og 4; engelsk og dansk whist)."
        ),
    )


class Session(Rule):
    whole_rounds: bool = Field(
        description="Om en session skal bestå af hele runder (en runde = lige så mange spil som spillere)."
    )
    deals: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description=(
            "Aftenen er et fast antal spil: når så mange spil er spillet (om-givninger tæller ikke), er aftenen "
            "slut, og et spil mere kan ikke skrives. Tom betyder et vilkårligt antal."
        ),
    )
    game_to: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description=(
            "Et parti spilles til dette antal point: når en spiller (et par) når det, er partiet vundet, og et "
            "nyt begynder (engelsk whist spilles til 5). Til partiet tæller kun de point, et spil vinder; det "
            "tabende par mister intet af sine. Tom betyder ingen partier, kun aftenens sum."
        ),
    )


class Money(Rule):
    losses_to_box: bool = Field(
        default=False,
        description=("Om de beløb, der er tabt ved aftenens slutning, går i klubbens kasse i stedet for til vinderne."),
    )
    evening_fee: Exact = Field(
        default=Fraction(0), description="Et fast gebyr som hver spiller betaler til klubbens kasse pr. aften."
    )
