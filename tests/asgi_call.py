"""One request handed to the app as uvicorn hands it over, from a client address of the caller's choice.

The server counts clients by the connection's own address (it trusts no header for it), so a test or a
load benchmark of many clients sets ``scope["client"]`` itself: no network is used, nothing leaves this
process. Shared by ``tests/test_server_fairness.py`` and ``benchmarks/server_load.py``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


async def call(app: Any, method: str, path: str, client: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer to one request from ``client``, on the loopback's ``Host``: its status, its JSON (or the
    first bytes of a body that is not JSON) and its headers."""
    data = json.dumps(body or {}).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")],
        "client": (client, 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent = False
    status, chunks, headers = 0, [], []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # the client stays until the answer
        sent = True
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    raw = b"".join(chunks)
    answer = json.loads(raw) if raw.startswith((b"{", b"[")) else raw[:200]
    return {"status": status, "json": answer, "headers": dict(headers)}
