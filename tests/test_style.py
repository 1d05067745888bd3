"""The expert's style (``bots/style.py``): a style round-trips through its file and through a bot's name, a
broken file is refused at its line in Danish first, the default style is today's expert, and a style leans the
calls it is meant to lean."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from regelmotor.bots import check_bot, make_bot
from regelmotor.bots.budget import DEFAULT_BUDGET, Budget
from regelmotor.bots.expert import ExpertBot
from regelmotor.bots.style import DEFAULT_STYLE, Style, StyleError, read_style, split_bot, styled_bot
from regelmotor.cli import main
from regelmotor.engine.actions import PASS_ACTION, Action, Verb
from regelmotor.errors import RegelmotorError
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.simulate import play_deal

CLUB = Style.make(2.5, 30, {"sol": -60, "ren sol": -60.5, "vip": 10}, name="Onsdagsklubben")


def test_a_style_round_trips_through_its_file(tmp_path: Path) -> None:
    path = tmp_path / "stil.yaml"
    path.write_text(CLUB.yaml_text("standard", ["fitted today"]), encoding="utf-8")
    back = read_style(path)
    assert back == CLUB and back.name == "Onsdagsklubben"
    assert read_style(_written(tmp_path, DEFAULT_STYLE.yaml_text())) == DEFAULT_STYLE


def test_a_style_round_trips_through_a_bots_name() -> None:
    name = styled_bot(CLUB)
    assert name.startswith("expert:") and "," not in name  # --bots splits seats on commas
    assert split_bot(name) == ("expert", CLUB)
    assert styled_bot(DEFAULT_STYLE) == "expert" and split_bot("expert") == ("expert", None)


def _written(folder: Path, text: str, name: str = "s.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "dansk"),
    [
        ("kind: style\ncaution: -1\n", "s.yaml:2:10: caution: -1 er uden for 0 til 10"),
        ("kind: style\npassing: mange\n", "s.yaml:2:10: passing: skal være et tal, ikke mange"),
        ("kind: style\nappetite:\n  sol: yes\n", "s.yaml:3:8: appetite.sol:"),
        ("kind: style\nforsigtig: 2\n", 's.yaml:2:1: forsigtig: ukendt nøgle "forsigtig"'),
        ("kind: ruleset\n", 's.yaml:1:7: kind: en stil begynder med "kind: style"'),
        ("kind: style\nappetite: [sol]\n", "s.yaml:2:1: appetite: appetite er kontrakterne"),
    ],
)
def test_a_broken_style_is_refused_at_its_line_in_danish_first(tmp_path: Path, text: str, dansk: str) -> None:
    with pytest.raises(StyleError) as refused:
        read_style(_written(tmp_path, text))
    assert refused.value.text("da").startswith(dansk.replace("s.yaml", str(tmp_path / "s.yaml")))
    assert "s.yaml:" in str(refused.value)  # the English names the place too


def test_a_style_file_is_read_as_every_file_is(tmp_path: Path) -> None:
    with pytest.raises(RegelmotorError) as refused:
        read_style(tmp_path)
    assert "mappe" in refused.value.text("da")
    big = _written(tmp_path, "kind: style\n" + "#" * 70_000 + "\n")
    with pytest.raises(RegelmotorError):
        read_style(big)


def test_a_style_is_the_experts_only_and_must_be_one() -> None:
    rules = compile_rules(load_ruleset("standard"))
    with pytest.raises(RegelmotorError) as refused:
        check_bot("heuristic:caution=1", rules)
    assert "kun computerspilleren expert" in refused.value.text("da")
    with pytest.raises(RegelmotorError):
        check_bot("expert:caution=nej", rules)
    assert isinstance(make_bot(styled_bot(CLUB), rules, random.Random(1)), ExpertBot)


def test_the_default_style_is_todays_expert() -> None:
    """A default style sets nothing: the bot decides from the same budget, with no leanings (the golden games
    of tests/test_nothing_a_club_sees_changes.py hold every decision)."""
    rules = compile_rules(load_ruleset("standard"))
    bot = ExpertBot(rules, random.Random(1), style=DEFAULT_STYLE)
    assert bot.budget == DEFAULT_BUDGET and bot.style is None
    assert DEFAULT_STYLE.caution == DEFAULT_BUDGET.bid_caution


def test_a_style_leans_the_calls_it_names() -> None:
    ladder = compile_rules(load_ruleset("standard")).auction.ladder
    sol, vip, plain = (Action(Verb.BID, bid=ladder.parse(t)) for t in ("sol", "8 vip", "8"))
    leaned = CLUB.lean({sol: 100.0, vip: 50.0, plain: 40.0, PASS_ACTION: 0.0})
    assert leaned == {sol: 40.0, vip: 60.0, plain: 40.0, PASS_ACTION: 30.0}


TINY = Budget(play_samples=2, lead_samples=2, plan_samples=2, bid_samples=3, selection=(), dd_cards=0, plan_dd_cards=0)


def test_a_style_that_passes_soon_passes_deals_out() -> None:
    """Four experts who want a hundred points more than a bid brings pass every deal out; the default ones
    bid. The style is the one thing that differs."""
    rules = compile_rules(load_ruleset("standard"))
    shy = Style.make(passing=1000)

    def outcomes(style: Style) -> list[str | None]:
        results = []
        for deal in range(3):
            original = ExpertBot.__init__.__defaults__
            ExpertBot.__init__.__defaults__ = (None, None, TINY, None)
            try:
                results.append(play_deal(rules, deal, 5, [styled_bot(style)] * 4).reason)
            finally:
                ExpertBot.__init__.__defaults__ = original
        return results

    assert outcomes(shy) == ["all_pass"] * 3
    assert "all_pass" not in outcomes(DEFAULT_STYLE)


def test_style_on_the_command_line_is_said_and_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--style`` and ``--bots expert:FILE`` put the style into the bots' names and the JSON says it; a style
    whose appetite names a contract the ruleset lacks is refused before a deal, naming both."""
    path = _written(tmp_path, Style.make(passing=1000).yaml_text(), "stil.yaml")
    monkeypatch.setattr(ExpertBot.__init__, "__defaults__", (None, None, TINY, None))
    assert main(["simulate", "standard", "--deals", "2", "--jobs", "1", "--quiet", "--style", str(path), "--json"]) == 0
    import json

    said = json.loads(capsys.readouterr().out)
    assert said["style"]["passing"] == 1000 and all(b.startswith("expert:") for b in said["bots"])
    assert said["outcomes"]["all_pass"]["value"] == 1.0
    assert main(["simulate", "standard", "--deals", "1", "--quiet", "--bots", f"expert:{path}", "--jobs", "1"]) == 0
    assert "paslyst 1000" in capsys.readouterr().out
    odd = _written(tmp_path, "kind: style\nappetite:\n  nolo: -5\n", "odd.yaml")
    assert main(["simulate", "standard", "--deals", "1", "--style", str(odd)]) == 1
    assert 'reglerne standard har ingen kontrakt "nolo"' in capsys.readouterr().err
