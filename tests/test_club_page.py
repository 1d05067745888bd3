"""Issue 74, the club's page (``/klub``): every endpoint of its contract and every refusal, the form written back
to the file, the file's comments kept, saving by the admin link only, the versions and their undo, and the
questions asked with progress and answered as the command line answers them."""

from __future__ import annotations

import functools
import itertools
import json
import multiprocessing
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from regelmotor.model.ruleset import WORDS
from regelmotor.rules.families import FAMILIES, family_of
from regelmotor.ruleset.catalogue import shipped_house_rules, shipped_rulesets
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.validate import check_file
from regelmotor.web import child, create_app
from regelmotor.web.child import CHECK_NICENESS, QUESTION_NICENESS
from regelmotor.web.club_check import check_draft
from regelmotor.web.club_form import base_text, change_text
from regelmotor.web.club_yaml import REMOVE, write_key, written

from .conftest import REPO

SECRET = "klubbens-hemmelighed-1234"
ADMIN = {"X-Klub-Admin": SECRET}
CLUB_FILE = """# Vores klub: standard med gå med i sol
kind: ruleset
extends: standard
name: vores-klub
title: Vores klub
description: Standard, men man kan gå med i sol
source: Generalforsamlingen 2026

# vedtaget 2026
auction:
  gaa_med:
    sol_bids: true   # det vigtigste
    vip_bids: false
    source: Generalforsamlingen 2026 § 3
"""


@pytest.fixture
def club_file(tmp_path: Path) -> Path:
    path = tmp_path / "klub.yaml"
    path.write_text(CLUB_FILE, encoding="utf-8")
    return path


@pytest.fixture
def client(club_file: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr("regelmotor.web.upload.ISOLATED", False)  # the checks in this process: quicker
    monkeypatch.setattr("regelmotor.web.club_questions.QUESTION_NICENESS", CHECK_NICENESS)  # beside busy workers
    with TestClient(create_app(club=(str(club_file), []), club_admin=SECRET)) as c:
        yield c


def _field(form: dict[str, Any], key: list[Any]) -> dict[str, Any]:
    return next(f for g in form["groups"] for f in g["fields"] if f["key"] == key)


def test_the_club_is_read_as_its_file_says(client: TestClient, club_file: Path) -> None:
    page = client.get("/klub")
    assert page.status_code == 200 and "Klubbens side" in page.text
    club = client.get("/api/club").json()
    assert club["yaml"] == CLUB_FILE and club["name"] == "vores-klub" and club["title"] == "Vores klub"
    assert club["editable"] is False
    assert client.get("/api/club", headers=ADMIN).json()["editable"] is True
    assert client.get("/api/club", headers={"X-Klub-Admin": "forkert"}).json()["editable"] is False
    assert 'id="club-link"' in client.get("/").text  # the table's page is one click away, and back


def test_the_form_is_every_family_with_its_values_and_where_they_come_from(client: TestClient) -> None:
    answer = client.post("/api/club/check", json={"yaml": CLUB_FILE}).json()
    assert answer["ok"] and answer["problems"] == [] and len(answer["fingerprint"]) == 16
    form = answer["form"]
    names = [g["name"] for g in form["groups"]]
    assert names == [f.name for f in FAMILIES if f.name in names] and {"about", "scoring", "gaa_med"} <= set(names)
    for group in form["groups"]:  # each key in the family that owns it: a key added to a family is found
        assert all(family_of(tuple(f["key"])).name == group["name"] for f in group["fields"])
    own = _field(form, ["auction", "gaa_med", "sol_bids"])
    assert own["kind"] == "switch" and own["value"] is True and own["inherited"] is False and own["from"] == "own"
    assert own["source"] == "Generalforsamlingen 2026 § 3"
    assert own["label"].startswith("Om man kan gå med i et solbud")
    sol = _field(form, ["scoring", "tables", "S", "values"])
    assert sol["kind"] == "table" and sol["value"]["sol"] == 50 and sol["from"] == "parent"
    assert _field(form, ["exchange", "amount"])["kind"] == "choice"
    assert _field(form, ["scoring", "sol", "made"])["kind"] == "formula"
    choices = _field(form, ["designations", 0, "trump", "choices"])
    assert choices["kind"] == "set" and choices["path"] == "designations[alm].trump.choices"
    assert {h["name"] for h in form["house_rules"]} == set(shipped_house_rules())


def test_a_change_of_the_form_writes_only_what_differs_and_keeps_the_comments(client: TestClient) -> None:
    values = {"sol": 75, "ren sol": 100, "bordlægger": 150, "ren bordlægger": 200}
    change = {"key": ["scoring", "tables", "S", "values"], "value": values}
    answer = client.post("/api/club/check", json={"yaml": CLUB_FILE, "change": change}).json()
    assert answer["ok"]
    text = answer["yaml"]
    assert text.startswith(CLUB_FILE.rstrip("\n")) and "# det vigtigste" in text and "# vedtaget 2026" in text
    assert "values: {sol: 75, ren sol: 100, bordlægger: 150, ren bordlægger: 200}" in text
    assert _field(answer["form"], ["scoring", "tables", "S", "values"])["value"]["sol"] == 75
    # back to the parent's value: the key, and the sections it leaves empty, go
    back = {"key": ["auction", "gaa_med", "sol_bids"], "value": False}
    answer = client.post("/api/club/check", json={"yaml": text, "change": back}).json()
    assert "sol_bids" not in answer["yaml"] and "vip_bids: false" in answer["yaml"]
    both = client.post(
        "/api/club/check",
        json={"yaml": answer["yaml"], "change": {"key": ["auction", "gaa_med", "vip_bids"], "value": False}},
    ).json()
    assert "auction:" not in both["yaml"] and "gaa_med" not in both["yaml"]
    # a house rule as a switch
    on = client.post(
        "/api/club/check", json={"yaml": CLUB_FILE, "change": {"house_rule": "jernhaand", "on": True}}
    ).json()
    assert (
        "house_rules: [jernhaand]" in on["yaml"]
        and _field(on["form"], ["jernhaand", "allowed"])["from"] == "house_rule"
    )
    off = client.post(
        "/api/club/check", json={"yaml": on["yaml"], "change": {"house_rule": "jernhaand", "on": False}}
    ).json()
    assert "house_rules" not in off["yaml"]
    assert "house_rules: [jernhaand]\n\n# vedtaget 2026\nauction:" in on["yaml"]  # the comment stays with its section
    assert off["yaml"] == CLUB_FILE


def test_a_bad_value_is_a_located_problem_in_validates_words_and_its_fix_clears_it(client: TestClient) -> None:
    bad = client.post(
        "/api/club/check", json={"yaml": CLUB_FILE, "change": {"key": ["bids", "min_tricks"], "value": 14}}
    )
    answer = bad.json()
    assert bad.status_code == 200 and answer["ok"] is False and answer["form"] is None
    [problem] = answer["problems"]
    assert problem["path"] == "bids.min_tricks" and problem["key"] == ["bids", "min_tricks"]
    assert problem["message"] == "14 er for stor: det største tilladte er 13"
    assert problem["message_en"] == "14 is too large: the most allowed is 13" and problem["severity"] == "error"
    assert answer["yaml"].splitlines()[problem["line"] - 1].strip() == "min_tricks: 14"
    fixed = client.post(
        "/api/club/check", json={"yaml": answer["yaml"], "change": {"key": ["bids", "min_tricks"], "value": 7}}
    )
    assert fixed.json()["ok"] and "\nbids:" not in fixed.json()["yaml"]
    broken = client.post("/api/club/check", json={"yaml": "kind: [ruleset"}).json()
    assert broken["ok"] is False and broken["problems"][0]["message"].startswith("filen kan ikke læses som YAML")


def test_a_draft_never_names_a_file_of_the_server(client: TestClient, tmp_path: Path) -> None:
    secret = tmp_path / "hemmelig.yaml"
    secret.write_text("kind: ruleset\nname: x\n", encoding="utf-8")
    for text in (
        f"kind: ruleset\nextends: {secret}\nname: x\n",
        "kind: ruleset\nextends: standard\nname: x\nhouse_rules: [../x.yaml]\n",
    ):
        answer = client.post("/api/club/check", json={"yaml": text}).json()
        assert answer["ok"] is False and "kun et medfølgende" in answer["problems"][0]["message"]
        assert str(tmp_path) not in json.dumps(answer["problems"])
    refused = client.post("/api/club/diff", json={"yaml": CLUB_FILE, "against": "/etc/passwd"})
    assert refused.status_code == 400 and refused.json()["error"].startswith('"against" er "saved"')


def test_the_book_and_the_differences_of_the_draft(client: TestClient) -> None:
    change = {
        "key": ["scoring", "tables", "S", "values"],
        "value": {"sol": 75, "ren sol": 100, "bordlægger": 150, "ren bordlægger": 200},
    }
    text = client.post("/api/club/check", json={"yaml": CLUB_FILE, "change": change}).json()["yaml"]
    html = client.post("/api/club/rulebook", json={"yaml": text, "format": "html", "lang": "da"})
    assert (
        html.status_code == 200 and "Vores klub" in html.text and ">225<" in html.text.replace(" ", "")
    )  # sol at 75 from each of three
    for paper in ("a4", "a5"):
        pdf = client.post("/api/club/rulebook", json={"yaml": text, "format": "pdf", "paper": paper})
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert client.post("/api/club/rulebook", json={"yaml": text, "format": "doc"}).status_code == 400
    saved = client.post("/api/club/diff", json={"yaml": text, "against": "saved"}).json()
    assert next(d["path"] for d in saved) == "scoring.tables.S"
    assert set(saved[0]) == {"section", "path", "label", "label_en", "a", "b", "a_source", "b_source"}
    shipped = client.post("/api/club/diff", json={"yaml": text, "against": "standard"}).json()
    assert {"auction.gaa_med.sol_bids", "scoring.tables.S"} <= {d["path"] for d in shipped}
    bad = client.post(
        "/api/club/rulebook", json={"yaml": "kind: ruleset\nextends: standard\nname: x\nbids: {min_tricks: 14}\n"}
    )
    assert bad.status_code == 400 and bad.json()["error"] == "udkastet har 1 fejl; ret dem først"


def test_only_the_admin_link_saves_and_a_changed_file_is_refused_saying_what_changed(
    client: TestClient, club_file: Path
) -> None:
    opened = client.get("/api/club").json()
    change = {
        "key": ["scoring", "tables", "S", "values"],
        "value": {"sol": 75, "ren sol": 100, "bordlægger": 150, "ren bordlægger": 200},
    }
    text = client.post("/api/club/check", json={"yaml": CLUB_FILE, "change": change}).json()["yaml"]
    plain = client.put("/api/club", json={"yaml": text, "fingerprint": opened["fingerprint"]})
    assert plain.status_code == 403 and plain.json()["error"].startswith("kun klubbens administratorlink")
    assert "error_en" in plain.json() and club_file.read_text(encoding="utf-8") == CLUB_FILE
    wrong = client.put(
        "/api/club", json={"yaml": text, "fingerprint": opened["fingerprint"]}, headers={"X-Klub-Admin": "x"}
    )
    assert wrong.status_code == 403
    bad = client.put(
        "/api/club",
        json={"yaml": text.replace("sol: 75", "sol: x"), "fingerprint": opened["fingerprint"]},
        headers=ADMIN,
    )
    assert bad.status_code == 400 and bad.json()["problems"] and club_file.read_text(encoding="utf-8") == CLUB_FILE
    saved = client.put("/api/club", json={"yaml": text, "fingerprint": opened["fingerprint"]}, headers=ADMIN)
    assert saved.status_code == 200 and saved.json()["version"] == 2
    assert saved.json()["changes"] == ["Pointtabellen S, sol: 75 i stedet for 50"]
    assert club_file.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in club_file.parent.iterdir()) == ["klub.versioner", "klub.yaml"]
    # the page that opened the file before the save is refused, and told what changed since
    again = client.put("/api/club", json={"yaml": CLUB_FILE, "fingerprint": opened["fingerprint"]}, headers=ADMIN)
    assert again.status_code == 409 and "er ændret, siden siden åbnede den" in again.json()["error"]
    assert again.json()["changes"] == ["Pointtabellen S, sol: 75 i stedet for 50"] and again.json()["yaml"] == text
    assert club_file.read_text(encoding="utf-8") == text


def test_the_history_says_each_change_in_words_and_undo_goes_back(client: TestClient, club_file: Path) -> None:
    assert client.get("/api/club/history").json() == {"versions": []}
    opened = client.get("/api/club").json()
    text = client.post(
        "/api/club/check", json={"yaml": CLUB_FILE, "change": {"house_rule": "dobling", "on": True}}
    ).json()["yaml"]
    saved = client.put("/api/club", json={"yaml": text, "fingerprint": opened["fingerprint"]}, headers=ADMIN).json()
    versions = client.get("/api/club/history").json()["versions"]
    assert [v["version"] for v in versions] == [2, 1]
    assert (
        versions[0]["changes"][0] == "husreglen dobling er tilføjet"
        and versions[0]["fingerprint"] == saved["fingerprint"]
    )
    assert versions[1]["changes"] == ["den første udgave, som siden fandt den"]
    assert client.post("/api/club/undo", json={}).status_code == 403
    undone = client.post("/api/club/undo", json={}, headers=ADMIN)
    assert undone.status_code == 200 and undone.json()["yaml"] == CLUB_FILE
    assert club_file.read_text(encoding="utf-8") == CLUB_FILE
    newest = client.get("/api/club/history").json()["versions"][0]
    assert newest["changes"][:2] == ["fortrudt: tilbage til udgave 1", "husreglen dobling er taget ud"]
    assert newest["undo_of"] == 2
    nothing = client.post("/api/club/undo", json={}, headers=ADMIN)
    assert nothing.status_code == 409 and nothing.json()["error"] == "der er ingen tidligere udgave at gå tilbage til"


def test_a_shipped_ruleset_is_drafted_on_but_never_saved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("regelmotor.web.upload.ISOLATED", False)
    with TestClient(create_app(club=("thorsen", []))) as c:
        club = c.get("/api/club").json()
        assert club["name"] == "thorsen" and club["saving"] is False and club["editable"] is False
        refused = c.put("/api/club", json={"yaml": club["yaml"], "fingerprint": club["fingerprint"]}, headers=ADMIN)
        assert refused.status_code == 404
    with TestClient(create_app()) as c:
        assert c.get("/klub").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "starts"),
    [
        ({"yaml": 5}, 400, '"yaml" er klubbens fil'),
        ({"yaml": "x" * 300_000}, 413, "anmodningen er større"),
        ({"yaml": CLUB_FILE, "question": {"kind": "gæt"}}, 400, '"question" er'),
        ({"yaml": CLUB_FILE, "question": {"kind": "compare", "deals": 10**6}}, 400, '"deals" er et helt tal fra 1 til'),
        (
            {"yaml": CLUB_FILE, "question": {"kind": "compare", "deals": 4, "bots": "orakel"}},
            400,
            "ingen computerspiller",
        ),
        (
            {"yaml": CLUB_FILE, "question": {"kind": "tune", "key": "k", "values": list(range(20)), "target": "x"}},
            400,
            '"values" er højst',
        ),
        ({"yaml": CLUB_FILE, "against": "../klub", "question": {"kind": "compare"}}, 400, '"against" er'),
    ],
)
def test_a_question_the_page_does_not_take_is_refused_in_danish(
    client: TestClient, body: dict[str, Any], status: int, starts: str
) -> None:
    answer = client.post("/api/club/questions", json=body)
    assert answer.status_code == status and answer.json()["error"].startswith(starts) and answer.json()["error_en"]


def test_a_question_is_answered_with_progress_and_kept_by_its_fingerprint(client: TestClient) -> None:
    """Asked in a process of its own (as a page asks it), the progress pushed, the answer the JSON of
    ``compare --json`` with the summary, table and chart; asked again, the same answer at once."""
    question = {"kind": "compare", "deals": 3, "bots": "heuristic"}
    asked = client.post("/api/club/questions", json={"yaml": CLUB_FILE, "against": "standard", "question": question})
    assert asked.status_code == 200 and asked.json()["state"] in ("waiting", "running")
    seen = []
    with client.stream("GET", f"/api/club/questions/{asked.json()['id']}/events") as events:
        for line in events.iter_lines():
            if line.startswith("data:"):
                seen.append(json.loads(line[5:]))
                if seen[-1]["state"] in ("done", "failed"):
                    break
    assert seen[-1]["state"] == "done" and seen[-1]["done"] == seen[-1]["total"] == 6
    assert any(0 < s["done"] < 6 for s in seen)
    answer = client.get(f"/api/club/questions/{asked.json()['id']}").json()
    assert answer["a"] == "standard" and answer["b"] == "vores-klub" and answer["bots"] == ["heuristic"] * 4
    assert {"rows", "diff", "stakes", "summary", "summary_en", "table", "chart"} <= set(answer)
    assert answer["chart"].startswith("<svg") or answer["chart"].startswith("<?xml")
    again = client.post("/api/club/questions", json={"yaml": CLUB_FILE, "against": "standard", "question": question})
    assert again.json()["state"] == "done"
    assert client.get(f"/api/club/questions/{again.json()['id']}").json() == answer
    assert client.get("/api/club/questions/ukendt").status_code == 404


def test_a_questions_page_is_counted_with_the_tables_pages(client: TestClient) -> None:
    """A page following a question holds a connection as a table's page does: both count in the server's bound
    of pages following its events, in all and per network."""
    streams = client.app.state.streams  # type: ignore[attr-defined]
    question = {"kind": "compare", "deals": 2, "bots": "heuristic"}
    asked = client.post("/api/club/questions", json={"yaml": CLUB_FILE, "against": "standard", "question": question})
    key = asked.json()["id"]
    streams.held["testclient"] = streams.per_client()  # this network's pages follow tables already
    refused = client.get(f"/api/club/questions/{key}/events")
    assert refused.status_code == 503 and refused.json()["error"].startswith("for mange sider følger borde og")
    del streams.held["testclient"]
    with client.stream("GET", f"/api/club/questions/{key}/events") as events:
        for line in events.iter_lines():
            if line.startswith("data:") and json.loads(line[5:])["state"] in ("done", "failed"):
                break
    assert streams.held == {}  # counted while it was followed, and no more


def test_the_line_of_questions_is_short_and_a_question_goes_when_its_page_leaves(client: TestClient) -> None:
    question = {"kind": "compare", "deals": 400, "bots": "heuristic"}
    first = client.post("/api/club/questions", json={"yaml": CLUB_FILE, "against": "standard", "question": question})
    assert first.status_code == 200
    busy = client.post("/api/club/questions", json={"yaml": CLUB_FILE, "against": "thorsen", "question": question})
    assert busy.status_code == 429 and busy.json()["error"].startswith("der er allerede et spørgsmål herfra")
    assert busy.headers["retry-after"] == "5"
    key = first.json()["id"]
    with client.stream("GET", f"/api/club/questions/{key}/events") as events:
        for line in events.iter_lines():
            if line.startswith("data:") and json.loads(line[5:])["state"] == "running":
                break
    deadline = time.monotonic() + 20
    while client.get(f"/api/club/questions/{key}").status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.get(f"/api/club/questions/{key}").status_code == 409  # cancelled: its page left
    assert (
        client.post(
            "/api/club/questions", json={"yaml": CLUB_FILE, "against": "thorsen", "question": question}
        ).status_code
        == 200
    )


def test_a_question_answered_before_is_told_at_once_while_another_runs(client: TestClient) -> None:
    """The line is for questions that must be played: one whose answer is kept (the same words, the same
    draft) is told at once, without a check, while this page's other question runs."""
    small = {"yaml": CLUB_FILE, "against": "standard", "question": {"kind": "compare", "deals": 2, "bots": "heuristic"}}
    first = client.post("/api/club/questions", json=small).json()
    with client.stream("GET", f"/api/club/questions/{first['id']}/events") as events:
        for line in events.iter_lines():
            if line.startswith("data:") and json.loads(line[5:])["state"] in ("done", "failed"):
                break
    answer = client.get(f"/api/club/questions/{first['id']}").json()
    long = {**small, "question": {"kind": "compare", "deals": 400, "bots": "heuristic"}}
    assert client.post("/api/club/questions", json=long).status_code == 200  # this page's one question under way
    again = client.post("/api/club/questions", json=small)
    assert again.status_code == 200 and again.json()["state"] == "done", again.json()
    assert client.get(f"/api/club/questions/{again.json()['id']}").json() == answer
    changed = {**small, "yaml": CLUB_FILE + "# en kommentar\n"}  # another draft: to be checked and played
    assert client.post("/api/club/questions", json=changed).status_code == 429


def test_a_kept_answer_about_the_saved_rules_goes_when_a_file_they_build_on_changes(tmp_path: Path) -> None:
    """A question "against the saved file" is kept by that file's rules: a change in the file it extends is a
    change of those rules, even when the saved file itself is untouched."""
    from regelmotor.web.club import _rules_print

    base, saved = tmp_path / "base.yaml", tmp_path / "klub.yaml"
    base.write_text("kind: ruleset\nextends: standard\nname: base\ntitle: B\ndescription: B\nsource: B\n")
    saved.write_text("kind: ruleset\nextends: ./base.yaml\nname: klub\ntitle: K\ndescription: K\nsource: K\n")
    time.sleep(0.01)  # the files stand before the first load
    before = _rules_print("saved", str(saved))
    assert _rules_print("saved", str(saved)) == before
    base.write_text(base.read_text() + "jernhaand:\n  allowed: true\n  source: B\n")
    assert _rules_print("saved", str(saved)) == load_ruleset(str(saved)).fingerprint != before


def _priority(send: Connection) -> None:
    send.send((os.sched_getscheduler(0), os.nice(0)))


def test_the_servers_own_processes_run_below_it() -> None:
    """A question's process runs only where a core is otherwise idle, a check's at a lower priority than the
    server's: set before the process imports its work (``regelmotor.web.child``), so the table's and the sheet's
    requests come first (``benchmarks/server_load.py --questions``). (The tests' questions run at a check's
    priority: beside a run's busy workers an idle one would hardly run.)"""
    context = multiprocessing.get_context("spawn")
    for niceness, policy, nice in ((QUESTION_NICENESS, os.SCHED_IDLE, 0), (CHECK_NICENESS, os.SCHED_OTHER, 5)):
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=child.run, args=(niceness, f"{__name__}:_priority", (send,)))
        process.start()
        send.close()
        assert receive.poll(300)  # a hang guard, not a time bound: an idle-class process on busy cores waits
        assert receive.recv() == (policy, os.nice(0) + nice)
        process.join(10)


def test_a_draft_is_checked_in_a_process_of_its_own(club_file: Path) -> None:
    """The page's check goes the upload's way: a process of its own, answered in validate's words."""
    with TestClient(create_app(club=(str(club_file), []), club_admin=SECRET)) as c:
        answer = c.post("/api/club/check", json={"yaml": CLUB_FILE.replace("sol_bids: true", "sol_bids: 3")}).json()
    assert answer["ok"] is False and answer["problems"][0]["path"] == "auction.gaa_med.sol_bids"
    assert answer["problems"][0]["line"] == 12


# --- the property: the form written back is the file --------------------------------------------------------------


FILES = [ref.path for ref in shipped_rulesets().values()]


def _fields(form: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for g in form["groups"] for f in g["fields"]]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_value_of_the_form_written_back_gives_the_same_rules(path: Path) -> None:
    """For every shipped ruleset: its form's values written, field by field through the form's own door, into
    the file it builds on (its header alone, for one that extends another; else the file itself) give the same
    rules as the file (the same fingerprint)."""
    text = path.read_text(encoding="utf-8")
    answer, resolved = check_draft(text, path.name, None)
    assert answer["ok"] and resolved is not None
    start = base_text(text)
    written, base = (text, None) if start is None else (start, check_draft(start, path.name, None)[1])
    for field in _fields(answer["form"]):
        now = check_draft(written, path.name, None)[1] if start is not None else resolved
        written = change_text(written, {"key": field["key"], "value": field["value"]}, now, base)
    again, _ = check_draft(written, path.name, None)
    assert again["ok"], again["problems"][:2]
    assert again["fingerprint"] == answer["fingerprint"]


@pytest.mark.parametrize("house", sorted(shipped_house_rules()))
def test_every_house_rule_switched_on_is_the_same_rules_as_with_h(house: str, tmp_path: Path) -> None:
    """A house rule switched on in the form resolves as ``-H`` resolves it on the same file."""
    plain_text = "kind: ruleset\nextends: standard\nname: vores-klub\n"
    on = change_text(plain_text, {"house_rule": house, "on": True}, None, None)
    answer, resolved = check_draft(on, "klub.yaml", None)
    plain = tmp_path / "klub.yaml"
    plain.write_text(plain_text, encoding="utf-8")
    if not answer["ok"]:  # a house rule that cannot apply to standard says so at its own line
        assert answer["problems"][0]["line"] >= 1
        return
    assert resolved is not None and resolved.house_rules == (house,)
    assert answer["fingerprint"] == load_ruleset(str(plain), [house]).fingerprint


THORSEN_CLUB = "kind: ruleset\nextends: thorsen\nname: thorsens-klub\nhouse_rules: [fordaekt]\n"
STARTS = {
    "vores-klub": CLUB_FILE,  # extends standard, with lines of its own
    "thorsens-klub": THORSEN_CLUB,  # extends thorsen (fractions, constants, a formula) and lists a house rule
    "engelsk": (REPO / "rulesets" / "engelsk.yaml").read_text(encoding="utf-8"),  # extends nothing: every key its own
}
OWN_WORDS = ("name", "source", *WORDS)
"""The club's own words: written as the club gives them, even where they are its parent's."""
TRICKY_TEXT = ["", "no", "yes", "on", "Off", "y", "null", "~", "1:30", "010", "0x1f", "1_000", "1e3", "2026-12-07",
               "=", "<<", "# ikke en kommentar", "a: b", "- x", "[x]", "{x}", "'q'", '"q"', " sol ", "æøå ÆØÅ", "x #y",
               "!tag", "*alias", "&anker", "|", ">", "%", "@", "`"]  # fmt: skip
"""Texts YAML reads as something else unless they are quoted: the page's writer must quote them."""


@dataclass(frozen=True)
class Start:
    """A file the page opens: its text, its form's fields, its rules and its parent's."""

    text: str
    fields: tuple[dict[str, Any], ...]
    resolved: ResolvedRuleset
    base: ResolvedRuleset | None
    formulas: tuple[str, ...]
    fingerprint: str


@functools.cache
def _start(name: str) -> Start:
    text = STARTS[name]
    answer, resolved = check_draft(text, "klub.yaml", None)
    assert answer["ok"] and resolved is not None, answer["problems"][:2]
    parent = base_text(text)
    base = None if parent is None else check_draft(parent, "klub.yaml", None)[1]
    fields = tuple(_fields(answer["form"]))
    formulas = tuple(f["value"] for f in fields if f["kind"] == "formula" and f["value"])
    return Start(text, fields, resolved, base, formulas, answer["fingerprint"])


def _exact() -> st.SearchStrategy[Any]:
    """An exact number as the page sends it (``number()`` in klub.html): whole, a decimal, a fraction's text."""
    return st.one_of(
        st.integers(-1000, 1000),
        st.builds(lambda n, d: f"{n}/{d}", st.integers(-400, 400), st.integers(1, 12)),
        st.builds(lambda n, d: n / d, st.integers(-4000, 4000), st.sampled_from([2, 4, 5, 10, 100, 100_000])),
    )


def _formula(field: dict[str, Any], start: Start) -> st.SearchStrategy[str]:
    """A formula with its numbers edited (``base * (1 + O)`` to ``base * (2 + O)``), this field's or another's."""
    texts = [field["value"]] if field["value"] else list(start.formulas)

    @st.composite
    def edited(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(texts))
        numbers = re.findall(r"\d+", text)
        new = iter(draw(st.lists(st.integers(0, 12), min_size=len(numbers), max_size=len(numbers))))
        return re.sub(r"\d+", lambda _: str(next(new)), text)

    return edited()


def _value(field: dict[str, Any], start: Start) -> st.SearchStrategy[Any]:
    """A value the page's field can send (``readField`` in klub.html), of the field's kind and within its schema:
    an empty list or set of a field that may be none is none."""
    kind, nullable, value = field["kind"], field["nullable"], field["value"]
    options = [o["value"] for o in field.get("options", [])]
    none = st.none() if nullable else st.nothing()

    def empty_is_none(chosen: list[Any]) -> list[Any] | None:
        return None if not chosen and nullable else chosen

    if kind == "switch":
        return st.booleans()
    if kind == "choice":
        return st.sampled_from(options)
    if kind == "set":
        return st.sets(st.sampled_from(options)).map(lambda on: empty_is_none([o for o in options if o in on]))
    if kind == "number":
        low, high = field.get("min", -1000), field.get("max", max(field.get("min", 0), 0) + 1000)
        return st.one_of(st.integers(low, high) if field["whole"] else _exact(), none)
    if kind == "table":
        return st.fixed_dictionaries({entry: _exact() for entry in value or {}})
    if kind == "list":
        if field["items"] == "number":
            items: st.SearchStrategy[Any] = st.integers(1, 13)
        elif field["items"] == "enum":
            items = st.sampled_from(options)
        else:  # a dealing pattern: packets of cards and the kitty's cards
            items = st.one_of(st.integers(1, 4), st.just("kat"))
        chosen = st.lists(items, max_size=max(4, len(value or [])))
        return (st.permutations(value) | chosen if value else chosen).map(lambda x: empty_is_none(list(x)))
    if kind == "formula":
        return st.one_of(_formula(field, start), none)
    text = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=24)
    return st.one_of(st.sampled_from(TRICKY_TEXT), text)


def _resolved_at(data: Any, key: list[Any]) -> Any:
    """The rules' value at ``key``: none where a section on the way is none (a contract when all pass)."""
    for part in key:
        if data is None:
            return None
        data = data[part]
    return data


def _same(field: dict[str, Any], got: Any, chosen: Any) -> bool:
    """The rules hold the value chosen: a number as the same number (``1.5`` is ``"3/2"``), a set as a set."""

    def number(x: Any) -> Fraction:
        return Fraction(str(x))

    if chosen is None or got is None:
        return got is chosen
    if field["kind"] == "number":
        return number(got) == number(chosen)
    if field["kind"] == "table":
        return set(got) == set(chosen) and all(number(got[k]) == number(chosen[k]) for k in chosen)
    if field["kind"] == "set":
        return sorted(got) == sorted(chosen)
    return bool(got == chosen)


def _validated(text: str) -> list[tuple[int, int, str, str]]:
    """``regelmotor validate`` on the file: its problems' line, column, key and Danish words."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "klub.yaml"
        path.write_text(text, encoding="utf-8")
        problems, _ = check_file(str(path))
        return [
            (p.location.line, p.location.column, p.key_path, p.said_as("da").replace(folder + "/", ""))
            for p in problems
        ]


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_change_of_any_field_is_the_value_chosen_or_a_problem_at_its_place(data: st.DataObject) -> None:
    """Any field of the form (a switch, a choice, a number, a list, a point table, a formula, a text), given a
    value its field can send and its schema allows, written through the page's writer: the file either resolves
    to exactly that value, or is refused with problems at a line and key, said as ``validate`` says them; never
    silently something else. Set back to the value it had, the field leaves the file as it was (a line the same
    as the parent's may go: only what differs is written)."""
    name = data.draw(st.sampled_from(sorted(STARTS)), "file")
    start = _start(name)
    kind = data.draw(st.sampled_from(sorted({f["kind"] for f in start.fields})), "kind")
    field = data.draw(st.sampled_from([f for f in start.fields if f["kind"] == kind]), "field")
    chosen = data.draw(_value(field, start), "value")
    text = change_text(start.text, {"key": field["key"], "value": chosen}, start.resolved, start.base)
    answer, resolved = check_draft(text, "klub.yaml", None)
    event(f"{name} {kind}: {'taken' if answer['ok'] else 'refused'}")
    if answer["ok"]:
        assert resolved is not None
        got = _resolved_at(resolved.ruleset.model_dump(mode="json", by_alias=True), field["key"])
        assert _same(field, got, chosen), (field["path"], chosen, got)
    else:
        errors = [p for p in answer["problems"] if p["severity"] == "error"]
        assert errors and all(p["line"] >= 1 and p["column"] >= 1 and p["path"] for p in errors), errors
        said = [(p["line"], p["column"], p["path"], p["message"]) for p in errors]
        assert said == _validated(text)
    # the way back, from a draft the rules took or refused
    if (field["value"] is None and not field["nullable"]) or field["key"][0] in OWN_WORDS:
        return  # no value the page can send back (a section that is none), or the club's own words
    back = change_text(text, {"key": field["key"], "value": field["value"]}, resolved, start.base)
    unit = tuple(str(p) for p in itertools.takewhile(lambda p: isinstance(p, str), field["key"]))
    if start.base is None and resolved is None:
        # a file that extends nothing, from a draft the rules refused: no rules to find the model's defaults in, so
        # the key (or its section, written whole) may stay, at the value it had: the same rules as before
        assert check_draft(back, "klub.yaml", None)[0]["fingerprint"] == start.fingerprint, field["path"]
        return
    assert written(back, unit) in (written(start.text, unit), REMOVE), field["path"]
    assert written(write_key(back, unit, REMOVE), ()) == written(write_key(start.text, unit, REMOVE), ())


def test_write_key_keeps_the_rest_of_the_file_to_the_byte() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert write_key(text, ("nothing", "here"), REMOVE) == text
    assert (REPO / "schemas" / "ruleset.schema.json").is_file()
