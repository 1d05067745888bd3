"""The server is fair under load: strangers cannot evict a table in use, a network is one client, a burst of
uploads is refused at once beyond a bounded pool, the ``Host`` is read with its port, and every refusal is
Danish first with the English beside it and no path of the server.

The issue: "256 clients of one game each, from 256 addresses, evict another person's online table in a
second, and its stored file is deleted. An IPv6 client has millions of addresses"; "45 ruleset uploads at
once from one address hold the server's workers for up to 45 s: another table's plain state request waits
29 s"; "a ``Host`` header with a junk port (``127.0.0.1:evil.example``) is accepted"; "refusals that are not
what a member can read: English only (the server's 408 and 415 and "send a JSON object"); ``/sheet/print``
on a sheet being edited answers 500 with the server's absolute path".
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Message

from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.web import upload as web_upload
from regelmotor.web.app import create_app
from regelmotor.web.store import GameStore
from regelmotor.web.tables import IDLE_SECONDS, MAX_GAMES, Games, network_of

from .asgi_call import call

TABLE = {"seed": 3, "people": ["Anna", "Bo", None, None]}


def _client(app: ASGIApp, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def _open_table(app: ASGIApp, address: str) -> tuple[str, str]:
    """A table of two people opened from ``address``, and Anna's seat link, opened (she is playing)."""
    host = _client(app, address)
    seats = host.post("/api/games", json=TABLE).json()["seats"]
    link = seats[0]["link"]
    assert host.get(f"/api/games/{link}").status_code == 200
    return link[:16], link


# --- eviction: a table in use is the last to go, and a network is one client ------------------------


@pytest.mark.parametrize(
    "stranger",
    [lambda n: f"10.{n // 256}.{n % 256}.1", lambda n: f"2001:db8:{n:x}::1"],
    ids=["IPv4 networks", "IPv6 networks"],
)
def test_strangers_from_many_networks_never_evict_a_table_in_use(tmp_path: Path, stranger: Any) -> None:
    """A full server's worth of games, one from each of as many networks, evicts the games nobody is
    playing at (their own), never the table whose seat links people are using, nor its stored file."""
    games = Games(store=GameStore(tmp_path, IDLE_SECONDS))
    app = create_app(games=games)
    key, link = _open_table(app, "192.0.2.10")
    for n in range(MAX_GAMES + 10):
        assert _client(app, stranger(n)).post("/api/games", json={"seed": n}).status_code == 200
    assert key in games.games and (tmp_path / f"{key}.json").is_file()
    assert _client(app, "198.51.100.7").get(f"/api/games/{link}").status_code == 200
    assert len(games.games) == MAX_GAMES


def test_a_table_in_use_goes_only_when_no_other_game_is_left() -> None:
    """The rule is an order, not a shield: with every other game a table in use, the least recently used
    of the client with the most goes as before."""
    games = Games(limit=2)
    app = create_app(games=games)
    first, _ = _open_table(app, "10.0.1.1")
    second, _ = _open_table(app, "10.0.2.1")
    newest = _client(app, "10.0.3.1").post("/api/games", json={"seed": 1}).json()["id"]
    assert set(games.games) == {second, newest}
    assert first not in games.games


def test_a_table_whose_links_were_never_opened_goes_before_an_older_table_in_use() -> None:
    games = Games(limit=2)
    app = create_app(games=games)
    in_use, _ = _open_table(app, "10.0.1.1")
    never_opened = _client(app, "10.0.2.1").post("/api/games", json=TABLE).json()["seats"][0]["link"][:16]
    _client(app, "10.0.3.1").post("/api/games", json={"seed": 1})
    assert in_use in games.games and never_opened not in games.games


@pytest.mark.parametrize(
    "address",
    [lambda n: f"198.51.100.{n}", lambda n: f"2001:db8:1:2:{n:x}:{n:x}:{n:x}:1"],
    ids=["IPv4 /24", "IPv6 /64"],
)
def test_the_addresses_of_one_network_are_one_client(address: Any) -> None:
    """256 addresses of one network, a game from each, keep one client's share and evict their own: another
    person's game (not even a table) stays."""
    games = Games()
    app = create_app(games=games)
    other = _client(app, "192.0.2.10").post("/api/games", json={"seed": 1}).json()["id"]
    for n in range(1, 255):
        assert _client(app, address(n)).post("/api/games", json={"seed": n}).status_code == 200
    assert other in games.games
    assert len(games.games) == 1 + games.per_client


def test_a_client_is_counted_by_its_network() -> None:
    assert network_of("203.0.113.77") == network_of("203.0.113.2") == "203.0.113.0/24"
    assert network_of("::ffff:203.0.113.77") == "203.0.113.0/24"  # an IPv4 client on an IPv6 socket
    assert network_of("2001:db8:a:b:1:2:3:4") == network_of("2001:db8:a:b::9") == "2001:db8:a:b::/64"
    assert network_of("2001:db8:a:c::9") != network_of("2001:db8:a:b::9")
    assert network_of("testclient") == "testclient"


# --- uploads: a bounded pool, refused at once beyond it -------------------------------------------------


@pytest.mark.parametrize(
    ("addresses", "checked"),
    [(lambda n: "192.0.2.50", web_upload.UPLOADS_PER_CLIENT), (lambda n: f"10.{n}.0.1", None)],
    ids=["from one client", "from 45 networks"],
)
def test_a_burst_of_uploads_is_refused_at_once_beyond_the_pool_and_a_plain_request_is_not_kept_waiting(
    monkeypatch: pytest.MonkeyPatch, addresses: Any, checked: int | None
) -> None:
    """45 uploads at once: as many as the pool takes are checked (a check is held here until the test lets
    it go), every other one is told at once, in Danish, to try again (429); meanwhile another table's plain
    state request is answered, before any check has ended."""
    release = threading.Event()
    standard = load_ruleset("standard", [])

    def held_check(upload: str, name: str, house: list[str], seconds: float | None = None) -> ResolvedRuleset:
        release.wait(20)
        return standard

    monkeypatch.setattr("regelmotor.web.upload.load_upload", held_check)
    monkeypatch.setattr("regelmotor.web.app.load_upload", held_check)  # where the server called it before
    if checked is None:
        checked = web_upload.UPLOADS_AT_ONCE + web_upload.UPLOADS_WAITING
    app = create_app()
    upload = {"ruleset_file": "kind: ruleset\nextends: standard\n", "filename": "klub.yaml"}

    async def burst() -> tuple[list[Message], bool]:
        table = await call(app, "POST", "/api/games", "198.51.100.7", TABLE)
        link = table["json"]["seats"][0]["link"]
        uploads = [asyncio.create_task(call(app, "POST", "/api/games", addresses(n), upload)) for n in range(45)]
        await asyncio.sleep(0.2)  # every upload has been taken in
        try:
            state = await asyncio.wait_for(call(app, "GET", f"/api/games/{link}", "198.51.100.7"), 10)
            answered_while_checking = state["status"] == 200 and not release.is_set()
        except TimeoutError:  # it waited for a worker thread that every upload held
            answered_while_checking = False
        finally:
            release.set()
        return list(await asyncio.gather(*uploads)), answered_while_checking

    answers, answered_while_checking = asyncio.run(burst())
    assert answered_while_checking, "another table's state waited behind the uploads"
    refused = [a for a in answers if a["status"] == 429]
    assert len(refused) == 45 - checked and all(a["status"] == 200 for a in answers if a not in refused)
    for answer in refused:
        assert answer["json"]["error"].endswith("prøv igen om lidt") or "herfra" in answer["json"]["error"]
        assert "try again" in answer["json"]["error_en"] and answer["headers"][b"retry-after"] == b"5"


# --- the Host with its port ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:evil.example", "127.0.0.1:80:80", "localhost:99999", "127.0.0.1:", "[::1]evil", "::1", "[::1"],
)
def test_a_host_with_a_junk_port_is_refused(host: str) -> None:
    refused = TestClient(create_app()).get("/api/rulesets", headers={"Host": host})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("værtsnavnet") and "is not served here" in refused.json()["error_en"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "LOCALHOST:8000", "[::1]:8000", "[::1]"])
def test_a_served_host_with_or_without_a_port_is_served(host: str) -> None:
    assert TestClient(create_app()).get("/api/rulesets", headers={"Host": host}).status_code == 200


# --- every refusal Danish first, the English beside it, no path of the server ---------------------------


def test_every_refusal_is_danish_first_with_the_english_beside_it() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    game = client.post("/api/games", json={"seed": 1}).json()["id"]
    json_type = {"Content-Type": "application/json"}
    answers = {
        "415": client.post("/api/games", content=b"{}", headers={"Content-Type": "text/plain"}),
        "not an object": client.post("/api/games", content=b"[]", headers=json_type),
        "not JSON": client.post("/api/games", content=b"{not json", headers=json_type),
        "too deep": client.post("/api/games", content=b"[" * 5000 + b"]" * 5000, headers=json_type),
        "413": client.post("/api/games", content=b"{}", headers={**json_type, "Content-Length": "9999999"}),
        "unknown bot": client.post("/api/games", json={"bots": "grandmaster"}),
        "no ruleset": client.post("/api/games", json={"ruleset": "nope"}),
        "record": client.get(f"/api/games/{game}/record"),
        "analysis": client.get(f"/api/games/{game}/analysis"),
        "no sheet": client.get("/api/sheet"),
        "unknown address": client.get("/api/nope"),
        "method": client.delete("/api/rulesets"),
        "a seat count": client.post("/api/games", json={"people": ["Anna"]}),
    }
    for case, answer in answers.items():
        said = answer.json()
        assert 400 <= answer.status_code < 500, case
        assert said["error"] and said["error_en"] and said["error"] != said["error_en"], (case, said)
    assert answers["415"].json()["error"] == "indholdet skal være JSON (Content-Type: application/json)"
    assert answers["not JSON"].json()["error"].startswith("send et JSON-objekt: anmodningen:1:2: ikke JSON")
    assert answers["unknown bot"].json()["error"].startswith('ingen computerspiller hedder "grandmaster"')
    assert answers["unknown address"].json()["error"] == "her er intet (en ukendt adresse)"


def test_the_printed_sheet_of_a_sheet_being_edited_is_a_conflict_that_names_no_path(tmp_path: Path) -> None:
    """A sheet caught half written (or edited by hand) cannot be printed this moment: the member is told so,
    in Danish, with the file's name and never the folder it lies in on the server."""
    sheet = tmp_path / "aften.json"
    sheet.write_text('{"kind": "regelmotor score sheet", "players": [', encoding="utf-8")
    client = TestClient(create_app(sheet=sheet))
    for path in ("/sheet/print", "/api/sheet"):
        answer = client.get(path)
        assert 400 <= answer.status_code < 500, (path, answer.text)
        assert str(tmp_path) not in answer.text and "aften.json" in answer.json()["error"]
        assert answer.json()["error"] != answer.json()["error_en"]
    assert client.get("/sheet/print").json()["error"].startswith("regnskabet kan ikke læses lige nu")


def test_a_fault_of_the_server_is_said_without_its_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def broken(path: Path) -> None:
        raise OSError(f"[Errno 13] Permission denied: '{tmp_path}/aften.json'")

    monkeypatch.setattr("regelmotor.web.app.sheet_state", broken)
    client = TestClient(create_app(sheet=tmp_path / "aften.json"), raise_server_exceptions=False)
    answer = client.get("/api/sheet")
    assert answer.status_code == 500 and str(tmp_path) not in answer.text
    assert answer.json()["error"].startswith("serveren kunne ikke svare")
