"""Compile a resolved ruleset into ``Rules``: the plain functions the engine calls.

Each ruleset gets its own ``PluginManager`` (never a global one): the standard rule families
first, then the club's plugins named in the ruleset. Every factory hook is called once here;
afterwards the engine calls frozen callables with no hook dispatch in its loops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import pluggy

from regelmotor.bids import Bid, Ladder
from regelmotor.errors import Problem, RuleNotImplemented
from regelmotor.hooks import (
    PROJECT,
    Auction,
    CallChoices,
    Dealer,
    DeclarationSteps,
    Exchanger,
    KittyTurnRule,
    LegalCards,
    PlayOver,
    RedealClaim,
    RegelmotorSpecs,
    TrickWinner,
    TrumpChoices,
)
from regelmotor.rules.auction import AuctionRules
from regelmotor.rules.dealing import DealingRules
from regelmotor.rules.declaration import DeclarationRules
from regelmotor.rules.exchange import ExchangeRules
from regelmotor.rules.gaa_med import GaaMedRules
from regelmotor.rules.jernhaand import JernhaandRules
from regelmotor.rules.joker_trumpable import JokerTrumpable
from regelmotor.rules.ladder import LadderRules
from regelmotor.rules.play import PlayRules
from regelmotor.rules.scoring import Scorer, ScoringRules
from regelmotor.rules.trick_winner import TrickWinnerRules
from regelmotor.rules.vip import VipRules
from regelmotor.ruleset.load import ResolvedRuleset
from regelmotor.ruleset.model import Ruleset

STANDARD_PLUGINS: tuple[type, ...] = (
    LadderRules,
    DealingRules,
    JernhaandRules,
    GaaMedRules,
    AuctionRules,
    DeclarationRules,
    VipRules,
    ExchangeRules,
    PlayRules,
    TrickWinnerRules,
    JokerTrumpable,
    ScoringRules,
)

NOT_IMPLEMENTED: dict[tuple[str, ...], tuple[Any, str]] = {
    ("called_card", "may_be_trumped"): (
        False,
        "called_card.may_be_trumped: false (no source asks for a called ace that cannot be trumped)",
    ),
}
"""Values the schema can express that the engine does not play: compiling them is an error."""


@dataclass(frozen=True)
class Rules:
    """A ruleset compiled for the engine."""

    ruleset: Ruleset
    ladder: Ladder
    deal: Dealer
    redeal_claims: tuple[RedealClaim, ...]
    may_join: Callable[[Bid], bool]
    auction: Auction
    declaration_steps: DeclarationSteps
    trump_choices: TrumpChoices
    call_choices: CallChoices
    kitty_turn: KittyTurnRule
    exchange: Exchanger
    legal_cards: LegalCards
    trick_winner: TrickWinner
    play_over: PlayOver
    scorer: Scorer
    plugin_manager: pluggy.PluginManager


def plugin_manager(ruleset: Ruleset) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(RegelmotorSpecs)
    for plugin in STANDARD_PLUGINS:
        pm.register(plugin(), name=plugin.__name__)
    if ruleset.plugins:
        available = {ep.name: ep for ep in metadata.entry_points(group=PROJECT)}
        for name in ruleset.plugins:
            if name not in available:
                raise RuleNotImplemented(f"plugins: {name}", "no installed package registers this plugin")
            pm.register(available[name].load(), name=name)
    return pm


def compile_rules(ruleset: Ruleset | ResolvedRuleset) -> Rules:
    """Build the engine's functions for ``ruleset``; raises ``RuleNotImplemented`` for a rule the engine lacks."""
    model = ruleset.ruleset if isinstance(ruleset, ResolvedRuleset) else ruleset
    for path, (value, rule) in NOT_IMPLEMENTED.items():
        current: Any = model
        for part in path:
            current = getattr(current, part)
        if current == value:
            raise RuleNotImplemented(rule)
    pm = plugin_manager(model)
    hook = pm.hook

    def one(name: str, **kwargs: Any) -> Any:
        result = getattr(hook, name)(ruleset=model, **kwargs)
        if result is None:
            raise RuleNotImplemented(name, "no plugin implements it for this ruleset")
        return result

    ladder: Ladder = one("regelmotor_ladder")
    may_join = one("regelmotor_may_join")
    return Rules(
        ruleset=model,
        ladder=ladder,
        deal=one("regelmotor_dealer"),
        redeal_claims=tuple(c for c in hook.regelmotor_redeal_claims(ruleset=model) if c is not None),
        may_join=may_join,
        auction=one("regelmotor_auction", ladder=ladder, may_join=may_join),
        declaration_steps=one("regelmotor_declaration_steps"),
        trump_choices=one("regelmotor_trump_choices"),
        call_choices=one("regelmotor_call_choices"),
        kitty_turn=one("regelmotor_kitty_turn"),
        exchange=one("regelmotor_exchange"),
        legal_cards=one("regelmotor_legal_cards"),
        trick_winner=one("regelmotor_trick_winner"),
        play_over=one("regelmotor_play_over"),
        scorer=one("regelmotor_scorer"),
        plugin_manager=pm,
    )


def compile_problems(resolved: ResolvedRuleset) -> list[Problem]:
    """Compiling problems of a valid ruleset, located like the loader's."""
    try:
        compile_rules(resolved)
    except RuleNotImplemented as exc:
        path: tuple[str | int, ...] = ()
        for candidate in NOT_IMPLEMENTED:
            if exc.rule.startswith(".".join(candidate)):
                path = candidate
        if exc.rule.startswith("plugins"):
            path = ("plugins",)
        return [Problem(resolved.where(path), path, str(exc))]
    return []
