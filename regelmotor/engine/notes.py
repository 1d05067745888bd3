"""The engine's notes on a deal ("seat 1 plays the partner card AS"), said in the reader's language.

A note is the English sentence itself (a ``str``: records, ``--json`` and every caller that reads the
notes as text are unchanged) that also carries its phrase and values, so that ``replay`` and the table
say it in Danish from the one phrase table (``note_<phrase>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

from regelmotor.phrases import say


class Note(str):
    """One note; ``text(lang)`` says it in ``da`` or ``en``."""

    phrase: str
    values: Mapping[str, object]

    @classmethod
    def said(cls, phrase: str, **values: object) -> Self:
        note = cls(say(f"note_{phrase}", values, "en"))
        note.phrase, note.values = phrase, values
        return note

    def text(self, lang: str = "da") -> str:
        return say(f"note_{self.phrase}", self.values, lang)


__all__ = ["Note"]
