"""Load a ruleset: files, ``extends``, house-rule overlays, schema, models, semantic checks.

Every value keeps the file, line and column it was written at, through inheritance and
overlays, so each problem is reported where the club can fix it, and a value inherited from
another file names that file. All problems of a file are collected and raised together.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from regelmotor.errors import Location, Problem, RulesetError, RulesetNotFound
from regelmotor.model.ruleset import Ruleset
from regelmotor.ruleset.catalogue import FileRef, find_file, is_path
from regelmotor.ruleset.checks import check_ruleset
from regelmotor.ruleset.fingerprint import ruleset_fingerprint
from regelmotor.ruleset.overlay import (
    BY_ENTRY,
    Gone,
    Layer,
    _drop_under,
    _inherited_words,
    _leaves,
    _without,
    bids_of,
    drop_orphaned_entries,
    drop_parents_english,
    merge,
    remove_inherited,
)
from regelmotor.ruleset.schema_check import _sorted, model_problem, read_file
from regelmotor.ruleset.settings import Setting, apply_settings
from regelmotor.ruleset.yaml_source import (
    Document,
    Path,
    locate,
)

# --- the resolved ruleset --------------------------------------------------------------------


@dataclass(frozen=True)
class HouseRuleInfo:
    """What a house-rule file says about itself."""

    name: str
    title: str
    description: str
    source: str
    title_en: str | None = None
    description_en: str | None = None
    """The title and line in English, for the English rule book (the Danish where the file gives none)."""


@dataclass(frozen=True)
class ResolvedRuleset:
    """A valid ruleset, the files it was built from, and where each value was written."""

    ruleset: Ruleset
    files: tuple[str, ...]
    house_rules: tuple[str, ...]
    values: dict[Path, Location] = field(repr=False, compare=False)
    keys: dict[Path, Location] = field(repr=False, compare=False)
    house_rule_info: tuple[HouseRuleInfo, ...] = ()
    warnings: tuple[Problem, ...] = ()
    """What is valid but likely not meant: a changed rule that still cites its parent's source, a table
    that keeps some of its parent's values."""
    root: str | None = None
    """The file the ruleset was loaded from, as it is displayed: the club's own (its parents and the house
    rules it lists are the others in ``files``)."""
    gone: tuple[Gone, ...] = field(default=(), repr=False, compare=False)
    """What an inherited file set and the resolved ruleset no longer has, and what took it out."""

    def own_sources(self) -> frozenset[str]:
        """The ``source:`` texts the club's own file writes (every one, when the file is not known)."""
        sources: set[str] = set()
        data = self.ruleset.model_dump(by_alias=True)
        for path, location in self.values.items():
            if not path or path[-1] != "source" or (self.root is not None and location.file != self.root):
                continue
            value: Any = data
            for step in path:
                in_list = isinstance(value, (list, tuple)) and isinstance(step, int) and 0 <= step < len(value)
                if in_list or (isinstance(value, dict) and step in value):
                    value = value[step]
                else:
                    value = None
                    break
            if isinstance(value, str):
                sources.add(value)
        return frozenset(sources)

    def set_at(self, path: Path) -> Location | None:
        """The file, line and column that wrote ``path`` itself; ``None`` for the model's default, which no
        file sets (``where`` would name the line that opens its section)."""
        return self.values.get(path)

    def where(self, path: Path) -> Location:
        """The file, line and column that set ``path`` (or its nearest written parent)."""
        return locate(self.values, self.keys, path, key=False, fallback=Location(self.files[-1], 1, 1))

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def label(self) -> str:
        """The name as a user wrote it: ``standard`` or ``standard + gaa-med``."""
        return " + ".join((self.ruleset.name, *self.house_rules))

    @property
    def fingerprint(self) -> str:
        """A hash of the rules (not their sources or prose), for game records."""
        return ruleset_fingerprint(self.ruleset)


# --- the resolver ----------------------------------------------------------------------------


MAX_EXTENDS = 16
"""Rulesets extend one another a few levels deep; a longer chain is a mistake (or an attack)."""
MAX_HOUSE_RULES = 32
"""More house rules than there are rules to change is a mistake (or an attack)."""


class _Resolver:
    def __init__(self, shipped_only: bool = False) -> None:
        self.shipped_only = shipped_only
        """Refuse every file path in ``extends`` and ``house_rules``: names of shipped files only (the web server)."""
        self.problems: list[Problem] = []
        self.files: list[str] = []
        self.house_rules: dict[str, HouseRuleInfo] = {}
        self.overlaid: set[str] = set()
        self.warnings: list[Problem] = []
        self.set_by: dict[Path, tuple[str, Any]] = {}
        self.removals: list[tuple[str, Location]] = []
        """Each file that removes what it inherits, and where its ``remove:`` is."""
        """Each rule a house rule has set: which one, and to what."""
        """House-rule files already applied: naming one again reads nothing."""
        self.gone: list[Gone] = []
        """What each file's rules no longer have of what it inherits (``remove:``, or a bid it left out)."""

    def read(self, ref: FileRef) -> Document | None:
        """The file's document when it has no problem of its own (all of them are recorded)."""
        doc, found = read_file(ref)
        self.problems.extend(found)
        return None if found else doc

    def find(self, doc: Document, key: Path, ref: Any, *, house_rule: bool, parent: FileRef) -> FileRef | None:
        if self.shipped_only and is_path(str(ref)):
            self.problems.append(Problem.said(doc.locate(key), key, "shipped_only", ref=str(ref)))
            return None
        try:
            return find_file(str(ref), house_rule=house_rule, relative_to=parent)
        except RulesetNotFound as exc:
            self.problems.append(Problem.said(doc.locate(key), key, "as_is", error=exc))
            return None

    def ruleset_layer(self, ref: FileRef, chain: tuple[tuple[str, str], ...] = ()) -> tuple[Layer, list[str]] | None:
        """The merged layer of ``ref`` and everything it extends, and the house rules applied."""
        shown = " -> ".join([display for _, display in chain] + [ref.display])
        if ref.identity in [identity for identity, _ in chain]:
            self.problems.append(Problem.said(Location(ref.display, 1, 1), ("extends",), "extends_circle", chain=shown))
            return None
        if len(chain) >= MAX_EXTENDS:
            self.problems.append(
                Problem.said(
                    Location(chain[-1][1], 1, 1),
                    ("extends",),
                    "extends_deep",
                    most=MAX_EXTENDS,
                    first=chain[0][1],
                    last=ref.display,
                )
            )
            return None
        doc = self.read(ref)
        if doc is None:
            return None
        if doc.data.get("kind") == "house_rule":
            self.problems.append(Problem.said(doc.locate(("kind",)), ("kind",), "extends_house_rule"))
            return None
        if "extends" in doc.data and "name" not in doc.data:
            self.problems.append(Problem.said(doc.locate(("extends",), key=True), ("name",), "extends_needs_name"))
        layer = Layer.of(doc)
        for key in ("kind", "extends", "house_rules", "remove"):
            layer.data.pop(key, None)
            _drop_under(layer.values, (key,))
            _drop_under(layer.keys, (key,))
        applied: list[str] = []
        base: Layer | None = None
        parent_display = ""
        if "extends" in doc.data:
            parent_ref = self.find(doc, ("extends",), doc.data["extends"], house_rule=False, parent=ref)
            if parent_ref is None:
                return None
            parent = self.ruleset_layer(parent_ref, (*chain, (ref.identity, ref.display)))
            if parent is None:
                return None
            base, applied = parent
            parent_display = parent_ref.display
        self.files.append(ref.display)
        names = doc.data.get("house_rules", [])
        if isinstance(names, list) and len(names) > MAX_HOUSE_RULES:
            self.problems.append(
                Problem.said(
                    doc.locate(("house_rules",)),
                    ("house_rules",),
                    "house_rules_many",
                    count=len(names),
                    most=MAX_HOUSE_RULES,
                )
            )
            return None
        # The precedence (docs/writing-a-ruleset.md): the parent, then the house rules the file lists, in
        # their order, then the file's own keys: what a club writes itself is what is played. The lists a
        # house rule changes entry by entry (designations, sol bids) and the plugins it adds are the
        # exception: its changes apply to the file's own list.
        own = layer
        if base is not None:
            layer, problems = merge(base, own)
            self.problems.extend(problems)
            drop_parents_english(layer, own)
        for i, name in enumerate(names):
            house_ref = self.find(doc, ("house_rules", i), name, house_rule=True, parent=ref)
            if house_ref is not None:
                layer = self.overlay(layer, house_ref, applied)
        if names:
            layer, problems = merge(layer, _without(own, BY_ENTRY))
            self.problems.extend(problems)
        if "remove" in doc.data:  # last: what the file takes away is gone, whoever set it
            if base is None:
                self.problems.append(
                    Problem.said(doc.locate(("remove",), key=True), ("remove",), "remove_extends_nothing")
                )
            else:
                self.removals.append((ref.display, doc.locate(("remove",), key=True)))
                self.problems.extend(remove_inherited(doc, layer, doc.data["remove"], self.gone))
        if base is not None:  # a parent's table entry for a bid this file's own list left out goes with it
            self.gone.extend(drop_orphaned_entries(doc, layer))
            self.warnings.extend(_inherited_words(doc, base, parent_display, bids_of(layer.data)))
        return layer, applied

    def contradictions(self, name: str, changes: Layer) -> None:
        """Two house rules that set the same rule to different values contradict each other: say so at the
        second, rather than let the later one win silently (its source is not a rule's word)."""
        for path, value in _leaves(changes.data):
            if path[-1] == "source" or path == ("plugins",):  # sources cite; plugins add up
                continue
            earlier = self.set_by.get(path)
            if earlier is not None and earlier[1] != value:
                where = changes.values.get(path) or changes.keys.get(path[:1]) or Location("?", 1, 1)
                self.problems.append(
                    Problem.said(
                        where,
                        path,
                        "house_rules_contradict",
                        rule=earlier[0],
                        earlier=json.dumps(earlier[1], ensure_ascii=False),  # as a file writes it: true, "alm"
                        value=json.dumps(value, ensure_ascii=False),
                    )
                )
            self.set_by.setdefault(path, (name, value))

    def overlay(self, layer: Layer, ref: FileRef, applied: list[str]) -> Layer:
        if ref.identity in self.overlaid:
            return layer
        self.overlaid.add(ref.identity)
        doc = self.read(ref)
        if doc is None:
            return layer
        if doc.data.get("kind") != "house_rule":
            self.problems.append(Problem.said(doc.locate(()), ("kind",), "house_rule_not"))
            return layer
        name = str(doc.data["name"])
        if name in applied:
            return layer
        applied.append(name)
        self.files.append(ref.display)
        data = doc.data
        self.house_rules[name] = HouseRuleInfo(
            name,
            str(data["title"]),
            str(data["description"]),
            str(data["source"]),
            None if data.get("title_en") is None else str(data["title_en"]),
            None if data.get("description_en") is None else str(data["description_en"]),
        )
        changes = Layer.of(doc, under=("changes",))
        self.contradictions(name, changes)
        merged, problems = merge(layer, changes, overlay=name)
        self.problems.extend(problems)
        return merged


def load_ruleset(
    ref: str | FileRef,
    house_rules: Sequence[str | FileRef] = (),
    *,
    shipped_only: bool = False,
    settings: Sequence[Setting] = (),
) -> ResolvedRuleset:
    """Load, merge and check a ruleset; raise ``RulesetError`` listing every problem.

    ``shipped_only``: every ``extends`` and house rule, in the files and in ``house_rules``, must name
    a shipped file; a path is a problem, and no file it names is read. ``settings``: numbers set in the
    merged ruleset before it is checked (a rule search's values: ``ruleset.settings``).
    """
    resolver = _Resolver(shipped_only)
    root = ref if isinstance(ref, FileRef) else find_file(ref, house_rule=False)
    built = resolver.ruleset_layer(root)
    if built is None:
        raise RulesetError(_sorted(resolver.problems))
    layer, applied = built
    if len(house_rules) > MAX_HOUSE_RULES:
        raise RulesetNotFound.said("house_rules_many", count=len(house_rules), most=MAX_HOUSE_RULES)
    for house in house_rules:
        if shipped_only and not isinstance(house, FileRef) and is_path(house):
            raise RulesetNotFound.said("house_rule_shipped_only", error=RulesetNotFound.said("shipped_only", ref=house))
        house_ref = house if isinstance(house, FileRef) else find_file(house, house_rule=True)
        layer = resolver.overlay(layer, house_ref, applied)
    if resolver.problems:
        raise RulesetError(_sorted(resolver.problems))
    fallback = Location(root.display, 1, 1)
    if settings:  # set in a copy: the files' data stay as they were read
        layer.data = copy.deepcopy(layer.data)
        apply_settings(layer.data, settings)

    def at(path: Path, *, key: bool = False) -> Location:
        return locate(layer.values, layer.keys, path, key=key, fallback=fallback)

    try:
        ruleset = Ruleset.model_validate(layer.data)
    except ValidationError as exc:
        raise RulesetError(_sorted(_after_removal(_model_problems(exc, layer.data, at), resolver.removals))) from None
    problems = [
        Problem(at(path), path, message)
        if isinstance(message, str)
        else Problem.said(at(path), path, "as_is", error=message)
        for path, message in check_ruleset(ruleset)
    ]
    if problems:
        raise RulesetError(_sorted(_after_removal(problems, resolver.removals)))
    info = tuple(resolver.house_rules[name] for name in applied)
    return ResolvedRuleset(
        ruleset,
        tuple(dict.fromkeys(resolver.files)),
        tuple(applied),
        layer.values,
        layer.keys,
        info,
        tuple(_sorted(resolver.warnings)),
        root.display,
        tuple(resolver.gone),
    )


def _after_removal(problems: list[Problem], removals: list[tuple[str, Location]]) -> list[Problem]:
    """A problem in an inherited file, where a file removes some of what it inherits, said at that file's
    ``remove:``: what is left of the inherited rules may lack what the removed entry gave them, and the
    club's file is where it is to be mended."""
    if not removals:
        return problems
    file, where = removals[-1]
    return [
        p if p.location.file == file else Problem.said(where, p.path, "removal_left", error=p, at=p.location)
        for p in problems
    ]


def _model_problems(exc: ValidationError, data: dict[str, Any], at: Any) -> list[Problem]:
    """The model's problems with the merged data, each at the key the club wrote (a part of pydantic's location
    that names no key is a member of a union, ``str`` or ``PluginUse``: passed over) and in its words."""
    problems = []
    for error in exc.errors():
        path: list[str | int] = []
        node: Any = data
        last = len(error["loc"]) - 1
        for i, part in enumerate(error["loc"]):
            if isinstance(node, dict) and part in node:  # noqa: SIM114 - mypy needs the list branch apart
                node = node[part]
                path.append(part)
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
                path.append(part)
            elif error["type"] == "missing" and i == last and isinstance(part, str) and isinstance(node, dict):
                path.append(part)
        where = tuple(path)
        if error["type"] == "missing" and where:
            problems.append(Problem.said(at(where), where, "missing", key=where[-1]))
        else:
            problems.append(model_problem(at(where), where, error))
    return problems
