"""The errors regelmotor raises, so callers can catch each kind of bad input on its own."""

from __future__ import annotations

from dataclasses import dataclass

from regelmotor.safe_text import escape_controls


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\x1b``), so a message never drives the terminal (the one
    escaping of ``safe_text``, which every output uses)."""
    return escape_controls(text)


class RegelmotorError(Exception):
    """Base of every error regelmotor raises on purpose."""


class CardError(RegelmotorError, ValueError):
    """A card, suit or rank code that is not in the notation."""


class NotationError(RegelmotorError, ValueError):
    """A call or action string that is not in the notation."""


class DealError(RegelmotorError, ValueError):
    """A deck order or dealing pattern that the ruleset does not allow."""


class IllegalCall(RegelmotorError, ValueError):
    """A call the auction rules do not allow at that point."""

    def __init__(self, index: int, seat: int | None, message: str) -> None:
        self.index, self.seat = index, seat
        super().__init__(f"call {index} (seat {seat}): {message}" if seat is not None else message)


@dataclass(frozen=True)
class Location:
    """Where a value was written: file, 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset file, located as ``FILE:LINE:COL: key.path: message``."""

    location: Location
    path: tuple[str | int, ...]
    message: str

    @property
    def key_path(self) -> str:
        return format_path(self.path)

    def __str__(self) -> str:
        key = self.key_path or "(top)"
        return printable(f"{self.location}: {key}: {self.message}")


def format_path(path: tuple[str | int, ...]) -> str:
    """``designations[2].trump.from`` style: list indexes in brackets, keys joined by dots."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


class RulesetError(RegelmotorError, ValueError):
    """A ruleset (or one of the files it is built from) is invalid; carries every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class RuleViolation(RegelmotorError, ValueError):
    """An action the rules do not allow now; the game is unchanged.

    ``rule`` is the ruleset key that forbids it (``auction``, ``designations[1].trump``, ...) and
    ``source`` where that rule comes from, so a disputed action can be settled by the text.
    """

    def __init__(self, rule: str, message: str, source: str | None = None) -> None:
        self.rule, self.reason, self.source = rule, message, source
        cited = f" [{rule}" + (f": {source}" if source else "") + "]"
        super().__init__(message + cited)


class RulesetNotFound(RegelmotorError, LookupError):
    """A ruleset or house-rule name that is neither shipped nor an existing file."""


class RuleNotImplemented(RegelmotorError, NotImplementedError):
    """A rule the ruleset selects that the engine has no implementation for."""

    def __init__(self, rule: str, detail: str = "") -> None:
        self.rule = rule
        message = f"rule not implemented: {rule}"
        super().__init__(f"{message}: {detail}" if detail else message)
