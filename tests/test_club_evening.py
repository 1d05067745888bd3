"""A club evening without a stumble (issue 48): the club's file as written, and said in the club's words.

Each test quotes the stumble it mends, as a new club secretary met it.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from regelmotor import __version__
from regelmotor.cli import main
from regelmotor.engine.game import Game
from regelmotor.errors import RulesetError
from regelmotor.hooks import ContractInfo
from regelmotor.records import game_record
from regelmotor.rulebook import build_rulebook, render
from regelmotor.rules.contracts.keys import MAX_DESIGNATIONS
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.score_sheet import read_sheet, score
from regelmotor.session import Session

from .conftest import rules_of

OWN_SOL_BIDS = """\
kind: ruleset
extends: standard
name: klub
title: Klubben
description: standard med klubbens egne solbud
source: Klubbens vedtægter
sol_bids:
  - id: sol
    display: Sol
    after: "9"
    max_tricks: 1
    open_hand: never
    source: Klubbens vedtægter § 4
  - id: ren sol
    display: Ren sol
    after: "10"
    max_tricks: 0
    open_hand: never
    source: Klubbens vedtægter § 4
  - id: oplægger
    display: Oplægger
    after: "11"
    max_tricks: 0
    open_hand: after_first_trick
    source: Klubbens vedtægter § 4
scoring:
  tables:
    S:
      values: {sol: 4, ren sol: 8, oplægger: 12%s}
  source: Klubbens vedtægter § 9
"""


def _own_sol_bids(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "klub.yaml"
    path.write_text(OWN_SOL_BIDS % extra, encoding="utf-8")
    return path


def test_a_club_with_its_own_sol_bids_and_point_table_over_standard_is_valid(tmp_path: Path) -> None:
    """Item 1: "The club wrote `sol_bids:` (its list) and `scoring.tables.S.values: {sol: 4, ren sol: 8,
    oplægger: 12}`; the entries for `bordlægger` and `ren bordlægger` come from `standard`'s table, for
    bids the club's list no longer has". They go with the bids."""
    resolved = load_ruleset(str(_own_sol_bids(tmp_path)))
    assert dict(resolved.ruleset.scoring.tables["S"].values) == {"sol": 4, "ren sol": 8, "oplægger": 12}
    assert [s.id for s in resolved.ruleset.sol_bids] == ["sol", "ren sol", "oplægger"]
    rules = compile_rules(resolved)
    assert "oplægger" in rules.auction.ladder.by_text and "bordlægger" not in rules.auction.ladder.by_text
    assert not any("bordlægger" in problem.text() for problem in resolved.warnings)


def test_an_entry_the_club_writes_for_a_bid_that_does_not_exist_stays_an_error_at_its_line(tmp_path: Path) -> None:
    """Item 1: "an entry the club's own file writes for a bid that does not exist stays an error at the
    club's line"."""
    path = _own_sol_bids(tmp_path, ", bordlæger: 3")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    [problem] = caught.value.problems
    assert problem.location.file == str(path) and problem.location.line == 29
    assert problem.path == ("scoring", "tables", "S", "values", "bordlæger")


def test_show_where_says_where_the_inherited_entries_went(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 1: "(and `show --where` says where it went)"."""
    path = _own_sol_bids(tmp_path)
    assert main(["show", str(path), "--where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    gone = [line for line in lines if line.startswith("# scoring.tables.S.values.")]
    assert gone == [
        f"# scoring.tables.S.values.bordlægger  udgår: sat i rulesets/standard.yaml:199:51 for en melding, "
        f"som listen i {path}:7 ikke har",
        f"# scoring.tables.S.values.ren bordlægger  udgår: sat i rulesets/standard.yaml:199:72 for en melding, "
        f"som listen i {path}:7 ikke har",
    ]


def test_show_where_credits_no_file_with_a_value_it_never_set(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 2: "`auction.kan_selv: false  # rulesets/house/gaa-med.yaml:9` (that line only opens the
    section), and a default with a file's line where nothing sets it"."""
    assert main(["show", "standard", "-H", "gaa-med", "--where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "auction.kan_selv: false  # forvalg: ingen fil sætter den" in lines
    assert "auction.gaa_med.sol_bids: true  # rulesets/house/gaa-med.yaml:11" in lines
    assert main(["show", "standard", "-H", "gaa-med", "--where", "--lang", "en"]) == 0
    assert "auction.kan_selv: false  # default: no file sets it" in capsys.readouterr().out.splitlines()


# --- item 3: engelsk whist as 002 scores it ------------------------------------------------------


def test_engelsk_the_pair_with_most_tricks_scores_and_the_other_pair_gets_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """002: "Det par, der vinder flest stik, får 1 point pr. stik udover de første 6 stik". `score engelsk
    --contract whist --tricks 9` gave the losers −3 each; by 002 they get nothing."""
    assert main(["score", "engelsk", "--contract", "whist", "--tricks", "9", "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["declarer"] == scored["partner"] == 3 and scored["each_opponent"] == [0, 0]
    rules = rules_of("engelsk")
    whist = ContractInfo(rules.contract_bid("whist"), ())
    assert rules.scoring.settle(whist, [2, 4, 2, 5], 0, 0) == [0, 3, 0, 3]  # seats 1 and 3 took 9


def test_engelsk_the_game_to_5_counts_what_a_pair_won_and_the_money_goes_by_the_tables_mean() -> None:
    """002: "Der spilles typisk flere spil, indtil et makkerpar når 5 point." The evening's points are what
    each pair won; paid in money, each player gets his points above the table's mean from those below it
    (as zero-sum points are already paid)."""
    session = Session(rules_of("engelsk"), ["A", "B", "C", "D"])
    session.enter([F(0), F(3), F(0), F(3)])  # dealer A: seats 0-3 are B, C, D, A; A and C take 9
    won = session.enter([F(0), F(2), F(0), F(2)])  # dealer B: seats 0-3 are C, D, A, B; B and D take 8
    assert session.totals == [3, 2, 3, 2] and won.game_won_by == ()
    money = session.settlement(1)
    assert money.money == (F(1, 2), F(-1, 2), F(1, 2), F(-1, 2))


def test_engelsk_is_scored_so_in_the_rule_book() -> None:
    """The rule book says what 002 says: the winners score, and no sum to zero."""
    resolved = load_ruleset("engelsk")
    book = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(book, str)
    assert "Kun vinderne får point; taberne får intet" in book and "går altid op i nul" not in book
    assert "det andet par får intet" in book and "med minus" not in book


def test_only_the_winners_scoring_is_refused_where_a_declarer_plays(tmp_path: Path) -> None:
    """``losers_pay: false`` is 002's rule for a game of pair against pair; an es-makker ruleset, where the
    declarer's side and the opponents are settled against each other (002: "Es-makker whist er et
    nulsumsspil"), is refused at the key."""
    path = tmp_path / "klub.yaml"
    path.write_text(
        "kind: ruleset\nextends: standard\nname: klub\ntitle: K\ndescription: K\nsource: K\n"
        "scoring:\n  losers_pay: false\n  source: K\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    [problem] = caught.value.problems
    assert problem.path == ("scoring", "losers_pay") and problem.location.line == 8
    assert "kun spil par mod par" in problem.text()


def test_dansk_stays_zero_sum_as_002_says() -> None:
    """002: "I dansk whist er regnskabet et nulsumsspil: det, vinderne får, trækkes tilsvarende fra taberne, så
    summen altid er 0." """
    assert load_ruleset("dansk").ruleset.scoring.losers_pay
    assert all(scores.total == 0 for _, _, scores in rules_of("dansk").scoring.scorer.every_game())


# --- item 4: no English where a club member reads -----------------------------------------------

ENGLISH = frozenset(
    [
        "the",
        "of",
        "and",
        "or",
        "is",
        "are",
        "with",
        "this",
        "that",
        "which",
        "each",
        "every",
        "default",
        "show",
        "print",
        "write",
        "error",
        "usage",
        "options",
        "arguments",
        "argument",
        "required",
        "invalid",
        "choose",
        "expected",
        "not",
        "file",
        "files",
        "player",
        "players",
        "deal",
        "deals",
        "seat",
        "your",
        "you",
        "wrote",
        "instead",
        "record",
        "records",
        "ruleset",
        "rulesets",
        "rule",
        "rules",
        "points",
        "tricks",
        "bid",
        "bids",
        "help",
    ]
)
"""Words that are English and not Danish: a sentence holding one is English (a club's own words aside)."""


def _english(text: str) -> list[str]:
    """The English words of ``text``, its options (``--deals``, ``-H``) aside: a command is typed as it is."""
    words = re.sub(r"(?<![\w-])--?[a-zA-Z][\w-]*", " ", text)
    words = re.sub(r"\S*[\d./]\S*", " ", words).lower()  # a file name (deal-0001.json), a path, a number
    typed = {name for command in _commands() for name in command}  # a command is typed as it is named
    return sorted({w for w in re.findall(r"[a-zæøå]+", words) if w in ENGLISH - typed})


def _commands() -> list[list[str]]:
    """Every command and subcommand of the command line, by the words that call it."""
    import argparse

    from regelmotor.cli.commands import build_parser

    found: list[list[str]] = [[]]

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*words, name])
                    walk(sub, [*words, name])

    walk(build_parser("da"), [])
    return found


@pytest.mark.parametrize("words", _commands(), ids=lambda w: " ".join(w) or "regelmotor")
def test_every_commands_help_is_danish(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: "every `--help` and argparse's `error: the following arguments are required: RULESET`"."""
    with pytest.raises(SystemExit) as stop:
        main([*words, "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0 and out.startswith("brug: regelmotor")
    assert _english(out) == [], out


REFUSALS = [
    ["ladder"],
    ["session", "add"],
    ["rulebook", "standard", "--format", "doc"],
    ["ladder", "standard", "--frob"],
    ["simulate", "standard", "--deals", "x"],
    ["serve", "--port", "0"],
    ["ladder", "nosuch"],
    ["frobnicate"],
]


@pytest.mark.parametrize("argv", REFUSALS, ids=" ".join)
def test_the_common_refusals_are_danish(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: a refusal of the command line itself (argparse's) or of what it was given is said in Danish."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert code != 0 and err and _english(err) == [], err


def test_the_sheets_and_books_refusals_and_reports_are_danish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 4: "`rulebook … -o kloever.md` … print `wrote …`; `session add … --tricks 15` prints `regelmotor:
    the deal: tricks er et helt tal 0-13, ikke 15`"; item 7: "`--declarer anna` is refused" and "`--contract 8`
    with no declarer says "skriv navnet på melderen" without naming `--declarer`"."""
    monkeypatch.chdir(tmp_path)
    assert main(["rulebook", "standard", "-o", "kloever.md"]) == 0
    assert capsys.readouterr().err == "skrev kloever.md\n"
    assert main(["session", "new", "aften.json", "standard", "--players", "Anna,Bo,Carl,Dorte"]) == 0
    capsys.readouterr()
    add = ["session", "add", "aften.json", "--contract", "8"]
    assert main([*add, "--declarer", "Anna", "--partner", "Carl", "--tricks", "15"]) == 1
    assert capsys.readouterr().err == "regelmotor: spillet: --tricks er et helt tal 0-13, ikke 15\n"
    assert main(add) == 1
    assert capsys.readouterr().err == "regelmotor: spil 1: skriv navnet på melderen (--declarer)\n"
    assert main([*add, "--declarer", "anna", "--partner", "carl", "--tricks", "9"]) == 0
    assert capsys.readouterr().out == "spil 1: Anna 40, Bo -40, Carl 40, Dorte -40\nNæste spil: Bo giver.\n"
    assert json.loads((tmp_path / "aften.json").read_text(encoding="utf-8"))["deals"][0]["declarer"] == "Anna"


def test_diff_cites_the_sources_by_their_titles_and_says_udledt(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: "`diff standard thorsen`: `kilde, standard: inferred: …` (23 times) and sources as
    `001_b88eb8000c0a2767.txt`"."""
    assert main(["diff", "standard", "thorsen"]) == 0
    out = capsys.readouterr().out
    assert "inferred" not in out and not re.search(r"00[0-3]_[0-9a-f]{16}\.txt", out)
    assert "kilde, standard: udledt: Online-reglerne siger intet om sessioner" in out


def test_a_broken_yaml_file_is_said_in_danish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: "a broken YAML file: `ugyldig YAML: mapping values are not allowed here`"."""
    path = tmp_path / "klub.yaml"
    path.write_text("kind: ruleset\nname: klub\ntitle: Klub: den gamle\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:3:12: (øverst): ugyldig YAML: et kolon står, hvor ingen ny nøgle kan begynde" in out
    assert "mapping values" not in out


def test_a_number_given_as_words_is_not_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 5: "`validate` with `penalty: ti`: … forventede et helt tal eller et tal eller tekst": "tekst" means
    a number written as text ("1/2"), so the message contradicts itself."""
    path = tmp_path / "klub.yaml"
    path.write_text(
        "kind: ruleset\nextends: standard\nname: klub\ntitle: K\ndescription: K\nsource: K\n"
        "misdeal:\n  penalty: ti\n  source: K\n",
        encoding="utf-8",
    )
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert 'misdeal.penalty: "ti" er ikke et tal: skriv et helt tal, et decimaltal eller en brøk som "5/4"' in out


def test_the_printed_sheet_counts_the_deals_as_session_show_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: "The sheet's PDF says "5 spil" where `session show` says "Spil 4 af 24": a misdeal is counted in
    one and not the other." A deal given again is not a deal played; the sheet says how many were."""
    monkeypatch.chdir(tmp_path)
    assert main(["session", "new", "aften.json", "thorsen", "--players", "Anna,Bo,Carl,Dorte"]) == 0
    for _ in range(2):
        assert main(["session", "add", "aften.json", "--contract", "8", "--declarer", "Anna", "--partner", "Carl",
                     "--tricks", "9"]) == 0  # fmt: skip
    assert main(["session", "add", "aften.json", "--redeal", "misdeal", "--culprit", "Bo"]) == 0
    capsys.readouterr()
    assert main(["session", "show", "aften.json"]) == 0
    shown = capsys.readouterr().out
    assert main(["session", "show", "aften.json", "--format", "md"]) == 0
    printed = capsys.readouterr().out
    assert "2 spil (og 1 givet om)" in printed and "3 spil" not in printed
    assert score(read_sheet(tmp_path / "aften.json")).session.played() == 2  # what "Spil 2 af ..." counts
    assert "fejlgivning" in shown


# --- small --------------------------------------------------------------------------------------


def test_rulesets_keeps_its_columns_for_long_names(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 12: "`rulesets` loses its columns for long names" (halve-makker-vaelger-bytter)."""
    assert main(["rulesets"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("    ")]
    starts = {len(line) - len(line[4:].split(" ", 1)[1].lstrip()) for line in lines}
    assert len(lines) > 15 and len(starts) == 1  # every description begins in one column


def test_version_answers_without_loading_the_engine() -> None:
    """Item 12: "`--version` takes 0.7-0.9 s (it imports the engine)"."""
    script = (
        "import sys\nfrom regelmotor.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print('regelmotor.engine' in sys.modules, 'regelmotor.cli.commands' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == [f"regelmotor {__version__}", "False False"]


def test_a_list_of_designations_longer_than_any_rule_text_is_refused_at_its_line(tmp_path: Path) -> None:
    """Item 13: "an upload of 100 designations (with vip turns) takes 16.8 s and the page refuses it"; a bound
    a real club never reaches (Thorsen's law has seven), refused at once at the list's line."""
    entries = "".join(
        f"  - id: p{i}\n    display: p{i}\n    tier: {i}\n    trump: {{by: kitty, turns: [may_accept, must_accept]}}\n"
        for i in range(MAX_DESIGNATIONS + 1)
    )
    path = tmp_path / "mange.yaml"
    path.write_text(f"kind: ruleset\nextends: standard\nname: m\ntitle: M\ndesignations:\n{entries}", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    [problem] = [p for p in caught.value.problems if p.path == ("designations",)]
    assert problem.location.line == 5 and f"højst {MAX_DESIGNATIONS}" in problem.text()


def test_designations_that_score_alike_are_checked_once() -> None:
    """Item 13: the zero-sum check grows with the distinct scorings, not with the list: gode, sans and halve
    score alike in standard (B 2, no vip turns), so gode stands for the three."""
    scorer = rules_of("standard").scoring.scorer

    def designations(distinct: bool) -> set[str]:
        return {str(label.values["bid"]).split()[-1] for path, label, _ in scorer.every_game(distinct=distinct)
                if path == ("scoring", "trump")}  # fmt: skip

    assert designations(False) == {"alm", "vip", "gode", "sans", "halve"}
    assert designations(True) == {"alm", "vip", "gode"}


def test_a_records_seat_is_a_whole_number_not_true(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 14: "A game record whose action says `"seat": true` replays as seat 1: strict reading refuses
    booleans in sheets, not yet in records"."""
    game = Game.from_seed(rules_of("standard"), 1, dealer=3)
    record = game_record(game, "standard")
    record["actions"] = [{"seat": True, "action": "pass"}]
    record.pop("result", None)
    path = tmp_path / "spil.json"
    path.write_text(json.dumps(record, default=str), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == f"regelmotor: {path}: actions.0.seat: et helt tal, ikke true\n"


# --- items 6 and 11: seats counted from 1; the terminal's exchange and first bidding prompt -------


def _terminal(tmp_path: Path, answers: list[str]) -> str:
    from regelmotor.play import TerminalGame

    given = iter(answers)
    out = io.StringIO()

    def read(prompt: str) -> str:
        out.write(prompt)
        return next(given, "afslut")

    game = TerminalGame(rules_of("standard"), "standard", "standard", [], seed=5, seat=0,
                        record=tmp_path / "spil.json", read=read, out=out)  # fmt: skip
    assert game.run() == 0
    return out.getvalue()


def test_the_terminal_counts_seats_from_1_and_calls_the_others_by_name(tmp_path: Path) -> None:
    """Item 6: "Seats are numbered 0-3 to people ("plads 0" in the terminal, …), where the game calls you
    "Du". People count from 1." Seed 5: the person is forhånd and bids 8; the three computer players pass."""
    text = _terminal(tmp_path, ["8", "#1", "#1", "#1"])
    assert "du sidder på plads 1" in text and "plads 0" not in text
    assert "=== Spil 1: plads 4 (Bot 3) giver, du er forhånd; du sidder på plads 1 ===" in text
    assert "  plads 2 (Bot 1): pas" in text


def test_the_exchange_offers_the_computers_advice_and_never_a_bare_number_for_the_trump_ace(tmp_path: Path) -> None:
    """Item 11: "The terminal's exchange offers `[#1] behold  [#2] læg A♠ 10♠ 2♠`: pressing 2 throws away the
    trump ace. Offer discards in the order of the computer's advice, and say which it advises. The first bidding
    prompt is one 40-item line ending in "…"." """
    text = _terminal(tmp_path, ["8", "#1", "#1", "#1"])
    bidding = next(line for line in text.splitlines() if line.startswith("Du kan: [#1] pas"))
    assert bidding.count("[#") <= 12 and "…" not in bidding and "..." not in bidding
    assert "Eller skriv et højere bud, op til 13 halve" in text
    exchange = next(line for line in text.splitlines() if "[#1] behold" in line)
    assert exchange == "Du kan: [#1] behold  [#2] læg 2♥ 5♣ 4♣ (computerens råd)"  # trumps are spades: kept


def test_replay_and_analyse_count_seats_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 6: "plads 0" in `replay` and `analyse`; records and `--json` keep 0-3 (docs/notation.md)."""
    rules = rules_of("engelsk")
    game = Game.from_seed(rules, 4, dealer=3)
    while game.step is not None:
        game.apply(game.legal[0])
    path = tmp_path / "spil.json"
    path.write_text(json.dumps(game_record(game, "engelsk"), default=str), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    assert "giver: plads 4 (forhånd: plads 1)" in replayed and "plads 0" not in replayed
    assert main(["analyse", str(path)]) == 0
    analysed = capsys.readouterr().out
    assert "Første udspil: plads 1." in analysed and "plads 0" not in analysed
    assert main(["analyse", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["leader"] == 0
