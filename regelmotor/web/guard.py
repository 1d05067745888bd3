"""What the server takes from a client: a JSON body of bounded size read within a bounded time, each field
checked, and on every response the security headers (a CSP that allows only the page's own scripts); the
``Host`` checked and a state-changing request only as JSON from the same origin."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from regelmotor.errors import RegelmotorError
from regelmotor.names import PlayerNameError, check_names
from regelmotor.phrase_table import Word
from regelmotor.records import RecordError, parse_json

MAX_UPLOAD = 200_000
"""A new game's request, with a club's ruleset file in it."""


MAX_ACTION = 4_000
"""Every other request: an action is a few words."""


MAX_SEED = 2**63


BODY_SECONDS = 20.0
"""The largest body (a club's ruleset file) is a few hundred kilobytes: a slower client holds a worker."""


class BadRequest(RegelmotorError):
    """A request the server does not take, with its HTTP status; said from the phrase table (``err_web_*``),
    so that the member reads why in Danish first and the English stands beside it."""

    status = 400


def bad_request(status: int, phrase: str, **values: object) -> BadRequest:
    """``BadRequest`` with ``status``, saying ``err_web_<phrase>``."""
    error = BadRequest.said(f"web_{phrase}", **values)
    error.status = status
    return error


class _NotJson(RegelmotorError):
    """Why a body is not JSON, in the reader's language: the reader's own words where the JSON reader said
    them, else a Danish sentence beside its English detail (a nesting or number bound)."""

    def __init__(self, cause: RecordError) -> None:
        super().__init__(str(cause))
        self.cause = cause

    def text(self, lang: str = "da") -> str:
        if lang == "da" and self.cause.phrase is None:
            return "indholdet er ikke JSON, som serveren læser det"
        return self.cause.text(lang)


async def _read_body(request: Request, limit: int) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise bad_request(413, "too_large", limit=limit)
    return body


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read no further than ``limit`` bytes; ``BadRequest`` for anything else."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise bad_request(413, "too_large", limit=limit)
    try:
        body = await asyncio.wait_for(_read_body(request, limit), BODY_SECONDS)
    except TimeoutError:
        raise bad_request(408, "too_slow", seconds=f"{BODY_SECONDS:.0f}") from None
    if not body:
        return {}
    try:
        payload = parse_json(body, Word("request"))  # "anmodningen" in Danish
    except RecordError as exc:
        raise bad_request(400, "not_json", problem=_NotJson(exc)) from None
    if not isinstance(payload, dict):
        raise bad_request(400, "not_object", kind=type(payload).__name__)
    return payload


def text_field(payload: dict[str, Any], key: str, default: str | None = None, *, limit: int = 200) -> str | None:
    value = payload.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise bad_request(400, "text_field", key=key, limit=limit)
    return value


def new_game_request(payload: dict[str, Any]) -> tuple[list[str], str, int | None, str | None, str | None, str]:
    """The new-game request's fields, each checked: (house rules, bots, seed, upload, file name, ruleset)."""
    house = payload.get("house_rules", [])
    if not isinstance(house, list) or len(house) > 32 or not all(isinstance(h, str) and len(h) < 100 for h in house):
        raise bad_request(400, "house_rules")
    seed = payload.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED):
        raise bad_request(400, "seed", most=MAX_SEED - 1)
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
    if not isinstance(people, list) or len(people) != 4:
        raise bad_request(400, "people_shape")
    names: list[str | None] = []
    for entry in people:
        if entry is not None and not isinstance(entry, str):
            raise bad_request(400, "people_shape")
        names.append(entry if entry and entry.strip() else None)
    given = [n for n in names if n]
    if not given:
        raise bad_request(400, "no_person")
    try:  # the one check of a name, as the sheet and the command line check it
        kept = iter(check_names(given))
    except PlayerNameError as exc:
        raise bad_request(400, "name", error=exc) from None
    return [next(kept) if name else None for name in names]


def deal_number(payload: dict[str, Any]) -> int | None:
    number = payload.get("deal")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        raise bad_request(400, "deal_number")
    return number


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "testserver"})
"""The hosts a server bound to this machine answers to ("testserver" is Starlette's test client)."""


class Streams:
    """The pages following the server's events (a table's moves, a club's question), counted by client (a
    network) in the event loop: each holds a connection as long as its page is open, so no client may hold more
    than ``per_client`` and all of them no more than ``most`` (half the server's connections: the others are
    always answered). The bounds are read at each page's start (the server's settings, as they stand)."""

    def __init__(self, most: Callable[[], int], per_client: Callable[[], int]) -> None:
        self.most, self.per_client = most, per_client
        self.held: dict[str, int] = {}

    def full(self, client: str) -> bool:
        return sum(self.held.values()) >= self.most() or self.held.get(client, 0) >= self.per_client()

    def enter(self, client: str) -> None:
        self.held[client] = self.held.get(client, 0) + 1

    def leave(self, client: str) -> None:
        self.held[client] -= 1
        if not self.held[client]:
            del self.held[client]


def refuse(status: int, da: str, en: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """A refusal the page shows in the reader's language: Danish in ``error`` (what the page shows first),
    English in ``error_en``."""
    return JSONResponse({"error": da, "error_en": en}, status_code=status, headers=headers)


def refused(status: int, error: RegelmotorError, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """``refuse`` with a said error's two texts."""
    return refuse(status, error.text("da"), error.text("en"), headers)


def said(status: int, phrase: str, **values: object) -> JSONResponse:
    """``refuse`` saying ``err_web_<phrase>`` from the phrase table."""
    return refused(status, BadRequest.said(f"web_{phrase}", **values))


PORT = re.compile(r"[0-9]{1,5}")


def host_name(header: str) -> str | None:
    """The name a ``Host`` header names, lower case and without its port; None when the header is not a
    name with at most a port of digits after it (``127.0.0.1:evil.example`` names no host served here:
    a proxy or a cache may read it otherwise). An IPv6 address stands in brackets: ``[::1]:8000``."""
    header = header.strip().lower()
    if header.startswith("["):
        name, bracket, rest = header[1:].partition("]")
        if not bracket:
            return None
    elif header.count(":") > 1:  # an IPv6 address without brackets is no Host
        return None
    else:
        name, colon, port = header.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and PORT.fullmatch(rest[1:]) and int(rest[1:]) <= 65535):
        return None
    return name or None


def _script_hashes(page: str) -> str:
    """The CSP sources of the page's own inline scripts: those run, and nothing else does."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL)
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts)


def guard(
    allowed_hosts: frozenset[str] | None, page: str, writes: frozenset[str] | None = None
) -> Callable[[ASGIApp], ASGIApp]:
    """Security headers on every response; ``Host`` checked (unless any host is allowed); a state-changing
    request must be JSON from the same origin. ``page``: the served pages' text, whose inline scripts alone run.
    ``writes``: the methods besides GET and HEAD that some route takes (``None``: any may be, and every one is
    checked); any other method changes nothing here, so the app says it is not allowed (405) rather than that
    its missing body is not JSON (415)."""
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
            header = request.headers.get("host") or ""
            refusal = None
            if allowed_hosts is not None and host_name(header) not in allowed_hosts:
                refusal = said(400, "host", host=header[:100])
            elif request.method not in ("GET", "HEAD") and (writes is None or request.method in writes):
                origin = request.headers.get("origin")
                content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
                    refusal = said(403, "other_site")
                elif content_type != "application/json":
                    refusal = said(415, "send_json")

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), *headers]
                await send(message)

            if refusal is not None:
                await refusal(scope, receive, send_with_headers)
                return
            await app(scope, receive, send_with_headers)

        return guarded

    return wrap
