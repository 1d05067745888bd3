"""The card table's games kept on disk, so that a restart of the server does not lose them.

One small JSON file per game in the store's folder, named by the game's id (a random token the
server made, checked against its pattern: the server never opens a path a client names), written
whole or not at all after every change. It holds what rebuilds the game: the ruleset as the table
chose it (a shipped name, the club's file, or the uploaded text), every deal's cards and actions,
the log and sheet the page shows, and the random state the next deals and the bots are drawn from.
A game is read back at the first request for its id after a restart, by replaying its deals through
the engine (so a file edited by hand can only give a game the rules allow). Files of games idle
longer than the server keeps games are removed when the server starts.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

from regelmotor.errors import RegelmotorError
from regelmotor.files import write_atomic
from regelmotor.records import parse_json

STORE_VERSION = 1
MAX_STORED_BYTES = 2_000_000
"""An evening of deals is some tens of kilobytes."""
KEY = re.compile(r"[A-Za-z0-9_-]{16}")
"""The ids ``secrets.token_urlsafe(12)`` makes; nothing else names a file in the store."""


class GameStore:
    def __init__(self, folder: Path, idle: float) -> None:
        self.folder = folder
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        cutoff = time.time() - idle
        for path in folder.glob("*.json"):
            with contextlib.suppress(OSError):
                if path.stat().st_mtime < cutoff:
                    path.unlink()

    def _path(self, key: str) -> Path | None:
        return self.folder / f"{key}.json" if KEY.fullmatch(key) else None

    def save(self, key: str, data: dict[str, Any]) -> None:
        path = self._path(key)
        if path is not None:
            text = json.dumps({"kind": "regelmotor table", "version": STORE_VERSION, **data}, ensure_ascii=False)
            if len(text) <= MAX_STORED_BYTES:
                write_atomic(path, text, durable=False, private=True)

    def load(self, key: str) -> dict[str, Any] | None:
        """The stored game, or None when there is none (or it cannot be read: then it is gone)."""
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            if path.stat().st_size > MAX_STORED_BYTES:
                return None
            data = parse_json(path.read_bytes(), str(path))
        except (OSError, RegelmotorError):
            return None
        if not isinstance(data, dict) or data.get("kind") != "regelmotor table" or data.get("version") != 1:
            return None
        return data

    def drop(self, key: str) -> None:
        path = self._path(key)
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


__all__ = ["KEY", "GameStore"]
