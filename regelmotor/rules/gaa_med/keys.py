"""The gaa_med family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from pydantic import Field

from regelmotor.model.base import Rule


class GaaMed(Rule):
    sol_bids: bool = Field(description="Om man kan gå med i et solbud.")
    vip_bids: bool = Field(description="Om man kan gå med i et vipbud (og overtage kontrakten).")
