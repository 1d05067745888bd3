"""The called_card family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from pydantic import Field

from regelmotor.model.base import Rule


class CalledCard(Rule):
    must_fall_first_time_led: bool = Field(
        description="Om makkerkortet skal spilles første gang dets farve spilles ud."
    )
    must_fall_every_time_led: bool = Field(
        default=False,
        description=(
            "Om makkerkortet skal spilles, hver gang dets farve spilles ud, så længe indehaveren har det "
            "(ikke kun første gang): faldt det ikke første gang (første stik fri, eller indehaveren spillede "
            "selv farven ud), skal det falde næste gang. Kræver must_fall_first_time_led."
        ),
    )
    holder_leads_it: bool = Field(
        description="Om indehaveren, der selv spiller farven ud første gang, skal spille makkerkortet ud."
    )
    applies_to_selvmakker: bool = Field(description="Om reglerne også gælder, når melderen er selvmakker.")
    may_be_trumped: bool = Field(description="Om makkerkortet må stikkes med trumf.")
    free_first_trick: bool = Field(
        default=False,
        description='Om makkerkortets regler er ophævet i første stik ("I første runde må spilles alt").',
    )
