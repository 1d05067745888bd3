"""A ruleset's number settings, named by their key path, for a rule search (``tune``) to try other values in.

A *key* is any number a ruleset holds: a point table's entry (``scoring.tables.S.values.sol``), a
setting (``misdeal.penalty``), a constant (``scoring.constants.M``), or one number written in a scoring
formula (``scoring.sol.failed``: the -2 of ``-2 * S * D``; ``#2`` after the path picks a formula's second
number where it has several). The defaults a file leaves out are keys too: the model holds them. Text,
yes/no settings, lists and ids are not numbers to search over, and a key naming one is refused at its path.

A value is set in the merged ruleset before it is checked (``load_ruleset(..., settings=...)``), so a value
the schema or the semantic checks refuse is refused as any club's file would be, naming the key.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from regelmotor.errors import RegelmotorError
from regelmotor.model.formula import FormulaError, constants, with_constant
from regelmotor.model.ruleset import Ruleset

Path = tuple[str | int, ...]
Setting = tuple[Path, int | None, str]
"""One value set: the key's path (list items by their place, from 0), the formula's number (from 0) where
the key is a formula's, and the value as exact text (``75``, ``3/2``): hashable and sent between processes."""

FORMULA_FIELDS = ("formula", "made", "failed")
"""A scoring rule's formulas (``GameScoring``): the text fields whose numbers are keys."""
SHAPE_SECTIONS = ("table", "deck", "dealing", "card_order")
"""Sections whose numbers give the game its shape (the seats, the cards, how they are dealt, their order):
not a value a search tries, and refused at their path."""
SHAPE_FIELDS = ("tier", "after", "decimals", "ranks")
"""Numbers that place a thing among others (a designation's tier, where a sol bid stands in the ladder, the
ranks a partner card may have) or say how points are shown: not values a search tries either."""


def is_shape(path: Path) -> bool:
    """Whether the number at ``path`` gives the game its shape rather than a value (``SHAPE_SECTIONS``)."""
    named = [part for part in path if isinstance(part, str)]
    return bool(named) and (named[0] in SHAPE_SECTIONS or named[-1] in SHAPE_FIELDS)


class UnknownKey(RegelmotorError):
    """A key that names no number of the ruleset."""


@dataclass(frozen=True)
class Key:
    """A number of the ruleset that a search may set: its path as the club writes it, where it lies, its value."""

    text: str
    path: Path
    constant: int | None
    current: Fraction
    formula: str | None = None
    """For a formula's number: the formula as the ruleset has it (``-2 * S * D``), the text it is changed in."""

    @property
    def marked(self) -> str | None:
        """The formula with this number in brackets (``[-2] * S * D``), to show which number it is."""
        if self.formula is None or self.constant is None:
            return None
        c = constants(self.formula)[self.constant]
        return f"{self.formula[: c.start]}[{self.formula[c.start : c.end]}]{self.formula[c.end :]}"

    def setting(self, value: Fraction) -> Setting:
        return (self.path, self.constant, exact_text(value))


def exact_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _part_text(node: Any, part: str | int) -> str:
    """A path's part as the club writes it: a list's item by its id (or its place from 1)."""
    if isinstance(part, int):
        item = node[part]
        return str(item["id"]) if isinstance(item, dict) and "id" in item else str(part + 1)
    return str(part)


def _walk(node: Any, path: Path, text: tuple[str, ...]) -> Iterator[Key]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, (*path, k), (*text, str(k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, (*path, i), (*text, _part_text(node, i)))
    elif isinstance(node, bool) or node is None:
        return
    elif isinstance(node, int | float | Fraction):
        yield Key(".".join(text), path, None, Fraction(node))
    elif isinstance(node, str) and path and path[0] == "scoring" and path[-1] in FORMULA_FIELDS:
        try:
            found = constants(node)
        except FormulaError:
            return
        for i, c in enumerate(found):
            suffix = "" if len(found) == 1 else f"#{i + 1}"
            yield Key(".".join(text) + suffix, path, i, c.value, node)
    elif isinstance(node, str) and re.fullmatch(r"\s*-?\d+(\s*/\s*\d+|\.\d+)?\s*", node):  # an exact number
        yield Key(".".join(text), path, None, Fraction(node.replace(" ", "")))


def _numbers(ruleset: Ruleset) -> list[Key]:
    return list(_walk(ruleset.model_dump(by_alias=True, mode="json"), (), ()))


def tunable_keys(ruleset: Ruleset) -> list[Key]:
    """Every number of the ruleset a search may set, in the file's order (those of its shape left out)."""
    return [k for k in _numbers(ruleset) if not is_shape(k.path)]


def find_key(ruleset: Ruleset, text: str) -> Key:
    """The key ``text`` names; an error naming the nearest keys where it names none, and saying why where it
    names something that is not a number (text, yes/no, a list)."""
    numbers = _numbers(ruleset)
    keys = [k for k in numbers if not is_shape(k.path)]
    wanted = text.strip()
    for key in numbers:
        if key.text == wanted:
            if is_shape(key.path):
                raise UnknownKey.said("tune_key_structural", key=wanted)
            return key
    formula = [k for k in keys if k.text.startswith(wanted + "#")]
    if formula:
        raise UnknownKey.said("tune_key_formula", key=wanted, keys=", ".join(k.text for k in formula))
    node: Any = ruleset.model_dump(by_alias=True, mode="json")
    for part in wanted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            by_id = [v for v in node if isinstance(v, dict) and v.get("id") == part]
            node = by_id[0] if by_id else None
        else:
            node = None
            break
    if node is not None:
        raise UnknownKey.said("tune_key_not_number", key=wanted, value=_shown(node))
    near = difflib.get_close_matches(wanted, [k.text for k in keys], n=3, cutoff=0.5)
    raise UnknownKey.said("tune_key_unknown", key=wanted, near=", ".join(near) or "-")


def _shown(node: Any) -> str:
    text = repr(node)
    return text if len(text) <= 60 else text[:57] + "..."


def apply_settings(data: dict[str, Any], settings: Sequence[Setting]) -> None:
    """The values set in a merged ruleset's data (before it is checked); a mapping a file left out (the
    model's default) is written in."""
    for path, constant, value in settings:
        node: Any = data
        for part in path[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        last = path[-1]
        number = Fraction(value)
        if constant is not None:
            node[last] = with_constant(str(node[last]), constant, number)
        elif number.denominator == 1:
            node[last] = int(number)
        else:
            node[last] = value
