"""The exchange family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rule


class DesignationExchange(Rule):
    by: Literal["declarer", "partner", "partner_chooses"] = Field(
        default="declarer",
        description=(
            'Hvem der bytter med katten i denne betegnelse: melderen, makkeren (i halve), eller "partner_chooses": '
            "makkeren bestemmer, om han selv eller melderen bytter."
        ),
    )
    required: Literal["optional", "compulsory"] | None = Field(
        default=None,
        description="Om bytning er valgfri eller tvungen i denne betegnelse (tom = reglesættets almindelige regel).",
    )


class SolExchange(Rule):
    allowed: bool = Field(description="Om spilførerne i solspil må bytte med katten.")
    order: Literal["bidding_order", "last_joiner_first"] = Field(
        description="Rækkefølgen når flere spilfører bytter: meldeorden, eller sidste medgænger først."
    )
    discards_become_kitty: bool = Field(description="Om en spilførers afkastede kort bliver ny kat for den næste.")


class Exchange(Rule):
    allowed: bool = Field(description="Om der byttes med katten overhovedet.")
    amount: Literal["all_or_none", "up_to_all"] = Field(
        description="Alle kattens kort eller ingen, eller et valgfrit antal fra toppen af katten."
    )
    order: Literal["discard_first", "take_first"] = Field(
        description="Om kortene lægges fra før katten tages op, eller omvendt."
    )
    required: Literal["optional", "compulsory"] = Field(
        description="Om bytning er valgfri eller tvungen (en betegnelse kan ændre det)."
    )
    leftover: Literal["stays", "passes_clockwise"] = Field(
        description="Hvad der sker med kattekort spilføreren ikke tager: bliver liggende, eller går videre med uret."
    )
    called_card_may_be_discarded: bool = Field(description="Om makkerkortet må lægges i katten.")
    sol: SolExchange = Field(description="Bytning i solspil.")
