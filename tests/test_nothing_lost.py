"""Nothing lost, round three (issue 71): every output, every input file and every number a person writes,
held to one standard: one way to write a file, one way to read one, numbers bounded before they are
parsed, and a player's name checked the one way at every door.

Each test is a case the issue reproduced, as a hostile user met it; the property tests hold the bounds
for any input.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regelmotor.cli import main
from regelmotor.files import InputError, OutputError, check_output, read_input, scratch_file, write_atomic
from regelmotor.names import PlayerNameError, check_names, clean_name, spreadsheet_text
from regelmotor.numbers import MAX_DIGITS, NumberError, number, whole

PLAYERS = "Anna,Bo,Carl,Dorte"
TUNE = ("tune", "standard", "--key", "scoring.tables.S.values.sol", "--target", "kontrakt sol = 5 %")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def new_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str], deals: int = 0) -> Path:
    sheet = tmp_path / "aften.json"
    assert run(capsys, "session", "new", str(sheet), "standard", "--players", PLAYERS)[0] == 0
    for _ in range(deals):
        args = ("--contract", "8 gode", "--declarer", "Anna", "--partner", "Carl", "--tricks", "9")
        assert run(capsys, "session", "add", str(sheet), *args)[0] == 0
    return sheet


# --- one way to write a file ------------------------------------------------------------------------


def test_tune_never_replaces_the_evenings_sheet_even_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "`tune -o aften.json` answers "findes allerede; --force erstatter den"; following that advice replaces
    the evening's score sheet with a ruleset, and every deal is gone." The refusal says what the file is."""
    sheet = new_sheet(tmp_path, capsys, deals=2)
    before = sheet.read_bytes()
    for force in ((), ("--force",)):
        code, _, err = run(capsys, *TUNE, "--values", "25,50", "-o", str(sheet), *force)
        assert code == 1 and "er aftenens regnskab med 2 spil" in err
    assert sheet.read_bytes() == before


def test_a_game_record_is_never_replaced_by_o(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "never over a score sheet or a game record by `-o`, with or without `--force`"."""
    record = tmp_path / "spil-1.json"
    record.write_text(json.dumps({"ruleset": "standard", "hands": [[]]}), encoding="utf-8")
    before = record.read_bytes()
    code, _, err = run(capsys, "rulebook", "standard", "-o", str(record), "--force")
    assert code == 1 and "er et spilreferat" in err and record.read_bytes() == before


def test_tunes_check_file_never_writes_through_a_planted_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "`tune -o delt/ny.yaml` writes its check file through a symlink planted at
    `delt/.ny.yaml.tune-check.yaml`, replacing whatever file the link points at"."""
    shared = tmp_path / "delt"
    shared.mkdir()
    victim = tmp_path / "offer.txt"
    victim.write_text("mine", encoding="utf-8")
    planted = shared / ".ny.yaml.tune-check.yaml"
    planted.symlink_to(victim)
    run(capsys, *TUNE, "--values", "25,50", "--deals", "8", "--bots", "heuristic", "-o", str(shared / "ny.yaml"))
    assert victim.read_text(encoding="utf-8") == "mine"
    assert planted.is_symlink()


def test_scratch_files_are_new_files_beside_the_target(tmp_path: Path) -> None:
    """ "Temporary and check files are made with `O_EXCL` in the target's folder, or not at all"."""
    target = tmp_path / "ny.yaml"
    with scratch_file(target, ".check.yaml", "a: 1\n") as made:
        assert made.parent == tmp_path and made.read_text(encoding="utf-8") == "a: 1\n"
        assert stat.S_ISREG(os.lstat(made).st_mode)
    assert not made.exists()
    with pytest.raises(OutputError), scratch_file(tmp_path / "nowhere" / "ny.yaml", ".check.yaml", ""):
        pass


def test_o_with_force_never_replaces_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "`-o` with `--force` on a character device replaces the device node with a regular file (`tune`,
    `session show`, `rulebook` alike)": a file that is not a regular file is never replaced."""
    fifo = tmp_path / "roer"
    os.mkfifo(fifo)
    sheet = new_sheet(tmp_path, capsys)
    for argv in (
        ("rulebook", "standard", "-o", str(fifo), "--force"),
        ("session", "show", str(sheet), "--format", "md", "-o", str(fifo), "--force"),
        (*TUNE, "--values", "25,50", "-o", str(fifo), "--force"),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "er et navngivet rør (FIFO), ikke en almindelig fil" in err, argv
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_o_with_force_never_replaces_a_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "as root, `-o /dev/full --force` replaces the system's /dev/full": a device node made like it, in a
    folder of the test's own, stays a device."""
    device = tmp_path / "full"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    code, _, err = run(capsys, "rulebook", "standard", "-o", str(device), "--force")
    assert code == 1 and "er en enhed, ikke en almindelig fil" in err
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    with pytest.raises(OutputError):
        write_atomic(device, "x")  # the one way to write refuses it too, whoever calls it
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_tune_never_writes_over_the_file_it_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "`tune -o klub.yaml --force` with `klub.yaml` the input rewrites the input, though the README says an
    output is never the file being read"; nor over a file the club's file extends."""
    base = tmp_path / "base.yaml"
    base.write_text("kind: ruleset\nextends: standard\nname: base\n", encoding="utf-8")
    club = tmp_path / "klub.yaml"
    club.write_text("kind: ruleset\nextends: base.yaml\nname: klub\n", encoding="utf-8")
    before = club.read_bytes(), base.read_bytes()
    key = ("--key", "scoring.tables.S.values.sol", "--values", "25,50", "--target", "kontrakt sol = 5 %")
    for output in (club, base):
        code, _, err = run(capsys, "tune", str(club), *key, "-o", str(output), "--force")
        assert code == 1 and "det er filen, der læses" in err, output
    assert (club.read_bytes(), base.read_bytes()) == before


def test_records_of_a_run_may_be_replaced_with_force_but_never_a_sheet(tmp_path: Path) -> None:
    """A run's ``--records`` may write over an earlier run's record with ``--force``, never over a sheet."""
    record = tmp_path / "deal-0001.json"
    record.write_text(json.dumps({"ruleset": "standard", "hands": []}), encoding="utf-8")
    check_output(record, force=True, records=True)
    with pytest.raises(OutputError, match="--force replaces it"):
        check_output(record, records=True)
    record.write_text(json.dumps({"kind": "regelmotor score sheet", "deals": [{}, {}]}), encoding="utf-8")
    with pytest.raises(OutputError, match="score sheet with 2 deals"):
        check_output(record, force=True, records=True)


# --- one way to read a file -------------------------------------------------------------------------


def test_a_fifo_named_as_a_sheet_is_refused_at_once(tmp_path: Path) -> None:
    """ "A FIFO named as a `--deal` file or as a sheet waits forever": refused at once, in Danish. Run as its
    own process, so that a reader that waits is stopped by the time limit and fails the test."""
    fifo = tmp_path / "aften.json"
    os.mkfifo(fifo)
    for argv in (("session", "show", str(fifo)), ("validate", str(tmp_path / "klub.yaml"))):
        if argv[0] == "validate":
            os.mkfifo(tmp_path / "klub.yaml")
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "regelmotor", *argv], capture_output=True, text=True, timeout=60, check=False
        )
        assert (
            done.returncode == 1 and "er et navngivet rør (FIFO), ikke en almindelig fil" in done.stdout + done.stderr
        )
        assert time.monotonic() - started < 60


def test_a_folder_and_a_missing_file_are_said_in_danish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "every refusal ... in the member's language": a folder named as a file, a file that does not exist."""
    code, _, err = run(capsys, "session", "show", str(tmp_path))
    assert code == 1 and "er en mappe, ikke en almindelig fil" in err
    code, _, err = run(capsys, "session", "show", str(tmp_path / "ingen.json"))
    assert code == 1 and "filen findes ikke" in err
    code, _, err = run(capsys, "--lang", "en", "session", "show", str(tmp_path / "ingen.json"))
    assert code == 1 and "no such file" in err


def test_a_sheet_with_a_bom_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "BOM accepted and said": a sheet saved again by an editor that writes a BOM still opens."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    sheet.write_bytes(b"\xef\xbb\xbf" + sheet.read_bytes())
    code, out, _ = run(capsys, "session", "show", str(sheet))
    assert code == 0 and "Anna" in out
    found = read_input(sheet, 1_000_000)
    assert found.bom and not found.data.startswith(b"\xef") and found.notice() is not None


def test_a_file_is_bounded_before_it_is_read(tmp_path: Path) -> None:
    """ "bounded in size before reading": a sparse file of a gigabyte is refused by its size, not read."""
    big = tmp_path / "stor.json"
    with open(big, "wb") as out:
        out.truncate(1 << 30)
    with pytest.raises(InputError) as refused:
        read_input(big, 1_000_000)
    assert refused.value.text("da").endswith("filen er for stor (1.073.741.824 byte; højst 1.000.000 byte)")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["file", "folder", "fifo", "symlink", "dangling", "missing"]), size=st.integers(0, 3000))
def test_any_file_kind_is_read_or_refused_at_once(tmp_path: Path, kind: str, size: int) -> None:
    """Property: whatever a path names, ``read_input`` returns a regular file's bytes (at most its bound) or
    refuses it with a said reason, at once."""
    folder = Path(tmp_path) / f"case-{time.monotonic_ns()}"
    folder.mkdir()
    path = folder / "x"
    if kind in ("file", "symlink"):
        (folder / "real").write_bytes(b"a" * size)
        if kind == "file":
            (folder / "real").rename(path)
        else:
            path.symlink_to(folder / "real")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling":
        path.symlink_to(folder / "nothing")
    started = time.monotonic()
    try:
        found = read_input(path, 1000)
    except InputError as exc:
        assert exc.text("da") and exc.text("en") and str(path) in exc.text("da")
        assert kind not in ("file", "symlink") or size > 1000
    else:
        assert kind in ("file", "symlink") and len(found.data) == size <= 1000
    assert time.monotonic() - started < 5


# --- numbers bounded before they are parsed ---------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        (*TUNE, "--values", "1e100000000"),
        (*TUNE, "--range", "1:1e100000000:1"),
        ("session", "new", "SHEET", "standard", "--players", PLAYERS, "--rate", "1e100000000"),
    ],
    ids=["tune --values", "tune --range", "session new --rate"],
)
def test_a_number_with_a_huge_exponent_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """ "A number written with a huge exponent (`1e100000000`) runs for minutes before any bound is
    checked": refused as not a number a person writes, at once."""
    started = time.monotonic()
    code, _, err = run(capsys, *(str(tmp_path / "aften.json") if a == "SHEET" else a for a in argv))
    assert code == 1 and "1e100000000" in err and time.monotonic() - started < 10


def test_a_hand_edited_sheets_huge_rate_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "a hand-edited sheet's rate (and so every load of `/sheet`)"."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    data = json.loads(sheet.read_text(encoding="utf-8"))
    sheet.write_text(json.dumps({**data, "rate": "1e100000000"}), encoding="utf-8")
    started = time.monotonic()
    code, _, err = run(capsys, "session", "show", str(sheet))
    assert code == 1 and "1e100000000" in err and time.monotonic() - started < 10


def test_tricks_1_0_is_not_ten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "`--tricks 1_0` is entered as 10"; "`1_0` is not a number of tricks"."""
    sheet = new_sheet(tmp_path, capsys)
    before = sheet.read_bytes()
    code, _, err = run(
        capsys, "session", "add", str(sheet), "--contract", "8 gode", "--declarer", "Anna", "--partner", "Carl",
        "--tricks", "1_0",
    )  # fmt: skip
    assert code == 1 and "1_0" in err and sheet.read_bytes() == before
    code, _, err = run(capsys, "score", "standard", "--contract", "8", "--tricks", "1_0")
    assert code == 1 and "1_0" in err


def test_a_number_is_read_as_a_person_writes_it() -> None:
    """A decimal comma is the point (Danish writes 0,25), a fraction is two whole numbers, and the value is
    exact."""
    assert number("0,25") == number("0.25") == Fraction(1, 4)
    assert number("3/2") == Fraction(3, 2) and number("1e-3") == Fraction(1, 1000) and number(" -3 ") == -3
    for text in ("1_0", "inf", "nan", "0x10", "1e100", "1/0", "", "١٠", "1 0", "1" * (MAX_DIGITS + 1)):
        with pytest.raises(NumberError):
            number(text)
    assert whole("10") == 10
    for text in ("1_0", "1e1", "١٠", "10.0", "+", ""):
        with pytest.raises(NumberError):
            whole(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.from_regex(r"[+-]?[0-9_]{0,40}([.,][0-9_]{0,40})?([eE][+-]?[0-9]{0,12})?"))
def test_any_number_text_is_a_number_or_a_refusal_at_once(text: str) -> None:
    """Property: any text is a bounded exact number or a said refusal, within a time."""
    started = time.monotonic()
    try:
        value = number(text)
    except NumberError as exc:
        assert exc.text("da") and exc.text("en")
    else:
        assert abs(value) < Fraction(10) ** (MAX_DIGITS + 100)
    with contextlib.suppress(NumberError):
        whole(text)
    assert time.monotonic() - started < 5


# --- names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["Anna\x1b[2J", "Anna\x07", "\u202eannA", "An\u200bna"], ids=["ESC", "BEL", "U+202E", "zero width"]
)
def test_a_name_with_a_control_or_direction_character_is_refused_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """ "`session new` stores ESC, BEL and U+202E in names"; "a name with a control character is refused as
    'højst 24 tegn'": refused, said as a control or direction character, the character shown escaped."""
    code, out, err = run(
        capsys, "session", "new", str(tmp_path / "a.json"), "standard", "--players", f"{name},Bo,Cy,Di"
    )
    assert code == 1 and "styre- eller retningstegn" in err and "højst" not in err
    assert not any(c in out + err for c in "\x1b\x07\u202e\u200b")
    assert not (tmp_path / "a.json").exists()


@pytest.mark.parametrize(
    ("first", "second"),
    [("Anna", "Ａｎｎａ"), ("Åse", "A\u030ase"), ("Carl", "Сarl"), ("Bo", "BO")],
    ids=["full-width", "NFC against NFD", "Cyrillic", "case"],
)
def test_names_that_look_alike_are_one_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str, second: str
) -> None:
    """ "Names that look alike (full-width letters, NFC against NFD, a Cyrillic "Bоt 1") count as different
    people": refused at the table."""
    players = f"{first},{second},Xena,Yrsa"
    code, _, err = run(capsys, "session", "new", str(tmp_path / "a.json"), "standard", "--players", players)
    assert code == 1 and ("ligner" in err or "står der to gange" in err)


def test_a_name_like_a_computer_players_is_refused() -> None:
    """ "look-alikes ... of a computer player's name refused": a Cyrillic "Bоt 1"."""
    with pytest.raises(PlayerNameError) as refused:
        check_names(["Anna", "B\u043et 1"])
    assert "computerspillers" in refused.value.text("da")


def test_a_decomposed_name_is_kept_composed_and_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NFC: "Å" typed as A and a ring is kept as the one letter, and a deal naming the player either way finds
    the same player."""
    sheet = tmp_path / "a.json"
    assert run(capsys, "session", "new", str(sheet), "standard", "--players", "A\u030ase,Bo,Cy,Di")[0] == 0
    assert json.loads(sheet.read_text(encoding="utf-8"))["players"][0] == "Åse"
    args = ("--contract", "8 gode", "--declarer", "A\u030ase", "--partner", "Bo", "--tricks", "9")
    assert run(capsys, "session", "add", str(sheet), *args)[0] == 0


def test_a_hand_edited_sheets_name_with_a_control_character_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "one check at every door": the sheet's own file is a door too."""
    sheet = new_sheet(tmp_path, capsys)
    data = json.loads(sheet.read_text(encoding="utf-8"))
    sheet.write_text(json.dumps({**data, "players": ["Anna\u202e", "Bo", "Carl", "Dorte"]}), encoding="utf-8")
    code, out, err = run(capsys, "session", "show", str(sheet))
    assert code == 1 and "players" in err and "retningstegn" in err and "\u202e" not in out + err


def test_a_name_starting_like_a_formula_is_text_in_the_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "a name starting with `=` is exported to CSV as a live spreadsheet formula"; "CSV cells that start with
    `= + - @` neutralised"."""
    sheet = tmp_path / "a.json"
    players = "=HYPERLINK(1),+Bo,-Cy,@Di"
    assert run(capsys, "session", "new", str(sheet), "standard", "--players", players)[0] == 0
    code, out, _ = run(capsys, "session", "show", str(sheet), "--format", "csv")
    head = out.splitlines()[0].split(";")
    assert code == 0 and head[3:] == ["'=HYPERLINK(1)", "'+Bo", "'-Cy", "'@Di"]
    assert spreadsheet_text("Anna") == "Anna" and spreadsheet_text("-3") == "'-3"


def test_the_csv_opens_in_a_danish_spreadsheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ "the CSV in the form a Danish spreadsheet opens (semicolon, decimal comma), with `--csv-dialect` for
    the other"."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    code, out, _ = run(capsys, "session", "show", str(sheet), "--format", "csv", "--rate", "0,25")
    money = out.splitlines()[-1].split(";")
    assert code == 0 and "0,25" in money[2]
    assert all("," in cell and "." not in cell for cell in money[3:])
    code, out, _ = run(
        capsys, "session", "show", str(sheet), "--format", "csv", "--rate", "0.25", "--csv-dialect", "komma"
    )
    money = out.splitlines()[-1].split(",")
    assert code == 0 and all("." in cell for cell in money[3:])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_name_is_kept_clean_or_refused(text: str) -> None:
    """Property: a name is kept in NFC without control, format or direction characters, at most 24
    characters, or refused with a said reason."""
    try:
        name = clean_name(text)
    except PlayerNameError as exc:
        assert exc.text("da") and exc.text("en")
    else:
        import unicodedata

        assert name == unicodedata.normalize("NFC", name) and 0 < len(name) <= 24
        assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name)


@pytest.mark.parametrize(
    ("people", "said"),
    [
        (["Anna\x1b[2J", None, None, None], "retningstegn"),
        (["Anna", "Ａｎｎａ", None, None], "ligner"),
        (["B\u043et 1", None, None, None], "computerspillers"),
    ],
    ids=["ESC", "full-width", "Cyrillic bot"],
)
def test_the_page_checks_a_name_as_the_command_line_does(people: list[str | None], said: str) -> None:
    """ "Names: one check at every door (CLI, sheet, page)": the page's table refuses what ``session new``
    refuses, in the same words, Danish first with the English beside it."""
    from starlette.testclient import TestClient

    from regelmotor.web.app import create_app

    answer = TestClient(create_app()).post("/api/games", json={"ruleset": "standard", "seed": 5, "people": people})
    assert answer.status_code == 400 and said in answer.json()["error"] and answer.json()["error_en"]


def test_brackets_inside_a_string_neither_hide_nor_fake_nesting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review of issue 71: the nesting bound counted brackets inside strings, so a string of "]" hid an array
    nested 60,000 deep (a traceback on the command line, a 500 on the server), and a string of "[" refused a
    harmless file. Now strings are skipped, and the deep array is refused at its line."""
    from regelmotor.records import RecordError, parse_json

    deep = tmp_path / "deep.json"
    deep.write_text('{"a":"' + "]" * 60_000 + '","b":' + "[" * 60_000 + "]" * 60_000 + "}", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(deep))
    assert code == 1 and "JSON indlejret mere end 32 niveauer dybt" in err and "Traceback" not in err
    assert parse_json('{"description": "' + "[" * 40 + '"}', "x")["description"] == "[" * 40
    with pytest.raises(RecordError):
        parse_json("[" * 33 + "]" * 33, "x")


def test_a_sheet_with_a_bom_can_be_changed_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review of issue 71: a sheet an editor saved with a BOM was read by `show` but refused by `add`."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    sheet.write_bytes(b"\xef\xbb\xbf" + sheet.read_bytes())
    args = ("--contract", "8 gode", "--declarer", "Anna", "--partner", "Carl", "--tricks", "9")
    assert run(capsys, "session", "add", str(sheet), *args)[0] == 0
    assert len(json.loads(sheet.read_text(encoding="utf-8"))["deals"]) == 2


def test_session_show_o_writes_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review: `session show FIL -o UD` with the default text format (or `--json`) wrote nothing."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    text, data = tmp_path / "ud.txt", tmp_path / "ud.json"
    assert run(capsys, "session", "show", str(sheet), "-o", str(text))[0] == 0
    assert run(capsys, "session", "show", str(sheet), "--json", "-o", str(data))[0] == 0
    assert "Anna" in text.read_text(encoding="utf-8") and json.loads(data.read_text(encoding="utf-8"))["players"]


def test_a_hand_edited_sheets_refusals_are_danish_and_name_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review: a sheet's own refusals ("is not a field of a score sheet", a rate not a number) were English
    in Danish mode, and the rate's named no file."""
    sheet = new_sheet(tmp_path, capsys, deals=1)
    data = json.loads(sheet.read_text(encoding="utf-8"))
    sheet.write_text(json.dumps({**data, "ekstra": 1}), encoding="utf-8")
    code, _, err = run(capsys, "session", "show", str(sheet))
    assert code == 1 and '"ekstra" er ikke et felt i et regnskab' in err and str(sheet) in err
    sheet.write_text(json.dumps({**data, "rate": "mange"}), encoding="utf-8")
    code, _, err = run(capsys, "session", "show", str(sheet))
    assert code == 1 and str(sheet) in err and '"mange"' in err
