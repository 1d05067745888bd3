"""The contracts family's keys: what a club's file may say about it, with types, defaults and the
sentence (the field's description) the schema, ``diff`` and the club's page show."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, WithJsonSchema

from regelmotor.model.base import BidId, Rule
from regelmotor.rules.declaration.keys import Call, Trump
from regelmotor.rules.exchange.keys import DesignationExchange

MAX_DESIGNATIONS = 32
"""More designations than any rule text gives: Thorsen's law has seven (alm, gode, vip1-3, halve, sans), 002
names seven påhæng. A longer list is a mistake (or an attack), refused at its line before it is checked."""


MAX_SOL_BIDS = 16
"""More sol bids than any club plays (001 has four, 000 four, 002 five): refused at the list's line."""


class Bids(Rule):
    min_tricks: int = Field(ge=1, le=13, description="Laveste trumfbud (antal stik), normalt 7.")
    max_tricks: int = Field(ge=1, le=13, description="Højeste trumfbud (antal stik), normalt 13.")


class Designation(Rule):
    id: BidId
    display: str = Field(description='Det danske navn efter tallet i en melding (tomt for almindelige; fx "vip i 2.").')
    tier: int = Field(
        ge=0,
        description=(
            "Rang inden for samme antal stik, 0 lavest; samme rang betyder at meldingerne ikke "
            "kan overmelde hinanden på samme antal stik. Udeladt med same_rank_as."
        ),
    )
    same_rank_as: BidId | None = Field(
        default=None,
        description=(
            "Betegnelsen denne er lige så høj som, i stedet for tier: fx gode, så en husregel kan tilføje en "
            "betegnelse til ethvert reglesæt; den får dennes rang."
        ),
    )
    trump: Trump = Field(description="Hvordan trumf bestemmes i denne betegnelse.")
    call: Call = Field(description="Hvilke farver makkerkortet må kaldes i.")
    exchange: DesignationExchange | None = Field(
        default=None,
        description="Bytteregler der gælder netop denne betegnelse (udeladt: reglesættets almindelige bytteregler).",
    )
    reveal_partner: bool = Field(
        default=False, description="Om makkeren giver sig til kende straks efter makkerkortet er nævnt (halve)."
    )


class Side(StrEnum):
    """Who plays together in a named contract: the declarer alone against three, the declarer and his fixed
    partner against the other pair, the fixed pairs against each other (no declarer), each for himself."""

    ALONE = "alone"
    PARTNER = "partner"
    PAIRS = "pairs"
    EACH = "each"


SideName = Annotated[Side, WithJsonSchema({"enum": [side.value for side in Side], "type": "string"})]
"""A side as a club's file writes it: the schema spells its values out in place."""


class SolBid(Rule):
    """A bid named by its name, not by a number of tricks: the sol bids of es-makker whist, and every
    contract of dansk whist (grandi, sol, grand, nolo, and pasnolo when all pass)."""

    id: BidId
    display: str = Field(description='Meldingens danske navn, fx "Ren sol".')
    after: str | None = Field(
        default=None,
        min_length=1,
        description=(
            'Meldingen lige under denne i stigerækken, i notationen (fx "9" eller "sol"): '
            "udeladt er buddet det laveste (dansk whists nolo)."
        ),
    )
    side: SideName = Field(
        default=Side.ALONE,
        description=(
            'Hvem der spiller sammen: "alone" (melderen alene mod tre), "partner" (melderen og hans faste makker '
            'mod det andet par), "pairs" (de faste par mod hinanden, uden melder: engelsk whist), '
            '"each" (hver for sig, uden melder: pasnolo).'
        ),
    )
    max_tricks: int | None = Field(
        default=None, ge=0, le=13, description="Det højeste antal stik melderen (hans side) må tage."
    )
    min_tricks: int | None = Field(
        default=None, ge=1, le=13, description="Det mindste antal stik melderen (hans side) skal tage (7 i grand)."
    )
    first_tricks: int | None = Field(
        default=None,
        ge=1,
        le=13,
        description="Melderen skal tage så mange af de første stik, hvert eneste (de 7 første i grandi).",
    )
    fewest_tricks: bool = Field(
        default=False,
        description=(
            'Om den eller de med færrest stik vinder (pasnolo) i stedet for flest: ved "each" hver spiller for '
            'sig, ved "pairs" parret.'
        ),
    )
    leader: Literal["forhaand", "declarer"] = Field(
        default="forhaand", description="Hvem der spiller ud til første stik: forhånden, eller melderen (grandi)."
    )
    trump: Literal["none", "dealer_card"] = Field(
        default="none",
        description=(
            'Trumfen i buddet: ingen, eller "dealer_card", farven på kortgiverens sidste kort, som vendes '
            "(engelsk whist)."
        ),
    )
    card_order: Literal["sol_games", "trump_games"] = Field(
        default="sol_games",
        description=(
            "Hvilken af card_order-rækkefølgerne kortene følger: solspillenes (es lavest i dansk whist) "
            "eller trumfspillenes (es højest)."
        ),
    )
    open_hand: Literal["never", "after_first_trick", "after_first_lead", "before_first_lead"] = Field(
        default="never",
        description=(
            "Hvornår melderens kort lægges åbent på bordet (bordlægger/oplægger): når første stik er spillet, "
            "efter første udspil, eller før første udspil (så udspilleren ser dem)."
        ),
    )
    settle: Literal["winners", "trick_difference"] = Field(
        default="winners",
        description=(
            'Hvordan et spil hver for sig ("each") afregnes: "winners": den eller de med færrest (flest) stik '
            'vinder, og de andre betaler; "trick_difference": hver spiller gør op med hver af de andre efter '
            "forskellen i deres stik (D er summen af forskellene)."
        ),
    )
