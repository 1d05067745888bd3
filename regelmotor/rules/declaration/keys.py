"""The declaration family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from regelmotor.model.base import Denomination, Rank, Rule

KittyTurn = Literal["may_accept", "cannot_accept", "must_accept"]


class Trump(Rule):
    by: Literal["declarer", "partner", "fixed", "kitty"] = Field(
        description=(
            'Hvordan trumf bestemmes: "declarer" (melderen vælger), "partner" (makkeren '
            'vælger, som i halve), "fixed" (fast, fx klør i gode), "kitty" (kattens kort vendes, vip).'
        )
    )
    choices: tuple[Denomination, ...] | None = Field(
        default=None,
        description=(
            'De valgbare benævnelser (S, H, D, C, none = uden trumf); ved "fixed" præcis én. Bruges ikke ved "kitty".'
        ),
    )
    not_called_suit: bool = Field(default=False, description="Om trumf ikke må være makkerkortets farve (halve).")
    turns: tuple[KittyTurn, ...] | None = Field(
        default=None,
        description=(
            'Ved "kitty": reglen for hvert vendt kort i rækkefølge: "may_accept" (kan antages '
            'eller afvises), "cannot_accept" (kan ikke antages), "must_accept" (kan ikke afvises).'
        ),
    )
    joker_takes_previous: bool = Field(
        default=False,
        description=(
            "Ved vip: om en vendt joker lader spilleren tage det forrige vendte korts farve som trumf "
            "(ellers betyder en antaget joker uden trumf)."
        ),
    )
    partner_may_vip: bool = Field(
        default=False,
        description=(
            'Ved "partner" (halve): om makkeren i stedet for at vælge trumf må vippe (vende katten efter "turns"); '
            "så må makkerkortets farve gerne blive trumf."
        ),
    )


class Call(Rule):
    suits: Literal["any", "not_trump"] = Field(
        description="Hvilke farver makkerkortet må være i: alle, eller alle undtagen trumffarven."
    )


class PartnerCard(Rule):
    ranks: tuple[Rank, ...] = Field(
        description=(
            "Makkerkortets mulige værdier i rækkefølge: normalt es; den næste (konge, dame, ...) "
            "kun når melderen har alle kort af de foregående værdier."
        )
    )
    descend_when: Literal["holding_all_allowed", "holding_all_four"] = Field(
        description=(
            "Hvornår melderen må gå ned til næste værdi: når han har den i alle valgbare farver, "
            "eller kun når han har alle fire (fx alle 4 esser)."
        )
    )
    descend: Literal["may", "must"] = Field(
        default="may",
        description=(
            "Om melderen, der har alle kort af en værdi, må eller skal kalde den næste (fx en konge med alle "
            'fire esser): "may" må (og kan ellers kalde sit eget kort), "must" skal. Ved den laveste værdi i '
            "ranks kaldes der blandt den."
        ),
    )
    own_card_allowed: bool = Field(description="Om melderen må kalde sit eget kort (og dermed blive selvmakker).")
