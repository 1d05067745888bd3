"""The rule book as data: sections of rule sentences and tables, before any format.

Markdown, HTML and PDF all render this one structure, so the paper versions cannot disagree
with each other, and since it is built from the compiled rules, not with the program either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Item:
    """One rule sentence, marked where the ruleset marks the rule inferred."""

    text: str
    inferred: bool = False
    source: str | None = None


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str | None = None
    fill: bool = False
    """Printed across the page's width in reading type (the score sheet), not as a compact rule table."""


@dataclass
class Section:
    title: str
    items: list[Item] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass(frozen=True)
class RuleBook:
    title: str
    subtitle: str
    lang: str
    sections: tuple[Section, ...]
    inferred_legend: str
    inferred_rules: tuple[tuple[str, str], ...]
    """(rule, its source) of every inferred rule, for the sources section."""
    sources: tuple[str, ...]
    type_size: float = 11
    """The printed body type in points (the score sheet is read across a table: larger)."""


PAPERS = ("a4", "a5")
"""The paper a PDF rule book is set on: A4, or A5 for a booklet (the same type; wide tables split)."""
RED_SUITS = re.compile("([♥♦])")
"""Hearts and diamonds print red, as on the cards (in HTML and in the PDF)."""
