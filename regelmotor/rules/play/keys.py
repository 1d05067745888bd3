"""The play family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Rank, Rule


class CardOrder(Rule):
    trump_games: tuple[Rank, ...] = Field(description="Kortenes rækkefølge i hver farve i trumfspil, højeste først.")
    sol_games: tuple[Rank, ...] = Field(description="Kortenes rækkefølge i hver farve i solspil, højeste først.")


class Play(Rule):
    first_lead: Literal["forhaand"] = Field(description="Hvem der spiller ud til første stik: forhånden.")
    follow_suit: Literal["must_follow_else_any"] = Field(
        description="Man skal bekende; kan man ikke, må man spille et hvilket som helst kort (ingen trumfpligt)."
    )
    trick_winner: Literal["highest_trump_else_led_suit"] = Field(
        description="Stikket vindes af den højeste trumf, ellers det højeste kort i udspilsfarven."
    )
    sol_ends: Literal["when_all_declarers_lost", "all_tricks"] = Field(
        description="Om et solspil stopper, så snart alle spilførere har tabt, eller spilles til ende."
    )
