"""The engine's notes on a deal ("seat 1 plays the partner card AS"), said in the reader's language.

A note is the English sentence itself (a ``str``: records, ``--json`` and every caller that reads the
notes as text are unchanged) that also carries its phrase and values, so that ``replay`` and the table
say it in Danish from the one phrase table (``note_<phrase>``): a ``Said`` whose cards are said as the
reader writes them.
"""

from __future__ import annotations

from typing import Self

from regelmotor.phrase_table import Said
from regelmotor.phrases import say


class Note(Said):
    """One note; ``text(lang)`` says it in ``da`` or ``en``."""

    render = staticmethod(say)

    @classmethod
    def said(cls, phrase: str, **values: object) -> Self:
        return cls.of(f"note_{phrase}", **values)


__all__ = ["Note"]
