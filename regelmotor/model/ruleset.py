"""The resolved ruleset: every family's keys in one model, what a club's rules are, never how the
engine works. Each family's part lives in its home (``rules/<family>/keys.py``); this puts them together."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from regelmotor.model.base import Model, Note, PluginUse, Source
from regelmotor.rules.auction.keys import Auction
from regelmotor.rules.called_card.keys import CalledCard
from regelmotor.rules.contracts.keys import MAX_DESIGNATIONS, MAX_SOL_BIDS, Bids, Designation, SolBid
from regelmotor.rules.dealing.keys import Dealing, Deck
from regelmotor.rules.declaration.keys import PartnerCard
from regelmotor.rules.doubling.keys import Doubling
from regelmotor.rules.evening.keys import Money, Session, Table
from regelmotor.rules.exchange.keys import Exchange, SolExchange
from regelmotor.rules.fordaekt.keys import Fordaekt
from regelmotor.rules.jernhaand.keys import Jernhaand
from regelmotor.rules.jokers.keys import Jokers
from regelmotor.rules.play.keys import CardOrder, Play
from regelmotor.rules.redeal.keys import AllPass, Misdeal, Omblanding
from regelmotor.rules.scoring.keys import Scoring

UNRANKED = 10**6
"""The tier of a designation whose ``same_rank_as`` names no designation (the checks report it)."""


ENGLISH_OF = {"title": "title_en", "description": "description_en"}
"""A ruleset's words about itself and their English (``--lang en``): a file that gives its own title gives its
own English, or none, never its parent's (``ruleset.overlay.drop_parents_english``)."""
WORDS = (*ENGLISH_OF, *ENGLISH_OF.values())
"""What a ruleset says about itself in words, in every language: prose, not rules (no fingerprint, no diff of
rules, no house rule's change holds it)."""


class Ruleset(Model):
    """A complete, resolved ruleset."""

    @model_validator(mode="before")
    @classmethod
    def _ranks_by_name(cls, data: Any) -> Any:
        """A designation with ``same_rank_as`` takes that designation's tier (a house rule cannot know
        the numbers a ruleset gives its tiers); one naming no designation is left without a tier, which
        the check reports at ``same_rank_as``."""
        if not isinstance(data, dict) or not isinstance(data.get("designations"), list):
            return data
        entries = data["designations"]
        tiers = {e.get("id"): e.get("tier") for e in entries if isinstance(e, dict) and isinstance(e.get("tier"), int)}
        resolved = []
        for entry in entries:
            if isinstance(entry, dict) and "tier" not in entry and isinstance(entry.get("same_rank_as"), str):
                entry = {**entry, "tier": tiers.get(entry["same_rank_as"], UNRANKED)}
            resolved.append(entry)
        return {**data, "designations": resolved}

    name: str = Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$", description="Reglesættets korte navn (små bogstaver, tal, - og _)."
    )
    title: str = Field(min_length=1, description="Reglesættets navn som det vises.")
    description: str = Field(min_length=1, description="En linje om reglesættet.")
    title_en: str | None = Field(
        default=None, min_length=1, description="Reglesættets navn på engelsk (--lang en; ellers vises title)."
    )
    description_en: str | None = Field(
        default=None, min_length=1, description="Linjen om reglesættet på engelsk (--lang en; ellers description)."
    )
    source: Source
    game: str = Field(
        default="esmakkerwhist",
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        description='Hvilket spil reglesættet er en udgave af: "esmakkerwhist", "engelsk", "dansk", ...',
    )
    table: Table = Field(description="Spillere ved bordet og hvem der sidder over.")
    session: Session = Field(description="Hvordan en session er opbygget.")
    deck: Deck = Field(description="Kortene i spil og katten.")
    dealing: Dealing = Field(description="Hvordan kortene gives.")
    misdeal: Misdeal = Field(description="Fejlgivning.")
    all_pass: AllPass = Field(description="Hvad der sker, når alle melder pas.")
    bids: Bids | None = Field(default=None, description="De tilladte trumfbud (udelades uden betegnelser).")
    designations: tuple[Designation, ...] = Field(
        default=(),
        max_length=MAX_DESIGNATIONS,
        description=(
            "Betegnelserne (påhængene) i stigende orden: almindelige, vip, gode, sans, halve, ...; "
            "tom i spil uden stikbud (dansk og engelsk whist)."
        ),
    )
    sol_bids: tuple[SolBid, ...] = Field(
        default=(), max_length=MAX_SOL_BIDS, description="Solbuddene og deres plads i stigerækken."
    )
    auction: Auction = Field(description="Meldeforløbet.")
    partner_card: PartnerCard = Field(
        default=PartnerCard(ranks=("A",), descend_when="holding_all_allowed", own_card_allowed=False),
        description="Hvilket kort melderen må kalde som makkerkort (udelades med faste makkere).",
    )
    exchange: Exchange = Field(
        default=Exchange(
            allowed=False,
            amount="all_or_none",
            order="discard_first",
            required="optional",
            leftover="stays",
            called_card_may_be_discarded=False,
            sol=SolExchange(allowed=False, order="bidding_order", discards_become_kitty=False),
        ),
        description="Bytning med katten (udelades uden kat: der byttes ikke).",
    )
    fordaekt: Fordaekt = Field(default=Fordaekt(allowed=False), description="Fordækt kort.")
    doubling: Doubling = Field(default=Doubling(allowed=False), description="Dobling.")
    jokers: Jokers | None = Field(default=None, description="Reglerne for jokerne (udelades uden jokere).")
    called_card: CalledCard = Field(
        default=CalledCard(
            must_fall_first_time_led=False,
            holder_leads_it=False,
            applies_to_selvmakker=False,
            may_be_trumped=True,
        ),
        description="Reglerne for makkerkortet i spillet (udelades med faste makkere, hvor intet kort kaldes).",
    )
    card_order: CardOrder = Field(description="Kortenes rækkefølge.")
    play: Play = Field(description="Spillet: udspil, bekendelse, stikkets vinder.")
    scoring: Scoring = Field(description="Afregningen.")
    jernhaand: Jernhaand = Field(description="Jernhånd: ny kortgivning for en hånd uden billedkort, esser og jokere.")
    omblanding: Omblanding = Field(
        default=Omblanding(),
        description="Omblanding: ny kortgivning på en spillers forlangende, før han ser sine kort.",
    )
    money: Money = Field(default=Money(), description="Aftenens afregning i penge: klubbens kasse og gebyr.")
    notes: tuple[Note, ...] = Field(default=(), description="Klubbens egne regler, som motoren ikke kan kontrollere.")
    plugins: tuple[str | PluginUse, ...] = Field(
        default=(),
        description=(
            'Installerede plugins (entry points i gruppen "regelmotor") med regler, som YAML ikke kan udtrykke: '
            "et navn, eller {name: ..., settings: {...}} med pluginets indstillinger. De medfølgende reglesæt bruger "
            "ingen; en husregel føjer sine plugins til reglesættets."
        ),
    )

    @property
    def levels(self) -> range:
        """The numbers of tricks a trick bid may name (none without designations)."""
        return range(0) if self.bids is None else range(self.bids.min_tricks, self.bids.max_tricks + 1)

    def plugin_uses(self) -> tuple[PluginUse, ...]:
        """Every plugin with its settings (a bare name has none)."""
        return tuple(PluginUse(name=p) if isinstance(p, str) else p for p in self.plugins)

    def designation(self, designation_id: str) -> Designation:
        for designation in self.designations:
            if designation.id == designation_id:
                return designation
        raise KeyError(designation_id)

    def sol_bid(self, sol_id: str) -> SolBid:
        """A bid named by its name: one of ``sol_bids``, or the contract played when all pass."""
        for sol in self.named_bids():
            if sol.id == sol_id:
                return sol
        raise KeyError(sol_id)

    def named_bids(self) -> tuple[SolBid, ...]:
        """The sol bids, then the contract played when all pass (if any)."""
        extra = () if self.all_pass.contract is None else (self.all_pass.contract,)
        return (*self.sol_bids, *extra)
