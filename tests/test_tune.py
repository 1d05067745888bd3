"""regelmotor tune: the value of a ruleset's number that best meets a club's goal, found honestly (every value on
the same deals, the answer with its interval and the values it cannot be told from), and written into the
club's file."""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.settings import UnknownKey, find_key, tunable_keys
from regelmotor.simulate import DealResult, Estimate, Task, rate
from regelmotor.tuning.goal import Goal, GoalError, find_row, parse_goal
from regelmotor.tuning.race import race, rounds
from regelmotor.tuning.search import (
    Axis,
    TuneError,
    Tuner,
    check_values,
    make_plan,
    parse_range,
    parse_values,
)

from .conftest import REPO

SOL = "scoring.tables.S.values.sol"


# --- the race, on synthetic objectives whose answer is known -----------------------------------------


class _Samples:
    """Candidates whose figure per deal is drawn from a known distribution: the race's play and standing."""

    def __init__(self, draw: Sequence[object], deals: int, seed: int) -> None:
        rng = random.Random(seed)
        self.samples = [[d(rng) for _ in range(deals)] for d in draw]  # type: ignore[operator]
        self.played = [0] * len(draw)

    def play(self, indexes: Sequence[int], n: int) -> int:
        spent = 0
        for i in indexes:
            spent += max(0, n - self.played[i])
            self.played[i] = max(self.played[i], n)
        return spent


def _share_race(rates: Sequence[float], target: float, deals: int, seed: int) -> tuple[int, list[int], int, set[int]]:
    data = _Samples([lambda r, p=p: r.random() < p for p in rates], deals, seed)

    def standing(i: int, z: float) -> Estimate:
        return rate(sum(data.samples[i][: data.played[i]]), data.played[i], z)

    goal = Goal("contract sol: share", True, "target", target)
    result = race(range(len(rates)), deals, goal, data.play, standing)
    dropped = {s.index for s in result.standings if s.dropped}
    return result.chosen, result.indistinguishable, result.deals, dropped


def test_racing_never_drops_the_value_truly_closest_to_a_share_target() -> None:
    """Many seeds, values far and near: the value truly closest to 5 % is never ruled out."""
    rates = [0.005, 0.02, 0.045, 0.09, 0.15, 0.25, 0.4]
    best = 2
    chosen_best = 0
    for seed in range(150):
        chosen, close, _, dropped = _share_race(rates, 0.05, 600, seed)
        assert best not in dropped, seed
        assert chosen == best or best in close, seed
        chosen_best += chosen == best
    assert chosen_best > 100  # and mostly it is the answer itself


def test_racing_never_drops_the_least_mean_on_noisy_objectives() -> None:
    """Means 0, 0.15, 0.4, 1, 2 with unit noise: the least is never ruled out, whatever the seed."""
    means = [0.0, 0.15, 0.4, 1.0, 2.0]
    for seed in range(150):
        data = _Samples([lambda r, m=m: r.gauss(m, 1.0) for m in means], 800, seed)

        def standing(i: int, z: float, data: _Samples = data) -> Estimate:
            values = data.samples[i][: data.played[i]]
            m, sd = statistics.fmean(values), statistics.stdev(values)  # as simulate.mean, in floats: quicker
            half = z * sd / math.sqrt(len(values))
            return Estimate(m, m - half, m + half, len(values))

        result = race(range(len(means)), 800, Goal("points, forhaand", False, "minimise"), data.play, standing)
        assert not result.standings[0].dropped, seed
        assert result.chosen == 0 or 0 in result.indistinguishable, seed


def _paired_race(
    rates: Sequence[float], target: float, deals: int, seed: int, shared: float
) -> tuple[int, int, set[int]]:
    """Values played on the same deals: on a share ``shared`` of the deals every value draws the same number (a
    hand good enough for sol at 50 is good enough at 100), on the rest each draws its own."""
    rng = random.Random(seed)
    draws = [(rng.random(), [rng.random() for _ in rates]) for _ in range(deals)]
    common = [rng.random() < shared for _ in range(deals)]
    drawn = (Fraction(0), Fraction(1))  # each deal's part: sol bid or not, of one deal
    parts = [
        [(drawn[(u if same else own[i]) < p], drawn[1]) for (u, own), same in zip(draws, common, strict=True)]
        for i, p in enumerate(rates)
    ]
    played = [0] * len(rates)

    def play(indexes: Sequence[int], n: int) -> int:
        spent = sum(max(0, n - played[i]) for i in indexes)
        for i in indexes:
            played[i] = max(played[i], n)
        return spent

    def standing(i: int, z: float) -> Estimate:
        return rate(sum(v.numerator for v, _ in parts[i][: played[i]]), played[i], z)

    goal = Goal("contract sol: share", True, "target", target)

    def behind(other: int, best: int, z: float) -> float:
        return goal.paired_behind(parts[other][: played[other]], parts[best][: played[best]], z)

    result = race(range(len(rates)), deals, goal, play, standing, behind=behind)
    return result.chosen, result.deals, {s.index for s in result.standings if s.dropped}


def test_racing_on_the_same_deals_never_drops_the_value_truly_closest() -> None:
    rates = [0.01, 0.03, 0.045, 0.07, 0.12, 0.2, 0.35]
    for seed in range(100):
        _, _, dropped = _paired_race(rates, 0.05, 600, seed, shared=0.8)
        assert 2 not in dropped, seed


def test_racing_spends_most_deals_on_the_values_that_are_close() -> None:
    """Values clearly out are dropped early: on the same deals, far fewer deals than playing every value to the
    end, and the answer found."""
    rates = [0.01, 0.05, 0.15, 0.22, 0.27, 0.32]  # sol's share as its points rise, as the expert bids it
    spent = [_paired_race(rates, 0.05, 800, seed, shared=0.8) for seed in range(20)]
    assert all(chosen == 1 for chosen, _, _ in spent)
    assert sum(deals for _, deals, _ in spent) / len(spent) <= len(rates) * 800 / 2


def test_the_rounds_double_up_to_the_deals_a_value_gets() -> None:
    assert rounds(600) == [150, 300, 600]
    assert rounds(1000) == [125, 250, 500, 1000]
    assert rounds(150) == [150]


# --- the search with the engine's rules, on deals whose answer is known ---------------------------------


class _KnownRunner:
    """Deals in which sol is bid with a chance of (sol's value)/1000: tuning sol to 5 % must find 50."""

    def play(self, tasks: Sequence[Task], progress: object = None) -> list[list[DealResult]]:
        out = []
        for task in tasks:
            value = Fraction(task.table.settings[0][2])
            out.append([_deal(i, float(value) / 1000, task.seed) for i in range(task.start, task.stop)])
        return out


def _deal(i: int, p: float, seed: int) -> DealResult:
    sol = random.Random(f"{seed}:{i}").random() < p  # the same draw for every value: common random numbers
    zero = Fraction(0)
    return DealResult(
        i, i % 4, "finished", None, "sol" if sol else "alm", 7, 0, True, False, False, False, 7, (zero,) * 4, 0, 0
    )


def test_the_search_finds_the_value_whose_answer_is_known() -> None:
    key = find_key(load_ruleset("standard").ruleset, SOL)
    plan = make_plan([Axis(key, parse_values("10,25,50,100,200", SOL))], 800)
    goal = parse_goal(compile_rules(load_ruleset("standard")), "kontrakt sol = 5 %", None, None)
    loaded = check_values("standard", [], plan)
    tuner = Tuner("standard", [], plan, goal, 1, ["heuristic"] * 4, _KnownRunner(), loaded)  # type: ignore[arg-type]
    result = tuner.run()
    assert result.chosen == (Fraction(50),)
    assert result.deals < plan.uniform
    by_value = {c[0]: s for c, s in result.standings.items()}
    assert by_value[Fraction(200)].dropped and by_value[Fraction(200)].n < 800


# --- goals: compare's rows, by the names a club uses ----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "row"),
    [
        ("contract sol: share", "contract sol: share"),
        ("sol: andel", "contract sol: share"),
        ("kontrakt sol", "contract sol: share"),
        ("Kontrakt  Sol", "contract sol: share"),
        ("halve vundet", "contract halve: made"),
        ("fordel forhånd", "points, forhaand"),
        ("point, giveren", "points, dealer"),
        ("spillet ender: med alle pas", "outcome all_pass"),
        ("stik til melderens side", "declarer side tricks"),
    ],
)
def test_a_goal_names_a_row_of_compare_as_its_json_or_as_a_club_says_it(said: str, row: str) -> None:
    assert find_row(compile_rules(load_ruleset("standard")), said)[0] == row


def test_a_row_that_does_not_exist_is_refused_naming_the_nearest() -> None:
    with pytest.raises(GoalError) as caught:
        find_row(compile_rules(load_ruleset("standard")), "kontrakt sool")
    assert "kontrakt sool" in caught.value.text("da") and "sol" in caught.value.text("da")


def test_a_share_target_is_said_in_percent() -> None:
    rules = compile_rules(load_ruleset("standard"))
    assert parse_goal(rules, "kontrakt sol = 5 %", None, None).target == pytest.approx(0.05)
    assert parse_goal(rules, "sol: andel = 2,5", None, None).target == pytest.approx(0.025)
    with pytest.raises(GoalError):
        parse_goal(rules, "stik til melderens side = 50 %", None, None)
    with pytest.raises(GoalError):
        parse_goal(rules, "kontrakt sol = fem", None, None)
    with pytest.raises(GoalError):
        parse_goal(rules, None, None, None)


def test_the_distance_to_a_target_has_its_own_interval() -> None:
    goal = Goal("contract sol: share", True, "target", 0.05)
    inside = goal.loss(Estimate(0.06, 0.04, 0.08, 100))
    assert inside.low == 0 and inside.value == pytest.approx(0.01) and inside.high == pytest.approx(0.03)
    outside = goal.loss(Estimate(0.2, 0.15, 0.25, 100))
    assert outside.low == pytest.approx(0.1) and outside.high == pytest.approx(0.2)


# --- keys: every number a club may tune, and a clear refusal of the rest -----------------------------------


def test_a_point_table_entry_a_formulas_number_and_a_setting_are_keys() -> None:
    ruleset = load_ruleset("standard").ruleset
    assert find_key(ruleset, SOL).current == 50
    failed = find_key(ruleset, "scoring.sol.failed")  # the -2 of "-2 * S * D"
    assert (failed.current, failed.constant) == (-2, 0)
    assert find_key(ruleset, "misdeal.penalty").current == 0  # a default no file writes is a key too
    thorsen = load_ruleset("thorsen").ruleset
    assert find_key(thorsen, "scoring.sol.formula#1").current == 45


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("scoring.tables.S.values.sool", "scoring.tables.S.values.sol"),  # a slip: the nearest is named
        ("jernhaand.allowed", "ikke et tal"),  # yes/no is not a number to try
        ("table.players.1", "form"),  # the game's shape: the seats
        ("dealing.pattern.1", "form"),
    ],
)
def test_a_key_that_cannot_be_tuned_is_refused_at_its_path(key: str, says: str) -> None:
    with pytest.raises(UnknownKey) as caught:
        find_key(load_ruleset("standard").ruleset, key)
    assert key in caught.value.text("da") and says in caught.value.text("da")


def test_the_listed_keys_leave_out_the_games_shape() -> None:
    texts = [k.text for k in tunable_keys(load_ruleset("standard").ruleset)]
    assert SOL in texts and "misdeal.penalty" in texts
    assert not any(t.startswith(("table.", "dealing.", "card_order.")) for t in texts)


def test_a_value_is_set_in_the_merged_ruleset_before_it_is_checked() -> None:
    key = find_key(load_ruleset("standard").ruleset, "scoring.sol.failed")
    resolved = load_ruleset("standard", settings=[key.setting(Fraction(-3))])
    assert resolved.ruleset.scoring.sol.failed == "-3 * S * D"  # type: ignore[union-attr]
    assert load_ruleset("standard").ruleset.scoring.sol.failed == "-2 * S * D"  # type: ignore[union-attr]


def test_values_and_ranges_are_read_exactly() -> None:
    assert parse_values("25, 50,1.5,3/2", "k") == (25, 50, Fraction(3, 2))
    assert parse_range("25:100:25", "k") == (25, 50, 75, 100)
    for bad in ("25:10:5", "1:2:0", "a:b:c"):
        with pytest.raises(TuneError):
            parse_range(bad, "k")
    with pytest.raises(TuneError):
        parse_values("25,halvtreds", "k")
    with pytest.raises(TuneError):
        parse_range("1:1000:1", "k")  # a thousand values: a slip


# --- the command: every refusal before any deal is played --------------------------------------------------


def _tune(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tune", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--key", "scoring.tables.S.values.sool", "--values", "1,2", "--minimise", "selvmakker"], "nærmest"),
        (["--key", "table.players.1", "--values", "4,5", "--minimise", "selvmakker"], "form"),
        (["--key", SOL, "--values", "10,20", "--target", "kontrakt sool = 5%"], "sammenligningen har intet tal"),
        (["--key", "bids.min_tricks", "--values", "7,8", "--minimise", "selvmakker"], "bids.min_tricks = 8"),
        (["--key", SOL, "--range", "1:40:1", "--deals", "40000", "--minimise", "selvmakker"], "højst 1.000.000"),
        (["--key", SOL, "--values", "10,20"], "giv ét mål"),
        (["--key", SOL, "--minimise", "selvmakker"], "lige efter sig"),
    ],
)
def test_every_refusal_comes_before_any_deal_in_danish(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelmotor.simulate import DealRunner

    def no_deals(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played before the refusal")

    monkeypatch.setattr(DealRunner, "play", no_deals)
    code, out, err = _tune(capsys, "standard", "--bots", "heuristic", *argv)
    assert code != 0 and out == ""
    assert says in err.replace("1000000", "1.000.000"), err


def test_a_search_the_bots_cannot_see_keeps_the_clubs_value_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """The heuristic does not read the points: every value of sol plays alike, none can be told apart, and the
    search does not move the club from what it has."""
    code, out, _ = _tune(
        capsys, "standard", "--key", SOL, "--values", "25,50,100", "--target", "kontrakt sol = 5%",
        "--bots", "heuristic", "--deals", "120", "--jobs", "1", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["unseen_by_bots"] is True
    assert data["chosen"] == 50 and sorted(data["indistinguishable"]) == [25, 100]
    assert {v["estimate"]["value"] for v in data["values"]} == {data["values"][0]["estimate"]["value"]}
    assert set(data) >= {"goal", "keys", "values", "chosen", "indistinguishable", "deals"}
    assert data["goal"] == {"row": "contract sol: share", "target": 0.05} and data["keys"] == [SOL]
    assert all(set(v) >= {"value", "n", "estimate"} for v in data["values"])
    code, text, _ = _tune(
        capsys, "standard", "--key", SOL, "--values", "25,50,100", "--target", "kontrakt sol = 5%",
        "--bots", "heuristic", "--deals", "120", "--jobs", "1",
    )  # fmt: skip
    assert text.startswith("Computerspillerne læser ikke pointene")
    assert "25, 50 og 100 kan ikke skilles ad med 120 spil" in text


def test_the_same_seed_gives_the_same_answer_whatever_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["standard", "--key", "sol_bids.sol.max_tricks", "--values", "0,1", "--maximise", "selvmakker"]
    argv += ["--bots", "heuristic", "--deals", "200", "--json"]
    _, one, _ = _tune(capsys, *argv, "--jobs", "1")
    _, two, _ = _tune(capsys, *argv, "--jobs", "2")
    assert json.loads(one) == json.loads(two)


# --- the club's new file ------------------------------------------------------------------------------------


def test_the_new_file_keeps_the_clubs_own_words_and_plays_the_chosen_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    club = tmp_path / "klub.yaml"
    club.write_text((REPO / "docs/examples/richsol.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    new = tmp_path / "klub-ny.yaml"
    code, _, err = _tune(
        capsys, str(club), "--key", SOL, "--values", "100,150", "--key", "scoring.sol.failed", "--values=-2,-3",
        "--minimise", "selvmakker", "--bots", "heuristic", "--deals", "100", "--jobs", "1", "-o", str(new),
    )  # fmt: skip
    assert code == 0, err
    assert f"skrev {new}" in err
    text = new.read_text(encoding="utf-8")
    assert text.startswith("# A club that pays sol three times as much")  # the club's own comment stays
    assert "# regelmotor tune" in text and "seed 1" in text
    resolved = load_ruleset(str(new))
    assert find_key(resolved.ruleset, SOL).current == 150  # a tie: the club's own values stay
    assert find_key(resolved.ruleset, "scoring.sol.failed").current == -2
    assert find_key(resolved.ruleset, "scoring.tables.S.values.ren sol").current == 300
    code, _, err = _tune(
        capsys, str(club), "--key", SOL, "--values", "100,150", "--minimise", "selvmakker",
        "--bots", "heuristic", "--deals", "100", "--jobs", "1", "-o", str(new),
    )  # fmt: skip
    assert code != 0 and "--force" in err  # never over an existing file without --force


def test_values_are_written_where_the_file_has_them_or_under_its_nearest_section(tmp_path: Path) -> None:
    from regelmotor.tuning.club_file import Change, write_change

    ruleset = load_ruleset("standard").ruleset
    sol, failed = find_key(ruleset, SOL), find_key(ruleset, "scoring.sol.failed")
    flow = "kind: ruleset\nextends: standard\nname: x\nscoring:\n  tables:\n    S:\n      values: {sol: 150}\n"
    assert "values: {sol: 75}" in write_change(flow, Change(sol, Fraction(75)), "c")
    added = write_change(flow, Change(find_key(ruleset, "scoring.tables.S.values.ren sol"), Fraction(9)), "c")
    assert "values: {sol: 150, ren sol: 9}" in added
    nested = write_change(flow, Change(failed, Fraction(-3), "-2 * S * D"), "fundet")
    assert '  # fundet\n  sol:\n    failed: "-3 * S * D"\n' in nested
    bare = write_change("kind: ruleset\nextends: standard\nname: x\n", Change(sol, Fraction(3, 2)), "c")
    assert bare.endswith('# c\nscoring:\n  tables:\n    S:\n      values:\n        sol: "3/2"\n')
    for text in (flow, added, nested):
        path = tmp_path / "x.yaml"
        path.write_text(text, encoding="utf-8")
        load_ruleset(str(path))


def test_a_shipped_ruleset_gets_a_new_file_that_extends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelmotor.simulate import DealRunner

    played = DealRunner.play

    def no_deals(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played before the refusal")

    new = tmp_path / "klub.yaml"
    monkeypatch.setattr(DealRunner, "play", no_deals)
    code, _, err = _tune(
        capsys, "standard", "--key", "sol_bids.sol.max_tricks", "--values", "0,1", "--maximise", "selvmakker",
        "--bots", "heuristic", "--deals", "100", "--jobs", "1", "-o", str(new), "--json",
    )  # fmt: skip
    assert code != 0 and "liste" in err  # a key inside a list is not written blind: said so before any deal
    assert not new.exists()
    monkeypatch.setattr(DealRunner, "play", played)
    code, out, err = _tune(
        capsys, "standard", "--key", "scoring.sol.failed", "--values=-2,-4", "--minimise", "selvmakker",
        "--bots", "heuristic", "--deals", "100", "--jobs", "1", "-o", str(new), "--json",
    )  # fmt: skip
    assert code == 0, err
    assert "extends: standard" in new.read_text(encoding="utf-8")
    chosen = json.loads(out)["chosen"]
    assert find_key(load_ruleset(str(new)).ruleset, "scoring.sol.failed").current == chosen


@pytest.mark.parametrize("ruleset", ["standard", "thorsen", "engelsk", "dansk"])
def test_each_figure_deal_by_deal_adds_up_to_the_figure_compare_reports(ruleset: str) -> None:
    """The race pairs two values deal by deal (``deal_parts``); compare reports the figure from the summary:
    the two must be one figure, for every row."""
    from regelmotor.compare import contract_kinds, deal_parts, figures
    from regelmotor.simulate import run_deals, summarize
    from regelmotor.tuning.goal import OUTCOMES

    rules = compile_rules(load_ruleset(ruleset))
    kinds = contract_kinds(rules)
    results = run_deals(ruleset, [], 160, 3, ["heuristic"] * 4)
    shown = figures(summarize(results, ["heuristic"] * 4), kinds, OUTCOMES, Fraction(10))
    parts = deal_parts(kinds, OUTCOMES, Fraction(10))
    assert set(shown) == set(parts)
    for name, figure in shown.items():
        top = sum((parts[name](r)[0] for r in results), Fraction(0))
        bottom = sum((parts[name](r)[1] for r in results), Fraction(0))
        if bottom == 0:
            assert figure.estimate.value != figure.estimate.value or figure.estimate.n == 0, name  # NaN: none
        else:
            assert float(top / bottom) == pytest.approx(figure.estimate.value), name


class _BowlRunner:
    """Deals in which forhånd's points are (sol - 30)² + (ren sol - 60)² plus noise: least at 30 and 60."""

    def play(self, tasks: Sequence[Task], progress: object = None) -> list[list[DealResult]]:
        out = []
        for task in tasks:
            sol, ren = (Fraction(s[2]) for s in task.table.settings)
            bowl = (sol - 30) ** 2 + (ren - 60) ** 2
            deals = []
            for i in range(task.start, task.stop):
                noise = Fraction(random.Random(f"{task.seed}:{i}").randint(-50, 50))
                scores = [Fraction(0)] * 4
                scores[(i % 4 + 1) % 4] = bowl + noise
                deals.append(_deal(i, 0, task.seed)._replace(scores=tuple(scores)))
            out.append(deals)
        return out


def test_a_grid_too_large_to_race_whole_is_searched_a_key_at_a_time() -> None:
    ruleset = load_ruleset("standard").ruleset
    axes = [
        Axis(find_key(ruleset, SOL), parse_range("10:110:10", SOL)),
        Axis(find_key(ruleset, "scoring.tables.S.values.ren sol"), parse_range("10:110:10", "ren sol")),
    ]
    plan = make_plan(axes, 400)
    assert not plan.grid  # 121 candidates
    goal = parse_goal(compile_rules(load_ruleset("standard")), None, "fordel forhånd", None)
    tuner = Tuner("standard", [], plan, goal, 1, ["heuristic"] * 4, _BowlRunner(), {})  # type: ignore[arg-type]
    result = tuner.run()
    assert result.chosen == (30, 60)
    assert len(result.standings) < 121 and result.deals < plan.most


def test_the_chart_shows_each_value_with_its_interval_and_the_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import xml.etree.ElementTree as ET

    chart = tmp_path / "sol.svg"
    code, _, err = _tune(
        capsys, "standard", "--key", SOL, "--values", "25,50,100", "--target", "kontrakt sol = 5 %",
        "--bots", "heuristic", "--deals", "60", "--jobs", "1", "--plot", str(chart),
    )  # fmt: skip
    assert code == 0, err
    svg = ET.parse(chart).getroot()
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert {"25", "50", "100", "målet"} <= set(texts)
    assert sum(1 for t in texts if t and t.endswith(" %")) >= 3  # the figure's axis, in Danish percent
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}circle"))) == 3
    code, _, err = _tune(
        capsys, "standard", "--key", SOL, "--values", "25,50", "--minimise", "selvmakker", "--plot", str(tmp_path / "x.gif"),
    )  # fmt: skip
    assert code != 0 and "x.gif" in err  # refused before any deal


def test_a_formulas_numbers_are_found_where_they_stand_and_changed_alone() -> None:
    from regelmotor.model.formula import constants, with_constant

    assert [c.value for c in constants("(V + O - 3/2*U) * D * (5/2)**(C - 8)")] == [3, 2, 5, 2, 8]
    assert with_constant("-2 * S * D", 0, Fraction(-3)) == "-3 * S * D"
    assert with_constant("base * (1 + O) * B", 0, Fraction(3, 2)) == "base * ((3/2) + O) * B"
    assert with_constant("2 × S − 1", 1, Fraction(4)) == "2 × S − 4"  # the club's own signs stay
    # 000 7.2.2 writes the power as ^: the numbers after it stand where the club wrote them
    assert with_constant("(5/2)^(C – 8) * D", 2, Fraction(9)) == "(5/2)^(C – 9) * D"
    assert with_constant("2^C*D - 8", 1, Fraction(7)) == "2^C*D - 7"


def test_a_png_chart_draws_a_share_of_0_percent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The heuristic seldom bids sol: at 0 % the interval's lower bound can lie a rounding above the point."""
    pytest.importorskip("matplotlib")
    chart = tmp_path / "sol.png"
    code, _, err = _tune(
        capsys, "standard", "--key", SOL, "--values", "25,50", "--target", "sol = 5", "--bots", "heuristic",
        "--deals", "100", "--jobs", "1", "--plot", str(chart),
    )  # fmt: skip
    assert code == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_a_new_files_short_name_is_written_as_a_ruleset_name_is() -> None:
    """A club that writes -o "Klub ny.yaml" gets a file that loads: its name is klub-ny."""
    from regelmotor.tuning.club_file import new_club_text

    assert "name: klub-ny\n" in new_club_text("standard", "Klub ny")
    assert "name: aeroeskoebing\n" in new_club_text("standard", "Ærøskøbing")
    assert "name: klub\n" in new_club_text("standard", "---")
