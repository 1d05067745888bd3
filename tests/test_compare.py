"""regelmotor compare: a club reads first what changed, in its own language."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from regelmotor.cli import main

from .conftest import REPO


def _summary_row(name: str, a: float, b: float, significant: bool) -> dict[str, object]:
    return {"name": name, "a": {"value": a}, "b": {"value": b}, "significant": significant}


def test_the_summary_says_first_in_danish_what_changed_and_how_much_did_not() -> None:
    """The issue's own example: "sol meldes tre gange så ofte: 1,1 % → 3,3 % af spillene"."""
    from regelmotor.compare import summary_lines

    report = {
        "rows": [
            _summary_row("contract sol: share", 0.011, 0.033, True),
            _summary_row("contract halve: made", 0.55, 0.45, True),
            _summary_row("contract vip: share", 0.18, 0.17, False),
            _summary_row("points, forhaand", 2.0, -3.5, True),
        ]
    }
    assert summary_lines(report, 1000) == [
        "Det der ændrer sig (sikkert ved 95 %):",
        "  Sol meldes 3 gange så ofte: 1,1 % → 3,3 % af spillene",
        "  Halve vindes sjældnere: 55,0 % → 45,0 % af gangene",
        "  Point til forhånd: 2,0 → -3,5 pr. spil",
        "Resten (1 tal) ændrer sig ikke sikkert; tabellen nedenfor viser dem alle.",
    ]
    assert summary_lines(report, 1000, "en")[1] == "  Sol is bid 3 times as often: 1.1% → 3.3% of the deals"
    quiet = {"rows": [_summary_row("contract sol: share", 0.011, 0.012, False)]}
    assert summary_lines(quiet, 40) == ["Intet ændrer sig sikkert med 40 spil; flere spil kan vise mindre forskelle."]


def test_a_figure_that_changed_is_never_counted_among_those_that_did_not() -> None:
    """A starred row the summary has no sentence for (jokers led, tricks to the declarer's side) is still
    said to have changed: the summary said "Intet ændrer sig sikkert" above a table with a star in it."""
    from regelmotor.compare import summary_lines

    report = {
        "rows": [
            {**_summary_row("joker leads per deal", 1.03, 0.98, True), "percent": False},
            {**_summary_row("selvmakker", 0.068, 0.084, True), "percent": True},
            _summary_row("contract vip: share", 0.18, 0.17, False),
        ]
    }
    assert summary_lines(report, 1000) == [
        "Det der ændrer sig (sikkert ved 95 %):",
        "  Jokerudspil pr. spil: 1,03 → 0,98",
        "  Selvmakker: 6,8 % → 8,4 %",
        "Resten (1 tal) ændrer sig ikke sikkert; tabellen nedenfor viser dem alle.",
    ]
    assert summary_lines(report, 1000, "en")[1] == "  Joker leads per deal: 1.03 → 0.98"


def test_the_text_table_speaks_danish_and_the_json_keeps_its_names() -> None:
    """The bots issue: "`compare` answers in statisticians' English ... a club wants to read first, in Danish";
    row names in ``--json`` unchanged."""
    from regelmotor.compare import row_label

    assert row_label("contract ren sol: share", "da") == "ren sol: andel"
    assert row_label("contract 8 gode: made", "da") == "8 gode: vundet"
    assert row_label("outcome finished", "da") == "spillet ender: færdigspillet"
    assert row_label("points, forhaand", "da") == "point, forhånd"
    assert row_label("points per stake, dealer", "da") == "point pr. indsats, giveren"
    assert row_label("declarer side tricks", "da") == "stik til melderens side"
    assert row_label("declarer side tricks", "en") == "declarer side tricks"


def test_compare_in_english_names_the_rule_differences_in_english_and_its_chart_speaks_the_reports_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Everything a club member reads is Danish first, English with ``--lang en``: with ``--lang en`` the rule
    differences were still "Point til melderen, når han taber 7 med 6 stik", and the chart for the club's
    newsletter said "(blå) mod ... intervaller; * = signifikant" over the JSON's row names in either language."""
    halvpris = str(REPO / "docs" / "examples" / "halvpris.yaml")
    english, danish = tmp_path / "en.svg", tmp_path / "da.svg"
    argv = ["compare", "--bots", "heuristic", "standard", halvpris, "--deals", "20"]
    assert main([*argv, "--lang", "en", "--plot", str(english)]) == 0
    text = capsys.readouterr().out
    assert "  Points to the declarer when he loses 7 with 6 tricks: -20 / -10\n" in text
    # issue 73 item 11: the formula's key said in English too, not as its key path
    assert (
        "  Scoring of trump games: the formula for a player's score when the contract fails: -2 * base * B * D" in text
    )
    assert "scoring.trump.failed" not in text
    assert "Point til" not in text and "Formlen" not in text
    assert main([*argv, "--plot", str(danish)]) == 0
    assert "  Point til melderen, når han taber 7 med 6 stik: -20 / -10\n" in capsys.readouterr().out
    words = {
        path: " ".join(t.text or "" for t in ET.parse(path).getroot().iter() if t.tag.endswith("text"))
        for path in (english, danish)
    }
    assert "(blue) against" in words[english] and "contract alm: share" in words[english]
    assert "blå" not in words[english] and "andel" not in words[english]
    assert "(blå) mod" in words[danish] and "alm: andel" in words[danish] and "sikkert ved 95 %" in words[danish]
    assert "share" not in words[danish] and "signifikant" not in words[danish]


def test_a_change_only_in_the_points_is_said_to_be_unseen_by_the_heuristic_not_too_small_to_see(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 45: where the two rulesets differ only in what the heuristic cannot see (the scores), "its
    summary says so in Danish first ('heuristikken læser ikke pointene: brug --bots expert') instead of
    'flere spil kan vise mindre forskelle'"."""
    assert (
        main(
            [
                "compare",
                "--bots",
                "heuristic",
                "standard",
                str(REPO / "docs" / "examples" / "richsol.yaml"),
                "--deals",
                "12",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    summary = out.split("\n\n")[1]
    assert summary.startswith("Heuristikken læser ikke pointene") and "Brug --bots expert." in summary
    assert "flere spil kan vise mindre forskelle" not in out


def test_only_a_difference_in_the_points_with_bots_blind_to_them_is_unseen() -> None:
    """A rule of play is seen by every bot; the points only by the expert; a new title by none that matters."""
    from regelmotor.compare import unseen_by_bots

    points = {"path": "scoring.tables.S"}
    money, title, play = {"path": "money.stake"}, {"path": "title"}, {"path": "jokers.count"}
    assert unseen_by_bots([points, title], ["heuristic"] * 4)
    assert unseen_by_bots([money], ["heuristic", "random", "heuristic", "random"])
    assert not unseen_by_bots([points, play], ["heuristic"] * 4)  # the play differs: the heuristic sees that
    assert not unseen_by_bots([points], ["expert", "heuristic", "heuristic", "heuristic"])  # one seat reads them
    assert not unseen_by_bots([title], ["heuristic"] * 4)  # no rule differs at all
    assert not unseen_by_bots([], ["heuristic"] * 4)


def test_a_run_shows_its_progress_in_danish_with_the_time_left_and_is_quiet_when_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 45: "Progress (Danish, with the time left) for every run that takes more than two seconds, whatever
    the deal count and the bots; quiet with --json to a pipe or --quiet"."""
    import io

    from regelmotor import progress as progress_module
    from regelmotor.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock = [0.0]
    shown = Terminal()
    progress = Progress(40, "deals", "da", shown, clock=lambda: clock[0])
    clock[0] = 5.0
    progress(10)
    clock[0] = 300.0
    progress(20)
    progress(40)
    longest = "spiller: 20 af 40 spil (5 min, ca. 5 min tilbage)"
    assert shown.getvalue().split("\r")[1:] == [
        "spiller: 10 af 40 spil (5 s, ca. 15 s tilbage)",
        longest,
        "spiller: 40 af 40 spil (5 min)".ljust(len(longest)) + "\n",  # covering the longer line before it
    ]
    told = Terminal()
    Progress(40, "deals", "da", told, quiet=True)(20)
    assert told.getvalue() == ""
    monkeypatch.setattr(progress_module, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr("sys.stderr", Terminal())
    assert main(["simulate", "--bots", "heuristic", "standard", "--deals", "3", "--quiet"]) == 0
    assert main(["simulate", "--bots", "heuristic", "standard", "--deals", "3", "--json"]) == 0  # to a pipe
    assert progress_module.sys.stderr.getvalue() == ""
    assert main(["match", "heuristic", "random", "standard", "--deals", "2"]) == 0
    assert "spiller: 4 af 4 spil" in progress_module.sys.stderr.getvalue()


def test_simulate_and_compare_play_with_the_expert_unless_told_otherwise() -> None:
    """Issue 45: "compare, simulate and match default to the expert. --bots heuristic stays for quick runs"
    (match names its two bots itself). The expert is the one bot that weighs a call by the points."""
    from regelmotor.cli.commands import build_parser

    parser = build_parser()
    for argv in (["simulate", "standard"], ["compare", "standard", "thorsen"]):
        assert parser.parse_args(argv).bots == "expert"
        assert parser.parse_args([*argv, "--bots", "heuristic"]).bots == "heuristic"
