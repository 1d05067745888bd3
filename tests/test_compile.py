"""Compiling: one PluginManager per ruleset, plain callables, plugins and unimplemented rules."""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import metadata
from typing import Any

import pytest

from regelmotor.cards import Card
from regelmotor.errors import NotationError, RuleNotImplemented
from regelmotor.hooks import TrickWinner, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

from .conftest import rules_of


def test_each_ruleset_gets_its_own_plugin_manager() -> None:
    a, b = rules_of("standard"), rules_of("standard", "joker-trumpable")
    assert a.plugin_manager is not b.plugin_manager
    assert a.play.trick_winner is not b.play.trick_winner


def test_the_engine_gets_plain_callables_not_hook_callers() -> None:
    rules = rules_of("thorsen")
    compiled = (
        rules.dealing.deal,
        rules.auction.procedure,
        rules.play.legal_cards,
        rules.play.trick_winner,
        rules.play.play_over,
        rules.declaration.call_choices,
    )
    for hook in compiled:
        assert callable(hook)
        assert "HookCaller" not in type(hook).__name__


def test_a_rule_the_engine_does_not_implement_is_a_clear_error() -> None:
    ruleset = load_ruleset("standard").ruleset
    changed = ruleset.model_copy(
        update={"called_card": ruleset.called_card.model_copy(update={"may_be_trumped": False})}
    )
    with pytest.raises(RuleNotImplemented, match=re.escape("rule not implemented: called_card.may_be_trumped: false")):
        compile_rules(changed)


def test_a_plugin_the_ruleset_names_must_be_installed() -> None:
    ruleset = load_ruleset("standard").ruleset.model_copy(update={"plugins": ("lasses-joker",)})
    with pytest.raises(RuleNotImplemented, match="plugins: lasses-joker: no installed package registers this plugin"):
        compile_rules(ruleset)


class LastCardWins:
    """A club's plugin: a silly rule no YAML can express, to show plugins take precedence."""

    @hookimpl(tryfirst=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner:
        def winner(cards: Sequence[Card], trump: int | None, sol: bool, fordaekt: object = None) -> int:
            return len(cards) - 1

        return winner


def test_a_named_plugin_registered_under_the_entry_point_group_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    class EntryPoint:
        name = "last-card-wins"

        def load(self) -> Any:
            return LastCardWins()

    real = metadata.entry_points

    def entry_points(**kwargs: Any) -> Any:
        return [EntryPoint()] if kwargs.get("group") == "regelmotor" else real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    ruleset = load_ruleset("standard").ruleset.model_copy(update={"plugins": ("last-card-wins",)})
    rules = compile_rules(ruleset)
    assert rules.play.trick_winner([0, 1, 2, 3], None, False, None) == 3


def test_a_replaced_rules_keeps_its_own_memo() -> None:
    """What a consumer keeps with the rules (``rules.kept``) belongs to that one compiled ruleset: rules made
    from it by ``dataclasses.replace`` (a phase of the caller's own) start with nothing kept."""
    import dataclasses

    rules = rules_of("standard")
    assert rules.kept("a question", lambda r: "first") == "first"
    other = dataclasses.replace(rules, declaration=rules.declaration)
    assert other.kept("a question", lambda r: "second") == "second"
    assert rules.kept("a question", lambda r: "third") == "first"


def test_a_contract_the_rules_do_not_have_is_refused_not_read_as_pasnolo() -> None:
    """002: pasnolo is the game played when all pass; a contract named otherwise is no pasnolo. (Before issue
    72 any unknown text was read as dansk whist's pasnolo.)"""
    dansk = rules_of("dansk")
    assert dansk.contract_bid("pasnolo") == dansk.contract_bid("Pasnolo") == dansk.dealing.redealing.all_pass_contract
    with pytest.raises(NotationError):
        dansk.contract_bid("xyz")
