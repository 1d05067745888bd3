"""Play in the browser: a small ASGI app that keeps the game and shows each person only their seat.

``create_app`` is imported when it is first asked for: a process the server starts for one check or one question
imports only what its work needs (``regelmotor.web.club_check``), not the whole app and its bots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regelmotor.web.app import create_app


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from regelmotor.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
