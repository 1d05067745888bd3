"""The jokers family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rule


class Jokers(Rule):
    play_any_time: bool = Field(description="Om en joker må spilles når som helst, også når man kan bekende.")
    lead_first_trick: bool = Field(description="Om en joker må spilles ud til første stik.")
    led_joker: Literal["wins", "loses_to_trump"] = Field(
        description="En udspillet joker: vinder altid stikket, eller taber til den højeste trumf i stikket."
    )
    after_joker_lead: Literal["any_card"] = Field(
        description="Hvad de andre må lægge efter et jokerudspil: et hvilket som helst kort."
    )
