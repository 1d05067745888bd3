"""An evening's PBN file read as PBN is written (issue 71, "Nothing lost, round three").

The issue: "In an evening's PBN file, `[Deal]` tags that do not parse are skipped without a word (3 boards,
1 table, and `--json` prints an object instead of a list); a `[Deal]` quoted inside a `{...}` comment is
analysed as a board; a board name over 20 characters is dropped; a joker game's table on a 52-card deal says
nothing of the jokers." What to build: "The evening's PBN file read as PBN is written (tags, `{...}` comments
spanning lines, `%` lines, `-` hands refused at their line): every board that cannot be read is an error at
its line and nothing is analysed; board names kept whole (bounded); `--json` always a list; a joker game on a
52-card deal refused, or the table says the jokers are out. A time bound for the whole file stated before
work starts (the number of boards times the budget), with progress."
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regelmotor.cards import format_card, parse_card
from regelmotor.cli import analysis as cli_analysis
from regelmotor.cli import main
from regelmotor.double_dummy.analysis import NODES, AnalysisError
from regelmotor.double_dummy.table import (
    CELLS,
    MAX_BOARD_NAME,
    HandTable,
    read_boards,
    read_hand_file,
    read_hands,
    table_seconds,
)
from regelmotor.errors import RegelmotorError

BOARD_1 = "N:AK.2.3.4 QJ.5.6.7 T9.8.9.T 87.J.Q.K"
BOARD_2 = "N:A.K.Q.J 2.3.4.5 6.7.8.9 T.T.T.A"
FULL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
"""A 52-card deal: every hand thirteen cards."""


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["analyse", "--table", *argv, "--nodes", "1000", "--jobs", "1"], out)
    return code, out.getvalue()


def _file(tmp_path: Path, text: str, name: str = "aften.pbn") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- every board that cannot be read is an error at its line ---------------------------------------------


def test_deal_tags_that_do_not_parse_are_refused_at_their_lines_and_nothing_is_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: "`[Deal]` tags that do not parse are skipped without a word (3 boards, 1 table ...)";
    "every board that cannot be read is an error at its line and nothing is analysed"."""
    path = _file(
        tmp_path,
        f'[Board "1"]\n[Deal "{BOARD_1}"]\n'
        f'[Board "2"]\n[Deal "{BOARD_2}"\n'  # no closing bracket
        '[Board "3"]\n[Deal "N:A.K.Q.J 2.3.4.5 6.7.8.9"]\n',  # three hands
    )
    code, out = _run("engelsk", "--deal", str(path))
    err = capsys.readouterr().err
    assert code != 0 and out == ""  # not one table
    assert "intet er analyseret" in err
    assert f"{path}:4 (spil 2): [Deal] kan ikke læses" in err
    assert f"{path}:6 (spil 3): et PBN-spil har fire hænder adskilt af mellemrum, ikke 3" in err


def test_an_unknown_hand_is_refused_at_its_line(tmp_path: Path) -> None:
    """What to build: "`-` hands refused at their line" (the analysis needs all four)."""
    path = _file(tmp_path, f'[Board "1"]\n[Deal "{BOARD_1}"]\n[Board "2"]\n[Deal "N:A.K.Q.J - 6.7.8.9 T.T.T.A"]\n')
    with pytest.raises(AnalysisError) as refused:
        read_boards(path)
    assert refused.value.text("da") == (
        f'{path}:4 (spil 2): hånden for E (plads 2) er ukendt ("-"): analysen kræver alle fire hænder'
    )
    assert "the hand of E (seat 2) is unknown" in refused.value.text("en")


def test_a_board_without_a_deal_and_a_line_that_is_no_pbn_are_refused_at_their_lines(tmp_path: Path) -> None:
    """Every board that cannot be read is an error at its line: a board with no deal, and text that is no tag,
    no comment and no section of an auction, a play or a table."""
    path = _file(tmp_path, f'[Board "1"]\n[Board "2"]\n[Deal "{BOARD_2}"]\nhello\n')
    with pytest.raises(AnalysisError) as refused:
        read_boards(path)
    text = refused.value.text("da")
    assert f'{path}:1: spil 1 har intet [Deal "..."]' in text
    assert f'{path}:4: "hello" er hverken et mærke' in text
    assert text.index(":1:") < text.index(":4:")  # in the order of the file


def test_a_deal_in_a_comment_is_no_board(tmp_path: Path) -> None:
    """The issue: "a `[Deal]` quoted inside a `{...}` comment is analysed as a board"; PBN's `{...}` comments
    span lines, `;` comments end with theirs."""
    path = _file(
        tmp_path,
        f'[Event "Klubaften"]\n{{ the deal as it was first written:\n[Deal "{BOARD_2}"]\n}}\n'
        f'[Board "1"] ; the first\n[Deal "{BOARD_1}"]\n',
    )
    assert [name for name, _ in read_boards(path)] == ["1"]


def test_a_board_name_is_kept_whole_and_bounded(tmp_path: Path) -> None:
    """The issue: "a board name over 20 characters is dropped"; what to build: "board names kept whole
    (bounded)"."""
    name = "Spil 3 fra aftenens anden runde"  # 31 characters
    path = _file(tmp_path, f'[Board "{name}"]\n[Deal "{BOARD_1}"]\n')
    assert [board for board, _ in read_boards(path)] == [name]
    long = _file(tmp_path, f'[Board "{"x" * (MAX_BOARD_NAME + 1)}"]\n[Deal "{BOARD_1}"]\n', "lang.pbn")
    with pytest.raises(AnalysisError, match=f"lang.pbn:1: the board's name is over {MAX_BOARD_NAME} characters"):
        read_boards(long)


def test_an_evenings_json_is_a_list_even_of_one_board(tmp_path: Path) -> None:
    """The issue: "`--json` prints an object instead of a list"; what to build: "`--json` always a list"
    (a hand record of one deal keeps its object)."""
    path = _file(tmp_path, f'[Event "Klubaften"]\n[Board "1"]\n[Deal "{BOARD_1}"]\n')
    code, out = _run("engelsk", "--deal", str(path), "--json")
    tables = json.loads(out)
    assert code == 0 and isinstance(tables, list) and [t["board"] for t in tables] == ["1"]
    record = _file(tmp_path, "1: AS\n2: AH\n3: AD\n4: AC\n", "haand.txt")
    code, out = _run("engelsk", "--deal", str(record), "--json")
    assert code == 0 and isinstance(json.loads(out), dict)


# --- a PBN file as it is written: BOM, % lines, sections -----------------------------------------------


def test_a_bom_and_a_percent_line_do_not_make_a_valid_pbn_file_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: "misleading (a UTF-8 BOM or a `%` comment line makes a valid PBN file refused with "skriv en
    plads' hånd som ...")"."""
    percent = _file(tmp_path, f'% PBN 2.1\n% EXPORT\n[Deal "{BOARD_1}"]\n', "en.pbn")
    assert read_hands(percent)[0] == [parse_card(c) for c in ("AS", "KS", "2H", "3D", "4C")]
    evening = _file(tmp_path, f'% PBN 2.1\n[Board "1"]\n% a line of its own\n[Deal "{BOARD_1}"]\n')
    assert [name for name, _ in read_boards(evening)] == ["1"]
    bom = tmp_path / "bom.pbn"
    bom.write_bytes(b"\xef\xbb\xbf" + f'[Board "1"]\n[Deal "{BOARD_1}"]\n'.encode())
    code, out = _run("engelsk", "--deal", str(bom), "--json")
    assert code == 0 and [t["board"] for t in json.loads(out)] == ["1"]
    assert "begynder med et BOM-tegn" in capsys.readouterr().err  # said, and skipped


def test_the_sections_of_an_auction_a_play_and_a_table_are_read_past(tmp_path: Path) -> None:
    """PBN as it is written: the auction, the play and a table follow their tags as section data."""
    path = _file(
        tmp_path,
        f'[Board "1"]\n[Deal "{BOARD_1}"]\n[Auction "N"]\n1S Pass 2H Pass\n[Note "1:svag"]\nPass Pass\n'
        '[Play "E"]\nD2 DA D3 D4\n*\n\n'
        f'[Board "2"]\n[Deal "{BOARD_2}"]\n[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 1\n',
    )
    boards = read_boards(path)
    assert [name for name, _ in boards] == ["1", "2"]
    assert boards[1][1][0] == [parse_card(c) for c in ("AS", "KH", "QD", "JC")]  # N is seat 0: plads 1


# --- refusals a member can read, located ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "danish", "english"),
    [
        ("N:AK.2.3 QJ.5.6.7 T9.8.9.T 87.J.Q.K", 'en PBN-hånd er fire farver (♠.♥.♦.♣) adskilt af punktum, ikke "AK.2.3"',
         'a PBN hand is four suits (S.H.D.C) separated by dots, not "AK.2.3"'),
        ("N:A10.2.3.4 QJ.5.6.7 T9.8.9.T 87.J.Q.K", 'PBN skriver tieren T, ikke 10 ("A10.2.3.4")',
         'PBN writes the ten T, not 10 ("A10.2.3.4")'),
        ("N:AX.2.3.4 QJ.5.6.7 T9.8.9.T 87.J.Q.K", '"X" er ikke en rang (2-9, T, J, Q, K, A)', '"X" is not a rank (2-9, T, J, Q, K, A)'),
    ],
)  # fmt: skip
def test_a_pbn_hands_refusal_is_danish_first(tmp_path: Path, deal: str, danish: str, english: str) -> None:
    """The issue: "Refusals not a member can read: English only (a PBN hand's suits, rank "10")"."""
    path = _file(tmp_path, f'[Board "7"]\n[Deal "{deal}"]\n')
    with pytest.raises(AnalysisError) as refused:
        read_boards(path)
    assert refused.value.text("da") == f"{path}:2 (spil 7): plads 1: {danish}"
    assert refused.value.text("en") == f"{path}:2 (board 7): seat 1: {english}"


def test_a_duplicated_card_names_its_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "not located (a duplicated card in board 17 does not name board 17)"."""
    path = _file(
        tmp_path,
        f'[Board "16"]\n[Deal "{BOARD_2}"]\n[Board "17"]\n[Deal "N:A.K.Q.J A.3.4.5 6.7.8.9 T.T.T.2"]\n',
    )
    code, out = _run("engelsk", "--deal", str(path))
    assert code != 0 and out == ""
    assert f"{path}:4 (spil 17): AS er givet to gange (plads 2)" in capsys.readouterr().err


def test_a_fifo_named_as_a_deal_file_is_refused_at_once(tmp_path: Path) -> None:
    """The issue: "Hangs: A FIFO named as a `--deal` file waits forever"."""
    fifo = tmp_path / "rør.pbn"
    os.mkfifo(fifo)
    found: list[BaseException] = []

    def read() -> None:
        try:
            read_hand_file(fifo)
        except BaseException as exc:
            found.append(exc)

    reader = threading.Thread(target=read, daemon=True)  # a reader that waits is left behind, not the tests
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading a FIFO waited for a writer"
    assert isinstance(found[0], AnalysisError)
    assert "er et navngivet rør (FIFO), ikke en almindelig fil" in found[0].text("da")


# --- a joker game on a 52-card deal ------------------------------------------------------------------------


def test_a_joker_games_table_of_a_52_card_deal_says_the_jokers_are_out(tmp_path: Path) -> None:
    """The issue: "a joker game's table on a 52-card deal says nothing of the jokers"; what to build: "refused,
    or the table says the jokers are out"."""
    path = _file(tmp_path, f'[Deal "{FULL}"]\n', "fuld.pbn")
    code, out = _run("standard", "--deal", str(path))
    assert code == 0 and "Reglesættets jokere (3) er ikke i hænderne: tabellen er spillet uden dem." in out
    code, out = _run("standard", "--deal", str(path), "--json")
    assert code == 0 and json.loads(out)["jokers_out"] == 3
    code, out = _run("engelsk", "--deal", str(path), "--json")  # a game without jokers: nothing is out
    assert code == 0 and json.loads(out)["jokers_out"] == 0


# --- a time bound for the whole file, with progress --------------------------------------------------------


def test_the_time_bound_of_the_whole_file_is_stated_before_work_starts_with_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue: "200 full boards in one PBN file take about 8 minutes at the default budget, with no bound
    stated"; what to build: "A time bound for the whole file stated before work starts (the number of boards
    times the budget), with progress"."""
    path = _file(tmp_path, "".join(f'[Board "{n}"]\n[Deal "{FULL}"]\n\n' for n in range(1, 201)))
    searched: list[str] = []
    shown: list[int] = []

    def table(*args: object, **kwargs: object) -> HandTable:  # no search: what is said, and when
        searched.append(capsys.readouterr().err)
        progress = args[4]
        assert callable(progress)
        for done in range(CELLS + 1):
            progress(done)
        hands = args[2]
        assert isinstance(hands, list)
        return HandTable("engelsk", tuple(tuple(h) for h in hands), {None: (0, 0, 0, 0)})

    class Shown:
        def __init__(self, total: int, what: str, *rest: object) -> None:
            assert (total, what) == (200 * CELLS, "cells")  # one progress for the whole file

        def __call__(self, done: int) -> None:
            shown.append(done)

    monkeypatch.setattr(cli_analysis, "hand_table", table)
    monkeypatch.setattr(cli_analysis, "Progress", Shown)
    assert main(["analyse", "--table", "engelsk", "--deal", str(path), "--jobs", "1"], io.StringIO()) == 0
    assert len(searched) == 200
    stated = searched[0]  # before the first board was searched
    assert "200 spil à 20 felter, højst 20.000.000 stillinger pr. felt: højst ca. 11 t i alt med 1 tråd(e)" in stated
    assert shown[-1] == 200 * CELLS and shown == sorted(shown)  # counted over the boards, never back
    assert table_seconds(200, NODES, 1) == 200 * CELLS * 10  # a cell's budget is about ten seconds
    assert table_seconds(200, NODES, 5) == 200 * 4 * 10  # the five trumps side by side


# --- any PBN text: a located refusal or a result ----------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "[Board ",
        '"1"]',
        '"17"]',
        "[Deal ",
        f'"{BOARD_1}"]',
        f'"{BOARD_2}"]',
        '"N:- A.K.Q.J 2.3.4.5 6.7.8.9"]',
        "[Event ",
        '""]',
        "[Auction ",
        '"N"]',
        "1S Pass",
        "{",
        "}",
        ";",
        "%",
        "\n",
        "\n\n",
        " ",
        '"',
        "[",
        "]",
        "\\",
        "N:",
        "AKQ.T98.765.432",
        "10",
        "-",
        ".",
        "1: AS KS",
        "#",
        "\ufeff",
        "\r\n",
    ]
)


@given(st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=60))
def test_any_pbn_text_gives_a_located_refusal_or_boards(pieces: list[str]) -> None:
    """Done when: "a hypothesis property test: any PBN text of bounded size gives a located refusal or a result
    (use a tiny search budget or test only the reader, so it stays fast)"."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "aften.pbn"
        path.write_bytes("".join(pieces).encode("utf-8", "surrogatepass"))
        try:
            boards = read_hand_file(path).boards
        except AnalysisError as exc:
            for lang in ("da", "en"):
                lines = exc.text(lang).splitlines()
                located = [line for line in lines if str(path) in line]
                assert located, exc.text(lang)  # every refusal names the file, each problem at its line
            return
        except RegelmotorError as exc:  # pragma: no cover - every refusal of the reader is an AnalysisError
            pytest.fail(f"not an AnalysisError: {exc!r}")
        assert boards
        for board in boards:
            assert len(board.hands) == 4
            assert all(format_card(card) for hand in board.hands for card in hand)


def test_a_hand_record_of_one_deal_reads_as_before(tmp_path: Path) -> None:
    """The single hand-record format (seat lines, or a bare PBN deal) keeps working."""
    seats = _file(tmp_path, "# fire kort hver\n1: AS KS\n2: AH KH\n3: AD KD\n4: AC KC\n", "haand.txt")
    assert [format_card(c) for c in read_hands(seats)[0]] == ["AS", "KS"]
    bare = _file(tmp_path, "E:AKQJ... .AKQJ.. ..AKQJ. ...AKQJ\n", "bar.txt")
    assert [format_card(c) for c in read_hands(bare)[1]] == ["AS", "KS", "QS", "JS"]  # E is seat 1
