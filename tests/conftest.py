"""Shared helpers: writing club files into a temporary folder, and the rule sources.

The rule texts live beside the project in ../shared/sources/ (not in the package); tests quote
them in their docstrings, and test_sources.py checks the quotes against the files when they
are present.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings

from regelmotor.cards import new_deck, parse_cards
from regelmotor.engine.game import Game
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import load_ruleset

from . import compile_ahead

# Property tests check what the rules allow, never how fast: no deadline, a fixed example budget.
settings.register_profile("regelmotor", deadline=None, max_examples=100)
settings.load_profile("regelmotor")

REPO = Path(__file__).resolve().parent.parent


def pytest_sessionstart(session: pytest.Session) -> None:
    """In a parallel run, the expert's numba functions are compiled once, beside the workers (otherwise each
    worker, and each process a test starts, compiles them for itself on a fresh checkout); each worker begins
    with tests that need none of it (``pytest_collection_modifyitems``), and those that do wait for it
    (``_compiled``)."""
    parallel = session.config.pluginmanager.hasplugin("xdist") and session.config.getoption("numprocesses", None)
    if parallel and not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = Path(tempfile.mkdtemp(prefix="regelmotor-compiled-"))
        os.environ[compile_ahead.DONE] = str(folder)  # the workers, started after this, inherit it
        compile_ahead.start(folder)


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(compile_ahead.DONE)
    if folder and not os.environ.get("PYTEST_XDIST_WORKER"):
        compile_ahead.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _needs_compiled(item: pytest.Item) -> bool:
    return item.path.stem in compile_ahead.NEEDS


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each worker begins with tests that need no compiled search, while it compiles: xdist hands the
    workers the list in equal runs, one each, so each run is made of a share of those tests followed by a
    share of the others. The order is the same in every worker, as xdist requires."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    free = [item for item in items if not _needs_compiled(item)]
    needing = [item for item in items if _needs_compiled(item)]
    items[:] = [
        item
        for worker in range(workers)
        for part in (free, needing)
        for item in part[len(part) * worker // workers : len(part) * (worker + 1) // workers]
    ]


@pytest.fixture(autouse=True)
def _compiled(request: pytest.FixtureRequest) -> None:
    """A test of a file that plays the expert or searches double dummy waits for the compile started above."""
    folder = os.environ.get(compile_ahead.DONE)
    if folder and _needs_compiled(request.node):
        compile_ahead.wait(Path(folder))


SOURCES = REPO.parent / "shared" / "sources"
RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2", "dansk", "engelsk")
HOUSE_RULES = (
    "joker-trumpable",
    "gaa-med",
    "jernhaand",
    "fordaekt",
    "dobling",
    "kan-selv",
    "vip-joker-forrige",
    "halve-vip",
    "halve-makker-vaelger-bytter",
    "omblanding",
    "klubkasse",
    "staerke",
    "dobbelt-bordlaegger",
)
NOT_APPLICABLE = {("gruppe2", "joker-trumpable"), ("gruppe2", "gaa-med")}
"""Pairs that load but are refused where they are used (the rest that cannot apply fail to load)."""


def _applies(name: str, house: str) -> bool:
    """Whether a shipped house rule can apply to a shipped ruleset (one that changes "vip" needs a "vip")."""
    from regelmotor.errors import RegelmotorError

    try:
        load_ruleset(name, [house])
    except RegelmotorError:
        return False
    return (name, house) not in NOT_APPLICABLE


def _configs() -> list[tuple[str, str | None]]:
    """Worked out once per test run: the first process (pytest itself) loads every pair and leaves the
    list in its environment, where the xdist workers it starts find it (loading them is seconds each)."""
    kept = os.environ.get(_CONFIGS_KEPT)
    if kept is not None:
        return [(str(n), None if h is None else str(h)) for n, h in json.loads(kept)]
    configs = [(n, h) for n in RULESETS for h in (None, *HOUSE_RULES) if h is None or _applies(n, h)]
    os.environ[_CONFIGS_KEPT] = json.dumps(configs)
    return configs


_CONFIGS_KEPT = "REGELMOTOR_TEST_CONFIGS"
CONFIGS = _configs()
"""Every shipped ruleset alone and with each house rule that applies to it."""


@cache
def rules_of(name: str, *house: str) -> Rules:
    """A shipped ruleset compiled once per test session (rules are immutable)."""
    return compile_rules(load_ruleset(name, list(house)))


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """Write a file (dedented) into a fresh working folder and return its name."""
    monkeypatch.chdir(tmp_path)

    def write(name: str, text: str | bytes) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return name

    return write


def deal(name: str, *house: str, dealer: int = 0, kitty: str | None = None, **hands: str) -> Game:
    """A game whose seats hold the cards given (``s0="AS KS ..."``), the rest filled in order."""
    rules = rules_of(name, *house)
    wanted = {int(k[1:]): parse_cards(v) for k, v in hands.items()}
    fixed_kitty = parse_cards(kitty) if kitty is not None else None
    given = [c for cards in wanted.values() for c in cards] + list(fixed_kitty or [])
    assert len(given) == len(set(given)), "the same card is given to two places"
    used = set(given)
    rest = [c for c in new_deck(rules.ruleset.deck.jokers) if c not in used]
    kitty_cards = fixed_kitty if fixed_kitty is not None else [rest.pop() for _ in range(rules.ruleset.deck.kitty)]
    full = []
    for seat in range(4):
        hand = list(wanted.get(seat, []))
        while len(hand) < 13:
            hand.append(rest.pop(0))
        full.append(hand)
    return Game(rules, full, kitty_cards, dealer)


def offered(game: Game) -> list[str]:
    """The legal actions in the notation, as the rule texts write them."""
    return [str(action) for action in game.legal]


def play(game: Game, *actions: str) -> Game:
    for action in actions:
        game.apply(action)
    return game


def scored_as_the_rules_say(ruleset: str, scores: Sequence[Fraction | int | float]) -> bool:
    """A deal's points as its game scores them: zero-sum where the losers pay (every es-makker ruleset, dansk
    whist: 002 "et nulsumsspil"); where only the winners score (engelsk whist, 002 "Det par, der vinder flest
    stik, får 1 point pr. stik udover de første 6 stik"), the partners alike, one pair at most above 0."""
    if _losers_pay(ruleset):
        return sum(scores) == 0
    pairs = (scores[0], scores[1])
    return all(s >= 0 for s in scores) and scores[0] == scores[2] and scores[1] == scores[3] and min(pairs) == 0


@cache
def _losers_pay(ruleset: str) -> bool:
    return load_ruleset(ruleset).ruleset.scoring.losers_pay
