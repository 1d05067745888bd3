"""regelmotor serve: the web game, through its HTTP API and in a real headless browser."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from regelmotor.cards import format_card
from regelmotor.records import Record, read_record, replay
from regelmotor.ruleset.load import load_ruleset
from regelmotor.web import create_app
from regelmotor.web.tables import WebGame

from .conftest import CONFIGS, RULESETS, scored_as_the_rules_say

CARD = re.compile(r"\b(?:[AKQJT2-9][SHDC]|JK[123])\b")


def hidden_cards(web: WebGame, you: int | None = None) -> set[str]:
    """What the person at seat ``you`` (the game's one person when not named) must not be told: other hands,
    the unturned kitty, others' discards."""
    game = web.game
    you = web.seat if you is None else you
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
    for seed in range(2):  # two whole deals in each of the sixty configurations
        state, _ = play_through(client, {"ruleset": ruleset, "house_rules": [house] if house else [], "seed": seed})
        assert state["view"]["to_act"] is None
        if state["finished"]:
            assert scored_as_the_rules_say(ruleset, state["view"]["scores"])
            assert scored_as_the_rules_say(ruleset, state["totals"])


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
    assert problem["message"].startswith('"03" læses som et YAML 1.1-oktal')  # the page is Danish first
    assert problem["message_en"].startswith('"03" is read as a YAML 1.1 octal')
    good = (
        "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\nhouse_rules: [jernhaand]\n"
    )
    started = client.post("/api/games", json={"ruleset_file": good, "filename": "club.yaml", "seed": 2})
    assert started.status_code == 200 and started.json()["ruleset"] == "club + jernhaand"
    book = client.get(f"/api/games/{started.json()['id']}/rulebook")
    assert book.status_code == 200 and "Jernhånd" in book.text


def test_the_page_and_the_ruleset_list() -> None:
    client = TestClient(create_app())
    assert "Whist mod tre computerspillere" in client.get("/").text
    names = {(r["kind"], r["name"]) for r in client.get("/api/rulesets").json()}
    assert ("ruleset", "gruppe2") in names and ("house_rule", "kan-selv") in names


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium where it can)"
)


@pytest.fixture(scope="module")
def _chromium() -> Iterator[Any]:
    """Chromium started once for this file's browser tests (a start costs a second of a core)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        yield launched
        launched.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The file's Chromium. Each page a test opens has a context of its own (its own storage, as a fresh
    browser has), and every context is closed after the test."""
    yield _chromium
    for context in list(_chromium.contexts):
        context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(app: Any) -> Iterator[int]:
    """``app`` served by uvicorn on a free port in a thread, for as long as the block runs; its port."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        server.force_exit = True  # a table's pages hold event streams that do not end by themselves
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser_server() -> Iterator[tuple[str, Any]]:
    """A real server on a free port (the page's own script, under its CSP), and the app's games."""
    app = create_app()
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}/", app.state.games


def _pick_and_confirm(page: Any) -> None:
    """The exchange: pick the fewest cards allowed, then confirm (as a person does, card by card)."""
    fewest = int(
        page.evaluate(
            "Math.min(...game.view.legal_actions.filter(a => a.startsWith('discard ')).map(a => a.split(' ').length - 1))"
        )
    )
    for k in range(fewest):
        version = page.get_attribute("body", "data-version")
        page.locator("#hand button.pick").nth(k).click()
        page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
    version = page.get_attribute("body", "data-version")
    page.locator("#actions button.confirm").click()
    page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")


@needs_chromium
@pytest.mark.parametrize(
    ("ruleset", "width", "lang"),
    [("gruppe2", 1200, "da"), ("standard", 390, "da"), ("dansk", 1200, "en"), ("engelsk", 390, "da")],
    ids=["gruppe2-desktop", "standard-phone", "dansk-desktop-english", "engelsk-phone"],
)
def test_whole_deals_at_the_table_in_a_real_browser(
    browser_server: tuple[str, Any], browser: Any, tmp_path: Path, ruleset: str, width: int, lang: str
) -> None:
    """The table issue: whole deals played in Debian's Chromium at desktop and phone widths, a screenshot of
    each phase, bids from the ladder grid, cards played by click and by keyboard, the trick and the last
    trick on the table, and the page's score sheet equal to the session's totals."""
    url, games = browser_server
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.evaluate("localStorage.setItem('regelmotor-pause', '0')")  # no pause after tricks (it has its own test)
    if lang == "en":
        page.select_option("#lang", "en")
    page.wait_for_selector(f"#ruleset option[value={ruleset}]", state="attached")
    page.select_option("#ruleset", ruleset)
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    page.click("#s-rules")  # the rule book a click away, in the page's own frame
    book = page.frame_locator("#rulebook")
    book.locator("h1").wait_for()
    named = load_ruleset(ruleset).ruleset  # the club's name, in English where the ruleset gives one
    assert book.locator("h1").inner_text() == ((named.title_en if lang == "en" else None) or named.title)
    assert book.locator(".subtitle").inner_text().startswith("Rules of" if lang == "en" else "Regler for")
    shots: dict[str, Path] = {}
    bid = keyboard = False
    for deal in range(2):
        for _ in range(250):
            if page.is_visible("#next"):
                break
            version = page.get_attribute("body", "data-version")
            phase = page.evaluate("game.view.phase")
            if phase not in shots:
                shots[phase] = tmp_path / f"{ruleset}-{width}-{phase}.png"
                page.screenshot(path=str(shots[phase]), full_page=True)
            grid_bid = page.locator("#bidgrid button.action:not([disabled])")
            # every bid the person may not make is greyed out and says why on hover
            assert page.locator("#bidgrid button[disabled]:not([title])").count() == 0
            if not bid and grid_bid.count():
                grid_bid.first.click()  # the person bids from the ladder grid
                bid = True
            elif page.locator("#hand button.pick").count() and not page.locator("#actions [data-action=keep]").count():
                _pick_and_confirm(page)  # waits for the server's answer itself
                continue
            elif not keyboard and page.locator("#hand button.action").count():
                card = page.locator("#hand button.action").first
                assert card.get_attribute("aria-label")  # a card says what it is to a screen reader
                card.focus()
                page.keyboard.press("Enter")  # played from the keyboard
                keyboard = True
            else:
                page.locator("button.action:not([disabled])").first.click()
            page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
        assert page.is_visible("#next"), "the deal did not end"
        web = games.get(page.evaluate("game.id"))
        totals = [
            cell.inner_text()
            for cell in page.locator("#sheet tr").nth(-1 if ruleset != "engelsk" else -2).locator("th").all()[1:]
        ]
        assert [float(x) for x in totals] == [float(x) for x in web.session.totals], "the sheet's totals"
        assert page.locator("#sheet tr").count() >= deal + 3  # a header, each deal, the totals
        if page.evaluate("game.view.tricks.length"):
            shown = {"da": "Vis sidste stik", "en": "Show the last trick"}[lang]
            assert page.inner_text("#last-toggle") == shown  # in the page's language from the start
            page.click("#last-toggle")
            assert page.locator("#last .card.won").count() == 1  # the last trick, its winner marked
            page.click("#last-toggle")
        if deal == 0:
            version = page.get_attribute("body", "data-version")
            page.click("#next")
            page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
    page.screenshot(path=str(tmp_path / f"{ruleset}-{width}-end.png"), full_page=True)
    assert "play" in shots and all(path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for path in shots.values())
    assert errors == []
    assert keyboard and (bid or ruleset == "engelsk")


@needs_chromium
def test_a_reload_comes_back_to_the_same_game(browser_server: tuple[str, Any], browser: Any) -> None:
    """The server issue: "a restart or a page reload loses the game". The game's id is in the address,
    so a reload (or the address opened again) shows the same deal where it stood."""
    url, _ = browser_server
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url)
    page.wait_for_selector("#ruleset option[value=standard]", state="attached")
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    version = page.get_attribute("body", "data-version")
    page.locator("button.action:not([disabled])").first.click()
    page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
    before = page.evaluate("[game.id, JSON.stringify(game.view)]")
    assert page.url.endswith("#" + before[0])
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    assert page.evaluate("[game.id, JSON.stringify(game.view)]") == before
    page.goto(url + "#ukendtspil123")  # a game the server does not have (gone idle): the start page
    page.reload()
    page.wait_for_selector("#ruleset option[value=standard]", state="attached")
    assert page.is_hidden("#game") and not page.url.endswith("#ukendtspil123")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_person_can_play_against_expert_bots(ruleset: str) -> None:
    """The expert issue: "the browser lets the person choose the bots' level"."""
    client = TestClient(create_app())
    state, _ = play_through(client, {"ruleset": ruleset, "seed": 3, "bots": "expert"})
    web = client.app.state.games.games[state["id"]]  # type: ignore[attr-defined]
    assert web.bot == "expert" and all(type(b).__name__ == "ExpertBot" for b in web.bots.values())
    assert state["view"]["to_act"] is None
    refused = client.post("/api/games", json={"ruleset": ruleset, "bots": "grandmaster"})
    assert refused.status_code == 400 and 'no bot is called "grandmaster"' in refused.json()["error_en"]


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
    from regelmotor.ruleset.catalogue import shipped_house_rules, shipped_rulesets

    opened: list[str] = []
    original = load.read_file

    def spy(ref: load.FileRef) -> Any:
        opened.append(str(ref.path))
        return original(ref)

    monkeypatch.setattr(load, "read_file", spy)
    monkeypatch.setattr("regelmotor.web.upload.ISOLATED", False)  # the loader in this process, to be watched
    response = TestClient(create_app()).post("/api/games", json=body)
    assert response.status_code == 400
    assert "the server opens none of your own files" in json.dumps(response.json(), ensure_ascii=False)
    shipped = {str(ref.path) for ref in [*shipped_rulesets().values(), *shipped_house_rules().values()]}
    uploaded = [path for path in opened if path not in shipped]
    assert all(path.endswith("/x.yaml") for path in uploaded), f"read a file the client named: {uploaded}"
    assert len(uploaded) == ("ruleset_file" in body)  # the upload itself, and nothing else


def test_the_analysis_of_a_finished_deal_is_offered_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue "Double-dummy analysis": "play and serve offer the analysis after each deal ("Vis analyse")"."""
    from regelmotor.web import app as web_app

    monkeypatch.setattr(web_app, "WEB_NODES", 200_000)
    monkeypatch.setattr(web_app, "WEB_SECONDS", 5.0)
    client = TestClient(create_app())
    state = client.post("/api/games", json={"ruleset": "standard", "seed": 4}).json()
    early = client.get(f"/api/games/{state['id']}/analysis")
    assert early.status_code == 400 and "færdigt" in early.json()["error"]
    for seed in range(4, 20):
        state, _ = play_through(client, {"ruleset": "standard", "seed": seed})
        if state["view"]["tricks"]:
            break
    response = client.get(f"/api/games/{state['id']}/analysis")
    assert response.status_code == 200
    data = response.json()
    assert data["text"].startswith("Analyse med åbne kort") and data["text_en"].startswith("Double-dummy analysis")
    assert len(data["cards"]) == 4 * len(state["view"]["tricks"])
    assert all(c["cost"] is None or c["cost"] >= 0 for c in data["cards"])
    assert client.get(f"/api/games/{state['id']}/analysis").json() == data  # searched once


def _start(page: Any, url: str, seed: int, pause: int = 0) -> None:
    page.goto(url)
    page.evaluate(f"localStorage.setItem('regelmotor-pause', '{pause}')")
    page.wait_for_selector("#start:not([disabled])")  # enabled once the ruleset list has loaded
    page.select_option("#ruleset", "standard")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")


def _table_page(browser: Any, url: str, seed: int, pause: int = 0) -> Any:
    """A desktop page at the card table, a game of ``seed`` started (with ``pause`` ms on a finished trick)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    _start(page, url, seed, pause)
    return page


def _move(page: Any) -> None:
    """One move of the person's, as a person makes it: the next deal when one is over, else the first
    action offered (a misdeal only where nothing else is), then wait for the page to show the answer."""
    page.wait_for_function("() => document.body.dataset.held !== 'true'")
    version = page.get_attribute("body", "data-version")
    if page.is_visible("#next"):
        page.click("#next")
    else:
        page.locator("button.action:not([disabled]):not([data-action^=misdeal])").first.click()
    page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")


@needs_chromium
@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844), (1280, 800)])
def test_the_table_fits_the_screen_keeps_pass_in_view_and_ends_with_a_result_line(
    browser_server: tuple[str, Any], browser: Any, tmp_path: Path, width: int, height: int
) -> None:
    """The table issue: "pas" was at y 1035 of an 800 px screen and the page 413 px wide on a phone; a
    misdeal ended the deal with one click; a deal ended without a result line."""
    url, _ = browser_server
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    assert page.locator("#start").get_attribute("disabled") is not None or page.locator("#ruleset option").count()
    # issue 48 item 10: "Es-makker whist (standard) (standard)"; "Frø (valgfrit)"; the browser's "Choose File"
    page.wait_for_selector("#start:not([disabled])")
    assert page.locator("#ruleset option[value=standard]").inner_text() == "Es-makker whist (standard)"
    assert page.inner_text("label:has(#seed)").startswith("Spil nr. (valgfrit)")
    assert page.inner_text("#l-choosefile") == "Vælg fil" and page.inner_text("#upload-name") == "Ingen fil valgt"
    _start(page, url, 1)  # seat 0 is forhånd in the first deal: the person calls first
    page.locator("#actions button.pass").wait_for()
    page.screenshot(path=str(tmp_path / f"auction-{width}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "wider than the screen"
    box = page.locator("#actions button.pass").bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, f"pas is below the screen at y {box}"
    # issue 48: "At 360×740 "pas" ends at y 739 of 740 and the level buttons 7-13 start at 739: bidding needs a
    # scroll. At 1280×800 the sol row is cut at the fold." The whole bidding box, "pas" and the hand in view.
    bids, hand = page.locator("#bidgrid").bounding_box(), page.locator("#hand").bounding_box()
    assert bids is not None and bids["y"] + bids["height"] <= height, f"the bidding box ends below the screen: {bids}"
    assert hand is not None and hand["y"] >= 0, f"the hand is above the screen: {hand}"
    # ""fejlgivning" sits beside "pas" in a game against bots": the computer dealt, there is none to claim
    assert page.locator("#actions button[data-action^=misdeal]").count() == 0
    small = page.evaluate(
        "[...document.querySelectorAll('#actions button, #bidgrid button, #hand button.action')]"
        ".map(b => b.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length"
    )
    assert small == 0, "a touch target smaller than 44 px"
    for _ in range(200):
        if page.is_visible("#next"):
            break
        _move(page)
        if page.evaluate("game.view.phase") == "play":
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.is_visible("#next")
    status = page.inner_text("#status")
    assert re.search(r": (holdt|tabt), \d+ stik til melderens side|spillet er slut", status), status
    page.screenshot(path=str(tmp_path / f"end-{width}.png"), full_page=True)
    assert errors == []


@needs_chromium
def test_a_finished_trick_is_shown_with_its_winner_before_the_next_is_led(
    browser_server: tuple[str, Any], browser: Any
) -> None:
    """The table issue: "When a bot wins a trick it leads the next at once, so the finished trick is never seen"."""
    url, _ = browser_server
    page = _table_page(browser, url, 2, pause=700)
    held = False
    deals = 0
    for _ in range(400):
        if page.is_visible("#next"):
            deals += 1
            if deals == 4:
                break
        _move(page)
        if page.get_attribute("body", "data-held") == "true":
            assert page.locator("#center .card").count() == 4
            assert page.locator("#center .card.won").count() == 1
            assert "tager stikket" in page.inner_text("#status")
            page.wait_for_function("() => document.body.dataset.held === 'false'", timeout=5000)
            held = True  # held, then let go: the next trick goes on
            break
    assert held, "no finished trick was held on the table"


@needs_chromium
def test_the_calls_are_shown_at_the_seats(browser_server: tuple[str, Any], browser: Any) -> None:
    """The table issue: "calls are in a side panel, not at the seats"."""
    url, _ = browser_server
    page = _table_page(browser, url, 3)
    seen = False
    for _ in range(300):
        if page.evaluate("game.view.phase") == "auction" and page.evaluate("game.view.calls.length"):
            calls = page.evaluate("game.view.calls")
            seat, call = calls[-1]
            if call == "pass":
                assert "meldte pas" in page.inner_text(f"#seat-{page.evaluate(f'place({seat})')}")
                seen = True
                break
        _move(page)
    assert seen, "no call was shown at its seat"


@needs_chromium
def test_a_deal_is_entered_at_the_sheet_page_and_the_totals_follow(tmp_path: Path, browser: Any) -> None:
    """The table issue: "/sheet in the browser is small serif text, must be reloaded by hand, and deals
    cannot be entered there"."""
    from regelmotor.cli import main

    sheet = tmp_path / "aften.json"
    assert main(["session", "new", str(sheet), "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25"]) == 0
    with serving(create_app(sheet=sheet)) as port:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://127.0.0.1:{port}/sheet")
        page.wait_for_selector("#declarer option[value=Anna]", state="attached")
        page.select_option("#contract", "8")
        page.select_option("#declarer", "Anna")
        page.select_option("#partner", "Carl")
        page.fill("#tricks", "10")
        page.click("#add")
        page.wait_for_function("() => document.body.dataset.deals === '1'")
        assert "Anna 8 m. Carl: 10 stik" in page.inner_text("#sheet")
        page.fill("#tricks", "14")
        page.click("#add")
        page.wait_for_function("() => document.getElementById('error').textContent !== ''")
        assert page.evaluate("document.body.dataset.deals") == "1"
        assert main(["session", "add", str(sheet), "--contract", "sol", "--declarer", "Bo", "--tricks", "0"]) == 0
        page.wait_for_function("() => document.body.dataset.deals === '2'", timeout=15000)  # live, no reload
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []


def test_the_table_says_the_evening_is_over_after_its_deals_and_deals_no_more() -> None:
    """A club's evening of a fixed number of deals (``session.deals``, "En aften er 1 spil"): after the last
    deal the page is told the evening is over, and "Næste spil" is refused, changing nothing."""
    client = TestClient(create_app())
    club = (
        "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\n"
        "session:\n  whole_rounds: false\n  deals: 1\n  source: 'klubbens regler: \"En aften er 1 spil\"'\n"
    )
    state = client.post("/api/games", json={"ruleset_file": club, "filename": "club.yaml", "seed": 3}).json()
    key = state["id"]
    for _ in range(20):  # a void deal dealt again is not one of the evening's deals
        while state["view"]["to_act"] == state["you"]:
            action = state["view"]["legal_actions"][0]
            state = client.post(f"/api/games/{key}/actions", json={"action": action}).json()
        if state["finished"]:
            break
        assert not state["evening_over"]
        state = client.post(f"/api/games/{key}/next", json={"deal": state["deal"]}).json()
    assert state["finished"] and state["evening_over"]
    void = [deal for deal in state["sheet"] if deal["redeal"] is not None]
    assert void, "seed 3 begins with a deal all pass"  # the sheet says why in words, not the code
    assert void[0]["redeal_words"] == {"da": "alle meldte pas", "en": "all passed"}
    refused = client.post(f"/api/games/{key}/next", json={"deal": state["deal"]})
    assert refused.status_code == 400 and refused.json()["error"].startswith("aftenen er 1 spil, og de er spillet")
    assert client.get(f"/api/games/{key}").json() == state
