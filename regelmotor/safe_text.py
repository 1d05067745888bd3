"""Text from a club's files shown as text: control characters escaped before they reach a terminal.

A player's name or a ruleset's title is typed by a person, or by an attacker: an escape sequence in it
(``\\x1b]0;...``, ``\\x1b[2J``) would retitle or clear the terminal that prints it, and a right-to-left
override would print a name backwards. Every such character is shown as its escape (``\\x1b``,
``\\u202e``); line breaks and tabs, which the output itself is made of, stay.
"""

from __future__ import annotations

import unicodedata
from typing import Any, TextIO

_KEEP = frozenset("\n\t")


def _unsafe(char: str, keep: frozenset[str] = _KEEP) -> bool:
    if char in keep:
        return False
    category = unicodedata.category(char)
    return category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and char not in "\u200d\u00ad")


def escape_controls(text: str, keep: frozenset[str] = _KEEP) -> str:
    """``text`` with every control, format, surrogate or unassigned character shown as its escape (but
    those in ``keep``: line breaks and tabs)."""
    if text.isprintable() or not any(_unsafe(c, keep) for c in text):
        return text
    return "".join(_escape(c) if _unsafe(c, keep) else c for c in text)


_STREAM_KEEP = _KEEP | {"\r"}
"""A terminal stream also keeps the carriage return a progress bar redraws its line with."""


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class EscapingStream:
    """A text stream that escapes control characters on their way through (``sys.stdout``, ``sys.stderr``)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text, _STREAM_KEEP))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, buffer, encoding: the stream's own
        return getattr(self._stream, name)


__all__ = ["EscapingStream", "escape_controls"]
