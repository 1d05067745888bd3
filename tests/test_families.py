"""Every key a ruleset can hold belongs to exactly one rule family (``rules/families.py``)."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import BY_NAME, FAMILIES, family_of

from .conftest import REPO


def _models(annotation: object) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        if (arg is not Ellipsis and not isinstance(annotation, types.GenericAlias)) or isinstance(arg, type):
            yield from _models(arg)


def _paths(model: type[BaseModel], at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, field in model.model_fields.items():
        here = (*at, name)
        inner = list(_models(field.annotation))
        if not inner:
            yield here
        for sub in inner:
            step = (*here, "*") if typing.get_origin(field.annotation) in (tuple, list) else here
            yield from _paths(sub, step)


PATHS = sorted(set(_paths(Ruleset)))


def test_the_walk_finds_the_keys_of_nested_models() -> None:
    assert ("auction", "gaa_med", "sol_bids") in PATHS
    assert ("designations", "*", "trump", "turns") in PATHS


@pytest.mark.parametrize("path", [".".join(p) for p in PATHS])
def test_every_key_has_a_family(path: str) -> None:
    assert family_of(path).name in BY_NAME


def test_the_longest_prefix_wins() -> None:
    assert family_of("auction.gaa_med.vip_bids").name == "gaa_med"
    assert family_of("auction.kan_selv").name == "auction"
    assert family_of(("designations", 2, "trump", "turns")).name == "vip"
    assert family_of(("designations", 2, "trump", "by")).name == "declaration"


def test_family_names_are_unique_and_every_family_owns_a_key() -> None:
    assert len(BY_NAME) == len(FAMILIES)
    owners = {family_of(".".join(p)).name for p in PATHS}
    assert owners == set(BY_NAME)


def test_every_family_has_its_home() -> None:
    """``rules/<name>/``: the family's keys, or its checks and hooks where its keys sit in another's model
    (vip's are a designation's ``trump``)."""
    for family in FAMILIES[1:]:
        home = REPO / "regelmotor" / "rules" / family.name
        assert (home / "__init__.py").exists(), family.name
        assert (home / "keys.py").exists() or (home / "checks.py").exists(), family.name


def test_a_familys_keys_hold_the_keys_it_owns() -> None:
    """The model's part for a top-level key is declared in the home of the family that owns it."""
    for name, field in Ruleset.model_fields.items():
        family = family_of(name)
        for model in _models(field.annotation):
            if family.name != "about":
                assert model.__module__ == f"regelmotor.rules.{family.name}.keys", (name, model.__module__)


def test_each_family_writes_only_its_own_block_of_play_constants() -> None:
    """A family's slots of the play constants (and its rules' refusal codes) lie in its own block, so a flag one
    family adds never moves another's (``rules/cardplay/masks.py``)."""
    from regelmotor.rules.called_card import cardplay as called_card
    from regelmotor.rules.cardplay import masks as M
    from regelmotor.rules.jokers import cardplay as jokers

    blocks = {
        M.JOKERS: (jokers.ANY_TIME, jokers.LEAD_FIRST, jokers.JOKER_LOSES),
        M.CALLED_CARD: (
            called_card.HOLDER_LEADS,
            called_card.MUST_FALL,
            called_card.FIRST_FREE,
            called_card.MUST_FALL_ALWAYS,
        ),
        M.PLAY: (M.SOL_EARLY, M.FOLLOW_SUIT),
    }
    for start, slots in blocks.items():
        assert all(start <= slot < start + M.BLOCK for slot in slots), start
        assert len(set(slots)) == len(slots)
    assert max(start + M.BLOCK for start in blocks) <= M.TRUMP_STRENGTH
