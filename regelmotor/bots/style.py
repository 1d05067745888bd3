"""The expert's style: what makes a table of people bid otherwise than a table of perfect players, in a few
settings named in the game's words, beside its budget (``budget.py``: how it searches; this: how it decides).

- ``caution`` (*forsigtighed*): a bid is weighed by its price less this many standard errors of the price
  (``Budget.bid_caution``; the default is the budget's, 1.5). More caution: fewer bids on thin hands.
- ``appetite`` (*lyst*), per kind of contract (``sol``, ``vip``, ``halve``...): points added to every bid of
  that kind when the bot chooses, over what its playouts say the bid brings. A club that seldom bids sol has
  a negative sol appetite: its members want more than the points to bid one.
- ``passing`` (*paslyst*): points added to passing. The higher, the sooner it passes, and the more deals
  are passed out.

The style changes only what the expert *bids*: the prices it weighs are its playouts', every card is played
as before, and the default style (``DEFAULT_STYLE``) is today's expert, decision for decision. A style is
fitted from a club's score sheets by ``regelmotor calibrate`` (``tuning/calibrate.py``): a fit of the contract
mix and the results, not of each member's play.

A styled expert is named ``expert:<token>`` (``styled_bot``): the style travels inside the bot's name to every
process and Dask worker, and every result that names its bots names the style with them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regelmotor.bids import Bid
from regelmotor.bots.budget import DEFAULT_BUDGET
from regelmotor.engine.actions import PASS_ACTION, Action
from regelmotor.errors import Problem, RegelmotorError, RulesetError
from regelmotor.files import read_input
from regelmotor.phrase_table import phrases
from regelmotor.ruleset.yaml_source import read_document

STYLED = "expert"
"""The one bot a style applies to: the only one that weighs a call by what it brings."""
MAX_STYLE_BYTES = 64_000
"""A style is a dozen lines; 64 kB is certainly not a style."""
MAX_KINDS = 32
"""Kinds of contract a style may name: more than any ruleset has."""
MAX_NAME = 60
CAUTION_RANGE = (0.0, 10.0)
"""Standard errors: 0 bids on the mean (``expert-v1``); ten is a bot that hardly bids at all."""
POINTS_RANGE = (-100_000.0, 100_000.0)
"""An appetite or a passing in the ruleset's points: wider than any ruleset's largest score."""
KEYS = ("kind", "name", "ruleset", "caution", "passing", "appetite", "fitted")
"""The keys a style file may have (``fitted``: what ``calibrate`` says of its fit, for a person to read)."""
_UNSAFE = set(";=,:\n\r\t")
"""Characters that cannot be in a kind's name inside a bot's name (``token``)."""


class StyleError(RulesetError):
    """A style file, or a style in a bot's name, that cannot be read; every problem located."""


def kind_of(bid: Bid) -> str:
    """A bid's kind of contract as ``compare`` and a style name it: its designation's id or its sol bid's."""
    kind = bid.designation or bid.sol
    assert kind is not None
    return str(kind)


def _number_text(value: float) -> str:
    """A number as the token and the file write it: whole numbers without a point, others exactly (``repr``)."""
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)


@dataclass(frozen=True)
class Style:
    """The expert's style. Frozen and small: a rule search tries many, and the runner's processes get them."""

    caution: float = DEFAULT_BUDGET.bid_caution
    passing: float = 0.0
    appetite: tuple[tuple[str, float], ...] = ()
    """(kind, points), sorted by kind, none of them 0 (``make``)."""
    name: str = field(default="", compare=False)
    """What the club calls it (the file's ``name``): for a person to read; not part of what it decides."""

    @classmethod
    def make(
        cls,
        caution: float = DEFAULT_BUDGET.bid_caution,
        passing: float = 0.0,
        appetite: Mapping[str, float] = {},
        name: str = "",
    ) -> Style:
        """A style in its one form: the appetites sorted, those of 0 left out (so equal styles are equal)."""
        kept = tuple(sorted((str(k), float(v)) for k, v in appetite.items() if v != 0))
        return cls(float(caution), float(passing), kept, name)

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_STYLE

    def appetite_for(self, kind: str) -> float:
        for known, points in self.appetite:
            if known == kind:
                return points
        return 0.0

    def lean(self, decide: dict[Action, float]) -> dict[Action, float]:
        """The values the expert chooses its call by, with the style's leanings added: each bid's kind's
        appetite, and passing to a pass (gå med, kan selv and the rest lean nowhere)."""
        out = {}
        for action, value in decide.items():
            bid = action.bid
            if bid is not None:
                value += self.appetite_for(kind_of(bid))
            elif action == PASS_ACTION:
                value += self.passing
            out[action] = value
        return out

    # --- in a bot's name ---------------------------------------------------------------------------

    def token(self) -> str:
        """The style as a bot's name carries it: ``caution=1.5;passing=10;sol=-40`` (exact, canonical)."""
        parts = [f"caution={_number_text(self.caution)}", f"passing={_number_text(self.passing)}"]
        parts += [f"{kind}={_number_text(points)}" for kind, points in self.appetite]
        return ";".join(parts)

    @classmethod
    def from_token(cls, token: str) -> Style:
        """The style a bot's name carries; refused where it is not a style's token."""
        values: dict[str, float] = {}
        for part in token.split(";"):
            key, equals, text = part.partition("=")
            if not equals or not key or key in values:
                raise _token_error(token)
            try:
                value = float(text)
            except ValueError:
                raise _token_error(token) from None
            if not math.isfinite(value):
                raise _token_error(token)
            values[key] = value
        caution = values.pop("caution", DEFAULT_BUDGET.bid_caution)
        passing = values.pop("passing", 0.0)
        if not CAUTION_RANGE[0] <= caution <= CAUTION_RANGE[1] or len(values) > MAX_KINDS:
            raise _token_error(token)
        if any(not POINTS_RANGE[0] <= v <= POINTS_RANGE[1] for v in (passing, *values.values())):
            raise _token_error(token)
        return cls.make(caution, passing, values)

    # --- said -----------------------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "caution": self.caution,
            "passing": self.passing,
            "appetite": dict(self.appetite),
            "default": self.is_default,
        }

    def describe(self, lang: str = "da") -> str:
        """The style in a line, as a person reads it: ``forsigtighed 1,5; paslyst 10; lyst: sol -40``."""
        words = phrases(lang)

        def num(value: float) -> str:
            text = _number_text(round(value, 3))
            return text.replace(".", ",") if lang == "da" else text

        lean = ", ".join(f"{kind} {'+' if p > 0 else ''}{num(p)}" for kind, p in self.appetite)
        text = words["style_line"].format(caution=num(self.caution), passing=num(self.passing))
        if lean:
            text += "; " + words["style_appetite"].format(appetite=lean)
        return text

    def yaml_text(self, ruleset: str = "", comments: Sequence[str] = ()) -> str:
        """The style as a file: its settings, each with what it does (``read_style`` reads it back)."""
        lines = [f"# {c}" for c in comments]
        lines.append("kind: style")
        if self.name:
            lines.append(f"name: {_quoted(self.name)}")
        if ruleset:
            lines.append(f"ruleset: {_quoted(ruleset)}")
        lines.append(f"caution: {_number_text(self.caution)}   # forsigtighed: standardfejl en melding vejes med")
        lines.append(f"passing: {_number_text(self.passing)}   # paslyst: point lagt til at passe")
        if self.appetite:
            lines.append("appetite:   # lyst: point lagt til hver melding af den slags, ud over hvad pointene siger")
            lines += [f"  {_quoted(kind)}: {_number_text(points)}" for kind, points in self.appetite]
        return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    plain = text and text.strip() == text and all(c.isalnum() or c in " -_" for c in text) and not text[0].isdigit()
    return (
        text
        if plain and text.lower() not in ("yes", "no", "on", "off", "true", "false", "null")
        else json.dumps(text, ensure_ascii=False)
    )


DEFAULT_STYLE = Style()
"""Today's expert: the budget's caution, no leanings."""


def _token_error(token: str) -> RegelmotorError:
    return RegelmotorError.said("style_token", token=token[:80])


# --- a bot's name -------------------------------------------------------------------------------------


def styled_bot(style: Style, base: str = STYLED) -> str:
    """The name of ``base`` playing in ``style`` (the plain name for the default style)."""
    return base if style.is_default else f"{base}:{style.token()}"


def split_bot(name: str) -> tuple[str, Style | None]:
    """A bot's name and the style it carries (None: none); ``StyleError`` for a style on another bot."""
    base, colon, token = name.partition(":")
    if not colon:
        return name, None
    if base != STYLED:
        raise RegelmotorError.said("style_bot", bot=base[:40])
    return base, Style.from_token(token)


def base_name(name: str) -> str:
    """The bot a name plays (``expert`` for ``expert:...``)."""
    return name.partition(":")[0]


def style_of(bots: Sequence[str]) -> Style | None:
    """The style of the styled experts among ``bots`` (the first, where several are): None if none is styled."""
    for name in bots:
        style = split_bot(name)[1]
        if style is not None:
            return style
    return None


def check_kinds(style: Style, kinds: Sequence[str], ruleset: str, where: str = "") -> None:
    """Refuse a style whose appetite names a kind of contract the ruleset does not have."""
    for kind, _ in style.appetite:
        if kind not in kinds:
            raise RegelmotorError.said(
                "style_kind_unknown", where=where or "--style", kind=kind, ruleset=ruleset, kinds=", ".join(kinds)
            )


# --- the file -------------------------------------------------------------------------------------------


def read_style(path: Path) -> Style:
    """A style file, read as every file a person names is read (``files.read_input``) and checked key by
    key: every problem at its line, ``FILE:LINE:COL: key.path: message``, in Danish first."""
    return parse_style(read_input(path, MAX_STYLE_BYTES).data, str(path))


def parse_style(data: bytes | str, file: str) -> Style:
    try:
        doc = read_document(data, file)
    except RulesetError as exc:  # the YAML itself: a tab, a "yes", a key twice, at its line
        raise StyleError(exc.problems) from None
    problems: list[Problem] = []

    def problem(path: tuple[str | int, ...], phrase: str, key: bool = False, **values: object) -> None:
        problems.append(Problem.said(doc.locate(path, key=key), path, phrase, **values))

    def number(path: tuple[str | int, ...], value: object, low: float, high: float) -> float | None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(float(value)):
            problem(path, "style_number", value=str(value)[:40])
            return None
        if not low <= float(value) <= high:
            problem(
                path, "style_range", value=_number_text(float(value)), low=_number_text(low), high=_number_text(high)
            )
            return None
        return float(value)

    data_ = doc.data
    for key in data_:
        if key not in KEYS:
            problem((str(key),), "style_key", key=True, key_name=str(key)[:40], keys=", ".join(KEYS))
    if data_.get("kind") != "style":
        problem(("kind",), "style_kind_key", value=str(data_.get("kind"))[:40])
    name = data_.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        problem(("name",), "style_text", most=MAX_NAME)
        name = ""
    caution = number(("caution",), data_.get("caution", DEFAULT_BUDGET.bid_caution), *CAUTION_RANGE)
    passing = number(("passing",), data_.get("passing", 0), *POINTS_RANGE)
    appetite: dict[str, float] = {}
    given = data_.get("appetite", {}) or {}
    if not isinstance(given, dict):
        problem(("appetite",), "style_appetite_map")
    elif len(given) > MAX_KINDS:
        problem(("appetite",), "style_appetite_many", most=MAX_KINDS)
    else:
        for kind, value in given.items():
            text = str(kind)
            if not text or len(text) > MAX_NAME or _UNSAFE & set(text):
                problem(("appetite", text), "style_appetite_name", key=True)
                continue
            points = number(("appetite", text), value, *POINTS_RANGE)
            if points is not None:
                appetite[text] = points
    if problems:
        raise StyleError(problems)
    assert caution is not None and passing is not None
    return Style.make(caution, passing, appetite, name)
