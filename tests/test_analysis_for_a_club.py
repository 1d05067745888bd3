"""Analysis as a club uses it (issue 44, "For a club"): an evening's hand record of many boards, progress in
Danish for a long search, and a card or cell the search did not settle said in words with what to do."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from regelmotor.cards import parse_card
from regelmotor.cli import main
from regelmotor.double_dummy.analysis import Analysis, CardCost
from regelmotor.double_dummy.report import MORE_NODES, analysis_json, analysis_text, hand_table_text
from regelmotor.double_dummy.table import HandTable, read_boards
from regelmotor.progress import Progress

EVENING = """\
[Event "Klubaften"]
[Board "1"]
[Dealer "N"]
[Deal "N:AK.2.3.4 QJ.5.6.7 T9.8.9.T 87.J.Q.K"]
[Board "2"]
[Dealer "E"]
[Deal "N:A.K.Q.J 2.3.4.5 6.7.8.9 T.T.T.A"]
"""


def test_an_evenings_pbn_file_gives_one_table_per_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "`analyse --table` takes a whole evening's hand record: a PBN file of many boards (`[Board
    "n"]` and `[Deal ...]`) … and prints one table per board (`--json`: a list)"."""
    path = tmp_path / "aften.pbn"
    path.write_text(EVENING, encoding="utf-8")
    boards = read_boards(path)
    assert [name for name, _ in boards] == ["1", "2"]
    assert boards[1][1][0] == [parse_card(c) for c in ("AS", "KH", "QD", "JC")]  # N is seat 0: plads 1
    assert main(["analyse", "--table", "engelsk", "--deal", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.count("Stik med åbne kort") == 2 and "Spil 1\n" in text and "Spil 2\n" in text
    assert main(["analyse", "--table", "engelsk", "--deal", str(path), "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    assert [t["board"] for t in tables] == ["1", "2"]
    assert tables[1]["tricks"]["S"] == {"0": 3, "1": 1, "2": 3, "3": 1}  # the pair of plads 1 and 3 takes 3


def test_many_hand_records_give_one_table_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "… or many hand records"."""
    one, two = tmp_path / "a.txt", tmp_path / "b.txt"
    one.write_text("1: AS\n2: AH\n3: AD\n4: AC\n", encoding="utf-8")
    two.write_text("1: KS\n2: KH\n3: KD\n4: KC\n", encoding="utf-8")
    assert main(["analyse", "--table", "engelsk", "--deal", str(one), "--deal", str(two), "--json"]) == 0
    assert [t["board"] for t in json.loads(capsys.readouterr().out)] == ["a.txt", "b.txt"]


def test_a_cell_the_search_did_not_settle_says_so_and_what_to_do() -> None:
    """The issue: "every cell is "?", with no legend and no hint of what to do"."""
    hands = tuple((parse_card("AS"),) for _ in range(4))
    table = HandTable("standard", hands, {"S": (1, None, 1, 0)}, bounds={"S": (None, (0, 1), None, None)})
    text = hand_table_text(table, "da")
    assert "7-8 = ikke helt afgjort inden for søgningens grænse: mellem 7 og 8 stik." in text
    assert f"--nodes {MORE_NODES}" in text
    # issue 73 item 4: "Analysis never says "?" alone": the cell shows the range the search proved
    assert "plads 2   0-1" in text.splitlines()
    settled = hand_table_text(HandTable("standard", hands, {"S": (1, 0, 1, 0)}), "da")
    assert "?" not in settled


def _unsettled() -> Analysis:
    card = CardCost(1, 0, parse_card("AS"), None, None, None, ())
    return Analysis("standard", "S", 0, (0, 2), False, ((),) * 4, None, None, (card,))


def test_an_unsettled_card_in_play_names_the_record_to_analyse_and_never_an_option_play_lacks() -> None:
    """The issue: "In `play`, "a = analyse" … left 15 cards unsettled and told the player to raise `--nodes`,
    an option `play` does not have"; "in `play` and on the page too, where there is no `--nodes`"."""
    terminal = analysis_text(_unsettled(), "da", record="spil-1.json")
    assert f"regelmotor analyse spil-1.json --nodes {MORE_NODES}" in terminal
    page = analysis_text(_unsettled(), "da", page=True)
    assert "Hent referat" in page and "regelmotor analyse SPILFIL" in page
    command_line = analysis_text(_unsettled(), "da")
    assert f"--nodes {MORE_NODES}" in command_line and "regelmotor analyse" not in command_line


def test_a_costly_card_whose_alternatives_were_not_all_settled_does_not_claim_its_best_cards_are_all() -> None:
    """The issue: "A cell or a card that a search cannot settle within its limit says so in words, and says
    what to do": where some of the mover's other cards ran out of the search's limit, the best cards listed
    may not be all of them (a sol's first lead: the leads that let the declarer through are slow to prove)."""
    card = CardCost(1, 1, parse_card("7S"), 2, 1, 1, (parse_card("AS"),), (parse_card("9S"), parse_card("KH")))
    analysis = Analysis("standard", None, 1, (0,), False, ((),) * 4, 2, None, (card,))
    text = analysis_text(analysis, "da")
    assert "bedst: A♠; ikke afgjort: 9♠ K♥" in text.replace("\N{VARIATION SELECTOR-16}", "")
    assert "kan det også have været bedst" in text and f"--nodes {MORE_NODES}" in text
    assert analysis_json(analysis)["cards"][0]["unsettled"] == ["9S", "KH"]
    settled = Analysis("standard", None, 1, (0,), False, ((),) * 4, 2, None, (CardCost(1, 1, card.card, 2, 1, 1, ()),))
    assert "ikke afgjort" not in analysis_text(settled, "da") and "--nodes" not in analysis_text(settled, "da")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_shown_in_danish_once_the_work_takes_two_seconds() -> None:
    """The issue: "`analyse` and `analyse --table` show progress in Danish for anything that takes more than two
    seconds"; quiet before, and quiet where stderr is no terminal."""
    clock = [100.0]
    shown = _Terminal()
    progress = Progress(52, "cards", "da", shown, clock=lambda: clock[0])
    progress(1)
    assert shown.getvalue() == ""  # under two seconds: nothing
    clock[0] += 5
    progress(12)
    progress(52)
    assert shown.getvalue() == "\ranalyserer: 12 af 52 kort (5 s)\ranalyserer: 52 af 52 kort (5 s)\n"
    piped = io.StringIO()
    quiet = Progress(52, "cards", "da", piped)
    clock[0] += 5
    quiet(30)
    assert piped.getvalue() == ""


def test_a_board_named_spil_is_not_headed_spil_twice() -> None:
    """A secretary's evening: a PBN file whose boards are named "Spil nummer tre" printed "Spil Spil nummer
    tre"; a board named by a number is still headed "Spil 3"."""
    hands = tuple(tuple(range(13 * seat, 13 * seat + 13)) for seat in range(4))
    named = hand_table_text(HandTable("standard", hands, {"S": (1, 0, 1, 0)}, board="Spil nummer tre"), "da")
    assert named.startswith("Spil nummer tre\n") and "Spil Spil" not in named
    numbered = hand_table_text(HandTable("standard", hands, {"S": (1, 0, 1, 0)}, board="3"), "da")
    assert numbered.startswith("Spil 3\n")
