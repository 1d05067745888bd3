"""A player's name, checked the one way at every door (the command line, the sheet's file, the page).

A name is shown at the table, in the sheet's PDF and in a spreadsheet, and it is how a deal names who
declared: so it is kept in one form (NFC: "Å" typed as A and a ring is the same Å), without control or
direction characters (an ESC would drive the terminal, a U+202E print the name backwards), and two names
at one table never look alike (a full-width "Ａｎｎａ" or a Cyrillic "Аnna" beside Anna, or a person called
"Bоt 1" beside the computer players), since a reader could not tell whose deal is whose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from regelmotor.errors import RegelmotorError
from regelmotor.safe_text import escape_controls

MAX_NAME = 24
"""A name fits a column of the sheet and a seat at the table."""

BOT_NAME = re.compile(r"bot \d+")
"""What the computer players are called (``Bot 1``): a person's name never looks like one."""

_LOOK_ALIKE = str.maketrans(
    {
        # Cyrillic and Greek letters drawn as Latin ones (after NFKC and casefold): the common confusables.
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ɡ": "g",
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ı": "i",
        "ℓ": "l",
    }
)


class PlayerNameError(RegelmotorError, ValueError):
    """A name that cannot stand for a player (said, naming the name and why)."""


def _unsafe(char: str) -> bool:
    """A character no name holds: controls, format characters (the direction overrides among them), line
    and paragraph separators, private and unassigned code points."""
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def clean_name(text: str) -> str:
    """The name as it is kept: NFC, runs of spaces made one; a ``PlayerNameError`` for an empty name, one with a
    control or direction character (said as such, the character shown as its escape) or a long one."""
    if len(text) > 4 * MAX_NAME:
        raise PlayerNameError.said("player_name_long", name=escape_controls(text[:MAX_NAME]) + "…", most=MAX_NAME)
    bad = next((c for c in text if _unsafe(c)), None)
    if bad is not None:
        raise PlayerNameError.said("player_name_control", name=escape_controls(text), char=escape_controls(bad))
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise PlayerNameError.said("player_name_empty")
    if len(name) > MAX_NAME:
        raise PlayerNameError.said("player_name_long", name=name, most=MAX_NAME)
    return name


def look(name: str) -> str:
    """What a name looks like, for telling two apart: full-width and other compatibility forms made plain
    (NFKC), case folded, letters of other scripts drawn alike made Latin. Danish letters stay (Åse is not
    Ase)."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKE)


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """The players' names as kept (``clean_name`` each), refused where two look alike or one looks like a
    computer player's name."""
    kept: list[str] = []
    seen: dict[str, str] = {}
    for raw in names:
        name = clean_name(raw)
        looks = look(name)
        if BOT_NAME.fullmatch(looks):
            raise PlayerNameError.said("player_name_bot", name=name)
        if looks in seen:
            other = seen[looks]
            raise PlayerNameError.said(
                "player_name_twice" if other == name else "player_names_alike", name=name, other=other
            )
        seen[looks] = name
        kept.append(name)
    return tuple(kept)


def find_player(players: Sequence[str], name: str) -> str | None:
    """The player ``name`` means, as the sheet spells him: the same name, or the one player whose name looks
    the same ("anna" is Anna, "Anna" typed with a decomposed letter too); None where no player, or more
    than one, is called so."""
    if name in players:
        return name
    wanted = look(" ".join(unicodedata.normalize("NFC", name).split()))
    alike = [p for p in players if look(p) == wanted]
    return alike[0] if len(alike) == 1 else None


SPREADSHEET_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is a formula to a spreadsheet (CSV injection)."""


def spreadsheet_text(text: str) -> str:
    """A text cell of an exported sheet, never a live formula: one that starts like a formula gets a
    leading apostrophe, which spreadsheets show as text and do not print."""
    return "'" + text if text.startswith(SPREADSHEET_FORMULA) else text


__all__ = [
    "MAX_NAME",
    "PlayerNameError",
    "check_names",
    "clean_name",
    "find_player",
    "look",
    "spreadsheet_text",
]
