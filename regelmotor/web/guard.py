"""What the server takes from a client: a JSON body of bounded size read within a bounded time, each field
checked, and on every response the security headers (a CSP that allows only the page's own scripts); the
``Host`` checked and a state-changing request only as JSON from the same origin."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from regelmotor.records import RecordError, parse_json

MAX_UPLOAD = 200_000
"""A new game's request, with a club's ruleset file in it."""


MAX_ACTION = 4_000
"""Every other request: an action is a few words."""


MAX_SEED = 2**63


MAX_NAME = 24
"""A person's name at a table, as the seats and the score sheet show it."""


BODY_SECONDS = 20.0
"""The largest body (a club's ruleset file) is a few hundred kilobytes: a slower client holds a worker."""


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


async def _read_body(request: Request, limit: int) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(413, f"the request is larger than {limit} bytes")
    return body


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read no further than ``limit`` bytes; ``BadRequest`` for anything else."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, f"the request is larger than {limit} bytes")
    try:
        body = await asyncio.wait_for(_read_body(request, limit), BODY_SECONDS)
    except TimeoutError:
        raise BadRequest(408, f"the request's body took longer than {BODY_SECONDS:.0f} s") from None
    if not body:
        return {}
    try:
        payload = parse_json(body, "the request")
    except RecordError as exc:
        raise BadRequest(400, f"send a JSON object: {exc}") from None
    if not isinstance(payload, dict):
        raise BadRequest(400, "send a JSON object ({...}), not " + type(payload).__name__)
    return payload


def text_field(payload: dict[str, Any], key: str, default: str | None = None, *, limit: int = 200) -> str | None:
    value = payload.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadRequest(400, f'"{key}" is text of at most {limit} characters')
    return value


def new_game_request(payload: dict[str, Any]) -> tuple[list[str], str, int | None, str | None, str | None, str]:
    """The new-game request's fields, each checked: (house rules, bots, seed, upload, file name, ruleset)."""
    house = payload.get("house_rules", [])
    if not isinstance(house, list) or len(house) > 32 or not all(isinstance(h, str) and len(h) < 100 for h in house):
        raise BadRequest(400, '"house_rules" is a list of at most 32 shipped house-rule names')
    seed = payload.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED):
        raise BadRequest(400, f'"seed" is a whole number from 0 to {MAX_SEED - 1}')
    bot = text_field(payload, "bots", "heuristic") or "heuristic"
    upload = text_field(payload, "ruleset_file", limit=MAX_UPLOAD)
    filename = text_field(payload, "filename")
    ruleset = text_field(payload, "ruleset", "standard") or "standard"
    return house, bot, seed, upload, filename, ruleset


def people_field(payload: dict[str, Any]) -> list[str | None] | None:
    """A table's ``people``: four entries, a person's name or null for a bot; at least one person, each name
    once. None when the request opens a game of one person against three bots."""
    people = payload.get("people")
    if people is None:
        return None
    shape = '"people" er fire pladser, hver et navn eller null (en computerspiller)'
    if not isinstance(people, list) or len(people) != 4:
        raise BadRequest(400, shape)
    names: list[str | None] = []
    for entry in people:
        if entry is not None and not isinstance(entry, str):
            raise BadRequest(400, shape)
        name = " ".join(entry.split()) if entry else ""
        if len(name) > MAX_NAME or not name.isprintable():
            raise BadRequest(400, f"et navn er højst {MAX_NAME} tegn")
        names.append(name or None)
    given = [n for n in names if n]
    if not given:
        raise BadRequest(400, "et bord har mindst én person (skriv et navn ved en plads)")
    if len({n.casefold() for n in given}) < len(given) or any(n.casefold().startswith("bot ") for n in given):
        raise BadRequest(400, 'hver person har sit eget navn (og ingen hedder "Bot ...")')
    return names


def deal_number(payload: dict[str, Any]) -> int | None:
    number = payload.get("deal")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        raise BadRequest(400, '"deal" er nummeret på det spil, siden har spillet færdigt')
    return number


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "testserver"})
"""The hosts a server bound to this machine answers to ("testserver" is Starlette's test client)."""


def refuse(status: int, da: str, en: str) -> JSONResponse:
    """A refusal the page shows in the reader's language."""
    return JSONResponse({"error": da, "error_en": en}, status_code=status)


def _script_hashes(page: str) -> str:
    """The CSP sources of the page's own inline scripts: those run, and nothing else does."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL)
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts)


def guard(allowed_hosts: frozenset[str] | None, page: str) -> Callable[[ASGIApp], ASGIApp]:
    """Security headers on every response; ``Host`` checked (unless any host is allowed); a state-changing
    request must be JSON from the same origin. ``page``: the served pages' text, whose inline scripts alone run."""
    csp = (
        f"default-src 'self'; script-src {_script_hashes(page)}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
    )
    headers = [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"SAMEORIGIN"),  # the page shows its own rule book in a frame; no other site may
        (b"referrer-policy", b"no-referrer"),
        (b"cache-control", b"no-store"),
    ]

    def wrap(app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request = Request(scope)
            host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]").lower()
            refusal = None
            if allowed_hosts is not None and host not in allowed_hosts:
                refusal = (400, f'the host "{host}" is not served here')
            elif request.method not in ("GET", "HEAD"):
                origin = request.headers.get("origin")
                content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
                    refusal = (403, "requests from another site are refused")
                elif content_type != "application/json":
                    refusal = (415, "send JSON (Content-Type: application/json)")

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), *headers]
                await send(message)

            if refusal is not None:
                response = JSONResponse({"error": refusal[1]}, status_code=refusal[0])
                await response(scope, receive, send_with_headers)
                return
            await app(scope, receive, send_with_headers)

        return guarded

    return wrap
