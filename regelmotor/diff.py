"""The rule differences between two resolved rulesets, point by point, in Danish.

Clubs argue about how their rules differ; this lists every rule on which two rulesets disagree,
grouped by the sections of the rule book, each with both values and where each comes from, and
nothing for the rules they share. Designations and sol bids are matched by their id, so a
designation one ruleset lacks is named, not compared with whatever sits at the same place.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import yaml
from pydantic import BaseModel

from regelmotor.errors import RegelmotorError
from regelmotor.model.base import Rule
from regelmotor.model.ruleset import WORDS, Ruleset
from regelmotor.phrase_table import PHRASES, phrases
from regelmotor.phrases import SECTION_OF
from regelmotor.rules.contracts.designation_kinds import kind_of
from regelmotor.ruleset.catalogue import FileRef, shipped_rulesets
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.schema import ruleset_schema

if TYPE_CHECKING:
    from regelmotor.ruleset.compile import Rules


def _section(key: str, lang: str = "da") -> str:
    """The rule book section a top-level key is printed in, by its title (``phrases.SECTION_OF``)."""
    return phrases(lang)[SECTION_OF.get(key, "s_other")]


_PROSE = {"source", "name", *WORDS}
_KEYED = {"designations": "id", "sol_bids": "id", "sitting_out": "players"}
_UNORDERED = {
    ("trump", "choices"),
    ("table", "players"),
    ("sitting_out", "seats"),
    ("dealing", "packet_sizes"),
    ("jernhaand", "court_ranks"),
}
"""Lists whose order means nothing (the suits to choose from, the allowed numbers of players, who sits out,
the packet sizes, the cards that break a jernhånd): compared as sets. Every other list is a ladder or a
sequence (the partner card's ranks, the card order, the dealing pattern, vip's turns) and keeps its order."""


@dataclass(frozen=True)
class Difference:
    section: str
    path: str
    label: str
    a: Any
    b: Any
    a_source: str | None
    b_source: str | None
    label_en: str = ""
    """The label in English (``compare --lang en``); left out, the rule's key path: the file's own words,
    where the schema says what a key is in Danish only."""

    def __post_init__(self) -> None:
        if not self.label_en:
            object.__setattr__(self, "label_en", self.path)


@cache
def _schema_defs() -> dict[str, Any]:
    defs: dict[str, Any] = ruleset_schema()["$defs"]
    return defs


def _schema_at(path: tuple[str | int, ...]) -> tuple[dict[str, Any], str, str | None]:
    """The ruleset schema's node for a key path (its ``$ref`` and nullable wrapping followed), the description
    nearest it, and the definition and field the path last named (``Table.players``; ``source`` for any
    rule's source; None where the schema names none of its keys)."""
    defs = _schema_defs()
    node: dict[str, Any] = defs["RulesetFile"]
    owner, description, field = "RulesetFile", "", None

    def plain(node: dict[str, Any]) -> dict[str, Any]:
        nonlocal owner
        while "$ref" in node or "anyOf" in node:
            if "$ref" in node:
                owner = node["$ref"].rsplit("/", 1)[-1]
                node = defs[owner]
            else:
                node = next((n for n in node["anyOf"] if n.get("type") != "null"), node["anyOf"][0])
        return node

    for part in path:
        node = plain(node)
        if isinstance(part, int) or part.startswith("["):
            node = node.get("items", {})
            continue
        props = node.get("properties", {})
        if part not in props and node.get("additionalProperties") not in (None, False):
            node = node["additionalProperties"]
            continue
        if part in props:
            field = "source" if part == "source" else f"{owner}.{part}"
        node = props.get(part, {})
        description = node.get("description", description)
    return plain(node), description, field


def schema_node(path: tuple[str | int, ...]) -> tuple[dict[str, Any], str]:
    """The ruleset schema's node for a key path, and the description nearest it."""
    node, description, _ = _schema_at(path)
    return node, description


def field_of(path: tuple[str | int, ...]) -> str | None:
    """The schema's definition and field a key path ends in (``Table.players``), as the English labels name
    it; None for a path the schema does not name (a table's entry, a plugin's setting)."""
    return _schema_at(path)[2]


@cache
def _english_labels() -> dict[str, str]:
    loaded = yaml.safe_load((PHRASES / "labels.en.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return {str(k): str(v) for k, v in loaded.items()}


def label_of(path: tuple[str | int, ...], lang: str = "da") -> str:
    """What a key path is, in the reader's language: the Danish from the ruleset schema's description, the
    English from ``phrase_table/labels.en.yaml`` by the field it names."""
    if lang == "en":
        field = field_of(path)
        english = _english_labels().get(field) if field is not None else None
        if english is not None:
            return english
        if field_of(path[:-1]) is not None and len(path) > 1:  # an entry of a named map: its parent's label
            parent = _english_labels().get(str(field_of(path[:-1])))
            if parent is not None:
                return f"{parent} – {path[-1]}"
        return ".".join(str(p) for p in path)
    description = schema_node(path)[1]
    if not description:
        return ".".join(str(p) for p in path)
    # the label is what the key is; when it may be left out ("udelades ...") is not part of it, nor the
    # sentence's full stop (a label is followed by its values: "... ikke holder: -2 * base / -1 * base")
    return description.split(" (udelades")[0].split(": ")[0].rstrip(".")


def _distinct_labels(paths: Sequence[tuple[str | int, ...]], lang: str = "da") -> list[str]:
    """Each path's label, told apart where two keys share one: a `compare` reader saw "Formlen for en
    spillers score, når kontrakten ikke holder" twice with two formulas. A list item or a named key (a
    designation, a sol bid, a constant, a table) is named after the label ("Solbuddene og deres plads i
    stigerækken – bordlægger"); a key of a shared definition is led by its family's label ("Afregning af
    solspil: formlen ...")."""
    labels = [label_of(path, lang) for path in paths]
    shared = {label for label, count in Counter(labels).items() if count > 1}
    found = []
    for path, label in zip(paths, labels, strict=True):
        if label in shared:
            items = [str(p)[1:-1] for p in path if str(p).startswith("[")]
            parent = label_of(path[:-1], lang) if len(path) > 1 else label
            if items:
                label = f"{label} – {', '.join(items)}"
            elif parent not in (label, ".".join(str(p) for p in path[:-1])):
                label = f"{parent}: {label[:1].lower()}{label[1:]}"
            else:
                label = f"{label} – {path[-1]}"
        found.append(label)
    return found


def _source(ruleset: Ruleset, path: tuple[str | int, ...]) -> str | None:
    """The source of the innermost rule object on ``path``."""
    node: Any = ruleset
    found = ruleset.source
    for part in path:
        if isinstance(node, tuple) and isinstance(part, str) and part.startswith("["):
            key = part[1:-1]
            node = next((n for n in node if str(getattr(n, "id", getattr(n, "players", ""))) == key), None)
        elif isinstance(node, BaseModel) and isinstance(part, str):
            node = getattr(node, part, None)
        elif isinstance(node, dict) and part in node:  # a point table among the tables
            node = node[part]
        else:
            break
        if isinstance(node, Rule) and node.source:
            found = node.source
    return found


class _Credit:
    """The source a ruleset credits a diff path to: that of the file that wrote the value (or, for a value the
    ruleset lacks, the list or section that lacks it)."""

    def __init__(self, given: Ruleset | ResolvedRuleset) -> None:
        self.resolved = given if isinstance(given, ResolvedRuleset) else None
        self.ruleset = given.ruleset if isinstance(given, ResolvedRuleset) else given
        self.parents: dict[str, Ruleset | None] = {}

    def __call__(self, path: tuple[str | int, ...]) -> str | None:
        innermost = _source(self.ruleset, path)
        if self.resolved is None:
            return innermost
        located, rules = self._located(path)
        writer = self.resolved.where(located).file
        if writer == self.resolved.root:
            return innermost
        parent = self._parent(writer)
        if parent is not None:  # an inherited file's value: as that file cites it
            return _source(parent, path)
        for rule_path in reversed(rules):  # a house rule's: the innermost source it wrote itself
            written = self.resolved.set_at((*rule_path, "source"))
            if written is not None and written.file == writer:
                return self._source_at(rule_path)
        return innermost

    def _located(self, path: tuple[str | int, ...]) -> tuple[tuple[str | int, ...], list[tuple[str | int, ...]]]:
        """``path`` as the file locations spell it (a list item by its index) as far as the ruleset has it,
        and the rule objects with a source along it (the ruleset itself first)."""
        node: Any = self.ruleset
        located: tuple[str | int, ...] = ()
        rules: list[tuple[str | int, ...]] = [()] if self.ruleset.source else []
        for part in path:
            step: str | int
            if isinstance(node, tuple) and isinstance(part, str) and part.startswith("["):
                key = part[1:-1]
                index = next(
                    (i for i, n in enumerate(node) if str(getattr(n, "id", getattr(n, "players", ""))) == key), None
                )
                if index is None:
                    break
                node, step = node[index], index
            elif isinstance(node, BaseModel) and isinstance(part, str) and hasattr(node, part):
                node, step = getattr(node, part), part
            elif isinstance(node, dict) and part in node:
                node, step = node[part], part
            else:
                break
            located = (*located, step)
            if isinstance(node, Rule) and node.source:
                rules.append(located)
        return located, rules

    def _source_at(self, located: tuple[str | int, ...]) -> str | None:
        node: Any = self.ruleset
        for step in located:
            node = node[step] if isinstance(step, int) or isinstance(node, dict) else getattr(node, step)
        return node.source if isinstance(node, Rule | Ruleset) else None

    def _parent(self, display: str) -> Ruleset | None:
        """The ruleset of an inherited file, as that file's own resolution cites it (not a house rule's file,
        which is no ruleset by itself)."""
        if display not in self.parents:
            shipped = {ref.display: ref for ref in shipped_rulesets().values()}
            ref = shipped.get(display) or FileRef(Path(display), display)
            try:
                self.parents[display] = load_ruleset(ref).ruleset
            except (RegelmotorError, OSError):
                self.parents[display] = None
        return self.parents[display]


def _walk(a: Any, b: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any, Any]]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            if key in _PROSE:
                continue
            yield from _walk(a.get(key), b.get(key), (*path, key))
        return
    last = path[-1] if path else None
    if isinstance(a, list) and isinstance(b, list) and last in _KEYED:
        field = _KEYED[str(last)]
        left = {str(item[field]): item for item in a}
        right = {str(item[field]): item for item in b}
        for key in dict.fromkeys([*left, *right]):
            if key in left and key in right:
                yield from _walk(left[key], right[key], (*path, f"[{key}]"))
            else:
                yield (*path, f"[{key}]"), _summary(left.get(key)), _summary(right.get(key))
        return
    if isinstance(a, list) and isinstance(b, list) and _unordered(path) and _same_members(a, b):
        return
    if a != b:
        yield path, a, b


def _unordered(path: tuple[str | int, ...]) -> bool:
    """The list at ``path`` is a set: its key and the key (or keyed list) above it are in ``_UNORDERED``."""
    if len(path) < 2:
        return False
    above = path[-2]
    if isinstance(above, str) and above.startswith("[") and len(path) > 2:
        above = path[-3]
    return (str(above), str(path[-1])) in _UNORDERED


def _same_members(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and Counter(map(repr, a)) == Counter(map(repr, b))


def _summary(item: dict[str, Any] | None) -> Any:
    """A designation or sol bid that only one ruleset has, in a few words."""
    if item is None:
        return None
    if isinstance(item.get("trump"), dict):  # a designation (a sol bid's trump is a word)
        trump = item["trump"]
        how = trump.get("turns") or trump.get("choices")
        return {"display": item["display"], "trump": trump["by"], "choices": how, "call": item["call"]["suits"]}
    return {k: v for k, v in item.items() if k not in _PROSE}


def diff_rulesets(
    a: Ruleset | ResolvedRuleset, b: Ruleset | ResolvedRuleset, compiled: tuple[Rules, Rules] | None = None
) -> list[Difference]:
    """Every rule on which ``a`` and ``b`` differ, in rule-book order. ``compiled``: the two rulesets'
    compiled rules where the caller has them (else they are compiled once, when a difference needs them).

    Given the resolved rulesets (``load_ruleset``'s), each value is credited to the source of the file that
    wrote it: a club file that gives a section its own ``source:`` and changes one of its keys leaves the
    section's other keys cited as its parent cites them. Given bare models, to the innermost source."""
    source_a, source_b = _Credit(a), _Credit(b)
    if isinstance(a, ResolvedRuleset):
        a = a.ruleset
    if isinstance(b, ResolvedRuleset):
        b = b.ruleset
    pair: list[tuple[Rules, Rules]] = [compiled] if compiled is not None else []

    def rules() -> tuple[Rules, Rules]:
        if not pair:
            from regelmotor.ruleset.compile import compile_rules

            pair.append((compile_rules(a), compile_rules(b)))
        return pair[0]

    differences: list[Difference] = []
    order_a = " < ".join(
        " = ".join(d.id for d in a.designations if d.tier == t) for t in sorted({d.tier for d in a.designations})
    )
    order_b = " < ".join(
        " = ".join(d.id for d in b.designations if d.tier == t) for t in sorted({d.tier for d in b.designations})
    )
    if order_a != order_b:
        differences.append(
            Difference(
                _section("bids"),
                "designations.order",
                "Betegnelsernes rækkefølge på samme antal stik",
                order_a or "ingen stikbud",
                order_b or "ingen stikbud",
                a.designations[0].source if a.designations else None,
                b.designations[0].source if b.designations else None,
                "The designations' order at the same number of tricks",
            )
        )
    differences.extend(_exchange_by_kind(a, b))
    dump_a, dump_b = a.model_dump(mode="json"), b.model_dump(mode="json")
    tables: set[str] = set()
    walked = []
    for path, left, right in _walk(dump_a, dump_b, ()):
        if path[:2] == ("scoring", "tables") and len(path) > 3 and path[3] == "values":
            tables.add(str(path[2]))  # one row per table, below
        else:
            walked.append((path, left, right))
    labels = _distinct_labels([path for path, _, _ in walked])
    english = _distinct_labels([path for path, _, _ in walked], "en")
    for (path, left, right), label, label_en in zip(walked, labels, english, strict=True):
        key = ".".join(str(p) for p in path).replace(".[", "[")
        differences.append(
            Difference(
                _section(str(path[0])),
                key,
                label,
                left,
                right,
                source_a(path),
                source_b(path),
                label_en,
            )
        )
    for name in sorted(tables):
        left_table, right_table = a.scoring.tables.get(name), b.scoring.tables.get(name)
        differences.append(
            Difference(
                _section("scoring"),
                f"scoring.tables.{name}",
                f"Pointtabellen {name}",
                _table_text(left_table.values if left_table else {}),
                _table_text(right_table.values if right_table else {}),
                source_a(("scoring", "tables", name)),
                source_b(("scoring", "tables", name)),
                f"Points table {name}",
            )
        )
    if any(d.path.startswith("scoring") for d in differences):
        differences.extend(_sample_points(*rules()))
    if a.plugins or b.plugins:  # a plugin's rule in its own words (its describe hook), where they differ
        rules_a, rules_b = rules()
        left, right = "; ".join(rules_a.describe("da")), "; ".join(rules_b.describe("da"))
        if left != right:
            differences.append(
                Difference(
                    _section("plugins"),
                    "plugins.rules",
                    "Pluginernes regler",
                    left or "ingen",
                    right or "ingen",
                    None,
                    None,
                    "The plugins' rules (in Danish)",
                )
            )
    order = [_section(key) for key in dict.fromkeys(SECTION_OF)]
    return sorted(differences, key=lambda d: order.index(d.section) if d.section in order else len(order))


def column_labels(a: ResolvedRuleset, b: ResolvedRuleset) -> tuple[str, str]:
    """What ``diff`` heads each side's values with: the names as the user wrote them (``standard + gaa-med``),
    and where two read alike (two clubs' files both called ``klub``), each with its file."""
    if a.label != b.label:
        return a.label, b.label
    if a.root and b.root and a.root != b.root:
        return f"{a.label} ({a.root})", f"{b.label} ({b.root})"
    return f"{a.label} (A)", f"{b.label} (B)"


def _english_section(danish: str) -> str:
    """A section's title in English, from its Danish title (what a ``Difference`` holds)."""
    keys = [*dict.fromkeys(SECTION_OF.values()), "s_other"]
    return next((phrases("en")[k] for k in keys if phrases("da")[k] == danish), danish)


def write_diff(
    a: ResolvedRuleset, b: ResolvedRuleset, out: TextIO, cite: Callable[[str], str] = str, lang: str = "da"
) -> None:
    """``regelmotor diff``'s text: every difference under its section, both values under their column labels,
    and each side's source where the two differ, as ``cite`` writes a source (the command: by its title,
    "udledt" in Danish, as the rule book cites it); in ``lang``."""
    english = lang == "en"
    differences = diff_rulesets(a, b)
    if not differences:
        same = "{a} and {b} have the same rules.\n" if english else "{a} og {b} har de samme regler.\n"
        out.write(same.format(a=a.label, b=b.label))
        return
    left, right = column_labels(a, b)
    source = "source" if english else "kilde"
    section = None
    for d in differences:
        if d.section != section:
            section = d.section
            out.write(f"\n## {_english_section(section) if english else section}\n")
        out.write(f"- {d.label_en if english else d.label} ({d.path})\n")
        out.write(f"    {left}: {show_value(d.a, lang)}\n")
        out.write(f"    {right}: {show_value(d.b, lang)}\n")
        sa, sb = (cite(x) if x else "—" for x in (d.a_source, d.b_source))
        if d.a_source != d.b_source:
            out.write(f"    {source}, {left}: {sa}\n    {source}, {right}: {sb}\n")
        else:
            out.write(f"    {source}: {sa}\n")


def _table_text(values: dict[str, Any]) -> str:
    return ", ".join(f"{key}: {value}" for key, value in values.items())


def _sample_points(rules_a: Rules, rules_b: Rules) -> list[Difference]:
    """What the formulas and tables come to: the declarer's points for a few contracts both rulesets have
    (the lowest bid and the lowest bid of each designation made exactly and one down, each sol bid made
    and lost), where the two differ."""
    levels_a, levels_b = rules_a.ruleset.levels, rules_b.ruleset.levels
    level = max(levels_a[0], levels_b[0]) if levels_a and levels_b else 0
    samples: list[tuple[str, int, bool]] = []
    for bid in rules_a.auction.ladder.bids:
        if bid.text not in rules_b.auction.ladder.by_text:
            continue
        if bid.sol is not None:
            sides = {r.ruleset.sol_bid(bid.sol).side for r in (rules_a, rules_b)}
            if "each" in sides or "pairs" in sides:
                continue  # a game without a declarer has no declarer's points
            samples += [(bid.text, 0, True), (bid.text, 13, True)]
        elif bid.level == level:
            samples += [(bid.text, level, False), (bid.text, level - 1, False)]
    out = []
    for text, tricks, sol in samples:
        left, right = _declarer_points(rules_a, text, tricks), _declarer_points(rules_b, text, tricks)
        if left != right:
            lost = (sol and tricks == 13) or (not sol and tricks < level)
            label = f"Point til melderen, når han {'taber' if lost else 'vinder'} {text}" + (
                "" if sol else f" med {tricks} stik"
            )
            english = f"Points to the declarer when he {'loses' if lost else 'makes'} {text}" + (
                "" if sol else f" with {tricks} tricks"
            )
            computed = "beregnet af reglesættets formler og tabeller"
            out.append(
                Difference(
                    _section("scoring"), f"points.{text}.{tricks}", label, left, right, computed, computed, english
                )
            )
    return out


def _declarer_points(rules: Rules, text: str, tricks: int) -> int | float:
    from regelmotor.rounding import points

    scores = rules.scoring.role_points(rules.auction.ladder.by_text[text], tricks)
    return points(scores.declarer, rules.ruleset.scoring.decimals)


_KINDS = {  # how trump is found: (Danish, English)
    "declarer": ("melderen vælger trumf", "the declarer names trump"),
    "fixed": ("fast trumf", "trump is fixed"),
    "partner": ("makkeren vælger trumf", "the partner names trump"),
    "kitty": ("vip", "vip"),
}


def _exchange_by_kind(a: Ruleset, b: Ruleset) -> Iterator[Difference]:
    """Who exchanges, and whether he must, by how trump is found: vip in one ruleset against vip
    in the other, whatever their designations are called."""

    def rules(ruleset: Ruleset) -> dict[str, tuple[str, str, str | None]]:
        out: dict[str, tuple[str, str, str | None]] = {}
        for d in ruleset.designations:
            own = d.exchange
            required: str = (own.required if own and own.required else None) or ruleset.exchange.required
            by: str = own.by if own else "declarer"
            if not ruleset.exchange.allowed:
                required, by = "none", "-"
            source = own.source if own and own.source else ruleset.exchange.source
            out.setdefault(kind_of(d).name, (required, by, source))
        return out

    left, right = rules(a), rules(b)
    for kind in left:
        if kind in right and left[kind][:2] != right[kind][:2]:
            yield Difference(
                _section("exchange"),
                f"exchange.{kind}",
                f"Bytning når {_KINDS[kind][0]}",
                f"{left[kind][0]} ({left[kind][1]})",
                f"{right[kind][0]} ({right[kind][1]})",
                left[kind][2],
                right[kind][2],
                f"The exchange when {_KINDS[kind][1]}",
            )


VALUE_WORDS = {
    "after_first_lead": "efter første udspil",
    "after_first_trick": "efter første stik",
    "before_first_lead": "før første udspil",
    "all_or_none": "alle eller ingen",
    "all_tricks": "alle stik",
    "alone": "alene",
    "any": "hvilken som helst",
    "any_card": "et hvilket som helst kort",
    "bid": "melding",
    "bidding_order": "meldeorden",
    "called": "kaldt",
    "cannot_accept": "kan ikke tages",
    "clockwise": "med uret",
    "compulsory": "tvungen",
    "dealer": "kortgiveren",
    "dealer_card": "kortgiverens kort",
    "declarer": "melderen",
    "discard_first": "læg først af",
    "each": "hver for sig",
    "fixed": "fast",
    "forhaand": "forhånd",
    "highest_trump_else_led_suit": "højeste trumf, ellers højeste i udspilsfarven",
    "holding_all_allowed": "med alle de tilladte",
    "holding_all_four": "med alle fire",
    "kitty": "katten",
    "last_joiner_first": "den sidste der gik med, først",
    "left_of_dealer": "til venstre for kortgiveren",
    "level": "antal stik",
    "loses_to_trump": "taber til trumf",
    "may": "må",
    "may_accept": "kan tages",
    "must": "skal",
    "must_accept": "skal tages",
    "must_follow_else_any": "skal bekende, ellers frit",
    "never": "aldrig",
    "next_dealer": "næste kortgiver",
    "none": "uden trumf",
    "not_declarer": "ikke melderen",
    "not_trump": "ikke trumf",
    "opponents": "modspillerne",
    "optional": "valgfri",
    "overcalled": "enhver overmeldt melder",
    "pairs": "par",
    "partner": "makkeren",
    "partner_chooses": "makkeren vælger",
    "passes_clockwise": "går videre med uret",
    "right_of_dealer": "til højre for kortgiveren",
    "same_dealer": "samme kortgiver",
    "sol_games": "solspil",
    "stays": "bliver",
    "take_first": "tag først",
    "trump_games": "trumfspil",
    "up_to_all": "op til alle",
    "when_all_declarers_lost": "når alle spilførere har tabt",
    "wins": "vinder",
    "S": "spar",
    "H": "hjerter",
    "D": "ruder",
    "C": "klør",
    "trick_difference": "forskellen i stik",
    "winners": "vinderne",
    "exact": "eksakt",
    "whole_up": "op til hele point",
}
"""The schema's values in the Danish words ``diff`` prints them in (the file's own spelling is ``show``'s)."""

ENGLISH_VALUE_WORDS = {
    "forhaand": "forhånd",
    "none": "no trump",
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "highest_trump_else_led_suit": "the highest trump, else the highest of the suit led",
    "must_follow_else_any": "must follow suit, else any card",
    "whole_up": "up to whole points",
}
"""The schema's values in English where an id's own words would not say it (the others are read with their
underscores as spaces: ``same_dealer`` is "same dealer")."""

KEY_WORDS = {
    "display": "navn",
    "after": "efter",
    "side": "side",
    "max_tricks": "højst stik",
    "min_tricks": "mindst stik",
    "first_tricks": "første stik",
    "fewest_tricks": "færrest stik",
    "leader": "udspil",
    "trump": "trumf",
    "card_order": "kortorden",
    "open_hand": "åben hånd",
    "tier": "rang",
    "call": "makkerkort",
    "choices": "valg",
    "by": "af",
    "turns": "vendinger",
    "key": "efter",
    "values": "værdier",
    "players": "spillere",
    "seats": "pladser",
    "suits": "farver",
    "exchange": "bytning",
    "required": "krav",
    "settle": "afregning",
}


def show_value(value: Any, lang: str = "da") -> str:
    """A value as a club reads it: ja/nej, the schema's words in Danish, lists joined, nothing as a dash
    (``lang="en"``: yes/no and the file's own words)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return ("ja" if value else "nej") if lang == "da" else ("yes" if value else "no")
    if isinstance(value, list):
        return ", ".join(show_value(v, lang) for v in value) or "—"
    if isinstance(value, dict):
        words = KEY_WORDS if lang == "da" else {}
        items = [(words.get(str(k), str(k).replace("_", " ")), v) for k, v in value.items()]
        return "; ".join(f"{k}: {show_value(v, lang)}" for k, v in items)
    if isinstance(value, str):
        said = VALUE_WORDS if lang == "da" else ENGLISH_VALUE_WORDS

        def word(text: str) -> str:  # an id a member does not read: its words, or its parts (same dealer)
            return said.get(text, text if lang == "da" or " " in text else text.replace("_", " "))

        paired = re.fullmatch(r"(\w+) \((\S+)\)", value)  # the exchange's "compulsory (declarer)"
        if paired:
            return f"{word(paired[1])} ({word(paired[2])})"
        return word(value)
    return str(value)
