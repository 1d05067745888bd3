"""regelmotor serve: the web game, through its HTTP API and in a real headless browser."""

from __future__ import annotations

import json
import re
import shutil
import socket
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from regelmotor.cards import format_card
from regelmotor.engine.record import Record, read_record, replay
from regelmotor.web import create_app
from regelmotor.web.app import WebGame

from .conftest import CONFIGS, RULESETS

CARD = re.compile(r"\b(?:[AKQJT2-9][SHDC]|JK[123])\b")


def hidden_cards(web: WebGame) -> set[str]:
    """What the person must not be told: other hands, the unturned kitty, others' discards."""
    game = web.game
    you = web.seat
    public = set(game.turned) | set(game.joiner_calls.values())
    if game.called is not None:
        public.add(game.called)
    if game.trump_card is not None:  # engelsk whist: the dealer's last card is turned for all to see (002)
        public.add(game.trump_card)
    for seat in game.open_hands:
        public |= set(game.hands[seat])
    others = [seat for seat in range(4) if seat != you]
    hidden = {c for seat in others for c in game.hands[seat]} | set(game.kitty) | set(game.discards)
    hidden -= set(game.hands[you]) | set(game.discarded.get(you, ()))
    return {format_card(c) for c in hidden - public}


def sent_cards(state: dict[str, Any]) -> set[str]:
    view = dict(state["view"])
    view.pop("legal_actions")  # the person's own choices (a call names an ace he does not hold)
    # The game's id is random letters, which can spell a card ("...-QS-..."): it says nothing of the cards.
    sent = {key: value for key, value in state.items() if key != "id"}
    return set(CARD.findall(json.dumps({**sent, "view": view}, ensure_ascii=False)))


def play_through(client: TestClient, body: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state = client.post("/api/games", json=body).json()
    states = [state]
    web = client.app.state.games.games[state["id"]]  # type: ignore[attr-defined]
    assert not sent_cards(state) & hidden_cards(web)
    while state["view"]["to_act"] == state["you"]:
        action = state["view"]["legal_actions"][0]
        state = client.post(f"/api/games/{state['id']}/actions", json={"action": action}).json()
        states.append(state)
        assert not sent_cards(state) & hidden_cards(web), "a hidden card was sent to the page"
        if web.game.partner is not None and not web.game.partner_public:
            assert state["view"]["partner"] is None
    return state, states


@pytest.mark.parametrize(("ruleset", "house"), CONFIGS, ids=[f"{n}+{h}" if h else n for n, h in CONFIGS])
def test_a_whole_deal_through_the_api_never_sends_hidden_cards(ruleset: str, house: str | None) -> None:
    client = TestClient(create_app())
    for seed in range(4):
        state, _ = play_through(client, {"ruleset": ruleset, "house_rules": [house] if house else [], "seed": seed})
        assert state["view"]["to_act"] is None
        if state["finished"]:
            assert sum(state["view"]["scores"]) == 0 and sum(state["totals"]) == 0


def test_the_downloaded_record_replays_to_the_same_result() -> None:
    client = TestClient(create_app())
    state, _ = play_through(client, {"ruleset": "thorsen", "seed": 11})
    record = client.get(f"/api/games/{state['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    again = replay(Record.model_validate(record.json())).game
    assert again.phase == state["view"]["phase"] and again.tricks_won == state["view"]["tricks_won"]


def test_an_illegal_action_is_refused_with_the_rule_and_changes_nothing() -> None:
    client = TestClient(create_app())
    state = client.post("/api/games", json={"ruleset": "standard", "seed": 1}).json()
    while state["view"]["to_act"] != state["you"]:
        state = client.post(f"/api/games/{state['id']}/next", json={}).json()
    refused = client.post(f"/api/games/{state['id']}/actions", json={"action": "accept"})
    assert refused.status_code == 400 and refused.json()["rule"] in ("auction", "play", "exchange", "partner_card")
    assert client.get(f"/api/games/{state['id']}").json() == state


def test_an_uploaded_ruleset_is_validated_like_a_file() -> None:
    client = TestClient(create_app())
    bad = "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\ndeck:\n  kitty: 03\n"
    response = client.post("/api/games", json={"ruleset_file": bad, "filename": "club.yaml"})
    assert response.status_code == 400
    (problem,) = response.json()["problems"]
    assert (problem["file"], problem["line"], problem["column"], problem["path"]) == ("club.yaml", 8, 10, "deck.kitty")
    assert problem["message"].startswith('"03" is read as a YAML 1.1 octal')
    good = (
        "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\nhouse_rules: [jernhaand]\n"
    )
    started = client.post("/api/games", json={"ruleset_file": good, "filename": "club.yaml", "seed": 2})
    assert started.status_code == 200 and started.json()["ruleset"] == "club + jernhaand"
    book = client.get(f"/api/games/{started.json()['id']}/rulebook")
    assert book.status_code == 200 and "Jernhånd" in book.text


def test_the_page_and_the_ruleset_list() -> None:
    client = TestClient(create_app())
    assert "Es-makker whist mod tre computerspillere" in client.get("/").text
    names = {(r["kind"], r["name"]) for r in client.get("/api/rulesets").json()}
    assert ("ruleset", "gruppe2") in names and ("house_rule", "kan-selv") in names


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium where it can)"
)
def test_a_whole_deal_in_a_real_headless_browser() -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
            )
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("#ruleset option[value=gruppe2]", state="attached")
            page.select_option("#ruleset", "gruppe2")
            page.fill("#seed", "4")
            page.click("#start")
            page.wait_for_selector("#game:not([hidden])")
            # the rule book under the table is the page's own frame: the security headers let it show
            heading = page.frame_locator("#rulebook").locator("h1")
            heading.wait_for()
            assert "Regler for es-makker whist" in heading.inner_text()
            bid = False
            for _ in range(60):
                if page.is_visible("#next"):
                    break
                version = page.get_attribute("body", "data-version")
                seven = page.locator("#actions button.action[data-action='7']")
                if not bid and seven.count():
                    seven.click()  # the person bids
                    bid = True
                else:
                    page.locator("#actions button.action").first.click()
                page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
            assert page.is_visible("#next") and bid
            assert "du: 7" in page.inner_text("#log")
            assert "Stilling:" in page.inner_text("#score")
            assert "JK" not in page.inner_text("#hand")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_person_can_play_against_expert_bots(ruleset: str) -> None:
    """The expert issue: "the browser lets the person choose the bots' level"."""
    client = TestClient(create_app())
    state, _ = play_through(client, {"ruleset": ruleset, "seed": 3, "bots": "expert"})
    web = client.app.state.games.games[state["id"]]  # type: ignore[attr-defined]
    assert web.bot == "expert" and all(type(b).__name__ == "ExpertBot" for b in web.bots.values())
    assert state["view"]["to_act"] is None
    refused = client.post("/api/games", json={"ruleset": ruleset, "bots": "grandmaster"})
    assert refused.status_code == 400 and 'no bot is called "grandmaster"' in refused.json()["error"]


def test_the_persons_points_are_booked_to_the_person_as_the_deal_passes_round(tmp_path: Path) -> None:
    """The table issue: "every deal's points and the running totals are the person's own": the person keeps
    a chair while the deal passes round, so the seat changes; each deal's booked points are what ``replay``
    of the deal's record gives the person's seat."""
    client = TestClient(create_app())
    state, _ = play_through(client, {"ruleset": "standard", "seed": 11})
    seats, booked = [], Fraction(0)
    for number in range(6):
        you = state["you"]
        seats.append(you)
        record = tmp_path / f"deal-{number}.json"
        record.write_text(client.get(f"/api/games/{state['id']}/record").text, encoding="utf-8")
        replayed = replay(read_record(record)).game
        own = replayed.scores[you] if replayed.scores is not None else Fraction(0)
        booked += own
        assert Fraction(str(state["totals"][0])) == booked, f"deal {number + 1}: the person's total"
        state = client.post(f"/api/games/{state['id']}/next", json={}).json()
        while state["view"]["to_act"] == state["you"]:
            action = state["view"]["legal_actions"][0]
            state = client.post(f"/api/games/{state['id']}/actions", json={"action": action}).json()
    assert len(set(seats)) > 1, "the deal passed round: the person's seat moved"


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": "standard", "house_rules": ["/etc/hostname"]},
        {"ruleset": "standard", "house_rules": ["../rulesets/house/dobling.yaml"]},
        {"ruleset_file": "kind: ruleset\nextends: /etc/os-release.yaml\nname: x\n", "filename": "x.yaml"},
        {"ruleset_file": "kind: ruleset\nextends: ../../../../etc/x.yaml\nname: x\n", "filename": "x.yaml"},
        {"ruleset_file": "kind: ruleset\nextends: standard\nname: x\nhouse_rules: [/tmp/x.yaml]\n", "filename": "x"},
    ],
)
def test_the_server_never_reads_a_file_a_client_names(body: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The trust issue: "A client can make it read any file on the server by naming it as a house rule or in
    an upload's extends:". Only shipped names are taken; a path is refused before anything is read."""
    from regelmotor.ruleset import load

    opened: list[str] = []
    original = load.read_file

    def spy(ref: load.FileRef) -> Any:
        opened.append(str(ref.path))
        return original(ref)

    monkeypatch.setattr(load, "read_file", spy)
    response = TestClient(create_app()).post("/api/games", json=body)
    assert response.status_code == 400
    assert "this server reads no file by a path a client names" in json.dumps(response.json(), ensure_ascii=False)
    shipped = {str(ref.path) for ref in [*load.shipped_rulesets().values(), *load.shipped_house_rules().values()]}
    uploaded = [path for path in opened if path not in shipped]
    assert all(path.endswith("/x.yaml") for path in uploaded), f"read a file the client named: {uploaded}"
    assert len(uploaded) == ("ruleset_file" in body)  # the upload itself, and nothing else
