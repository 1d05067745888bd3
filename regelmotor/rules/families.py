"""The rule families: which keys of a ruleset each family owns, and what the family is called.

A family is the unit of variation (issue 72): the keys a club sets, the checks of what they say,
the hooks that play them and the sentences that print them, in one home. This table is the index
of those homes, for everything that walks a ruleset by family: the club's page groups its form by it
(the rule book and ``diff`` group by the book's sections instead, ``phrases.SECTION_OF``). Every key the schema
allows belongs to exactly one family (the longest prefix that names it; ``*`` stands for an entry
of a list), and a test holds that, so a key added to a family's model is found without a line here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from regelmotor.model.base import Rule
from regelmotor.model.ruleset import WORDS
from regelmotor.phrase_table import phrases
from regelmotor.rules.contracts.keys import Designation


@dataclass(frozen=True)
class Family:
    name: str
    """The family's name, as its home is named (``rules/<name>``)."""
    title: str
    """Its name in Danish, as the rule book and the club's page head it."""
    title_en: str
    keys: tuple[str, ...]
    """The key paths it owns, dotted (``auction.gaa_med``; ``*`` for any entry of a list)."""


FAMILIES: tuple[Family, ...] = (
    Family(
        "about",
        "Om reglesættet",
        "About the ruleset",
        ("name", *WORDS, "source", "game", "notes", "plugins"),
    ),
    Family("evening", "Bordet og aftenen", "The table and the evening", ("table", "session", "money")),
    Family("dealing", "Kortene og kortgivningen", "The cards and the dealing", ("deck", "dealing")),
    Family("redeal", "Ny kortgivning", "Dealing again", ("misdeal", "all_pass", "omblanding")),
    Family("jernhaand", "Jernhånd", "Jernhånd", ("jernhaand",)),
    Family("contracts", "Meldingerne", "The bids", ("bids", "designations", "sol_bids", "all_pass.contract")),
    Family("auction", "Meldeforløbet", "The auction", ("auction",)),
    Family("gaa_med", "Gå med", "Gå med", ("auction.gaa_med",)),
    Family(
        "declaration",
        "Trumf og makkerkort",
        "Trump and the partner card",
        ("partner_card", "designations.*.trump", "designations.*.call"),
    ),
    Family(
        "vip",
        "Vip",
        "Vip",
        (
            "designations.*.trump.turns",
            "designations.*.trump.joker_takes_previous",
            "designations.*.trump.partner_may_vip",
        ),
    ),
    Family("exchange", "Bytning med katten", "Exchanging with the kitty", ("exchange", "designations.*.exchange")),
    Family("fordaekt", "Fordækt kort", "Fordækt card", ("fordaekt",)),
    Family("doubling", "Dobling", "Doubling", ("doubling",)),
    Family("jokers", "Jokerne", "The jokers", ("jokers",)),
    Family("called_card", "Makkerkortet i spillet", "The partner card in play", ("called_card",)),
    Family("play", "Spillet", "The play", ("play", "card_order")),
    Family("scoring", "Afregningen", "Scoring", ("scoring",)),
)
"""In the order a club reads its rules: the table, the cards, the bids, the declaration, the play, the score.
Every family but ``about`` (the file's own words) has its home at ``rules/<name>/``."""

BY_NAME: dict[str, Family] = {family.name: family for family in FAMILIES}


def family_of(path: tuple[str | int, ...] | str) -> Family:
    """The family that owns a key path (a list entry's index counts as ``*``): the longest prefix wins."""
    parts = path.split(".") if isinstance(path, str) else ["*" if isinstance(p, int) else p for p in path]
    best: tuple[int, Family] | None = None
    for family in FAMILIES:
        for key in family.keys:
            owned = key.split(".")
            if len(owned) <= len(parts) and parts[: len(owned)] == owned and (best is None or len(owned) > best[0]):
                best = (len(owned), family)
    if best is None:
        raise KeyError(f"no rule family owns the key {'.'.join(map(str, parts))}")
    return best[1]


class Sentence(NamedTuple):
    """A sentence of a family's rule for the rule book (``rules/<family>/book.py``): its text, the rule object it
    says (for its source and whether it is inferred) and its key path."""

    text: str
    rule: Rule | None
    path: str


def in_words(lang: str, key: str, **values: object) -> str:
    """A phrase of the phrase table in ``lang``, filled in (a display name may end a sentence with its own full
    stop, "vip i 3.", so a doubled one is one)."""
    return phrases(lang)[key].format(**values).replace("..", ".")


def joined(lang: str, words: Sequence[str], word: str = "or") -> str:
    """Words in a sentence: "a, b or c" (``word`` the phrase that joins the last two: ``or``, ``and``)."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + in_words(lang, word) + words[-1]


def designation_name(designation: Designation, lang: str) -> str:
    """A designation as a sentence names it: its display name, or "almindelig" for the plain one."""
    return designation.display or in_words(lang, "plain")
