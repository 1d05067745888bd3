"""The auction family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rule
from regelmotor.rules.gaa_med.keys import GaaMed


class Auction(Rule):
    procedure: Literal["melde_tilbage", "none"] = Field(
        description=(
            'Meldeforløbet: "melde_tilbage": forhånden åbner, den næste overmelder eller passer, '
            "de to melder færdig, så kommer den næste ind mod det højeste bud. Pas er endeligt. "
            '"none": der meldes ikke; all_pass.contract spilles (engelsk whist).'
        )
    )
    gaa_med: GaaMed = Field(
        default=GaaMed(sol_bids=False, vip_bids=False),
        description="Gå med: at slutte sig til det højeste bud i stedet for at overmelde.",
    )
    kan_selv: bool = Field(
        default=False,
        description=(
            "Kan selv (tage den i baghånden): når forhånden er overmeldt, kan han overtage buddet på samme "
            "højde i stedet for at melde over eller passe; den overmeldte skal så melde over eller passe."
        ),
    )
    kan_selv_for: Literal["forhaand", "overcalled"] = Field(
        default="forhaand",
        description=(
            'Hvem der kan selv: "forhaand": kun forhånden; "overcalled": enhver melder, der er blevet '
            "overmeldt. Et bud, der er taget selv, kan ikke tages tilbage på samme højde."
        ),
    )
