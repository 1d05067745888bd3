"""What a family's check finds: where to fix it, and what is wrong, said in the reader's language."""

from __future__ import annotations

from regelmotor.errors import RegelmotorError

Finding = tuple[tuple[str | int, ...], str | Exception]
"""Where to fix it (a key path), and what is wrong: a sentence, or an error that says itself in the reader's
language."""


def said(phrase: str, **values: object) -> RegelmotorError:
    """A finding said in the reader's language (the phrase table's ``err_<phrase>``)."""
    return RegelmotorError.said(phrase, **values)
