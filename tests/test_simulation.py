"""Bots, simulation and comparison: legal play only, the same numbers for any --jobs, known answers."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.simulate import mean, rate, rate_difference, run_deals, summarize

from .conftest import CONFIGS, scored_as_the_rules_say

MIXED = ["heuristic", "random", "heuristic", "random"]


@pytest.mark.parametrize(("name", "house"), CONFIGS, ids=[f"{n}+{h}" if h else n for n, h in CONFIGS])
def test_bots_only_ever_play_legal_actions(name: str, house: str | None) -> None:
    """Game.apply refuses anything illegal, so a run that ends has had only legal actions."""
    results = run_deals(name, [house] if house else [], 100, 7, MIXED)
    assert len(results) == 100 and all(r.outcome in ("finished", "redeal") for r in results)
    assert all(scored_as_the_rules_say(name, r.scores) for r in results)


def test_bots_see_only_their_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from regelmotor.bots.heuristic import HeuristicBot

    seen = []
    original = HeuristicBot.choose

    def spy(self: HeuristicBot, view: object, legal: list[str]) -> str:
        seen.append(view)
        return original(self, view, legal)  # type: ignore[arg-type]

    monkeypatch.setattr(HeuristicBot, "choose", spy)
    run_deals("standard", [], 5, 1, ["heuristic"] * 4)
    assert seen and all(type(v).__name__ == "View" for v in seen)
    assert not any(hasattr(v, "hands") for v in seen)


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs() -> None:
    one = run_deals("thorsen", ["dobling"], 120, 11, MIXED, jobs=1)
    two = run_deals("thorsen", ["dobling"], 120, 11, MIXED, jobs=2)
    assert one == two
    assert summarize(one, MIXED).as_json() == summarize(two, MIXED).as_json()
    assert run_deals("thorsen", ["dobling"], 120, 12, MIXED) != one


def test_the_chance_that_the_called_card_lies_in_the_kitty() -> None:
    """A called card the declarer does not hold is one of the 42 cards he cannot see, three of which are in
    the kitty: 3/42. Random bots bid without looking at their cards, so nothing biases where it lies."""
    results = run_deals("standard", [], 3000, 5, ["random"] * 4)
    called = [r for r in results if r.side_tricks is not None and not r.called_in_own_hand]
    estimate = rate(sum(r.called_in_kitty for r in called), len(called))
    assert len(called) > 1000
    assert estimate.low <= 3 / 42 <= estimate.high


def test_the_heuristic_bot_beats_the_random_bot_by_a_wide_margin() -> None:
    results = run_deals("standard", [], 400, 3, MIXED)
    per_bot = summarize(results, MIXED).points_per_bot
    assert per_bot["heuristic"].low > per_bot["random"].high
    assert per_bot["heuristic"].value - per_bot["random"].value > 500


def test_estimates_on_a_hand_made_case() -> None:
    m = mean([Fraction(1), Fraction(2), Fraction(3)])
    assert m.value == 2 and m.n == 3
    assert m.high - m.value == pytest.approx(4.303 * (1 / 3) ** 0.5)  # Student's t, 2 degrees of freedom
    below, at = (mean([Fraction(k % 2) for k in range(n)]) for n in (29, 30))  # t up to 29 values, then z
    spread = sum((k % 2 - below.value) ** 2 for k in range(29)) / 28
    assert below.high - below.value == pytest.approx(2.048 * (spread / 29) ** 0.5)
    assert at.high - at.value == pytest.approx(1.959963984540054 * (0.25 * 30 / 29 / 30) ** 0.5)
    many = mean([Fraction(k % 3) for k in range(300)])  # from 30 values on, the normal approximation
    assert many.high - many.value == pytest.approx(1.959963984540054 * (2 / 3 * 300 / 299 / 300) ** 0.5)
    r = rate(25, 100)  # the Wilson score interval of 25 in 100: [0.1755, 0.3430]
    assert r.value == 0.25 and r.low == pytest.approx(0.1755, abs=1e-4) and r.high == pytest.approx(0.3430, abs=1e-4)


def test_no_interval_has_zero_width_at_0_or_100_percent() -> None:
    """Honest statistics: 0 of 10 is not "0% for certain"; the Wilson interval reaches 27.8%."""
    none, every = rate(0, 10), rate(10, 10)
    assert none.low == 0 and none.high == pytest.approx(0.2775, abs=1e-4)
    assert every.high == pytest.approx(1) and every.low == pytest.approx(0.7225, abs=1e-4)
    d = rate_difference(none, every)
    assert d.value == 1 and d.low < 1 and d.high == pytest.approx(1)


def test_a_count_per_deal_keeps_its_interval_within_what_a_deal_can_hold() -> None:
    """Three deals with 0, 0 and 4 joker leads: the t interval reaches below 0, which no deal can have;
    it stops at 0 (and tricks at 13), and the mean itself is unchanged."""
    leads = [Fraction(0), Fraction(0), Fraction(4)]
    assert mean(leads).low < 0
    kept = mean(leads, within=(0, math.inf))
    assert kept.low == 0 and kept.value == mean(leads).value and kept.high == mean(leads).high
    tricks = mean([Fraction(13), Fraction(13), Fraction(9)], within=(0, 13))
    assert tricks.high == 13 and tricks.low < 13
    summary = summarize(run_deals("standard", [], 12, 1, ["heuristic"] * 4), ["heuristic"] * 4)
    assert summary.side_tricks.n > 1 and summary.joker_leads.low >= 0
    assert 0 <= summary.side_tricks.low <= summary.side_tricks.high <= 13


def test_a_mean_of_one_deal_or_a_few_alike_has_no_interval(capsys: pytest.CaptureFixture[str]) -> None:
    """Two deals both passed out say nothing of the spread of the points: no interval ("[—]"), not
    "0,00 [0,00; 0,00]"; and the JSON says null, not NaN (which is not JSON)."""
    assert [math.isnan(mean(v).low) for v in ([Fraction(5)], [Fraction(0)] * 4, [Fraction(0), Fraction(1)])] == [
        True,
        True,
        False,
    ]
    assert main(["simulate", "--bots", "heuristic", "standard", "--deals", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "[0,00; 0,00]" not in out and "[—]" in out
    assert main(["compare", "--bots", "heuristic", "standard", "thorsen", "--deals", "1", "--json"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text and json.loads(text)["a"] == "standard"


def test_a_trump_contract_is_made_when_the_side_takes_its_tricks() -> None:
    """000 7.2.1: "Hvis spilførers side vinder mindst det antal stik som kontrakten kræver, vinder de spillet,
    ellers taber de." """
    results = run_deals("gruppe2", [], 80, 2, ["heuristic"] * 4)
    trump = [r for r in results if r.side_tricks is not None]
    assert trump and any(r.made for r in trump)
    for r in trump:
        assert r.level is not None and r.declarer is not None
        assert r.made == (r.side_tricks >= r.level)
        assert (r.scores[r.declarer] > 0) == r.made


def test_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "heuristic", "gruppe2", "--deals", "60", "--seed", "4", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert (
        main(["simulate", "--bots", "heuristic", "gruppe2", "--deals", "60", "--seed", "4", "--json", "--jobs", "2"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == first
    assert first["deals"] == 60 and first["ruleset"] == "gruppe2 + dobling" and first["bots"] == ["heuristic"] * 4
    assert set(first["points_per_seat"]) == {"forhaand", "second", "third", "dealer"}


def test_simulate_rejects_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "standard", "--deals", "5", "--bots", "clever"]) == 1
    assert "--bots er én computerspiller til alle fire pladser eller fire" in capsys.readouterr().err


def test_compare_shows_the_rule_difference_and_the_joker_effect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "chart.svg"
    argv = [
        "compare",
        "--bots",
        "heuristic",
        "standard",
        "standard",
        "-H",
        "joker-trumpable",
        "--deals",
        "300",
        "--seed",
        "2",
        "--json",
    ]
    assert main([*argv, "--plot", str(chart)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [d["path"] for d in report["diff"]] == ["jokers.led_joker"]
    rows = {row["name"]: row for row in report["rows"]}
    won = rows["joker lead won by leader"]
    assert won["a"]["value"] == 1.0 and won["b"]["value"] < 1.0 and won["significant"]
    assert rows["joker leads per deal"]["significant"]
    assert ET.parse(chart).getroot().tag.endswith("svg")


def test_a_png_chart_without_matplotlib_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        import matplotlib  # noqa: F401

        pytest.skip("matplotlib is installed here")
    except ImportError:
        pass
    argv = [
        "compare",
        "--bots",
        "heuristic",
        "gruppe2",
        "gruppe2",
        "--deals",
        "10",
        "--plot",
        str(tmp_path / "chart.png"),
    ]
    assert main(argv) == 1
    assert "en PNG-tegning kræver matplotlib" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["missing/chart.svg", "chart.pdf"])
def test_a_chart_that_cannot_be_written_is_refused_before_any_deal_is_played(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trust issue: "--plot ... to a folder that does not exist, runs the whole simulation and then fails"."""
    import regelmotor.cli.runs

    def no_deals(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played before the chart's target was checked")

    monkeypatch.setattr(regelmotor.cli.runs, "run_deals", no_deals)
    assert (
        main(
            [
                "compare",
                "--bots",
                "heuristic",
                "standard",
                "standard",
                "--deals",
                "10",
                "--plot",
                str(tmp_path / target),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert ("mappen" in err and "findes ikke" in err) or "--plot skriver .svg eller .png" in err


def test_a_dask_cluster_gives_the_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """The simulation issue: "--dask ADDRESS ... runs the same work on a Dask cluster with identical results";
    the bots issue: the expert's determinism "across --jobs and Dask"; the rule search's: "--jobs and --dask
    as simulate has them ... the same answer for the same --seed" (one cluster for all: starting one takes
    seconds)."""
    distributed = pytest.importorskip("distributed")
    experts = ["expert"] * 4
    tune = ["tune", "standard", "--key", "sol_bids.sol.max_tricks", "--values", "0,1", "--maximise", "selvmakker"]
    tune += ["--bots", "heuristic", "--deals", "120", "--json"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = run_deals("whistklubben", ["gaa-med"], 60, 9, MIXED, dask=cluster.scheduler_address)
        experts_on_dask = run_deals("standard", ["gaa-med"], 3, 3, experts, dask=cluster.scheduler_address)
        assert main([*tune, "--dask", cluster.scheduler_address]) == 0
        tuned_on_dask = json.loads(capsys.readouterr().out)
    assert on_dask == run_deals("whistklubben", ["gaa-med"], 60, 9, MIXED, jobs=1)
    assert experts_on_dask == run_deals("standard", ["gaa-med"], 3, 3, experts, jobs=1)
    assert main([*tune, "--jobs", "1"]) == 0
    assert tuned_on_dask == json.loads(capsys.readouterr().out)


def test_jobs_default_to_one_process_per_core_and_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "--jobs J uses local processes"; without it every core this process may use plays."""
    assert main(["simulate", "--bots", "heuristic", "gruppe2", "--deals", "40", "--seed", "4", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert (
        main(["simulate", "--bots", "heuristic", "gruppe2", "--deals", "40", "--seed", "4", "--json", "--jobs", "1"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == default
    assert main(["simulate", "gruppe2", "--deals", "40", "--jobs", "0"]) == 1
    assert "--jobs er et antal processer, 1 til " in capsys.readouterr().err


def test_points_are_compared_per_stake_where_the_stakes_differ(
    club: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Ten times the base rate: the same deals give ten times the points, and the same points per stake."""
    club(
        "tenfold.yaml",
        """
        extends: standard
        name: tenfold
        title: Ti gange
        description: Grundtaksten ti gange
        source: test
        scoring:
          tables:
            base:
              key: level
              values: {7: 100, 8: 200, 9: 400, 10: 800, 11: 1600, 12: 3200, 13: 6400}
        """,
    )
    assert (
        main(["compare", "--bots", "heuristic", "standard", "tenfold.yaml", "--deals", "60", "--jobs", "1", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["stakes"] == {"a": 10.0, "b": 100.0}
    rows = {row["name"]: row for row in report["rows"]}
    per_stake = rows["points per stake, forhaand"]
    assert per_stake["a"]["value"] == pytest.approx(per_stake["b"]["value"]) and not per_stake["significant"]
    assert per_stake["difference"]["value"] == pytest.approx(0.0)
    assert "points per stake, forhaand" not in {
        r["name"] for r in json.loads(_compare_json(capsys, "standard", "standard"))["rows"]
    }


def _compare_json(capsys: pytest.CaptureFixture[str], a: str, b: str) -> str:
    assert main(["compare", "--bots", "heuristic", a, b, "--deals", "5", "--jobs", "1", "--json"]) == 0
    return capsys.readouterr().out


def test_simulate_reports_in_danish_with_intervals_and_in_english_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The table issue: "Danish and English are mixed across the command line: ... simulate"."""
    from regelmotor.cli import main

    assert main(["simulate", "--bots", "heuristic", "standard", "--deals", "20", "--jobs", "1"]) == 0
    danish = capsys.readouterr().out
    assert danish.startswith("standard: 20 spil\n") and "stik til melderens side: " in danish
    assert re.search(r"\d,\d %? ?\[\-?\d+,\d+; \-?\d+,\d+\]", danish), "Danish numbers: a decimal comma"
    assert "95 %-intervaller" in danish and "deals" not in danish
    assert main(["simulate", "--bots", "heuristic", "standard", "--deals", "20", "--jobs", "1", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert english.startswith("standard: 20 deals\n") and "tricks of the declarer's side: " in english
