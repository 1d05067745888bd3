"""The club's word is law: what a club writes is what is played, scored and printed (issue 23, in part).

One precedence, stated in docs/writing-a-ruleset.md: the parent < the house rules the file lists, in
their order < the file's own keys; ``-H`` on the command line last. ``show --where`` says which file
set each value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from regelmotor.cli import main
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import ContractInfo
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

from .conftest import offered

CLUB = """\
kind: ruleset
extends: standard
name: klub
title: Klubben
description: standard med klubkasse
source: klubbens vedtægter
house_rules: [joker-trumpable, klubkasse]
money:
  evening_fee: 20
  source: klubbens vedtægter, 2026
"""


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "klub.yaml"
    path.write_text(CLUB, encoding="utf-8")
    return path


def test_the_clubs_own_value_wins_over_a_house_rule_it_lists(club: Path) -> None:
    """The issue: "`house_rules: [joker-trumpable, klubkasse]` with `money: {evening_fee: 20}` validates;
    `show` gives `evening_fee: 100` and the rule book prints "Hver spiller betaler 100 pr. aften til
    klubbens kasse."" The house rule still sets what the club does not (the losses go to the box)."""
    resolved = load_ruleset(str(club))
    assert resolved.ruleset.money.evening_fee == 20 and resolved.ruleset.money.losses_to_box
    assert resolved.ruleset.jokers is not None and resolved.ruleset.jokers.led_joker == "loses_to_trump"
    book = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(book, str) and "20 pr. aften" in book and "100 pr. aften" not in book


def test_a_house_rule_on_the_command_line_is_laid_on_last(club: Path) -> None:
    """What the person running the command asks to try (``-H``) goes over the club's own keys."""
    changed = load_ruleset(str(club), ["klubkasse"]).ruleset.money.evening_fee
    assert changed == 20  # a house rule the file already lists applies once, where the file lists it
    assert load_ruleset("standard", ["klubkasse"]).ruleset.money.evening_fee == 100


def test_show_where_names_the_file_and_line_of_every_rule(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "let `show` say which file set each value"."""
    assert main(["show", str(club), "--where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"money.evening_fee: 20  # {club}:9" in lines
    assert "money.losses_to_box: true  # rulesets/house/klubkasse.yaml:10" in lines
    assert any(line.startswith("play.first_lead: ") and "rulesets/standard.yaml" in line for line in lines)


def test_a_house_rule_turns_on_a_rule_the_ruleset_leaves_out() -> None:
    """003 41: "Der må doubles, hvis modparten ikke mener, at meldingen kan gennemføres": gruppe2 writes no
    doubling section of its own; the house rule it lists turns doubling on."""
    ruleset = load_ruleset("gruppe2").ruleset
    assert ruleset.doubling.allowed and ruleset.doubling.by == "opponents" and ruleset.doubling.factor == 2
    assert load_ruleset("gruppe2").where(("doubling", "allowed")).file == "rulesets/house/dobling.yaml"


THIRDS = """\
kind: ruleset
extends: standard
name: tredjedele
title: Tredjedele
description: en selvmakker får 80, som de tre andre deler
source: klubbens vedtægter
scoring:
  trump:
    made: 80 * D / 3
    failed: -80 * D / 3
    source: klubbens vedtægter
  decimals: 2
  source: klubbens vedtægter
"""


def test_an_exact_score_is_printed_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "`score` prints −80.01 for an exact −80 and 99.99 for 100 (the declarer printed as the sum
    of the others' rounded points)". The declarer's exact 80 is printed 80; the others' thirds are
    rounded as the score sheet books them (-26.66, -26.67, -26.67), the same in text and JSON."""
    club = tmp_path / "tredjedele.yaml"
    club.write_text(THIRDS, encoding="utf-8")
    argv = ["score", str(club), "--contract", "7", "--tricks", "7", "--selvmakker"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "melder      +80\n" in text and "på arket -26,66, -26,67, -26,67, så summen er 0" in text
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["declarer"] == 80 and sorted(data["each_opponent"]) == [-26.67, -26.67, -26.66]


def test_replay_prints_the_points_its_json_gives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "`replay` prints +6.67 and +6.67 while `--json` gives 6.67 and 6.66"."""
    club = tmp_path / "tredjedele.yaml"
    club.write_text(THIRDS, encoding="utf-8")
    rules = compile_rules(load_ruleset(str(club)))
    from regelmotor.engine.game import Game
    from regelmotor.records import game_record

    for seed in range(200):  # a deal played by a selvmakker: thirds to print
        game = Game.from_seed(rules, seed, 3)
        while game.step is not None:
            game.apply(offered(game)[0] if game.step[0] != "call" else _alone_or_pass(game))
        if game.scores is not None and any((s * 100).denominator != 1 for s in game.scores):
            break
    else:
        pytest.skip("no deal with thirds among 200 seeds")
    record = tmp_path / "spil.json"
    record.write_text(json.dumps(game_record(game, str(club)), default=str), encoding="utf-8")
    assert main(["replay", str(record), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["scores"]
    assert main(["replay", str(record), "--lang", "en"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("scores: "))
    assert line == "scores: " + ", ".join(
        f"seat {s + 1}: {p:+}" if p else f"seat {s + 1}: 0" for s, p in enumerate(shown)
    )
    assert main(["replay", str(record)]) == 0  # in Danish: the same numbers, with a decimal comma
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("point: "))
    danish = [f"plads {s + 1}: {p:+}".replace(".", ",") if p else f"plads {s + 1}: 0" for s, p in enumerate(shown)]
    assert line == "point: " + ", ".join(danish)
    assert sum(shown) == 0


def _alone_or_pass(game: Any) -> str:
    return "7" if "7" in offered(game) else "pass"


def _club_problems(tmp_path: Path, body: str) -> list[str]:
    from regelmotor.errors import RulesetError

    path = tmp_path / "klub.yaml"
    head = "kind: ruleset\nextends: standard\nname: klub\ntitle: K\ndescription: K\nsource: klubben\n"
    path.write_text(head + body, encoding="utf-8")
    with pytest.raises(RulesetError) as found:
        load_ruleset(str(path))
    return [str(p) for p in found.value.problems]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "scoring:\n  trump:\n    made: -base * B * D\n    failed: -2 * base * B * D\n    source: klubben\n",
            "klub.yaml:9:11: scoring.trump.made: 7 alm made with 7 tricks gives the declarer -10: a made contract pays",
        ),
        (
            'scoring:\n  trump:\n    made: "0"\n    failed: "0"\n  sol:\n    made: "0"\n    failed: "0"\n',
            "klub.yaml:9:11: scoring.trump.made: 7 alm made with 7 tricks gives the declarer 0: a made contract pays",
        ),
        (
            "scoring:\n  trump:\n    made: base * B * D\n    failed: base * B * D\n    source: klubben\n",
            "klub.yaml:9:11: scoring.trump.made: 7 alm made pays the declarer 10, failed by one 10: "
            "a failed contract pays less",
        ),
        (
            "money:\n  evening_fee: -20\n  source: klubben\n",
            "klub.yaml:8:16: money.evening_fee: an evening fee is paid to the club's box: 0 or more, not -20",
        ),
        (
            "table:\n  players: []\n  source: klubben\n",
            "klub.yaml:8:3: table.players: no number of players is allowed: list 4, 5 or 6 (es-makker whist takes 4)",
        ),
    ],
    ids=["making loses", "every formula 0", "failed as made", "negative fee", "no players"],
)
def test_nonsense_is_an_error_at_the_clubs_line(tmp_path: Path, body: str, expected: str) -> None:
    """The issue: "Nonsense validates with nothing but a reminder to cite a source: a contract whose making
    loses points, every formula "0", `failed` equal to `made` (`score --contract 8 --tricks 3` then pays the
    declarer), a sol bid with `max_tricks: 13`, a negative `evening_fee`, `table.players: []`"."""
    problems = _club_problems(tmp_path, body)
    assert any(p == f"{tmp_path}/{expected}" for p in problems), problems


def test_a_sol_that_asks_nothing_is_an_error() -> None:
    """The issue: "a sol bid with `max_tricks: 13`" (a club file replaces the whole list of sol bids, so the
    check is shown on the model: the loader reports it at the club's line as every other check)."""
    from regelmotor.ruleset.checks import check_ruleset

    ruleset = load_ruleset("standard").ruleset
    sol = ruleset.sol_bids[0].model_copy(update={"max_tricks": 13})
    changed = ruleset.model_copy(update={"sol_bids": (sol, *ruleset.sol_bids[1:])})
    found = {path: message for path, message in check_ruleset(changed)}
    message = found[("sol_bids", 0, "max_tricks")]
    assert str(message) == '"sol" asks nothing: the declarer may take all 13 tricks'
    assert (
        isinstance(message, RegelmotorError)
        and message.text("da") == '"sol" kræver intet: melderen må tage alle 13 stik'
    )


def test_jernhaand_set_in_its_own_section_is_in_the_rule_book(tmp_path: Path) -> None:
    """The issue: "`jernhaand: {allowed: true}` is valid and `diff` shows "nej / ja", but no rule book mentions
    jernhånd; it appears only when written as `house_rules: [jernhaand]`"."""
    path = tmp_path / "jh.yaml"
    head = "kind: ruleset\nextends: standard\nname: jh\ntitle: JH\ndescription: JH\nsource: klubben\n"
    path.write_text(head + "jernhaand:\n  allowed: true\n  source: klubbens vedtægter\n", encoding="utf-8")
    resolved = load_ruleset(str(path))
    book = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(book, str)
    assert "Jernhånd: en spiller uden esser, konger, damer og knægte og uden jokere kan kræve ny kortgivning" in book
    plain = render(build_rulebook(load_ruleset("standard"), compile_rules(load_ruleset("standard")), "da"), "md")
    assert isinstance(plain, str) and "Jernhånd: en spiller uden" not in plain


def test_a_house_rules_change_to_a_designation_stands_over_the_files_own_list(tmp_path: Path) -> None:
    """The precedence's one exception (docs/writing-a-ruleset.md): a house rule changes designations and sol
    bids entry by entry, so its change stands over the list the file writes itself. A club file that
    extends nothing and lists halve-vip plays what standard with -H halve-vip plays."""
    import yaml

    shipped = Path(__file__).resolve().parent.parent / "rulesets" / "standard.yaml"
    data = yaml.safe_load(shipped.read_text(encoding="utf-8"))
    data["name"], data["house_rules"] = "rodklub", ["halve-vip"]
    path = tmp_path / "rodklub.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    own = load_ruleset(str(path)).ruleset.model_dump()
    given = load_ruleset("standard", ["halve-vip"]).ruleset.model_dump()
    assert {k for k in own if own[k] != given[k]} == {"name"}


# --- removing what is inherited ---------------------------------------------------------------------

HEAD = "kind: ruleset\nextends: standard\nname: uden\ntitle: Uden\ndescription: uden\nsource: klubbens vedtægter\n"


def _removing(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "uden.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def test_a_club_without_ren_bordlaegger_extends_standard(tmp_path: Path) -> None:
    """The issue: "a club without ren bordlægger cannot extend `standard` (`S: null` and `ren bordlægger:
    null` are refused, and the error points into `rulesets/standard.yaml`, not the club's file)". With
    ``remove:`` the bid is gone from the ladder, its entry from the sol table, and from the rule book."""
    path = _removing(tmp_path, "remove:\n  sol_bids: [ren bordlægger]\n")
    resolved = load_ruleset(str(path))
    rules = compile_rules(resolved)
    assert [s.id for s in resolved.ruleset.sol_bids] == ["sol", "ren sol", "bordlægger"]
    assert "ren bordlægger" not in rules.auction.ladder.by_text
    assert "ren bordlægger" not in resolved.ruleset.scoring.tables["S"].values
    book = render(build_rulebook(resolved, rules, "da"), "md")
    assert isinstance(book, str) and "bordlægger" in book.lower() and "ren bordlægger" not in book.lower()


def test_designations_can_be_dropped_so_a_group_need_not_extend_another_game(tmp_path: Path) -> None:
    """The issue: "designations cannot be dropped either". Dropping halve takes its entry out of the
    table keyed by bid (``B``), which could no longer apply."""
    path = _removing(tmp_path, "remove:\n  designations: [halve, vip]\n")
    resolved = load_ruleset(str(path))
    assert [d.id for d in resolved.ruleset.designations] == ["alm", "gode", "sans"]
    assert {"halve", "vip"}.isdisjoint(resolved.ruleset.scoring.tables["B"].values)
    assert not any(b.designation in ("halve", "vip") for b in compile_rules(resolved).auction.ladder.bids)


def test_a_table_entry_can_be_removed(tmp_path: Path) -> None:
    path = _removing(tmp_path, "remove:\n  tables:\n    S: [ren bordlægger]\n")
    with pytest.raises(Exception) as caught:  # the bid stays, its price is gone: said at the club's remove:
        load_ruleset(str(path))
    text = str(caught.value)
    assert f"{path}:7:1:" in text and "inherited: left so by this file's remove:" in text


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "remove:\n  sol_bids: [ren bordlæger]\n",
            'uden.yaml:8:14: remove.sol_bids[1]: there is no sol bid "ren bordlæger" to remove (there are: sol, '
            "ren sol, bordlægger, ren bordlægger)",
        ),
        (
            "remove:\n  tables:\n    Q: [1]\n",
            'uden.yaml:9:9: remove.tables.Q[1]: there is no point table "Q" (there are: base, B, S)',
        ),
        (
            "remove:\n  tables:\n    S: [grand]\n",
            'uden.yaml:9:9: remove.tables.S[1]: the table "S" has no entry "grand" (it has: sol, ren sol, '
            "bordlægger, ren bordlægger)",
        ),
        (
            "remove:\n  designations: [halve]\ndesignations:\n  - id: halve\n    display: halve\n",
            'uden.yaml:8:18: remove.designations[1]: the designation "halve" is removed here and set in this same '
            "file: keep one of the two",
        ),
    ],
    ids=["no such bid", "no such table", "no such entry", "removed and set"],
)
def test_a_removal_that_cannot_be_is_an_error_at_the_clubs_line(tmp_path: Path, body: str, expected: str) -> None:
    path = _removing(tmp_path, body)
    with pytest.raises(Exception) as caught:
        load_ruleset(str(path))
    assert f"{tmp_path}/{expected}" in str(caught.value), str(caught.value)


def test_remove_in_a_file_that_extends_nothing_is_an_error(tmp_path: Path) -> None:
    import yaml

    shipped = Path(__file__).resolve().parent.parent / "rulesets" / "standard.yaml"
    data = yaml.safe_load(shipped.read_text(encoding="utf-8"))
    data["remove"] = {"sol_bids": ["sol"]}
    path = tmp_path / "rod.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(Exception, match='"remove:" takes out what a file inherits, and this file extends nothing'):
        load_ruleset(str(path))


def test_the_schema_describes_remove_in_danish() -> None:
    from regelmotor.ruleset.schema import ruleset_schema

    remove = ruleset_schema()["$defs"]["RulesetFile"]["properties"]["remove"]
    assert remove["description"].startswith("Det der fjernes af det arvede")
    assert set(remove["properties"]) == {"designations", "sol_bids", "tables"}


# --- a rule book a club hands out ----------------------------------------------------------------------


def _book(resolved: Any, fmt: str = "md", lang: str = "da") -> str:
    text = render(build_rulebook(resolved, compile_rules(resolved), lang), fmt)
    assert isinstance(text, str)
    return text


def test_the_clubs_name_is_the_rule_books_title(club: Path) -> None:
    """The issue: "the club's name only in a subtitle"."""
    book = _book(load_ruleset(str(club)))
    assert book.startswith("# Klubben\n\n_Regler for es-makker whist. Genereret af regelmotor")


def test_the_klubkasse_sentence_is_printed_once(club: Path) -> None:
    """The issue: "the klubkasse sentence twice" (the house rule's description and the rule it sets)."""
    book = _book(load_ruleset(str(club)))
    assert book.count("går de tabte beløb") == 1
    assert "- Tabte beløb og aftengebyr i klubbens kasse." in book  # the house rule named by its title


def test_doubling_is_named_as_its_own_rule_not_under_fordaekt() -> None:
    """The issue: "the heading "Fordækt kort: Dobling:" in every shipped book"."""
    for name in ("standard", "thorsen", "whistklubben", "gruppe2"):
        book = _book(load_ruleset(name))
        assert "Fordækt kort: Dobling" not in book
    assert "- Dobling: udledt: Online-reglerne nævner ikke dobling" in _book(load_ruleset("standard"))
    assert "Dobling: Dobling" not in _book(load_ruleset("standard"))


def test_one_designation_states_no_order(tmp_path: Path) -> None:
    """The issue: ""På samme antal stik gælder: almindelige." with one designation"."""
    path = _removing(tmp_path, "remove:\n  designations: [vip, gode, sans, halve]\n")
    book = _book(load_ruleset(str(path)))
    assert "På samme antal stik gælder" not in book
    assert "På samme antal stik gælder: almindelige < vip" in _book(load_ruleset("standard"))


def test_the_html_book_keeps_its_font_names_quoted() -> None:
    """The issue: "the HTML book falls back to a serif font (`&#34;DejaVu Sans&#34;` escaped inside `<style>`)"."""
    html = _book(load_ruleset("standard"), "html")
    style = html.split("<style>")[1].split("</style>")[0]
    assert 'font-family: "DejaVu Sans"' in style and "&#34;" not in style


def test_the_formulas_stand_in_an_appendix_after_the_point_tables() -> None:
    """The issue: "formulas in the text ("vundet base * (1 + O) * B * D")": the tables say the points; the
    formulas come after the rules, in a section of their own."""
    book = _book(load_ruleset("standard"))
    scoring = book.split("## Afregning")[1].split("\n## ")[0]
    assert "base · (1 + O)" not in scoring and "| Meldt \\ taget |" in scoring
    formulas = book.split("## Sådan regnes pointene")[1].split("\n## ")[0]
    assert "vundet base · (1 + O) · B · D; tabt −2 · base · B · D" in formulas
    assert book.index("## Afregning") < book.index("## Sådan regnes pointene") < book.index("## Kilder")
    # issue 73 item 12: "`base * (1 + O) * B * D` ... mean nothing to a member": each letter is said
    assert "Hvor base er tallet fra pointtabellen base; O er overstikkene (stik ud over meldingen)" in formulas


def test_diff_says_the_rules_values_in_danish_words(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "`diff` shows raw values inside Danish text ("wins / loses_to_trump", "same_dealer",
    "compulsory (declarer)")"."""
    assert main(["diff", "standard", "thorsen"]) == 0
    out = capsys.readouterr().out
    for danish in ("standard: vinder\n    thorsen: taber til trumf", "standard: samme kortgiver", "tvungen (melderen)"):
        assert danish in out
    for raw in ("loses_to_trump", "same_dealer", "compulsory", "max_tricks"):
        assert raw not in out.replace("(jokers.led_joker)", "")


# --- the bordlægger's hand laid open before the first lead ---------------------------------------------


def _open_before(tmp_path: Path) -> Path:
    import yaml

    sol_bids = load_ruleset("standard").ruleset.model_dump(mode="json", exclude_none=True)["sol_bids"]
    for bid in sol_bids:
        if bid["id"] == "bordlægger":
            bid["open_hand"] = "before_first_lead"
            bid["source"] = "klubbens vedtægter: bordlæggerens kort lægges op, før der spilles ud"
    path = tmp_path / "aaben.yaml"
    data = {
        "kind": "ruleset",
        "extends": "standard",
        "name": "aaben",
        "title": "Åben bordlægger",
        "description": "bordlæggerens kort åbne før første udspil",
        "source": "klubbens vedtægter",
        "sol_bids": sol_bids,
    }
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_bordlaegger_laid_open_before_the_first_lead_is_seen_by_the_leader(tmp_path: Path) -> None:
    """The issue: "the bordlægger's hand laid open before the first lead" (a rule real groups play that no
    key said): ``open_hand: before_first_lead``. The leader sees the declarer's cards when he leads, in the
    engine's view, the expert's playouts (the kernel's rows) and the rule book."""
    from regelmotor import play_row
    from regelmotor.bots import kernel as K
    from regelmotor.engine.actions import Action, Verb
    from regelmotor.engine.game import PLAY, Game

    resolved = load_ruleset(str(_open_before(tmp_path)))
    rules = compile_rules(resolved)
    bordlaegger = rules.auction.ladder.parse("bordlægger")
    for seed in range(40):
        game = Game.from_seed(rules, seed, 0)
        while game.step is not None and game.step[0] != "call":
            game.apply("keep")
        game.apply("pass")  # forhånd passes, so that the bordlægger is not the one to lead
        assert game.step is not None
        declarer = game.step[1]
        game.apply(Action(Verb.BID, bid=bordlaegger))
        while game.step is not None and game.phase != PLAY:
            game.apply(game.legal[0])
        if game.phase != PLAY or game.declarers != (declarer,):
            continue
        leader = game.to_act
        assert leader is not None and leader != declarer and not game.tricks and not game.trick
        view = game.view(leader)
        assert declarer in dict(view.open_hands)
        assert sorted(dict(view.open_hands)[declarer]) == sorted(game.hands[declarer])
        kernel = rules.play
        row = play_row.row_from_game(kernel, game)
        assert K.visible(row, leader, declarer)  # the playouts' leader sees them too
        break
    else:
        pytest.fail("no bordlægger reached its first lead")
    book = _book(resolved)
    assert "Bordlægger" in book and "hans kort lægges åbne på bordet før første udspil" in book


def test_open_before_the_first_lead_is_said_in_diff_and_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from regelmotor.ruleset.schema import ruleset_schema

    assert main(["diff", "standard", str(_open_before(tmp_path))]) == 0
    assert "aaben: før første udspil" in capsys.readouterr().out
    schema = json.dumps(ruleset_schema(), ensure_ascii=False)
    assert "before_first_lead" in schema and "før første udspil (så udspilleren ser dem)" in schema


# --- "det kan jeg selv" for any overcalled bidder --------------------------------------------------------


def _club_file(tmp_path: Path, name: str, body: str, extends: str = "standard") -> Path:
    """A club's file of its own rules (``body``) over ``extends``, written as ``name``.yaml; its text is
    ``.read_text()``'s (the line numbers of ``body`` start at 7)."""
    path = tmp_path / f"{name}.yaml"
    head = f"kind: ruleset\nextends: {extends}\nname: {name}\ntitle: {name}\ndescription: {name}\n"
    path.write_text(head + "source: klubbens regler\n" + body, encoding="utf-8")
    return path


KAN_SELV_ALLE = """\
house_rules: [kan-selv]
auction:
  kan_selv_for: overcalled
  source: 'klubbens regler: "Bliver man overmeldt, kan man sige: det kan jeg selv"'
"""


def _selv_alle(tmp_path: Path) -> Path:
    return _club_file(tmp_path, "selv-alle", KAN_SELV_ALLE)


def test_any_overcalled_bidder_may_say_det_kan_jeg_selv(tmp_path: Path) -> None:
    """The issue: ""det kan jeg selv" for any overcalled bidder (`kan_selv` gives it only to forhånd)". Seat 2
    bids 7 after forhånd passes, seat 3 overcalls with 8: seat 2 may take the 8 himself, and seat 3 must then
    go higher or pass."""
    rules = compile_rules(load_ruleset(str(_selv_alle(tmp_path))))
    seats = (1, 2, 3, 0)
    assert "selv" in rules.auction.procedure(seats, ["pass", "7", "8"]).legal
    after = rules.auction.procedure(seats, ["pass", "7", "8", "selv"])
    assert after.holder == 2 and after.highest is not None and after.highest.text == "8" and after.to_act == 3
    assert compile_rules(load_ruleset("standard", ["kan-selv"])).auction.procedure(seats, ["pass", "7", "8"]).legal[
        :2
    ] == (
        "pass",
        "8 vip",
    )  # with the house rule alone, seat 2 is not forhånd: no "selv"


def test_a_bid_taken_so_is_not_taken_back_at_the_same_height(tmp_path: Path) -> None:
    """The one whose bid was taken must overcall or pass (the kan-selv house rule: "den overmeldte skal så
    melde over eller passe"): were he to take it back, the two could say "selv" forever."""
    from regelmotor.errors import IllegalCall

    rules = compile_rules(load_ruleset(str(_selv_alle(tmp_path))))
    seats = (1, 2, 3, 0)
    taken = rules.auction.procedure(seats, ["7", "8", "selv"])
    assert taken.to_act == 2 and "selv" not in taken.legal
    with pytest.raises(IllegalCall, match="not a bid taken so"):
        rules.auction.procedure(seats, ["7", "8", "selv", "selv"])
    again = rules.auction.procedure(seats, ["7", "8", "selv", "9"])  # a higher bid may be taken again
    assert again.to_act == 1 and "selv" in again.legal
    assert rules.auction.procedure(seats, ["7", "8", "selv", "pass"]).to_act == 3  # the next seat enters against it
    assert "selv" not in rules.auction.procedure(seats, ["7", "8", "selv", "pass"]).legal  # he entered, not overcalled


def test_every_auction_with_selv_for_all_ends(tmp_path: Path) -> None:
    """Games always terminate: random calls, "selv" whenever offered, end within a bounded number of calls."""
    import random

    rules = compile_rules(load_ruleset(str(_selv_alle(tmp_path))))
    seats = (1, 2, 3, 0)
    rng = random.Random(5)
    for _ in range(300):
        calls: list[str] = []
        status = rules.auction.procedure(seats, calls)
        while status.to_act is not None:
            assert len(calls) < 400
            legal = status.legal
            call = "selv" if "selv" in legal and rng.random() < 0.7 else rng.choice(legal[:3])
            calls.append(call)
            status = rules.auction.procedure.advance(status, call)


def test_selv_for_all_is_said_in_the_book_diff_and_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from regelmotor.ruleset.schema import ruleset_schema

    path = _selv_alle(tmp_path)
    book = _book(load_ruleset(str(path)))
    assert 'Er en melder overmeldt, kan han tage buddet selv på samme højde ("det kan jeg selv")' in book
    assert main(["diff", "standard", str(path)]) == 0
    out = capsys.readouterr().out
    assert "enhver overmeldt melder" in out
    schema = json.dumps(ruleset_schema(), ensure_ascii=False)
    assert "enhver melder, der er blevet overmeldt" in schema


def test_selv_for_all_without_kan_selv_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = _club_file(tmp_path, "halv", KAN_SELV_ALLE.replace("house_rules: [kan-selv]\n", ""))
    with pytest.raises(RegelmotorError) as caught:
        load_ruleset(str(path))
    assert f"{path}:8:17: auction.kan_selv_for:" in str(caught.value) and "kan_selv is not on" in str(caught.value)


# --- the partner card falls whenever its suit is led --------------------------------------------------

EVERY_TIME = """\
called_card:
  must_fall_every_time_led: true
  holder_leads_it: false
  source: 'klubbens regler: "Makker-esset skal falde, når farven spilles"'
"""


def _every_time(tmp_path: Path) -> Path:
    return _club_file(tmp_path, "falder-altid", EVERY_TIME, extends="gruppe2")


def test_the_partner_card_must_fall_whenever_its_suit_is_led(tmp_path: Path) -> None:
    """The issue: "the partner card that must fall whenever its suit is led". Its suit led once already (in
    gruppe2's free first trick, 003 36: "I første runde må spilles alt", or by its holder with a low card),
    the holder must still play it when the suit is led again; where it falls the first time only, he need not."""
    from regelmotor.cards import parse_card, parse_cards
    from regelmotor.hooks import TrickContext

    club = compile_rules(load_ruleset(str(_every_time(tmp_path))))
    first_only = compile_rules(load_ruleset("gruppe2"))
    hand = parse_cards("AH 5H 9S 2C")
    ace = parse_card("AH")
    led_again = TrickContext(trump=0, sol=False, first_trick=False, called=ace, called_suit_led=True)
    assert club.play.legal_cards(hand, parse_cards("KH"), led_again) == (ace,)
    assert set(first_only.play.legal_cards(hand, parse_cards("KH"), led_again)) == set(parse_cards("AH 5H"))
    refusal = club.play.legal_cards.why_not(hand, parse_cards("KH"), led_again, parse_card("5H"))  # type: ignore[attr-defined]
    assert refusal is not None and refusal.rule == "called_card.must_fall_every_time_led"
    # the holder may now lead the suit with a low card (holder_leads_it: false), and the first trick stays free
    lead = TrickContext(trump=0, sol=False, first_trick=False, called=ace, called_suit_led=False)
    assert parse_card("5H") in club.play.legal_cards(hand, [], lead)
    free = TrickContext(trump=0, sol=False, first_trick=True, called=ace, called_suit_led=False)
    assert parse_card("5H") in club.play.legal_cards(hand, parse_cards("KH"), free)


def _engine_kernel_and_sampler_agree(rules: Any, deals: int, seed: int, notice: Any) -> tuple[int, int]:
    """Random deals under ``rules``: at every card the kernel's legal cards are the engine's, and at every
    choice each hidden card's real holder is one the expert's sampler allows. How many states ``notice``
    (a game, the seat to play) marked, and how many choices were checked."""
    import random

    from regelmotor import play_row
    from regelmotor.bots.knowledge import OUT, play_knowledge
    from regelmotor.engine.game import PLAY, Game

    kernel = rules.play
    rng = random.Random(seed)
    noticed = checked = 0
    for number in range(deals):
        game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            if game.phase == PLAY:
                code = {c: play_row.FORDAEKT if c == game.fordaekt else c for c in range(55)}
                row = play_row.row_from_game(kernel, game)
                engine = sorted(code[a.card] for a in game.legal if a.card is not None)
                assert play_row.cards_of(play_row.legal_mask(row, seat, kernel.constants)) == engine
                noticed += bool(notice(game, seat))
                if len(game.legal) > 1:
                    view = game.view(seat)
                    know = play_knowledge(view, view.legal_actions, rules, kernel)
                    truth = {code[c]: s for s in range(4) if s != seat for c in game.hands[s] if c != game.fordaekt}
                    for card, allowed in zip(know.pool.tolist(), know.allowed.tolist(), strict=True):
                        holder = truth.get(card, OUT)
                        assert (allowed >> holder) & 1, f"deal {number}: seat {seat} rules out {holder} for {card}"
                    checked += 1
            game.apply(rng.choice(game.legal))
    return noticed, checked


def test_falling_every_time_binds_in_the_engine_the_playouts_and_the_sampler(tmp_path: Path) -> None:
    """The engine, the expert's kernel and its sampler follow the rule: random deals under it; the kernel's
    legal cards are the engine's, where the rule forces the partner card after its suit was led before too;
    and at every decision the real holder of every hidden card is one the sampler allows."""
    rules = compile_rules(load_ruleset(str(_every_time(tmp_path))))

    def forced(game: Any, seat: int) -> bool:
        return game.called_suit_led and not game.called_played and {a.card for a in game.legal} == {game.called}

    noticed, checked = _engine_kernel_and_sampler_agree(rules, 120, 23, forced)
    assert noticed > 0 and checked > 1000, (noticed, checked)


def test_falling_every_time_is_said_in_the_book_and_needs_falling_the_first_time(tmp_path: Path) -> None:
    book = _book(load_ruleset(str(_every_time(tmp_path))))
    assert "Makkerkortet skal spilles, hver gang dets farve spilles ud, så længe indehaveren har det" in book
    assert "første gang, dets farve spilles ud" not in book
    wrong = _club_file(
        tmp_path, "forkert", EVERY_TIME.replace("  holder_leads_it: false\n", "  must_fall_first_time_led: false\n")
    )
    with pytest.raises(RegelmotorError, match=r"forkert.yaml:8:29: called_card.must_fall_every_time_led: .*first_time"):
        load_ruleset(str(wrong))


# --- a king called, not merely offered, when the declarer holds the four aces -----------------------

KONGE = """\
partner_card:
  descend: must
  source: 'klubbens regler: "Har melderen alle fire esser, skal han kalde en konge"'
"""


def _konge(tmp_path: Path) -> Path:
    return _club_file(tmp_path, "konge", KONGE)


def test_a_declarer_with_the_four_aces_must_call_a_king(tmp_path: Path) -> None:
    """The issue: "a king called, not merely offered, when the declarer holds the four aces". 001 offers it
    ("Har man selv alle de esser, man kan kalde, må man kalde en konge i stedet"): the aces stay callable (he
    is then selvmakker). Where the club says he must, only the kings are offered."""
    from regelmotor.cards import parse_cards

    club = compile_rules(load_ruleset(str(_konge(tmp_path))))
    standard = compile_rules(load_ruleset("standard"))
    aces = parse_cards("AS AH AD AC KS 2H 3H 4H 5D 6D 7C 8C 9C")
    kings = set(parse_cards("KS KH KD KC"))
    assert set(club.declaration.call_choices(aces, "sans", "none")) == kings
    assert set(standard.declaration.call_choices(aces, "sans", "none")) == kings | set(parse_cards("AS AH AD AC"))
    three = parse_cards("AS AH AD KC KS 2H 3H 4H 5D 6D 7C 8C 9C")  # an ace missing: he calls an ace, as before
    assert set(club.declaration.call_choices(three, "sans", "none")) == set(
        standard.declaration.call_choices(three, "sans", "none")
    )


def test_must_call_a_king_never_leaves_nothing_to_call(tmp_path: Path) -> None:
    from regelmotor.cards import parse_cards

    path = _club_file(tmp_path, "kun-esser", KONGE.replace("  descend: must\n", "  descend: must\n  ranks: [A]\n"))
    rules = compile_rules(load_ruleset(str(path)))
    aces = parse_cards("AS AH AD AC KS 2H 3H 4H 5D 6D 7C 8C 9C")
    assert set(rules.declaration.call_choices(aces, "sans", "none")) == set(parse_cards("AS AH AD AC"))


def test_must_call_a_king_is_said_in_the_book_and_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _konge(tmp_path)
    book = _book(load_ruleset(str(path)))
    assert "skal han kalde en konge i stedet" in book and "må han kalde en konge" not in book
    assert "may call a king instead" in _book(load_ruleset("standard"), lang="en")
    assert "must call a king instead" in _book(load_ruleset(str(path)), lang="en")
    assert main(["diff", "standard", str(path)]) == 0
    out = capsys.readouterr().out
    assert "må" in out and "skal" in out and "partner_card.descend" in out


# --- the same dealer after a sol; an evening of a fixed number of deals ----------------------------------

AFTEN = """\
table:
  same_dealer_after_sol: true
  source: 'klubbens regler: "Efter en sol giver samme mand igen"'
session:
  whole_rounds: false
  deals: 3
  source: 'klubbens regler: "En aften er 3 spil"'
"""


def test_after_a_sol_the_same_dealer_deals_again_and_the_evening_ends_after_its_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: "the same dealer dealing again after a sol; a game of a fixed number of deals". Anna deals
    the first deal (8 made: the deal passes to Bo), Bo deals the sol and deals again; a void deal is not one of
    the evening's three; the fourth is refused, in Danish, and the sheet is as it was."""
    path = _club_file(tmp_path, "aften", AFTEN)
    sheet = str(tmp_path / "aften.json")
    assert main(["session", "new", sheet, str(path), "--players", "Anna,Bo,Carl,Dorte"]) == 0
    add = ["session", "add", sheet]
    assert main([*add, "--contract", "8", "--declarer", "Anna", "--partner", "Carl", "--tricks", "9"]) == 0
    assert main([*add, "--contract", "sol", "--declarer", "Carl", "--tricks", "0"]) == 0
    assert main([*add, "--redeal", "all_pass"]) == 0
    capsys.readouterr()
    assert main(["session", "show", sheet]) == 0
    assert "Spil 2 af 3" in capsys.readouterr().out
    assert main([*add, "--contract", "7", "--declarer", "Bo", "--partner", "Dorte", "--tricks", "7"]) == 0
    before = Path(sheet).read_bytes()
    capsys.readouterr()
    assert main([*add, "--contract", "7", "--declarer", "Bo", "--partner", "Dorte", "--tricks", "7"]) != 0
    assert "aftenen er 3 spil, og de er spillet" in capsys.readouterr().err
    assert Path(sheet).read_bytes() == before
    assert main(["session", "show", sheet, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [d["dealer"] for d in report["deals"]] == ["Anna", "Bo", "Bo", "Bo"]  # sol: Bo again; all pass: again
    assert report["can_end"] is True
    assert main(["session", "show", sheet]) == 0
    assert "Aftenen er slut" in capsys.readouterr().out


def test_a_sol_played_at_the_table_keeps_the_dealer_and_a_trump_game_passes_the_deal(tmp_path: Path) -> None:
    """The same rule for a deal played out (``Session.record``): a sol keeps the dealer, 7 passes the deal."""
    import random

    from regelmotor.session import Session

    rules = compile_rules(load_ruleset(str(_club_file(tmp_path, "aften", AFTEN))))
    rng = random.Random(2)
    for opening, keeps in (("sol", True), ("7", False)):
        session = Session(rules, ["Anna", "Bo", "Carl", "Dorte"])
        for seed in range(50):
            game = session.new_game(seed=seed)
            while game.step is not None and game.step[0] != "call":
                game.apply("keep")
            game.apply(opening)
            while game.step is not None:
                legal = [a for a in game.legal if str(a) not in ("gå med", "selv")]
                game.apply("pass" if game.phase == "auction" else rng.choice(legal))
            if game.phase == "finished":
                break
        else:
            pytest.fail(f"no {opening} was played out")
        dealer = session.dealer
        session.record(game)
        assert (session.dealer == dealer) is keeps
    assert session.played() == 1 and not session.evening_over()


def test_a_deal_played_past_the_evenings_deals_is_booked_and_the_evening_is_over(tmp_path: Path) -> None:
    """At the table (``Session.record``) a deal played is booked even past the evening's number: the cards
    were played. The sheet is where one more is refused; the session says the evening is over."""
    import random

    from regelmotor.session import Session

    rules = compile_rules(load_ruleset(str(_club_file(tmp_path, "aften", AFTEN))))
    session = Session(rules, ["Anna", "Bo", "Carl", "Dorte"])
    rng = random.Random(4)
    for seed in range(40):
        game = session.new_game(seed=seed)
        while game.step is not None:
            game.apply(rng.choice(game.legal))
        session.record(game)
        if session.played() == 4:
            break
    assert session.played() == 4 and session.evening_over() and session.can_end()


def test_the_terminal_table_says_the_evening_is_over_after_its_deals(tmp_path: Path) -> None:
    """ "En aften er 3 spil": the person at the terminal plays the evening's three deals (void deals dealt
    again not counted), is told the evening is over, and is asked for no fourth deal."""
    import io

    from regelmotor.play import TerminalGame

    path = _club_file(tmp_path, "aften", AFTEN)
    rules = compile_rules(load_ruleset(str(path)))
    out = io.StringIO()
    game = TerminalGame(
        rules, "aften", str(path), [], seed=5, seat=0, record=tmp_path / "a.json", read=lambda _: "1", out=out
    )
    assert game.run() == 0
    text = out.getvalue()
    assert game.session.played() == 3 and game.session.evening_over()
    assert "Aftenen er slut: de 3 spil er spillet." in text
    assert "Stilling efter" in text and "Farvel." not in text
    assert text.count("Aftenen er slut") == 1


def test_the_evening_and_the_dealer_after_a_sol_are_in_the_rule_book(tmp_path: Path) -> None:
    book = _book(load_ruleset(str(_club_file(tmp_path, "aften", AFTEN))))
    assert "En aften er 3 spil (om-givninger tæller ikke med)." in book
    assert "Efter et solspil giver samme kortgiver igen." in book


# --- a marker card with at most one card of the partner suit -------------------------------------------

MARKER = """\
house_rules: [fordaekt]
fordaekt:
  most_held: 1
  source: 'klubbens regler: "Har melder højst ét kort i makkerens farve, må han lægge et kort fordækt"'
"""


def test_a_marker_card_may_be_laid_with_at_most_one_card_of_the_partner_suit(tmp_path: Path) -> None:
    """The issue: "a marker card allowed only with at most one card of the partner suit". 000 6.1.1 asks the
    declarer to be void ("Hvis spilfører efter bytningen er fri i makkerkortets farve"); the club allows it with
    one card of the suit too, never with two."""
    from regelmotor.cards import parse_card, parse_cards
    from regelmotor.hooks import ContractInfo

    club = compile_rules(load_ruleset(str(_club_file(tmp_path, "marker", MARKER))))
    thorsen = compile_rules(load_ruleset("thorsen", ["fordaekt"]))
    contract = ContractInfo(club.auction.ladder.parse("8"), (0,), None)
    ace = parse_card("AH")
    void = parse_cards("AS KS QS JS TS 9S 8S 2D 3D 4D 5D 6C 7C")
    one = parse_cards("AS KS QS JS TS 9S 8S 2D 3D 4D 5D 6C 7H")
    two = parse_cards("AS KS QS JS TS 9S 8S 2D 3D 4D 5D 6H 7H")
    assert [club.declaration.fordaekt(contract, ace, hand) for hand in (void, one, two)] == [True, True, False]
    assert [thorsen.declaration.fordaekt(contract, ace, hand) for hand in (void, one, two)] == [True, False, False]


def test_a_marker_card_beside_a_card_of_its_suit_is_played_as_the_lowest_of_two(tmp_path: Path) -> None:
    """The engine, the kernel and the sampler follow it: random deals where a declarer lays a card face down
    beside one real card of the suit; the face-down card counts as the lowest of the suit (000 6.1.1)."""
    rules = compile_rules(load_ruleset(str(_club_file(tmp_path, "marker", MARKER))))

    def beside_one(game: Any, seat: int) -> bool:
        if game.fordaekt is None or seat != game.declarers[0] or game.tricks:
            return False
        from regelmotor.cards import suit_of

        suit = suit_of(game.called)
        return sum(1 for c in game.hands[seat] if c != game.fordaekt and suit_of(c) == suit) == 1

    noticed, checked = _engine_kernel_and_sampler_agree(rules, 150, 31, beside_one)
    assert noticed > 0 and checked > 1000, (noticed, checked)


def test_the_marker_card_is_said_in_the_book_and_needs_fordaekt(tmp_path: Path) -> None:
    book = _book(load_ruleset(str(_club_file(tmp_path, "marker", MARKER))))
    assert "Har spilføreren efter bytningen højst 1 kort i makkerkortets farve, må han lægge ét kort" in book
    with pytest.raises(RegelmotorError, match=r"uden.yaml:8:14: fordaekt.most_held: .*fordaekt.allowed"):
        load_ruleset(str(_club_file(tmp_path, "uden", MARKER.replace("house_rules: [fordaekt]\n", ""))))


def _load_error(path: Path) -> str:
    """What loading a club's file that cannot be refuses it with (every problem, each at its place)."""
    with pytest.raises(RegelmotorError) as caught:
        load_ruleset(str(path))
    return str(caught.value)


# --- every score rounded up to a whole point ------------------------------------------------------------

HELE_POINT = """\
scoring:
  rounding: whole_up
  source: 'klubbens regler: "Alle point rundes op til hele point"'
"""


def test_every_score_is_rounded_up_to_a_whole_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "every score rounded up to a whole point". Thorsen's 7 made alone pays 2/5 from each
    opponent: rounded up each pays 1 and the declarer gets 3; his sol pays 45/4 from each: 12 each, 36 in all."""
    path = _club_file(tmp_path, "hele", HELE_POINT, extends="thorsen")
    argv = ["score", str(path), "--contract", "7", "--tricks", "7", "--selvmakker", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["declarer"] == 3 and data["each_opponent"] == [-1, -1, -1]
    assert main(["score", "thorsen", "--contract", "7", "--tricks", "7", "--selvmakker", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["declarer"] == 1.2  # the exact 6/5 without the club's rule
    rules = compile_rules(load_ruleset(str(path)))
    sol = rules.scoring.scorer.score_sol("sol", 0)
    assert (sol.declarer, sol.opponent) == (36, -12)
    lost = rules.scoring.scorer.score_sol("sol", 5)
    assert (lost.declarer, lost.opponent) == (-36, 12)


def test_rounding_up_keeps_every_game_summing_to_zero(tmp_path: Path) -> None:
    """000 7.1.2: "I alle spil og i straftildeling skal summen af spillernes scorer være nul": rounded up,
    still; and every point is whole."""
    rules = compile_rules(load_ruleset(str(_club_file(tmp_path, "hele", HELE_POINT, extends="thorsen"))))
    for d in rules.ruleset.designations:
        for level in rules.ruleset.levels:
            for tricks in range(14):
                for alone in (False, True):
                    game = rules.scoring.scorer.score_trump(d.id, level, tricks, alone=alone, doublings=0)
                    assert game.total == 0
                    assert all(p.denominator == 1 for p in (game.declarer, game.opponent, game.partner or 0))


def test_rounding_up_is_in_the_book_the_diff_and_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _club_file(tmp_path, "hele", HELE_POINT, extends="thorsen")
    book = _book(load_ruleset(str(path)))
    assert "rundes op til hele point" in book and "decimaler" not in book
    assert "rounded up to whole points" in _book(load_ruleset(str(path)), lang="en")
    assert main(["diff", "thorsen", str(path)]) == 0
    out = capsys.readouterr().out
    assert "eksakt" in out and "op til hele point" in out and "scoring.rounding" in out
    schema = json.loads(Path(__file__).parents[1].joinpath("schemas", "ruleset.schema.json").read_text("utf-8"))
    assert "rundes op til hele point" in schema["$defs"]["Scoring"]["properties"]["rounding"]["description"]


def test_rounding_up_that_cannot_sum_to_zero_is_an_error_at_the_rounding(tmp_path: Path) -> None:
    """A game of each for himself whose winners cannot share what the losers pay in whole points: the
    exact points sum to zero, rounded up they do not; the error points at the rounding rule."""
    body = PAS_FORSKEL.replace("settle: trick_difference", "settle: winners").replace("pas: 10", "pas: 1/3")
    path = _club_file(tmp_path, "umulig", body.replace("scoring:\n", "scoring:\n  rounding: whole_up\n"))
    error = _load_error(path)
    assert "scoring.rounding" in error and "13-0-0-0 does not sum to zero" in error


# --- all pass: a game each for himself settled by the difference in tricks -----------------------------

PAS_FORSKEL = """\
all_pass:
  redeal_by: null
  contract:
    id: pas
    display: Passpil
    side: each
    fewest_tricks: true
    settle: trick_difference
    source: 'klubbens regler: "Melder alle pas, spilles der pas: hver afregner med hver efter forskellen i stik"'
  source: 'klubbens regler: "Melder alle pas, spilles der pas"'
scoring:
  tables:
    S:
      key: bid
      values: {pas: 10}
  source: 'klubbens regler: "10 point pr. stiks forskel"'
"""


def test_all_pass_is_settled_by_the_difference_in_tricks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "all-pass settled by the difference in tricks". With 2, 3, 3 and 5 tricks, the player with 2
    gets 10 for each trick he has fewer than each other: (1 + 1 + 3) * 10 = 50; the player with 5 pays 30 to
    him and 20 to each of the two with 3: -70."""
    path = _club_file(tmp_path, "pas-forskel", PAS_FORSKEL)
    rules = compile_rules(load_ruleset(str(path)))
    assert rules.scoring.points(ContractInfo(rules.contract_bid("pas"), ()), (2, 3, 3, 5)) == [50, 10, 10, -70]
    assert rules.scoring.points(ContractInfo(rules.contract_bid("pas"), ()), (4, 3, 3, 3)) == [-30, 10, 10, 10]
    assert main(["score", str(path), "--contract", "pas", "--tricks", "2,3,3,5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == [50, 10, 10, -70]


def test_a_passed_deal_is_played_and_settled_by_the_difference(tmp_path: Path) -> None:
    """When all four pass the pas game is played, not dealt again, and its points are the differences'."""
    import random

    from regelmotor.session import Session

    rules = compile_rules(load_ruleset(str(_club_file(tmp_path, "pas-forskel", PAS_FORSKEL))))
    session = Session(rules, ["Anna", "Bo", "Carl", "Dorte"])
    rng = random.Random(3)
    game = session.new_game(seed=1)
    while game.phase == "auction" or (game.step is not None and game.step[0] != "play"):
        game.apply("pass" if "pass" in map(str, game.legal) else "keep")
    assert game.bid is not None and game.bid.sol == "pas"
    while game.step is not None:
        game.apply(rng.choice(list(game.legal)))
    tricks = game.tricks_won
    assert list(game.scores) == [10 * (sum(tricks) - 4 * t) for t in tricks] and sum(game.scores) == 0


def test_trick_difference_is_in_the_book_the_diff_and_needs_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _club_file(tmp_path, "pas-forskel", PAS_FORSKEL)
    book = _book(load_ruleset(str(path)))
    assert "for hvert stik, han har færre end en anden, får han point af ham" in book
    assert "| 2-2-4-5 | 50, 50, -30, -70 |" in book
    winners = _club_file(tmp_path, "pas-vindere", PAS_FORSKEL.replace("trick_difference", "winners"))
    assert main(["diff", str(winners), str(path)]) == 0
    out = capsys.readouterr().out
    assert "vinderne" in out and "forskellen i stik" in out
    bad = _club_file(tmp_path, "forkert", PAS_FORSKEL.replace("side: each", "side: pairs"))
    error = _load_error(bad)
    assert "all_pass.contract.settle" in error and "side: each" in error


# --- doubling ("banke") during the first three tricks --------------------------------------------------

BANKE = """\
doubling:
  allowed: true
  by: opponents
  redouble: true
  during_tricks: 3
  source: 'klubbens regler: "Der må bankes til og med tredje stik"'
"""


def _at_first_lead(rules: Any, seed: int) -> Any:
    """A deal of 8 with partner (forhånd bids, all else pass; nobody doubles before the lead), at its first lead."""
    from regelmotor.engine.game import Game

    game = Game.from_seed(rules, seed, 0)
    while game.step is not None and game.phase != "play":
        legal = [str(a) for a in game.legal]
        if game.phase == "auction":
            game.apply("8" if "8" in legal and not game.calls else "pass")
        elif "pass" in legal and game.step[0] in ("double", "redouble"):
            game.apply("pass")
        else:
            game.apply(game.legal[0])
    return game


def _banke_rules(tmp_path: Path) -> Any:
    return compile_rules(load_ruleset(str(_club_file(tmp_path, "banke", BANKE))))


def _deal_with_a_partner(rules: Any) -> Any:
    for seed in range(60):
        game = _at_first_lead(rules, seed)
        if game.phase == "play" and game.partner is not None and game.partner != game.declarers[0]:
            return game
    pytest.fail("no deal of 60 reached play with a partner")


def test_a_defender_may_double_at_his_turn_in_the_first_three_tricks(tmp_path: Path) -> None:
    """The issue: "doubling ("banket") allowed during the first three tricks". At his turn to play an opponent
    may double; he then plays his card; the partner (by: opponents) may not; after the third trick nobody may."""
    game = _deal_with_a_partner(_banke_rules(tmp_path))
    opponents = [s for s in range(4) if s not in (*game.declarers, game.partner)]
    while game.to_act not in opponents:
        assert "double" not in map(str, game.legal)  # the declarer and the partner have nothing to double
        game.apply(next(a for a in game.legal if a.card is not None))
    seat = game.to_act
    assert "double" in map(str, game.legal)
    game.apply("double")
    assert game.doublings == 1 and game.to_act == seat and all(a.card is not None for a in game.legal)
    assert "plads" in game.events[-1].text("da") and "banker" in game.events[-1].text("da")
    while len(game.tricks) < 3:
        if game.to_act == game.declarers[0] and "redouble" in map(str, game.legal):
            break
        game.apply(next(a for a in game.legal if a.card is not None))
    else:
        pytest.fail("the declarer was never offered the redouble in the first three tricks")
    game.apply("redouble")
    assert game.doublings == 2
    while game.step is not None:
        assert all(a.card is not None for a in game.legal)  # doubled and redoubled: nothing more to say
        game.apply(game.legal[0])
    undoubled = game.rules.scoring.settle(
        ContractInfo(game.bid, game.declarers, game.partner), game.tricks_won, game.vip_card, 0
    )
    assert list(game.scores) == [4 * p for p in undoubled]


def test_no_doubling_in_play_after_the_third_trick_or_once_doubled(tmp_path: Path) -> None:
    game = _deal_with_a_partner(_banke_rules(tmp_path))
    while len(game.tricks) < 3:
        assert not (game.doublings and "double" in map(str, game.legal))
        game.apply(next(a for a in game.legal if a.card is not None))
    while game.step is not None:
        assert all(a.card is not None for a in game.legal)
        game.apply(game.legal[0])
    assert game.doublings == 0


def test_doubling_in_play_replays_from_its_record(tmp_path: Path) -> None:
    """A record of a deal doubled during play replays to the same points (the action is in the notation)."""
    from regelmotor.engine.game import Game

    rules = _banke_rules(tmp_path)
    game = _deal_with_a_partner(rules)
    opponent = next(s for s in range(4) if s not in (*game.declarers, game.partner))
    while game.to_act != opponent:
        game.apply(next(a for a in game.legal if a.card is not None))
    game.apply("double")
    while game.step is not None:
        game.apply(next(a for a in game.legal if a.card is not None))
    again = Game(rules, game.initial_hands, game.initial_kitty, game.dealer)
    for seat, action in game.history:
        again.apply(str(action), seat)
    assert again.scores == game.scores and again.doublings == 1


def test_bots_play_deals_where_a_doubling_may_come_during_play(tmp_path: Path) -> None:
    """Every bot plays such deals to the end; the random bot doubles in play now and then."""
    import random

    from regelmotor.bots.base import make_bot
    from regelmotor.engine.game import Game

    rules = _banke_rules(tmp_path)
    in_play = 0
    for name in ("random", "heuristic", "expert"):
        for seed in range(4 if name == "expert" else 40):
            bots = [make_bot(name, rules, random.Random(seed * 4 + s)) for s in range(4)]
            game = Game.from_seed(rules, seed, seed % 4)
            while game.step is not None:
                seat = game.to_act
                assert seat is not None
                bot = bots[seat]
                action = bot.choose(game.view(seat) if bot.needs_view else None, game.legal)
                in_play += game.phase == "play" and action.card is None
                game.apply(action, seat)
            assert game.phase in ("finished", "redeal")
    assert in_play > 0


def test_doubling_in_play_is_in_the_book_the_diff_and_needs_doubling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _club_file(tmp_path, "banke", BANKE)
    book = _book(load_ruleset(str(path)))
    assert 'Der må også dobles ("bankes") under de 3 første stik' in book
    assert "during the first 3 tricks" in _book(load_ruleset(str(path)), lang="en")
    assert main(["diff", "gruppe2", str(path)]) == 0
    assert "doubling.during_tricks" in capsys.readouterr().out
    bad = _club_file(tmp_path, "uden", "doubling:\n  allowed: false\n  during_tricks: 3\n  source: klubben\n")
    error = _load_error(bad)
    assert "doubling.during_tricks" in error and "doubling is not allowed" in error


# --- "udledt" only for what the club's own file infers; sources by their titles ----------------------------


def test_udledt_marks_only_what_the_clubs_own_file_infers(tmp_path: Path) -> None:
    """The issue: ""*" (udledt) marks on rules the club merely inherited". standard's own book marks its own
    inferences; a club over standard marks only the one rule its own file infers."""
    own = _club_file(
        tmp_path,
        "udledt",
        "session:\n  whole_rounds: true\n  source: 'inferred: klubbens regler siger intet; vi spiller hele runder'\n",
    )
    club_book = _book(load_ruleset(str(own)))
    marked = [line for line in club_book.splitlines() if line.endswith(" *")]
    assert marked == ["- En session består af hele runder; en runde er lige så mange spil, som der er spillere. *"]
    reasons = club_book.split("Begrundelserne står her:")[1].split("\n## ")[0]
    assert [line for line in reasons.splitlines() if line.startswith("- ")] == [
        "- Kort og spillere: Hvordan en session er opbygget: udledt: klubbens regler siger intet; vi spiller hele "
        "runder"
    ]
    assert sum(line.endswith(" *") for line in _book(load_ruleset("standard")).splitlines()) >= 5


def test_sources_are_cited_by_their_titles_not_their_numbers() -> None:
    """The issue: sources were cited by their file numbers and by the name of the project's own matrix file.
    A source is cited by its short title in a sentence, and given whole in the list of sources; in English too."""
    import re

    for name in ("standard", "thorsen", "gruppe2", "whistklubben"):
        book = _book(load_ruleset(name))
        assert not re.search(r"\b00[0-3]\b|rules-matrix", book), name
    book = _book(load_ruleset("whistklubben"))
    assert "Online-reglerne (Es-makker whist regler, online-spil mod tre computerspillere)" in book
    assert "Whistklubben (regelmotors oversigt over regelforskelle, afsnit 1)" in book
    english = _book(load_ruleset("thorsen"), lang="en")
    assert "Thorsen's laws (Love for esmakkerwhist af Thomas Thorsen)" in english
    assert not re.search(r"\b00[0-3]\b", english)


def test_the_sheet_prints_its_points_as_the_rule_book_and_the_money_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Printed numbers agree everywhere: Thorsen's sol is 11,25 from each opponent in the rule book; the score
    sheet books the same 11,25 (not 11.25 beside "11,25 kr."), and its JSON the number 11.25."""
    sheet = str(tmp_path / "aften.json")
    assert main(["session", "new", sheet, "thorsen", "--players", "Anna,Bo,Carl,Dorte"]) == 0
    assert main(["session", "add", sheet, "--contract", "sol", "--declarer", "Bo", "--tricks", "0"]) == 0
    assert "Anna -11,25, Bo 33,75" in capsys.readouterr().out
    assert main(["session", "show", sheet]) == 0
    text = capsys.readouterr().out
    assert "-11,25   33,75" in text and "." not in text.split("I alt")[1].split("\n")[0]
    assert "Anna -11,25 kr." in text  # the money in the same hand
    assert main(["session", "show", sheet, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["Bo"] == 33.75
    assert "| Sol | 33,75 |" in _book(load_ruleset("thorsen"))


def test_the_table_page_prints_points_with_a_decimal_comma_in_danish() -> None:
    """Printed numbers agree everywhere: the table page's sheet, totals and points pass every number through
    one function that writes 6,67 in Danish and 6.67 in English, as the sheet page and the rule book do."""
    import re

    from starlette.testclient import TestClient

    from regelmotor.web import create_app

    page = TestClient(create_app()).get("/").text
    assert 'function pts(n) { return lang === "da" ? String(n).replace(".", ",") : String(n); }' in page
    shown = re.findall(r"\$\{(?:deal\.points|state\.totals|v\.scores)\.map\([^`]*`([^`]*)`", page)
    assert len(shown) == 3 and all("pts(p)" in cell for cell in shown)


def test_points_are_written_in_full_with_the_readers_decimal_mark() -> None:
    """A hundred-thousandth of a point is written 0,00001, never 1e-05; whole points have no decimal mark."""
    from regelmotor.rounding import number_text

    assert [number_text(x) for x in (80, -26.66, 0.00001, 0.0)] == ["80", "-26,66", "0,00001", "0"]
    assert [number_text(x, "en", signed=True) for x in (6.67, -6.66, 0)] == ["+6.67", "-6.66", "0"]
