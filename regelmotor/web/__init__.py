"""Play in the browser: a small ASGI app that keeps the game and shows each person only their seat."""

from regelmotor.web.app import create_app

__all__ = ["create_app"]
