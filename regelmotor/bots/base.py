"""What a computer player is, and the registry of the shipped ones."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from regelmotor.engine.actions import Action
from regelmotor.engine.game import View
from regelmotor.errors import RegelmotorError
from regelmotor.ruleset.compile import Rules


class Bot(Protocol):
    """A player: given what its seat may know and what it may do, it picks one of the legal actions."""

    name: str
    needs_view: bool
    """False for a bot that decides from the legal actions alone (the engine then builds no view)."""

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Uniformly random among the legal actions: the baseline every heuristic must beat."""

    name = "random"
    needs_view = False

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)


def _heuristic(rules: Rules, rng: random.Random) -> Bot:
    from regelmotor.bots.heuristic import HeuristicBot

    return HeuristicBot(rules, rng)


def _expert(rules: Rules, rng: random.Random) -> Bot:
    from regelmotor.bots.expert import ExpertBot

    return ExpertBot(rules, rng)


def _expert_v1(rules: Rules, rng: random.Random) -> Bot:
    from regelmotor.bots.expert import V1_BUDGET, ExpertBot

    return ExpertBot(rules, rng, budget=V1_BUDGET)


BOTS: dict[str, Callable[[Rules, random.Random], Bot]] = {
    "random": RandomBot,
    "heuristic": _heuristic,
    "expert": _expert,
    "expert-v1": _expert_v1,
}


class UnknownBot(RegelmotorError, ValueError):
    """A bot name that is not registered."""


def available_bots(rules: Rules | None = None) -> dict[str, Callable[[Rules, random.Random], Bot]]:
    """The shipped bots, and those the ruleset's plugins offer (``regelmotor_bots``)."""
    return {**BOTS, **rules.bots()} if rules is not None else dict(BOTS)


def check_bot(name: str, rules: Rules | None = None) -> str:
    """``name`` if a bot is called so (shipped, or from the ruleset's plugins; ``expert:<style>`` is the
    expert in a style, ``bots/style.py``); else ``UnknownBot`` naming the bots there are."""
    from regelmotor.bots.style import split_bot

    known = available_bots(rules)
    base = name.partition(":")[0]
    if base not in known:
        raise UnknownBot(f'no bot is called "{name}": choose {", ".join(known)}')
    if base != name:  # a style is the expert's only, and must be one: else no bot is called so (the page says 400)
        try:
            split_bot(name)
        except RegelmotorError as exc:
            raise UnknownBot.said("as_is", error=exc) from None
    return name


def make_bot(name: str, rules: Rules, rng: random.Random) -> Bot:
    if ":" in name:  # the expert in a style: the style travels in the name (``style.styled_bot``)
        from regelmotor.bots.expert import ExpertBot
        from regelmotor.bots.style import split_bot

        check_bot(name, rules)
        return ExpertBot(rules, rng, style=split_bot(name)[1])
    return available_bots(rules)[check_bot(name, rules)](rules, rng)
