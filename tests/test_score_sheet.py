"""The evening's score sheet (`regelmotor session`): a table playing with real cards keeps its score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regelmotor.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_sheet_scores_each_deal_by_the_rules_and_settles_the_evening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """001: "Melder man 8 og tager 10 stik, giver det 20 + 2 × 20 = 60 point"; "Sol giver 50 ... fra hver af de
    tre andre"."""
    sheet = str(tmp_path / "aften.json")
    assert run(capsys, "session", "new", sheet, "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25")[0] == 0
    code, out, _ = run(
        capsys, "session", "add", sheet, "--contract", "8", "--declarer", "Anna", "--partner", "Carl", "--tricks", "10"
    )
    assert code == 0 and out == "spil 1: Anna 60, Bo -60, Carl 60, Dorte -60\nNæste spil: Bo giver.\n"
    assert run(capsys, "session", "add", sheet, "--redeal", "all_pass")[0] == 0
    assert run(capsys, "session", "add", sheet, "--contract", "sol", "--declarer", "Bo", "--tricks", "0")[1] == (
        "spil 3: Anna -50, Bo 150, Carl -50, Dorte -50\nNæste spil: Carl giver.\n"
    )
    code, out, _ = run(capsys, "session", "show", sheet, "--json")
    report = json.loads(out)
    assert report["totals"] == {"Anna": 10, "Bo": 90, "Carl": 10, "Dorte": -110}
    assert [d["dealer"] for d in report["deals"]] == ["Anna", "Bo", "Bo"]  # after all pass the same dealer deals
    money = report["settlement"]["money"]
    assert money == {"Anna": 2.5, "Bo": 22.5, "Carl": 2.5, "Dorte": -27.5} and sum(money.values()) == 0
    code, out, _ = run(capsys, "session", "show", sheet)
    assert "I alt" in out and "Dorte betaler Bo 22,50 kr." in out
    assert "omgivning (alle meldte pas)" in out and "all_pass" not in out  # the game's words, not the code


def test_a_line_that_cannot_be_scored_is_refused_and_the_sheet_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "aften.json"
    run(capsys, "session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte")
    before = sheet.read_text(encoding="utf-8")
    for argv, message in (
        (["--contract", "8", "--declarer", "Nils", "--tricks", "9"], 'spil 1: ingen spiller hedder "Nils"'),
        (["--contract", "8 vipp", "--declarer", "Anna", "--tricks", "9"], "vipp"),
        (["--contract", "8", "--declarer", "Anna", "--tricks", "14"], "tricks er et helt tal 0-13"),
        (["--contract", "8", "--declarer", "Anna", "--partner", "Anna", "--tricks", "9"], "selvmakker"),
        (["--contract", "8", "--declarer", "Anna", "--tricks", "9", "--doubled", "1"], "der dobles højst 0"),
    ):
        code, _, err = run(capsys, "session", "add", str(sheet), *argv)
        assert code == 1 and message in err, err
    assert sheet.read_text(encoding="utf-8") == before


def test_at_five_players_the_one_sitting_out_cannot_declare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke." """
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "thorsen", "--players", "A,B,C,D,E")
    code, _, err = run(capsys, "session", "add", sheet, "--contract", "8", "--declarer", "A", "--tricks", "8")
    assert code == 1 and "A sidder over i dette spil" in err


def test_the_club_box_takes_the_losses_and_the_evening_fee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """jeberg.eu/kort/reglement.htm: "De ved den endelige spilletids ophør tabte beløb, det faste gebyr der betales
    af hver spiller per kortaften ... indgår i kortklubbens kasse." """
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "standard", "-H", "klubkasse", "--players", "A,B,C,D", "--rate", "0.5")
    run(capsys, "session", "add", sheet, "--contract", "8", "--declarer", "A", "--partner", "C", "--tricks", "10")
    report = json.loads(run(capsys, "session", "show", sheet, "--json")[1])
    assert report["settlement"]["money"] == {"A": -100.0, "B": -130.0, "C": -100.0, "D": -130.0}
    assert report["settlement"]["box"] == 460.0
    assert all(t["payee"] == "kassen" for t in report["settlement"]["transfers"])


def test_a_new_sheet_never_overwrites_an_evening(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "standard", "--players", "A,B,C,D")
    code, _, err = run(capsys, "session", "new", sheet, "standard", "--players", "A,B,C,D")
    assert code == 1 and "findes allerede" in err


def test_thorsen_at_five_players_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """000 2.1: "Hvis der er fem spillere, deltager kortgiveren ikke."; 000: "Session – En enhed som omfatter et
    helt antal runder". Five deals: each player deals once and sits that deal out; the totals and the money sum
    to zero; the evening may end only when the round is whole."""
    sheet = str(tmp_path / "aften.json")
    players = ["A", "B", "C", "D", "E"]
    assert run(capsys, "session", "new", sheet, "thorsen", "--players", ",".join(players), "--rate", "0.1")[0] == 0
    deals = [("B", "C", "9"), ("C", "D", "6"), ("D", "E", "8"), ("E", "A", "10"), ("A", "B", "7")]
    for number, (declarer, partner, tricks) in enumerate(deals):
        argv = ["--contract", "8", "--declarer", declarer, "--partner", partner, "--tricks", tricks]
        assert run(capsys, "session", "add", sheet, *argv)[0] == 0
        text = run(capsys, "session", "show", sheet)[1]
        assert ("kan slutte nu" in text) == (number == 4)  # whole rounds: only after the fifth deal
    report = json.loads(run(capsys, "session", "show", sheet, "--json")[1])
    assert [d["dealer"] for d in report["deals"]] == players
    for deal in report["deals"]:
        assert deal["points"][deal["dealer"]] == 0  # the dealer sits out
        assert sum(deal["points"].values()) == 0
    assert sum(report["totals"].values()) == 0 and report["can_end"]
    money = report["settlement"]["money"]
    assert abs(sum(money.values())) < 1e-9 and all(round(m, 2) == m for m in money.values())  # whole øre


def test_undo_takes_back_the_last_deal_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "aften.json"
    run(capsys, "session", "new", str(sheet), "standard", "--players", "A,B,C,D")
    run(capsys, "session", "add", str(sheet), "--contract", "8", "--declarer", "A", "--partner", "C", "--tricks", "8")
    once = sheet.read_text(encoding="utf-8")
    run(capsys, "session", "add", str(sheet), "--contract", "sol", "--declarer", "B", "--tricks", "0")
    code, out, _ = run(capsys, "session", "undo", str(sheet))
    assert code == 0 and out == "fortrudt: spil 2, B sol selv: 0 stik\n"
    assert sheet.read_text(encoding="utf-8") == once
    run(capsys, "session", "undo", str(sheet))
    code, _, err = run(capsys, "session", "undo", str(sheet))
    assert code == 1 and "der er intet spil at fortryde" in err
    code, _, err = run(capsys, "session", "undo", str(sheet), "--lang", "en")
    assert code == 1 and "no deal to take back" in err


def test_the_sheet_prints_as_md_html_pdf_and_exports_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = str(tmp_path / "jul.json")
    run(capsys, "session", "new", sheet, "dansk", "--players", "Mor,Far,Ida,Bo")
    run(capsys, "session", "add", sheet, "--contract", "grand", "--declarer", "Far", "--tricks", "8")
    run(capsys, "session", "add", sheet, "--contract", "pasnolo", "--tricks", "2,4,3,4")
    code, md, _ = run(capsys, "session", "show", sheet, "--format", "md")
    assert code == 0 and "| Spil | Giver | Spillet | Mor | Far | Ida | Bo |" in md and "pasnolo: 2/4/3/4 stik" in md
    code, csv_text, _ = run(capsys, "session", "show", sheet, "--format", "csv", "--csv-dialect", "komma")
    rows = [line.split(",") for line in csv_text.splitlines()]
    assert rows[0] == ["spil", "giver", "spillet", "Mor", "Far", "Ida", "Bo"]
    assert rows[3][2] == "I alt" and sum(int(x) for x in rows[3][3:]) == 0
    # pasnolo: Mor took the fewest (2) and gets 3 from the others (the ruleset's table, 1 from each)
    assert rows[2][3:] == ["3", "-1", "-1", "-1"]
    assert run(capsys, "session", "show", sheet, "--format", "pdf", "-o", str(tmp_path / "jul.pdf"))[0] == 0
    assert (tmp_path / "jul.pdf").read_bytes().startswith(b"%PDF")
    assert run(capsys, "session", "show", sheet, "--format", "html", "-o", str(tmp_path / "jul.html"))[0] == 0
    assert "Regnskab: Dansk whist" in (tmp_path / "jul.html").read_text(encoding="utf-8")
    code, _, err = run(capsys, "session", "show", sheet, "--format", "pdf")
    assert code == 1 and "angiv -o FIL" in err


def test_serve_shows_the_evenings_sheet_it_was_started_with(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table issue: "The same session shows in the browser (serve) as a score sheet page"; the file is the
    one the operator named, read anew for each request."""
    from starlette.testclient import TestClient

    from regelmotor.web import create_app

    sheet = tmp_path / "aften.json"
    run(capsys, "session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte")
    client = TestClient(create_app(sheet=sheet))
    assert 'href="/sheet"' in client.get("/").text
    run(
        capsys,
        "session",
        "add",
        str(sheet),
        "--contract",
        "8",
        "--declarer",
        "Anna",
        "--partner",
        "Carl",
        "--tricks",
        "10",
    )
    page = client.get("/sheet/print")
    assert page.status_code == 200 and "Anna 8 m. Carl: 10 stik" in page.text
    assert TestClient(create_app()).get("/sheet").status_code == 404
    assert TestClient(create_app()).get("/sheet/print").status_code == 404


def test_a_deal_entered_at_the_page_is_checked_as_session_add_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table issue: "enter a real-cards deal at /sheet (with the validation of session add), live totals"."""
    from starlette.testclient import TestClient

    from regelmotor.web import create_app

    sheet = tmp_path / "aften.json"
    run(capsys, "session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25")
    client = TestClient(create_app(sheet=sheet))
    page = client.get("/sheet")
    assert page.status_code == 200 and "Tilføj spil" in page.text
    state = client.get("/api/sheet").json()
    assert (
        state["players"] == ["Anna", "Bo", "Carl", "Dorte"] and "8 gode" in state["contracts"] and state["deals"] == []
    )
    deal = {"contract": "8", "declarer": "Anna", "partner": "Carl", "tricks": "10"}
    state = client.post("/api/sheet", json=deal).json()
    assert state["totals"] == [60, -60, 60, -60] and state["deals"][0]["deal"] == "Anna 8 m. Carl: 10 stik"
    before = sheet.read_bytes()
    for bad, why in [
        ({"contract": "8", "declarer": "Erik", "tricks": "9"}, "Erik"),
        ({"contract": "8", "declarer": "Anna", "tricks": "14"}, "14"),
        ({"contract": "8 ukendt", "declarer": "Anna", "tricks": "9"}, "8 ukendt"),
        ({"contract": "8", "declarer": "Anna", "tricks": "9", "path": "/etc/passwd"}, "path"),
    ]:
        refused = client.post("/api/sheet", json=bad)
        assert refused.status_code == 400 and why in refused.json()["error"], refused.json()
        assert sheet.read_bytes() == before, "a refused deal changed the sheet"
    run(capsys, "session", "add", str(sheet), "--contract", "sol", "--declarer", "Bo", "--tricks", "0")
    state = client.get("/api/sheet").json()  # a deal entered elsewhere shows at the next refresh
    assert state["totals"] == [10, 90, 10, -110] and state["deals"][1]["standing"] == [10, 90, 10, -110]
    assert state["money"][1] == "+22,50 kr."
    state = client.post("/api/sheet/undo", json={}).json()
    assert len(state["deals"]) == 1
    code, out, _ = run(capsys, "session", "show", str(sheet), "--json")
    assert code == 0 and json.loads(out)["totals"] == {"Anna": 60, "Bo": -60, "Carl": 60, "Dorte": -60}


def test_the_printed_sheet_has_the_date_running_totals_danish_numbers_and_one_regnskab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table issue: the PDF "has no date and no running totals, prints "258.75 kr." where Danish writes
    258,75 kr., and says "Regnskab" twice"; it "uses 40% of the page width"."""
    import datetime

    from pypdf import PdfReader

    sheet = str(tmp_path / "aften.json")
    run(capsys, "session", "new", sheet, "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25")
    run(capsys, "session", "add", sheet, "--contract", "8", "--declarer", "Anna", "--partner", "Carl", "--tricks", "10")
    run(capsys, "session", "add", sheet, "--contract", "sol", "--declarer", "Bo", "--tricks", "0")
    code, out, _ = run(capsys, "session", "show", sheet, "--format", "md")
    assert code == 0
    assert out.count("Regnskab") == 1
    assert f"Udskrevet {datetime.date.today().day}. " in out
    assert "| +60 (60) | -60 (-60) |" in out  # the deal's points, then the standing
    assert "| -50 (10) | +150 (90) |" in out
    assert "Bo: +22,50 kr." in out and "0,25 kr. pr. point" in out and "22.50" not in out
    pdf = tmp_path / "aften.pdf"
    assert run(capsys, "session", "show", sheet, "--format", "pdf", "-o", str(pdf))[0] == 0
    page = PdfReader(pdf).pages[0]
    right: list[float] = []
    page.extract_text(visitor_text=lambda text, cm, tm, *_: right.append(tm[4]) if "Dorte" in text else None)
    assert max(right) > 0.75 * float(page.mediabox.width), "the table does not reach across the page"
