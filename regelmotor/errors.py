"""The errors regelmotor raises, so callers can catch each kind of bad input on its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Self

from regelmotor.phrase_table import say
from regelmotor.safe_text import escape_controls


def _error_text(phrase: str, values: Mapping[str, object], lang: str) -> str:
    return say(f"err_{phrase}", values, lang)


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\x1b``), so a message never drives the terminal (the one
    escaping of ``safe_text``, which every output uses)."""
    return escape_controls(text)


class RegelmotorError(Exception):
    """Base of every error regelmotor raises on purpose.

    An error a club member reads is *said* (``said``): its key in the phrase table (``err_<phrase>``) and
    the values that fill it in, so that ``text("da")`` and ``text("en")`` say it in the reader's language
    and ``str()`` is the English. A value that is itself an error is said in the same language (``in_deal``
    wraps the deal's own refusal)."""

    phrase: str | None = None
    values: Mapping[str, object] = MappingProxyType({})
    _said = False

    @classmethod
    def said(cls, phrase: str, **values: object) -> Self:
        error = cls(_error_text(phrase, values, "en"))
        error.phrase, error.values, error._said = phrase, values, True
        return error

    def text(self, lang: str = "da") -> str:
        """The error in ``lang``; one that is not said is its message, in English."""
        if not self._said or self.phrase is None:
            return str(self)
        return _error_text(self.phrase, self.values, lang)


class CardError(RegelmotorError, ValueError):
    """A card, suit or rank code that is not in the notation."""


class NotationError(RegelmotorError, ValueError):
    """A call or action string that is not in the notation."""


class DealError(RegelmotorError, ValueError):
    """A deck order or dealing pattern that the ruleset does not allow."""


class IllegalCall(RegelmotorError, ValueError):
    """A call the auction rules do not allow at that point.

    ``rule`` is the ruleset key that forbids it, ``phrase`` and ``values`` the refusal as the phrase table
    renders it (``phrases.refusal``); a plugin's auction may give only the message."""

    phrase: str

    def __init__(
        self,
        index: int,
        seat: int | None,
        message: str,
        *,
        rule: str = "auction",
        phrase: str = "plain",
        values: Mapping[str, object] | None = None,
    ) -> None:
        self.index, self.seat = index, seat
        self.message, self.rule, self.phrase = message, rule, phrase
        self.values = {"text": message} if values is None else values
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
    """In English; ``text`` says it in the reader's language when the problem is said (``phrase``)."""
    phrase: str | None = None
    values: Mapping[str, object] = field(default_factory=dict, compare=False)

    @classmethod
    def said(cls, location: Location, path: tuple[str | int, ...], phrase: str, **values: object) -> Problem:
        return cls(location, path, _error_text(phrase, values, "en"), phrase, values)

    @property
    def key_path(self) -> str:
        """The key path as ``--json`` and the API give it: a list's entries counted from 0."""
        return format_path(self.path)

    def said_as(self, lang: str) -> str:
        """The message alone in ``lang`` (the English where the problem is not said)."""
        if self.phrase is None:
            return self.message
        return _error_text(self.phrase, self.values, lang)

    def text(self, lang: str = "da") -> str:
        """``FILE:LINE:COL: key.path: message`` with the message in ``lang``."""
        key = format_path(self.path, first=1) or ("(øverst)" if lang == "da" else "(top)")  # a person counts from 1
        return printable(f"{self.location}: {key}: {self.said_as(lang)}")

    def __str__(self) -> str:
        return self.text("en")


def format_path(path: tuple[str | int, ...], *, first: int = 0) -> str:
    """``designations[2].trump.from`` style: list indexes in brackets (counted from ``first``: 0 in JSON,
    1 where a person reads it), keys joined by dots."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + first}]"
        else:
            out += ("." if out else "") + part
    return out


class RulesetError(RegelmotorError, ValueError):
    """A ruleset (or one of the files it is built from) is invalid; carries every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def text(self, lang: str = "da") -> str:
        return "\n".join(p.text(lang) for p in self.problems)


Render = Callable[[str, Mapping[str, object], str], str]
"""Renders a refusal's phrase with its values in a language (``phrases.refusal``)."""


class RuleViolation(RegelmotorError, ValueError):
    """An action the rules do not allow now; the game is unchanged.

    ``rule`` is the ruleset key that forbids it (``auction``, ``designations[1].trump``, ...) and
    ``source`` where that rule comes from, so a disputed action can be settled by the text. The
    refusal itself is structured: ``phrase`` is its key in the phrase table and ``values`` what fills
    it in, and ``render`` (the engine passes ``phrases.refusal``) says it in the reader's language:
    ``text("da")``, ``text("en")``; ``str()`` is the English, with the rule and its source. Without
    ``render``, the refusal is one sentence, ``values["text"]``, in every language.
    """

    phrase: str

    def __init__(
        self,
        rule: str,
        phrase: str,
        values: Mapping[str, object] | None = None,
        source: str | None = None,
        *,
        render: Render | None = None,
    ) -> None:
        self.rule, self.phrase, self.source = rule, phrase, source
        self.values = dict(values or {})
        self._render = render
        cited = f" [{rule}" + (f": {source}" if source else "") + "]"
        super().__init__(self.text("en") + cited)

    def text(self, lang: str = "da") -> str:
        """Why the action is refused, in ``lang`` (``da`` or ``en``)."""
        if self._render is None:
            return str(self.values.get("text", self.phrase))
        return self._render(self.phrase, self.values, lang)

    @property
    def reason(self) -> str:
        """Why, in English."""
        return self.text("en")


class RulesetNotFound(RegelmotorError, LookupError):
    """A ruleset or house-rule name that is neither shipped nor an existing file."""


class RuleNotImplemented(RegelmotorError, NotImplementedError):
    """A rule the ruleset selects that the engine has no implementation for."""

    def __init__(self, rule: str, detail: str = "") -> None:
        self.rule = rule
        message = f"rule not implemented: {rule}"
        super().__init__(f"{message}: {detail}" if detail else message)
