"""The web server faces an untrusted network: bounded, same-origin, JSON only, no file a client names."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from regelmotor.web.app import create_app
from regelmotor.web.guard import MAX_ACTION, MAX_UPLOAD
from regelmotor.web.tables import Games


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/api/rulesets"), client.get("/api/games/nope")):
        headers = response.headers
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "SAMEORIGIN"
        csp = headers["content-security-policy"]
        # the page frames its own rule book; no other site may frame the page
        assert "frame-ancestors 'self'" in csp and "script-src 'sha256-" in csp and "unsafe-eval" not in csp


def test_a_post_from_another_site_is_refused_and_starts_no_game(client: TestClient) -> None:
    refused = client.post("/api/games", json={}, headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and "andet websted" in refused.json()["error"]
    assert "another site" in refused.json()["error_en"]
    assert client.app.state.games.games == {}  # type: ignore[attr-defined]


def test_a_post_that_is_not_json_is_refused(client: TestClient) -> None:
    """A cross-site form can send text/plain without a preflight: only JSON is taken."""
    refused = client.post("/api/games", content=b"{}", headers={"Content-Type": "text/plain"})
    assert refused.status_code == 415 and refused.json()["error"].startswith("indholdet skal være JSON")
    assert "application/json" in refused.json()["error_en"]


@pytest.mark.parametrize("method", ["DELETE", "PATCH", "OPTIONS"])
def test_a_method_no_route_takes_is_said_to_be_not_allowed(client: TestClient, method: str) -> None:
    """No route deletes a game: the answer is 405 naming the method, not 415 for a body it does not need."""
    refused = client.request(method, "/api/games")
    assert refused.status_code == 405 and method in refused.json()["error"]
    assert refused.headers["allow"] == "POST"  # what the address does take
    assert client.app.state.games.games == {}  # type: ignore[attr-defined]


def test_a_guard_that_is_not_told_the_routes_methods_checks_every_write() -> None:
    """Fail closed: without the list of methods the routes take, a DELETE or a PATCH is checked as a POST is."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from regelmotor.web.guard import guard

    async def anything(request: object) -> PlainTextResponse:
        return PlainTextResponse("done")

    app = guard(None, "")(Starlette(routes=[Route("/x", anything, methods=["GET", "DELETE", "PATCH"])]))
    with TestClient(app) as plain:
        for method in ("DELETE", "PATCH"):
            assert plain.request(method, "/x", content=b"{}", headers={"Content-Type": "text/plain"}).status_code == 415
        assert plain.request("DELETE", "/x", json={}).text == "done"


def test_an_unknown_host_is_refused(client: TestClient) -> None:
    """DNS rebinding: a page on another name that resolves here is not served."""
    refused = client.get("/api/rulesets", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and refused.json()["error"] == 'værtsnavnet "evil.example" betjenes ikke her'
    assert "evil.example" in refused.json()["error_en"]
    assert TestClient(create_app(None)).get("/api/rulesets", headers={"Host": "whist.club.dk"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[]", "send a JSON object"),
        (b"null", "send a JSON object"),
        (b'"x"', "send a JSON object"),
        (b"{not json", "not JSON"),
        (b'{"house_rules": 5}', '"house_rules" is a list'),
        (b'{"house_rules": [5]}', '"house_rules" is a list'),
        (b'{"seed": 99999999999999999999999}', '"seed" is a whole number'),
        (b'{"seed": -1}', '"seed" is a whole number'),
        (b'{"seed": true}', '"seed" is a whole number'),
        (b'{"bots": 5}', '"bots" is text'),
        (b'{"ruleset": ["standard"]}', '"ruleset" is text'),
        (b'{"ruleset": "../../etc/passwd"}', "no shipped ruleset"),
        (b'{"house_rules": ["/etc/passwd.yaml"]}', "come with regelmotor"),
        (b"[" * 5000 + b"]" * 5000, "nested more than"),
        (b'{"seed": 1' + b"0" * 5000 + b"}", "digits"),
    ],
)
def test_a_malformed_new_game_gets_a_4xx_with_a_message(client: TestClient, body: bytes, message: str) -> None:
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500 and message in response.json()["error_en"]
    assert response.json()["error"] != response.json()["error_en"]  # Danish first, the English beside it


def test_an_upload_may_extend_shipped_rulesets_only(client: TestClient) -> None:
    upload = "extends: /etc/hostname\nname: k\ntitle: K\ndescription: K\nsource: K\n"
    response = client.post("/api/games", json={"ruleset_file": upload, "filename": "k.yaml"})
    assert response.status_code == 400
    (problem,) = response.json()["problems"]
    assert (
        problem["path"] == "extends" and "følger med regelmotor" in problem["message"] and "/etc" not in problem["file"]
    )


def test_every_route_limits_the_size_of_a_request(client: TestClient) -> None:
    too_big = client.post("/api/games", json={"ruleset_file": "x" * (MAX_UPLOAD + 1)})
    assert too_big.status_code == 413
    game = client.post("/api/games", json={"seed": 1}).json()
    action = client.post(f"/api/games/{game['id']}/actions", json={"action": "p" * MAX_ACTION})
    assert action.status_code == 413
    bad = client.post(f"/api/games/{game['id']}/actions", content=b"[1]", headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and "JSON object" in bad.json()["error_en"]
    assert bad.json()["error"] == "send et JSON-objekt ({...}), ikke list"


def test_the_server_keeps_a_bounded_number_of_games_and_evicts_the_least_recently_used() -> None:
    games = Games(limit=3)
    client = TestClient(create_app(games=games))
    ids = [client.post("/api/games", json={"seed": n}).json()["id"] for n in range(3)]
    assert client.get(f"/api/games/{ids[0]}").status_code == 200  # the first is used again
    newest = client.post("/api/games", json={"seed": 9}).json()["id"]
    assert set(games.games) == {ids[0], ids[2], newest}  # the least recently used (ids[1]) went
    assert client.get(f"/api/games/{ids[1]}").status_code == 404


def test_idle_games_are_evicted() -> None:
    games = Games(limit=10, idle=0)
    client = TestClient(create_app(games=games))
    first = client.post("/api/games", json={"seed": 1}).json()["id"]
    second = client.post("/api/games", json={"seed": 2}).json()["id"]
    assert set(games.games) == {second} and first != second


def test_serve_offers_the_clubs_own_ruleset_first(tmp_path: Path) -> None:
    """The table issue: "serve [RULESET] [-H ...] to start on a club's file": the operator names the file when
    starting the server; the page offers it first as "klub", and a client names only that."""
    club = tmp_path / "klub.yaml"
    club.write_text("extends: standard\nname: vores\ntitle: Vores klub\ndescription: K\nsource: K\n", encoding="utf-8")
    client = TestClient(create_app(club=(str(club), ["jernhaand"])))
    offered = client.get("/api/rulesets").json()
    assert offered[0]["name"] == "klub" and offered[0]["default"] and "vores + jernhaand" in offered[0]["title"]
    state = client.post("/api/games", json={"ruleset": "klub", "seed": 1, "house_rules": ["gaa-med"]}).json()
    assert state["ruleset"] == "vores + jernhaand + gaa-med"
    refused = client.post("/api/games", json={"ruleset": "klub", "house_rules": [str(club)]})
    assert refused.status_code == 400
