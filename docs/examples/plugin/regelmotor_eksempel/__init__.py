"""An example club plugin for regelmotor (docs/writing-a-plugin.md walks through it).

Four rules no YAML key can say, for a club that plays them:

- *trumf-syveren*: the seven of trumps wins every trick it is in (``trick_winner``, composed with
  whatever rule is beneath it: a joker-trumpable table still decides a led joker);
- *slem-bonus*: a side that takes all thirteen tricks gets ``bonus`` from each opponent
  (``settle``, wrapping the ruleset's own settlement);
- *syvhånd*: a player holding seven cards of one suit may void the deal (a redeal claim);
- the bot *forsigtig*: passes whenever it may, and otherwise plays as the shipped heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from regelmotor.cards import RANK_LETTERS, Card, suit_of
from regelmotor.engine.actions import PASS_ACTION, Action
from regelmotor.hooks import ContractInfo, RedealClaim, Settle, TrickWinner, hookimpl
from regelmotor.model.ruleset import Ruleset

CLAIM = "syvhånd"
Fordaekt = tuple[Card, int] | None
TEXT = {
    "da": (
        "Trumf-{rank} stikker alt: den vinder ethvert stik, den er med i.",
        "Slem-bonus: tager en side alle 13 stik, betaler hver modspiller den {bonus} point.",
        "Syvhånd: en spiller med syv kort i én farve kan kræve ny kortgivning (næste giver).",
    ),
    "en": (
        "The {rank} of trumps wins every trick it is in.",
        "Slam bonus: a side that takes all 13 tricks gets {bonus} points from each opponent.",
        "Syvhånd: a player with seven cards of one suit may void the deal (the next player deals).",
    ),
}
"""The rule book's sentences for the plugin's rules, by language."""


class Settings(BaseModel):
    """The plugin's settings in the ruleset: ``plugins: [{name: eksempel, settings: {...}}]``."""

    model_config = ConfigDict(extra="forbid")
    rank: Literal["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"] = Field(
        default="7", description="The trump rank that wins every trick it is in."
    )
    bonus: int = Field(default=10, ge=0, description="What each opponent pays a side that takes all 13 tricks.")
    claim: bool = Field(default=True, description="Whether a hand with seven cards of a suit may void the deal.")


class Eksempel:
    """The plugin: registered once per compiled ruleset, with that ruleset's settings."""

    Settings = Settings

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @hookimpl(wrapper=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> Generator[None, TrickWinner | None, TrickWinner | None]:
        inner = yield
        if inner is None:
            return None
        rank = RANK_LETTERS.index(self.settings.rank)
        beneath = inner

        def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: Fordaekt = None) -> int:
            if trump is not None and not sol:
                for index, card in enumerate(cards):
                    if card < 52 and card // 13 == trump and card % 13 == rank:
                        return index
            return beneath(cards, trump, sol, fordaekt)

        return winner

    @hookimpl(wrapper=True)
    def regelmotor_settle(self, ruleset: Ruleset, scorer: Any) -> Generator[None, Settle | None, Settle | None]:
        inner = yield
        if inner is None or not self.settings.bonus:
            return inner
        bonus = Fraction(self.settings.bonus)
        beneath = inner

        def settle(contract: ContractInfo, tricks: Sequence[int], vip_card: int, doublings: int) -> list[Fraction]:
            scores = beneath(contract, tricks, vip_card, doublings)
            if contract.bid.sol is not None:
                return scores
            side = {contract.declarers[0]} | ({contract.partner} if contract.partner is not None else set())
            if sum(tricks[s] for s in side) == 13:
                others = [s for s in range(4) if s not in side]
                for seat in others:
                    scores[seat] -= bonus
                for seat in side:
                    scores[seat] += bonus * len(others) / len(side)
            return scores

        return settle

    @hookimpl
    def regelmotor_check(self, ruleset: Ruleset) -> list[tuple[tuple[str | int, ...], str]]:
        """The trump seven cannot be a partner-card rank: the called card would then win every trump trick."""
        if self.settings.rank not in ruleset.partner_card.ranks:
            return []
        index = [use.name for use in ruleset.plugin_uses()].index("eksempel")
        return [(("plugins", index, "settings", "rank"), f"{self.settings.rank} is a partner-card rank")]

    @hookimpl
    def regelmotor_redeal_claims(self, ruleset: Ruleset) -> RedealClaim | None:
        if not self.settings.claim:
            return None

        def seven_of_a_suit(hand: Sequence[Card]) -> bool:
            return any(sum(1 for c in hand if suit_of(c) == s) >= 7 for s in range(4))

        return RedealClaim(CLAIM, "plugins", seven_of_a_suit, "next_dealer")

    @hookimpl
    def regelmotor_describe(self, ruleset: Ruleset, language: str) -> Sequence[str]:
        s = self.settings
        seven, slam, claim = TEXT["da" if language == "da" else "en"]
        rank = {"7": "syveren", "8": "otteren", "9": "nieren"}.get(s.rank, s.rank) if language == "da" else s.rank
        lines = [seven.format(rank=rank)]
        if s.bonus:
            lines.append(slam.format(bonus=s.bonus))
        return [*lines, claim] if s.claim else lines

    @hookimpl
    def regelmotor_bots(self) -> Mapping[str, Any]:
        return {"forsigtig": Forsigtig}


class Forsigtig:
    """A cautious player: passes whenever it may, and plays like the shipped heuristic otherwise."""

    name = "forsigtig"
    needs_view = True

    def __init__(self, rules: Any, rng: random.Random) -> None:
        from regelmotor.bots.heuristic import HeuristicBot

        self.heuristic = HeuristicBot(rules, rng)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if PASS_ACTION in legal and view is not None and view.phase == "auction":
            return PASS_ACTION
        return self.heuristic.choose(view, legal)
