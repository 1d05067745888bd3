"""The engine's notes on a deal ("seat 1 plays the partner card AS"), said in the reader's language.

A note is the English sentence itself (a ``str``: records, ``--json`` and every caller that reads the
notes as text are unchanged) that also carries its phrase and values, so that ``replay`` and the table
say it in Danish from the one phrase table (``note_<phrase>``): a ``Said`` whose cards are said as the
reader writes them.
"""

from __future__ import annotations

from typing import Self, cast

from regelmotor.phrase_table import Said
from regelmotor.phrases import say


class Note(Said):
    """One note; ``text(lang)`` says it in ``da`` or ``en``."""

    render = staticmethod(say)

    @classmethod
    def said(cls, phrase: str, **values: object) -> Self:
        """The note, made once for the same phrase and values: a note is immutable, and the expert's
        playouts make the same few (a seat, a card, a count) tens of thousands of times a deal."""
        key = (cls, phrase, *values.items())
        try:
            note = _MADE.get(key)
        except TypeError:  # a value that cannot be a key (a plugin's list): made each time
            return cls.of(f"note_{phrase}", **values)
        if note is None:
            if len(_MADE) >= _MADE_MOST:
                _MADE.clear()
            note = _MADE[key] = cls.of(f"note_{phrase}", **values)
        return cast(Self, note)


_MADE: dict[tuple[object, ...], Note] = {}
_MADE_MOST = 4096
"""The most notes kept: a seat, a card and a count make a few hundred; the bound keeps it so for plugins."""


__all__ = ["Note"]
