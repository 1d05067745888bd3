"""The plugin contract, exercised by the example package of docs/writing-a-plugin.md, installed for real.

The package is built and installed with pip into a folder of its own (no network: the build uses the
test environment's setuptools), and that folder is put on ``sys.path`` for these tests, so the plugin is
found the way a club's is: by its entry point in the group ``regelmotor``.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from regelmotor.cards import parse_cards
from regelmotor.cli import main
from regelmotor.engine.game import Game
from regelmotor.errors import RuleNotImplemented
from regelmotor.hooks import hookimpl
from regelmotor.records import game_record
from regelmotor.ruleset.compile import _instance, compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.validate import validate_file

from .conftest import REPO, offered

PACKAGE = REPO / "docs" / "examples" / "plugin"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    target = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    command += ["--no-index", "--target", str(target), str(PACKAGE)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    yield target
    sys.path.remove(str(target))
    for name in [m for m in sys.modules if m.startswith("regelmotor_eksempel")]:
        del sys.modules[name]


@pytest.fixture
def write(tmp_path: Path, installed: Path) -> Callable[[str, str], str]:
    def put(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return put


CLUB = """\
extends: standard
name: klubben
title: Klubben
description: Standard med eksemplets plugin
source: "docs/writing-a-plugin.md"
plugins:
  - name: eksempel
    settings: {{bonus: {bonus}}}
"""


def test_the_example_trick_winner_composes_with_joker_trumpable(write: Callable[[str, str], str]) -> None:
    """The trump seven wins its trick; a led joker still loses to a trump where jokers can be trumped."""
    rules = compile_rules(load_ruleset(write("k.yaml", CLUB.format(bonus=10)), ["joker-trumpable"]))
    winner = rules.play.trick_winner
    spades = 0
    assert winner(parse_cards("2S AS 7S KS"), spades, False, None) == 2  # the plugin's rule
    assert winner(parse_cards("JK1 AS 2H 3H"), spades, False, None) == 1  # joker-trumpable's, beneath it
    assert winner(parse_cards("2H AH 3H 4H"), spades, False, None) == 1  # the standard rule, beneath both
    plain = compile_rules(load_ruleset(write("k.yaml", CLUB.format(bonus=10))))
    assert plain.play.trick_winner(parse_cards("JK1 AS 2H 3H"), spades, False, None) == 0  # 001: the led joker wins


def test_the_plugins_settings_are_validated_with_a_located_error(write: Callable[[str, str], str]) -> None:
    path = write("k.yaml", CLUB.format(bonus=-1))
    (problem,) = validate_file(path)
    assert problem.path == ("plugins", 0, "settings", "bonus")
    assert problem.location.line == 8 and "-1 is too small: the least allowed is 0" in problem.message


def test_a_setting_the_plugin_does_not_have_is_refused(write: Callable[[str, str], str]) -> None:
    path = write("k.yaml", CLUB.format(bonus=10).replace("{bonus: 10}", "{bonsu: 10}"))
    (problem,) = validate_file(path)
    assert problem.path == ("plugins", 0, "settings", "bonsu") and 'unknown key "bonsu"' in problem.message


def test_a_plugins_own_check_is_reported_where_the_club_can_fix_it(write: Callable[[str, str], str]) -> None:
    path = write("k.yaml", CLUB.format(bonus=10).replace("{bonus: 10}", "{bonus: 10, rank: A}"))
    (problem,) = validate_file(path)
    assert problem.path == ("plugins", 0, "settings", "rank") and problem.message == "A is a partner-card rank"
    assert problem.location.line == 8
    with pytest.raises(RuleNotImplemented, match="A is a partner-card rank"):
        compile_rules(load_ruleset(path))


def test_the_slam_bonus_wraps_the_rulesets_own_settlement(write: Callable[[str, str], str]) -> None:
    rules = compile_rules(load_ruleset(write("k.yaml", CLUB.format(bonus=10))))
    standard = compile_rules(load_ruleset("standard"))
    contract = _contract(rules, "13", (0,), 2)
    base = standard.scoring.settle(contract, [7, 0, 6, 0], 0, 0)
    assert rules.scoring.settle(contract, [7, 0, 6, 0], 0, 0) == [
        base[0] + 10,
        base[1] - 10,
        base[2] + 10,
        base[3] - 10,
    ]
    assert rules.scoring.settle(contract, [7, 1, 5, 0], 0, 0) == standard.scoring.settle(contract, [7, 1, 5, 0], 0, 0)


def _contract(rules: Any, bid: str, declarers: tuple[int, ...], partner: int | None) -> Any:
    from regelmotor.hooks import ContractInfo

    return ContractInfo(rules.auction.ladder.parse(bid), declarers, partner)


def test_the_expert_prices_a_deal_with_the_slam_bonus(write: Callable[[str, str], str]) -> None:
    """One scoring door: the expert values tricks by the settle hook with its wrappers, not the bare scorer."""
    from regelmotor.bots.expert import ExpertBot

    rules = compile_rules(load_ruleset(write("k.yaml", CLUB.format(bonus=1000))))
    contract = _contract(rules, "13", (0,), 2)
    hook = rules.scoring.settle(contract, [13, 0, 0, 0], 0, 0)
    bot = ExpertBot(rules, random.Random(1))
    valued = bot._scored(("13", (0,), 2, 0, 0, 0, 13, 0, 0, 0), contract.bid)  # the memo's key: me 0, tricks
    assert valued == float(hook[0]) and hook[0] > 1000


def test_score_prints_the_slam_bonus(write: Callable[[str, str], str], capsys: pytest.CaptureFixture[str]) -> None:
    path = write("k.yaml", CLUB.format(bonus=1000))
    assert main(["score", path, "--contract", "13", "--tricks", "13", "--json"]) == 0
    with_bonus = json.loads(capsys.readouterr().out)
    assert main(["score", "standard", "--contract", "13", "--tricks", "13", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert with_bonus["declarer"] == plain["declarer"] + 1000 and with_bonus["opponent"] == plain["opponent"] - 1000
    assert with_bonus["sum"] == 0


def test_the_score_sheet_books_the_slam_bonus(write: Callable[[str, str], str], tmp_path: Path) -> None:
    path = write("k.yaml", CLUB.format(bonus=1000))
    sheet = str(tmp_path / "aften.json")
    assert main(["session", "new", sheet, path, "--players", "Anna,Bo,Carl,Dorte"]) == 0
    assert (
        main(["session", "add", sheet, "--contract", "13", "--declarer", "Anna", "--partner", "Carl", "--tricks", "13"])
        == 0
    )
    standard = compile_rules(load_ruleset("standard"))
    plain = standard.scoring.settle(_contract(standard, "13", (0,), 2), [13, 0, 0, 0], 0, 0)
    from regelmotor.score_sheet import read_sheet, score

    totals = score(read_sheet(Path(sheet))).session.totals
    assert totals[0] == plain[0] + 1000 and totals[1] == plain[1] - 1000


def test_the_rule_books_point_table_shows_the_slam_bonus(
    write: Callable[[str, str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    from regelmotor.rulebook import build_rulebook

    club = compile_rules(resolved := load_ruleset(write("k.yaml", CLUB.format(bonus=1000))))
    standard = compile_rules(plain := load_ruleset("standard"))

    def cells(book: Any) -> dict[tuple[str, str], str]:
        table = next(t for s in book.sections for t in s.tables if t.header[-1] == "13")
        return {(row[0], table.header[i]): cell for row in table.rows for i, cell in enumerate(row)}

    ours, theirs = cells(build_rulebook(resolved, club)), cells(build_rulebook(plain, standard))
    assert ours[("13", "13")] != theirs[("13", "13")] and ours[("13", "12")] == theirs[("13", "12")]


def test_the_syvhaand_claim_is_offered_as_itself_and_recorded(write: Callable[[str, str], str]) -> None:
    rules = compile_rules(load_ruleset(write("k.yaml", CLUB.format(bonus=10))))
    seven = parse_cards("AS KS QS JS TS 9S 8S 2H 3H 4H 2D 3D 4D")
    rest = [c for c in range(55) if c not in seven]
    hands = [rest[0:39:3], seven, rest[1:39:3], rest[2:39:3]]  # round the table: no other long suit
    game = Game(rules, hands, rest[39:42], dealer=3)
    assert game.step == ("claim", 1) and offered(game) == ["syvhånd", "keep"]
    game.apply("syvhånd")
    assert game.phase == "redeal" and game.redeal is not None and game.redeal.next_dealer == 0
    record = game_record(game, "k.yaml")
    assert record["actions"] == ["syvhånd"] and record["plugins"] == {"eksempel": "1.0.0"}


def test_the_plugin_is_described_in_the_rule_book(
    write: Callable[[str, str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("k.yaml", CLUB.format(bonus=10))
    assert main(["rulebook", path]) == 0
    out = capsys.readouterr().out
    assert "Klubbens plugins" in out and "eksempel (version 1.0.0)" in out
    assert "Trumf-syveren stikker alt" in out and "betaler hver modspiller den 10 point" in out
    assert main(["rulebook", path, "--lang", "en"]) == 0
    assert "The 7 of trumps wins every trick it is in." in capsys.readouterr().out


def test_the_diff_says_the_plugins_rule_in_its_own_words(
    write: Callable[[str, str], str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("k.yaml", CLUB.format(bonus=10))
    assert main(["diff", "standard", path]) == 0
    out = capsys.readouterr().out
    assert "Pluginernes regler" in out and "Trumf-syveren stikker alt" in out


def test_the_plugins_bot_plays_with_bots(write: Callable[[str, str], str], capsys: pytest.CaptureFixture[str]) -> None:
    path = write("k.yaml", CLUB.format(bonus=10))
    assert main(["simulate", path, "--bots", "forsigtig", "--deals", "4", "--jobs", "1", "--json"]) == 0
    assert '"forsigtig"' in capsys.readouterr().out
    assert main(["simulate", "standard", "--bots", "forsigtig", "--deals", "4"]) == 1  # standard has no such plugin
    err = capsys.readouterr().err
    assert "--bots er én computerspiller" in err and "forsigtig" not in err.split("blandt:")[-1]


def test_two_house_rules_that_each_add_a_plugin_are_both_in_force(
    write: Callable[[str, str], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_entry_point(monkeypatch, "last-card", LastCardWins)
    first = write("a.yaml", HOUSE.format(name="a", plugin="eksempel"))
    second = write("b.yaml", HOUSE.format(name="b", plugin="last-card"))
    resolved = load_ruleset("standard", [first, second])
    assert [p.name for p in resolved.ruleset.plugin_uses()] == ["eksempel", "last-card"]
    rules = compile_rules(resolved)
    assert [name for name, _ in rules.plugins] == ["eksempel", "last-card"]
    assert rules.play.trick_winner(parse_cards("2H AH 3H 4H"), 0, False, None) == 3  # last-card's rule
    assert rules.play.trick_winner(parse_cards("2H AH 7S 4H"), 0, False, None) == 2  # eksempel's, outside it


HOUSE = """\
kind: house_rule
name: {name}
title: {name}
description: adds a plugin
source: test
changes:
  plugins: [{plugin}]
"""


class LastCardWins:
    """A plain ``@hookimpl`` trick-winner rule: the last card wins."""

    @hookimpl
    def regelmotor_trick_winner(self, ruleset: Any) -> Any:
        return lambda cards, trump, sol, fordaekt=None: len(cards) - 1


class Misspelt:
    @hookimpl
    def regelmotor_tricks_winner(self, ruleset: Any) -> Any:
        return None


def _fake_entry_point(monkeypatch: pytest.MonkeyPatch, name: str, target: object) -> None:
    from importlib import metadata

    class EntryPoint:
        def __init__(self) -> None:
            self.name = name
            self.dist = None

        def load(self) -> object:
            return target

    real = metadata.entry_points

    def entry_points(**kwargs: Any) -> Any:
        found = list(real(**kwargs))
        return [*found, EntryPoint()] if kwargs.get("group") == "regelmotor" else found

    monkeypatch.setattr(metadata, "entry_points", entry_points)


def test_a_plain_trick_winner_plugin_is_not_dropped_when_jokers_can_be_trumped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fake_entry_point(monkeypatch, "last-card", LastCardWins)
    ruleset = load_ruleset("standard", ["joker-trumpable"]).ruleset.model_copy(update={"plugins": ("last-card",)})
    rules = compile_rules(ruleset)
    assert rules.play.trick_winner(parse_cards("2H AH 3H 4H"), 0, False, None) == 3
    assert rules.play.trick_winner(parse_cards("JK1 AS 2H 3H"), 0, False, None) == 1  # joker-trumpable still decides


def test_a_misspelt_hook_is_refused_at_its_plugin(monkeypatch: pytest.MonkeyPatch, club: Callable[..., str]) -> None:
    _fake_entry_point(monkeypatch, "stavefejl", Misspelt)
    path = club("k.yaml", CLUB.format(bonus=1).replace("- name: eksempel\n    settings: {bonus: 1}", "- stavefejl"))
    (problem,) = validate_file(path)
    assert problem.path == ("plugins", 0) and "regelmotor_tricks_winner" in problem.message
    assert problem.location.line == 7
    with pytest.raises(RuleNotImplemented, match="unknown hook 'regelmotor_tricks_winner'"):
        compile_rules(load_ruleset(path))


def test_an_entry_point_may_name_a_module_an_instance_or_a_class() -> None:
    module = ModuleType("club_rules")
    instance = LastCardWins()
    assert _instance(module, {}, ("plugins", 0)) == (module, [])
    assert _instance(instance, {}, ("plugins", 0)) == (instance, [])
    made, problems = _instance(LastCardWins, {}, ("plugins", 0))
    assert isinstance(made, LastCardWins) and problems == []
    assert _instance(LastCardWins, {"x": 1}, ("plugins", 0))[1] == [
        (("plugins", 0, "settings"), "this plugin takes no settings")
    ]
