"""Four people at one table online (the table issue): a host opens a table and gets a secret link per
seat, bots take the empty seats, each page is sent only its own seat's cards, every move is pushed to
the others (server-sent events), and a reload, a lost connection or a restart of the server loses
nothing."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from regelmotor.web import app as app_module
from regelmotor.web import create_app
from regelmotor.web.tables import SEAT_LINK, WebGame

from .test_web import CHROMIUM, _pick_and_confirm, hidden_cards, needs_chromium, sent_cards, serving

PEOPLE = ["Åse", "Bent", "Carl", "Dorte"]


def open_table(client: TestClient, people: list[str | None], **body: Any) -> tuple[dict[str, Any], WebGame]:
    answer = client.post("/api/games", json={"ruleset": "standard", "seed": 5, "people": people, **body})
    assert answer.status_code == 200, answer.text
    links = answer.json()
    key = SEAT_LINK.fullmatch(next(s["link"] for s in links["seats"] if s["link"]))
    assert key is not None
    return links, client.app.state.games.games[key.group(1)]  # type: ignore[attr-defined]


def links_by_player(links: dict[str, Any]) -> dict[int, str]:
    return {seat["player"]: seat["link"] for seat in links["seats"] if seat["link"]}


def play_a_deal(client: TestClient, web: WebGame, links: dict[int, str]) -> dict[int, dict[str, Any]]:
    """Each person acts when it is their turn, with their own link; after every move, every person's page
    is checked for cards of the others' hands."""
    for _ in range(400):
        states = {player: client.get(f"/api/games/{link}").json() for player, link in links.items()}
        for player, state in states.items():
            you = state["you"]
            assert you == web.seat_of(player)
            assert not sent_cards(state) & hidden_cards(web, you), f"{PEOPLE[player]} was sent a hidden card"
        if web.game.step is None:
            return states
        turn = next(p for p, s in states.items() if s["view"]["to_act"] == s["you"])
        action = states[turn]["view"]["legal_actions"][0]
        answer = client.post(f"/api/games/{links[turn]}/actions", json={"action": action})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the deal did not end")


def test_a_host_gets_one_secret_link_per_person_and_none_for_a_bot() -> None:
    """ "a host opens a table on serve with a ruleset and a bot level and gets one link per seat (a secret
    per seat)"; the table's own key opens no seat, nor does a link with another seat's secret."""
    client = TestClient(create_app())
    links, web = open_table(client, ["Åse", "Bent", None, "Dorte"], bots="random")
    seats = links["seats"]
    assert [s["name"] for s in seats] == ["Åse", "Bent", "Bot 2", "Dorte"]
    assert [s["person"] for s in seats] == [True, True, False, True] and seats[2]["link"] is None
    assert len({s["link"] for s in seats if s["link"]}) == 3
    assert client.get(f"/api/games/{web.key}").status_code == 404  # the bare key shows no one's hand
    forged = f"{web.key}1{web.seat_secrets[0]}"  # Åse's secret on Bent's seat
    refused = client.get(f"/api/games/{forged}")
    assert refused.status_code == 404 and refused.json()["error"].startswith("intet sådant spil")
    for player, link in links_by_player(links).items():
        state = client.get(f"/api/games/{link}").json()
        assert state["table"] and state["you"] == web.seat_of(player)
        assert state["seats"][state["you"]]["name"] == seats[player]["name"]
        assert state["seats"][web.seat_of(2)]["person"] is False


def test_four_people_play_whole_deals_and_each_page_is_sent_only_its_own_hand() -> None:
    """ "each person sees only their own hand (the hidden-card test extended to four browsers)": four people,
    no bot, two whole deals; "Næste spil" pressed by two people at once starts one deal."""
    client = TestClient(create_app())
    links, web = open_table(client, PEOPLE)
    assert web.bots == {}
    by_player = links_by_player(links)
    for deal in (1, 2):
        states = play_a_deal(client, web, by_player)
        assert all(s["deal"] == deal and s["view"]["to_act"] is None for s in states.values())
        assert all(len(s["sheet"]) == deal for s in states.values())  # the evening's sheet, kept for the table
        assert [row["number"] for row in states[3]["sheet"]] == list(range(1, deal + 1))
        for player in (1, 2):  # two press at once: the second finds the deal already begun
            answer = client.post(f"/api/games/{by_player[player]}/next", json={"deal": deal})
            assert answer.status_code == 200 and answer.json()["deal"] == deal + 1
    assert len(web.played) == 2


def test_empty_seats_are_played_by_bots_and_a_person_acts_only_for_their_own_seat() -> None:
    """ "empty seats are played by bots": with two people, the bots move until a person's turn; a person's
    move for another seat is refused by the rules and changes nothing."""
    client = TestClient(create_app())
    links, web = open_table(client, [None, "Bent", None, "Dorte"], bots="heuristic")
    by_player = links_by_player(links)
    assert sorted(web.bots) == sorted(web.seat_of(p) for p in (0, 2))
    assert web.session.players[web.seating[web.game.to_act]] in ("Bent", "Dorte")
    waiting = next(p for p in by_player if web.seat_of(p) != web.game.to_act)
    before = (len(web.game.history), web.version)
    state = client.get(f"/api/games/{by_player[waiting]}").json()
    other = client.get(f"/api/games/{by_player[({1, 3} - {waiting}).pop()]}").json()
    refused = client.post(
        f"/api/games/{by_player[waiting]}/actions", json={"action": other["view"]["legal_actions"][0]}
    )
    assert refused.status_code == 400 and refused.json()["rule"]
    assert len(web.game.history) == before[0] and state["view"]["to_act"] != state["you"]
    states = play_a_deal(client, web, by_player)
    assert all(s["view"]["to_act"] is None for s in states.values())


@pytest.mark.parametrize(
    ("people", "words"),
    [
        ([None, None, None, None], "mindst én person"),
        (["Åse", "åse", None, None], "ligner"),
        (["Bot 2", None, None, None], "computerspillers navn"),
        (["x" * 25, None, None, None], "højst 24 tegn"),
        (["Åse", None, None], "fire pladser"),
        (["Åse", 7, None, None], "fire pladser"),
        ("Åse", "fire pladser"),
    ],
)
def test_a_table_request_that_names_no_person_or_the_same_twice_is_refused(people: Any, words: str) -> None:
    client = TestClient(create_app())
    answer = client.post("/api/games", json={"ruleset": "standard", "people": people})
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert client.app.state.games.games == {}  # type: ignore[attr-defined]


def test_a_restart_of_the_server_keeps_the_table_and_every_seat_link(tmp_path: Path) -> None:
    """ "reconnecting after a reload or a lost connection": the table is in the store, so even a restart of
    the server finds every seat's link again, at the same point of the deal, its secrets still checked."""
    client = TestClient(create_app(store=tmp_path))
    links, web = open_table(client, ["Åse", None, "Carl", None], bots="random")
    by_player = links_by_player(links)
    turn = next(p for p in by_player if web.seat_of(p) == web.game.to_act)
    action = client.get(f"/api/games/{by_player[turn]}").json()["view"]["legal_actions"][0]
    client.post(f"/api/games/{by_player[turn]}/actions", json={"action": action})
    before = {p: client.get(f"/api/games/{link}").json()["view"] for p, link in by_player.items()}
    restarted = TestClient(create_app(store=tmp_path))
    after = {p: restarted.get(f"/api/games/{link}").json()["view"] for p, link in by_player.items()}
    assert after == before
    assert restarted.get(f"/api/games/{web.key}").status_code == 404
    assert restarted.get(f"/api/games/{web.key}2{web.seat_secrets[0]}").status_code == 404


@pytest.fixture(scope="module")
def table_server() -> Iterator[tuple[str, int, Any]]:
    app = create_app()
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}/", port, app.state.games


def _post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    connection.close()
    assert isinstance(answer, dict)
    return answer


def _events(port: int, link: str) -> tuple[http.client.HTTPConnection, Iterator[dict[str, Any]]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", f"/api/games/{link}/events")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("content-type", "").startswith("text/event-stream")

    def states() -> Iterator[dict[str, Any]]:
        while True:
            line = response.readline().decode()
            if line.startswith("data: "):
                yield json.loads(line[6:])

    return connection, states()


def test_a_move_is_pushed_to_the_other_peoples_pages(table_server: tuple[str, int, Any]) -> None:
    """ "updates pushed (server-sent events or WebSocket), not polled": a page following the table is sent
    the state at once, then after each move by another person, without asking; it is told who is at the
    table."""
    _, port, games = table_server
    links = _post(port, "/api/games", {"ruleset": "standard", "seed": 8, "people": [*PEOPLE[:2], None, None]})
    by_player = links_by_player(links)
    web = games.games[SEAT_LINK.fullmatch(by_player[0]).group(1)]  # type: ignore[union-attr]
    watching = next(p for p in by_player if web.seat_of(p) != web.game.to_act)
    mover = 1 - watching
    connection, pushed = _events(port, by_player[watching])
    try:
        first = next(pushed)
        assert first["you"] == web.seat_of(watching) and first["seats"][first["you"]]["here"]
        moved = len(first["view"]["history"])
        mover_state = json.loads(_get(port, f"/api/games/{by_player[mover]}"))
        assert mover_state["seats"][web.seat_of(watching)]["here"]  # the mover sees the other has come
        _post(port, f"/api/games/{by_player[mover]}/actions", {"action": mover_state["view"]["legal_actions"][0]})
        later = next(s for s in pushed if len(s["view"]["history"]) > moved)
        assert later["version"] > first["version"] and not sent_cards(later) & hidden_cards(web, later["you"])
    finally:
        connection.close()
    for _ in range(100):  # the page has gone: the others are told
        if not json.loads(_get(port, f"/api/games/{by_player[mover]}"))["seats"][web.seat_of(watching)]["here"]:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the page that left is still shown at the table")


def test_the_pages_following_tables_from_one_address_are_bounded(
    table_server: tuple[str, int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page following a table holds a connection: one address may hold only so many (a 503 in Danish
    beyond), and a page that leaves gives its place back."""
    monkeypatch.setattr(app_module, "STREAMS_PER_CLIENT", 2)
    _, port, _ = table_server
    links = links_by_player(_post(port, "/api/games", {"ruleset": "standard", "people": PEOPLE}))
    held = [_events(port, links[p]) for p in (0, 1)]
    for _, pushed in held:
        next(pushed)  # each is counted once its stream has begun
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", f"/api/games/{links[2]}/events")
    refused = connection.getresponse()
    assert refused.status == 503 and "for mange sider" in json.loads(refused.read())["error"]
    connection.close()
    held[0][0].close()
    for _ in range(100):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", f"/api/games/{links[2]}/events")
        answer = connection.getresponse()
        connection.close()
        if answer.status == 200:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the place of the page that left was not given back")
    held[1][0].close()


def _get(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    text = connection.getresponse().read().decode()
    connection.close()
    return text


class Line:
    """A connection to the server that a test can cut, as a lost Wi-Fi line cuts it: a TCP relay whose
    open connections are closed by ``cut`` and which refuses new ones until ``restore``."""

    def __init__(self, target: int) -> None:
        self.target, self.up = target, True
        self.sockets: list[socket.socket] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        self.sockets = []

    def restore(self) -> None:
        self.up = True


@needs_chromium
def test_four_people_at_one_table_in_four_browsers(table_server: tuple[str, int, Any], tmp_path: Path) -> None:
    """ "Playwright drives four browser contexts through whole deals ... each browser seeing only its own
    hand": the host opens the table on the page, four browsers take their seats by their links and play a
    whole deal and the start of the next; one page is reloaded and one loses its connection on the way."""
    playwright = pytest.importorskip("playwright.sync_api")
    url, _, games = table_server
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        contexts = [browser.new_context(viewport={"width": 390 if i == 1 else 1280, "height": 844}) for i in range(4)]
        pages = [context.new_page() for context in contexts]
        errors: list[str] = []
        for page in pages:
            page.on("pageerror", lambda e: errors.append(str(e)))
        host = pages[0]
        host.goto(url)
        host.wait_for_selector("#open-table:not([disabled])")
        host.fill("#seed", "3")
        for i, name in enumerate(PEOPLE):
            host.fill(f"#person-{i}", name)
        host.click("#open-table")
        host.wait_for_selector("#links:not([hidden])")
        host.screenshot(path=str(tmp_path / "links.png"))
        seat_urls = [host.locator(f"#link-list a[data-player='{i}']").get_attribute("href") for i in range(4)]
        assert all(seat_urls)
        web = games.games[SEAT_LINK.fullmatch(seat_urls[0].rsplit("#", 1)[1]).group(1)]  # type: ignore[union-attr]
        line = Line(int(url.rsplit(":", 1)[1].strip("/")))  # the fourth person's connection, to be cut
        seat_urls[3] = str(seat_urls[3]).replace(url, f"http://127.0.0.1:{line.port}/")
        for page, seat_url in zip(pages, seat_urls, strict=True):
            page.context.add_init_script("localStorage.setItem('regelmotor-pause', '0')")
            page.goto(str(seat_url))
            page.wait_for_selector("#game:not([hidden])")

        cut = offline = False  # the fourth person's connection is lost for a few moves

        def settled() -> None:  # every page (on line) shows the table as it stands
            for page in pages:
                if not (offline and page is pages[3]):
                    page.wait_for_function(f"() => game && game.version >= {web.version}", timeout=10_000)

        def check_hands() -> None:
            for player, page in enumerate(pages):
                you = web.seat_of(player)
                assert not sent_cards(page.evaluate("game")) & hidden_cards(web, you)
                shown = page.locator("#hand .card").evaluate_all("els => els.map(e => e.title)")
                assert len(shown) == len(web.game.hands[you]) or not shown

        for moves in range(200):
            settled()
            if moves % 3 == 0 or web.game.step is None:  # every page's hand, every third move and at the end
                check_hands()
            if web.game.step is None:
                break
            player = web.seating[web.game.to_act]
            page = pages[player]
            if moves == 0:  # at a table of people a misdeal may be claimed, and a first press only asks
                misdeal = page.locator("#actions button[data-action^=misdeal]")
                assert misdeal.count() == 1
                misdeal.click()
                assert misdeal.inner_text() == "Bekræft: fejlgivning" and page.evaluate("game.view.phase") == "auction"
            if moves == 0:  # a move the rules refuse: said why, and the person's choices are open again
                page.evaluate("act('accept')")
                page.wait_for_function("() => document.getElementById('error').textContent !== ''")
                page.wait_for_function("() => document.querySelectorAll('button.action:not([disabled])').length > 0")
            if moves == 6:
                page.reload()  # a reload comes back to the same seat
                page.wait_for_selector("#game:not([hidden])")
            if moves >= 10 and not cut and player != 3:
                cut = offline = True
                line.cut()
                pages[3].wait_for_function("() => document.getElementById('error').textContent !== ''")
            elif offline and (player == 3 or moves >= 16):
                offline = False
                line.restore()  # back: the moves missed meanwhile arrive
                settled()
            version = page.get_attribute("body", "data-version")
            if page.locator("#hand button.pick").count() and not page.locator("#actions [data-action=keep]").count():
                _pick_and_confirm(page)
            else:
                bid = page.locator("#bidgrid button.action:not([disabled])")
                opened = page.evaluate("game.view.calls.some(([, call]) => call !== 'pass')")
                other = page.locator("button.action:not([disabled]):not([data-action^=misdeal])")
                (bid.first if bid.count() and not opened else other.first).click()
                page.wait_for_function(f"() => document.body.dataset.version !== '{version}'")
        line.restore()
        offline = False
        settled()
        assert pages[3].locator("#error").inner_text() == ""  # reconnected, the lost-connection note gone
        assert web.game.step is None and web.game.tricks, "the deal was not played to its end"
        for page in pages:
            assert page.is_visible("#next") and "Åse" in page.locator("#sheet").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        pages[1].screenshot(path=str(tmp_path / "table-phone-end.png"), full_page=True)
        pages[2].click("#next")
        for page in pages:  # the next deal reaches every browser without a reload
            page.wait_for_function("() => game.deal === 2")
        assert errors == []
        browser.close()
