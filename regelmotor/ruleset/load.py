"""Load a ruleset: files, ``extends``, house-rule overlays, schema, models, semantic checks.

Every value keeps the file, line and column it was written at, through inheritance and
overlays, so each problem is reported where the club can fix it, and a value inherited from
another file names that file. All problems of a file are collected and raised together.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path as FsPath
from typing import Any

import jsonschema
from pydantic import ValidationError

from regelmotor._data import data_dir
from regelmotor.errors import Location, Problem, RulesetError, RulesetNotFound
from regelmotor.ruleset.checks import check_ruleset
from regelmotor.ruleset.model import EXACT_DESCRIPTION, Ruleset
from regelmotor.ruleset.yaml_source import (
    MAX_BYTES,
    Document,
    Path,
    TooLarge,
    locate,
    read_bounded,
    read_document,
    read_document_lenient,
)

_SUFFIXES = (".yaml", ".yml")


# --- finding files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FileRef:
    """A ruleset or house-rule file: where it is, and how messages name it."""

    path: FsPath
    display: str
    shipped: str | None = None

    @property
    def identity(self) -> str:
        return str(self.path.resolve())


def _shipped_dir() -> FsPath:
    return data_dir("rulesets")


def shipped_rulesets() -> dict[str, FileRef]:
    """The rulesets that come with regelmotor, by name."""
    return {p.stem: FileRef(p, f"rulesets/{p.name}", p.stem) for p in sorted(_shipped_dir().glob("*.yaml"))}


def shipped_house_rules() -> dict[str, FileRef]:
    """The house-rule overlays that come with regelmotor, by name."""
    return {
        p.stem: FileRef(p, f"rulesets/house/{p.name}", p.stem)
        for p in sorted((_shipped_dir() / "house").glob("*.yaml"))
    }


def shipped_catalogue() -> list[dict[str, str]]:
    """Every shipped ruleset and house rule with its kind, name, title and one-line description."""
    entries = []
    for kind, refs in (("ruleset", shipped_rulesets()), ("house_rule", shipped_house_rules())):
        for name, ref in refs.items():
            data = read_document(ref.path.read_bytes(), ref.display).data
            title, description = str(data.get("title", "")), str(data.get("description", ""))
            entry = {"kind": kind, "name": name, "title": title, "description": description}
            if kind == "ruleset":
                entry["game"] = str(data.get("game", "esmakkerwhist"))
            entries.append(entry)
    return entries


def is_path(ref: str) -> bool:
    """A reference with a folder or a .yaml ending is a file; anything else a shipped name."""
    return ref.endswith(_SUFFIXES) or "/" in ref or "\\" in ref


def find_file(ref: str, *, house_rule: bool, relative_to: FileRef | None = None) -> FileRef:
    """Resolve a shipped name, or a path (relative to ``relative_to``'s folder, else the cwd)."""
    shipped = shipped_house_rules() if house_rule else shipped_rulesets()
    what = "house rule" if house_rule else "ruleset"
    if not is_path(ref):
        if ref in shipped:
            return shipped[ref]
        close = difflib.get_close_matches(ref, list(shipped), n=1)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
        raise RulesetNotFound(
            f'no shipped {what} is called "{ref}"{hint}; shipped: {", ".join(shipped)}; '
            "a file is named by a path ending in .yaml"
        )
    if relative_to is not None:
        path = relative_to.path.parent / ref
        display = str(FsPath(relative_to.display).parent / ref)
    else:
        path, display = FsPath(ref), ref
    if not path.is_file():
        raise RulesetNotFound(f'the {what} file "{display}" does not exist')
    return FileRef(path, display)


# --- schema validation of one file -----------------------------------------------------------


@cache
def committed_schema() -> dict[str, Any]:
    """The committed schema (schemas/ruleset.schema.json), which the loader validates against."""
    text = (data_dir("schemas") / "ruleset.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = committed_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator: jsonschema.protocols.Validator = cls(schema)
    return validator


_TYPE_NAMES = {
    "boolean": "true or false",
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "array": "a list",
    "object": "a mapping of keys to values",
    "null": "nothing (null)",
}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)


def _schema_error_problems(doc: Document, error: jsonschema.ValidationError) -> list[Problem]:
    path: Path = tuple(error.absolute_path)
    kind = error.validator
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    expected_value: Any = error.validator_value
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        problems = []
        for key in error.instance:
            if key in allowed:
                continue
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            where = doc.locate((*path, key), key=True)
            problems.append(Problem(where, (*path, key), f'unknown key "{key}"{hint}'))
        return problems
    if kind == "anyOf" and error.context:
        real = [e for e in error.context if not (e.validator == "type" and e.validator_value == "null")]
        best = jsonschema.exceptions.best_match(real) if real else None
        if best is not None and best.validator not in ("type", "anyOf"):
            return _schema_error_problems(doc, best)
        description = schema.get("description")
        expected = [
            _TYPE_NAMES.get(str(s.get("type")), str(s.get("const", s.get("type"))))
            for s in schema.get("anyOf", [])
            if s.get("type") != "null"
        ]
        message = f"{_show(error.instance)} is not allowed here: expected {' or '.join(expected)}"
        if description == EXACT_DESCRIPTION:
            message = (
                f'{_show(error.instance)} is not a number: write a whole number, a decimal or a fraction like "5/4"'
            )
        return [Problem(doc.locate(path), path, message)]
    if kind == "type":
        names = [expected_value] if isinstance(expected_value, str) else list(expected_value)
        message = f"expected {' or '.join(_TYPE_NAMES.get(n, n) for n in names)}, not {_show(error.instance)}"
    elif kind == "enum":
        options = ", ".join(_show(v) for v in expected_value)
        message = f"{_show(error.instance)} is not allowed here: choose one of {options}"
    elif kind == "const":
        message = f"{_show(error.instance)} is not allowed here: it must be {_show(error.validator_value)}"
    elif kind in ("minimum", "exclusiveMinimum"):
        message = f"{_show(error.instance)} is too small: the least allowed is {error.validator_value}"
    elif kind in ("maximum", "exclusiveMaximum"):
        message = f"{_show(error.instance)} is too large: the most allowed is {error.validator_value}"
    elif kind == "pattern":
        # The schema's own words for what the value must look like, not its regular expression.
        described = error.schema.get("description") if isinstance(error.schema, dict) else None
        rule = described or f"it must match {error.validator_value}"
        message = f"{_show(error.instance)} is not allowed here: {rule}"
    elif kind == "minLength":
        message = "must not be empty"
    elif kind == "minItems":
        message = f"the list needs at least {error.validator_value} item(s)"
    elif kind == "required":
        message = error.message.replace("'", '"').replace("is a required property", "is missing")
    else:
        message = error.message
    return [Problem(doc.locate(path), path, message)]


def read_file(ref: FileRef) -> tuple[Document | None, list[Problem]]:
    """A file's data and all of its own problems: YAML first, then the schema's elsewhere."""
    try:
        data = read_bounded(ref.path, MAX_BYTES)
    except OSError as exc:
        return None, [Problem(Location(ref.display, 1, 1), (), f"cannot read the file: {exc.strerror}")]
    except TooLarge as exc:
        return None, [Problem(Location(ref.display, 1, 1), (), f"{exc}; a ruleset is a few kilobytes")]
    doc, found = read_document_lenient(data, ref.display)
    if doc is not None:
        reported = [p.path for p in found]
        found += [
            p
            for p in schema_problems(doc)
            if not any(p.path[: len(r)] == r or r[: len(p.path)] == p.path for r in reported)
        ]
    return doc, _sorted(found)


def schema_problems(doc: Document) -> list[Problem]:
    problems: list[Problem] = []
    for error in _validator().iter_errors(doc.data):
        problems.extend(_schema_error_problems(doc, error))
    return _sorted(problems)


def _sorted(problems: Iterable[Problem]) -> list[Problem]:
    unique = {(p.location, p.path, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: (p.location.file, p.location.line, p.location.column, p.message))


# --- layers and merging ----------------------------------------------------------------------


@dataclass
class Layer:
    """Data being merged, with the location of each value and key."""

    data: dict[str, Any]
    values: dict[Path, Location] = field(default_factory=dict)
    keys: dict[Path, Location] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Document, *, under: Path = ()) -> Layer:
        """The part of ``doc`` below ``under``, with paths relative to it."""
        n = len(under)
        data: Any = doc.data
        for part in under:
            data = data[part]
        values = {p[n:]: loc for p, loc in doc.values.items() if p[:n] == under}
        keys = {p[n:]: loc for p, loc in doc.keys.items() if p[:n] == under and len(p) > n}
        return cls(_copy(data), values, keys)


BY_ENTRY = ("designations", "sol_bids", "plugins")
"""What a house rule changes entry by entry (or adds to), not as a whole: its changes stand over a file's own."""


def _without(layer: Layer, keys: tuple[str, ...]) -> Layer:
    """``layer`` but its top-level ``keys``."""
    data = {k: v for k, v in layer.data.items() if k not in keys}
    values = {p: loc for p, loc in layer.values.items() if not p or p[0] not in keys}
    names = {p: loc for p, loc in layer.keys.items() if not p or p[0] not in keys}
    return Layer(data, values, names)


def _drop_under(mapping: dict[Path, Location], prefix: Path) -> None:
    n = len(prefix)
    for path in [p for p in mapping if p[:n] == prefix]:
        del mapping[path]


SWITCHED_OFF = ("fordaekt", "doubling", "omblanding", "money")
"""Sections a ruleset may leave out, meaning the rule is not played (the model's default): a house rule
turns such a rule on in any ruleset, where a section the game lacks (``jokers`` in a 52-card game)
cannot be brought in by one."""


def _switched_off(key: str) -> dict[str, Any]:
    default = Ruleset.model_fields[key].default
    data: dict[str, Any] = default.model_dump(mode="json", exclude_none=True)
    return data


def merge(base: Layer, top: Layer, *, overlay: str | None = None) -> tuple[Layer, list[Problem]]:
    """Mappings merge (``top`` wins), lists and scalars are replaced whole.

    An overlay (a house rule) may not bring a whole new section into a ruleset that lacks it:
    ``jokers`` rules on a ruleset without jokers cannot apply, and saying so beats the
    confusing "missing key" errors a half section would give.
    """
    out = Layer(_copy(base.data), dict(base.values), dict(base.keys))
    problems: list[Problem] = []

    def walk(target: dict[str, Any], source: dict[str, Any], path: Path) -> None:
        for key, value in source.items():
            child = (*path, key)
            if isinstance(value, dict) and isinstance(target.get(key), dict):
                out.values[child] = top.values.get(child, out.values.get(child, Location("?", 1, 1)))
                walk(target[key], value, child)
                continue
            if overlay is not None and not path and key in SWITCHED_OFF and target.get(key) is None:
                target[key] = _switched_off(key)  # the model's default (off), for the house rule to turn on
            if overlay is not None and isinstance(value, dict) and target.get(key) is None:
                problems.append(
                    Problem(
                        top.keys.get(child) or top.values.get(child) or Location("?", 1, 1),
                        child,
                        f'the house rule "{overlay}" cannot apply: the ruleset has no "{key}" rules for it to change',
                    )
                )
                continue
            if overlay is not None and child == ("plugins",) and isinstance(value, list):
                _add_plugins(target, value, top, out)  # house rules add plugins; they never drop one
                continue
            if overlay is not None and child in (("designations",), ("sol_bids",)) and isinstance(value, list):
                problems.extend(_change_by_id(target, key, value, top, out, overlay))
                continue
            _drop_under(out.values, child)
            _drop_under(out.keys, child)
            target[key] = _copy(value)
            n = len(child)
            out.values.update({p: loc for p, loc in top.values.items() if p[:n] == child})
            out.keys.update({p: loc for p, loc in top.keys.items() if p[:n] == child})

    walk(out.data, top.data, ())
    return out, problems


def _change_by_id(
    target: dict[str, Any], key: str, changes: list[Any], top: Layer, out: Layer, overlay: str
) -> list[Problem]:
    """A house rule changes designations and sol bids by id: each entry merges into the one with its
    id (a new one, with its ``display``, is added), so it need not repeat the rest of the list."""
    current = target.get(key)
    items: list[Any] = current if isinstance(current, list) else []
    target[key] = items
    problems: list[Problem] = []
    for index, change in enumerate(changes):
        source: Path = (key, index)
        where = top.keys.get(source) or top.values.get(source) or Location("?", 1, 1)
        if not isinstance(change, dict) or not isinstance(change.get("id"), str):
            problems.append(Problem(where, source, f'a house rule names each of its {key} by "id"'))
            continue
        ids = [item.get("id") if isinstance(item, dict) else None for item in items]
        if change["id"] not in ids and "display" not in change:
            problems.append(
                Problem(
                    where,
                    (*source, "id"),
                    f'the house rule "{overlay}" cannot apply: the ruleset has no {key} entry "{change["id"]}" '
                    '(a new one needs its "display" and the rest of its keys)',
                )
            )
            continue
        at = ids.index(change["id"]) if change["id"] in ids else len(items)
        shifted = Layer(
            {key: {str(at): change}},
            {(key, str(at), *p[2:]): loc for p, loc in top.values.items() if p[:2] == source},
            {(key, str(at), *p[2:]): loc for p, loc in top.keys.items() if p[:2] == source},
        )
        base = Layer({key: {str(at): items[at] if at < len(items) else {}}}, {}, {})
        # a new entry is added whole; only a change to an existing one must find what it changes
        merged, found = merge(base, shifted, overlay=overlay if at < len(items) else None)
        problems.extend(found)
        entry = merged.data[key][str(at)]
        if at < len(items):
            items[at] = entry
        else:
            items.append(entry)
        for mapping, into in ((merged.values, out.values), (merged.keys, out.keys)):
            into.update({(key, at, *p[2:]): loc for p, loc in mapping.items() if p[:2] == (key, str(at))})
    return problems


_OWN_WORDS = {"name", "title", "description", "source", "kind", "extends", "house_rules", "notes", "plugins"}


def _at(data: Any, path: Path) -> Any:
    for part in path:
        if isinstance(data, dict) and part in data:  # noqa: SIM114 - mypy needs the list branch apart
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return _MISSING
    return data


_MISSING = object()


def _inherited_words(doc: Document, base: Layer, parent: str) -> Iterator[Problem]:
    """Warnings for a file that extends another: a rule it changes whose ``source`` is still the parent's
    words, and a point table it gives only some values of (the rest are the parent's)."""
    warned: set[Path] = set()
    for path, location in sorted(doc.values.items(), key=lambda item: (item[1].line, item[1].column)):
        if not path or path[0] in _OWN_WORDS or path[-1] == "source":
            continue
        if path[:2] == ("scoring", "tables") and len(path) == 4 and path[3] == "values":
            own, inherited = _at(doc.data, path), _at(base.data, path)
            if isinstance(own, dict) and isinstance(inherited, dict):
                kept = [str(k) for k in inherited if k not in own]
                if kept:
                    message = (
                        f"the table keeps {parent}'s values for {', '.join(kept)}: "
                        "give every value if you mean a table of your own"
                    )
                    yield Problem(doc.locate(path, key=True), path, f"warning: {message}")
            continue
        if _at(doc.data, path) == _at(base.data, path) or isinstance(_at(doc.data, path), dict):
            continue
        owner = path[:-1]
        while owner and not (isinstance(_at(base.data, owner), dict) and "source" in _at(base.data, owner)):
            owner = owner[:-1]
        if owner in warned or (*owner, "source") in doc.values or _at(base.data, (*owner, "source")) is _MISSING:
            continue
        warned.add(owner)
        message = (
            f"changed here, but this rule's source is still {parent}'s words: "
            "give it a source of its own (what your club decided, and where)"
        )
        yield Problem(location, path, f"warning: {message}")


def _leaves(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value below a mapping, by key path; lists (designations by id aside) are values."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list) and path[-1:] in (("designations",), ("sol_bids",)):
        for entry in data:
            if isinstance(entry, dict) and "id" in entry:
                yield from _leaves({k: v for k, v in entry.items() if k != "id"}, (*path, str(entry["id"])))
    else:
        yield path, data


def _plugin_name(entry: Any) -> Any:
    return entry.get("name") if isinstance(entry, dict) else entry


def _add_plugins(target: dict[str, Any], added: list[Any], top: Layer, out: Layer) -> None:
    """A house rule's plugins join the ruleset's (one naming a plugin already there replaces its settings)."""
    current = target.get("plugins")
    plugins: list[Any] = list(current) if isinstance(current, list) else []
    for index, entry in enumerate(added):
        names = [_plugin_name(p) for p in plugins]
        name = _plugin_name(entry)
        at = names.index(name) if name in names else len(plugins)
        if at == len(plugins):
            plugins.append(_copy(entry))
        else:
            plugins[at] = _copy(entry)
        source, dest = ("plugins", index), ("plugins", at)
        _drop_under(out.values, dest)
        _drop_under(out.keys, dest)
        for mapping, into in ((top.values, out.values), (top.keys, out.keys)):
            into.update({(*dest, *p[2:]): loc for p, loc in mapping.items() if p[:2] == source})
    target["plugins"] = plugins
    if ("plugins",) in top.keys:
        out.keys.setdefault(("plugins",), top.keys[("plugins",)])


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


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


def ruleset_fingerprint(ruleset: Ruleset) -> str:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("source", "title", "description")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    canonical = json.dumps(strip(ruleset.model_dump(mode="json")), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


# --- the resolver ----------------------------------------------------------------------------


SHIPPED_ONLY = (
    "only a shipped ruleset or house rule, by its name, may be named here (this server reads no file by a "
    "path a client names)"
)


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
        """Each rule a house rule has set: which one, and to what."""
        """House-rule files already applied: naming one again reads nothing."""

    def read(self, ref: FileRef) -> Document | None:
        """The file's document when it has no problem of its own (all of them are recorded)."""
        doc, found = read_file(ref)
        self.problems.extend(found)
        return None if found else doc

    def find(self, doc: Document, key: Path, ref: Any, *, house_rule: bool, parent: FileRef) -> FileRef | None:
        if self.shipped_only and is_path(str(ref)):
            self.problems.append(Problem(doc.locate(key), key, f'"{ref}": {SHIPPED_ONLY}'))
            return None
        try:
            return find_file(str(ref), house_rule=house_rule, relative_to=parent)
        except RulesetNotFound as exc:
            self.problems.append(Problem(doc.locate(key), key, str(exc)))
            return None

    def ruleset_layer(self, ref: FileRef, chain: tuple[tuple[str, str], ...] = ()) -> tuple[Layer, list[str]] | None:
        """The merged layer of ``ref`` and everything it extends, and the house rules applied."""
        shown = " -> ".join([display for _, display in chain] + [ref.display])
        if ref.identity in [identity for identity, _ in chain]:
            self.problems.append(
                Problem(Location(ref.display, 1, 1), ("extends",), f'"extends" goes round in a circle: {shown}')
            )
            return None
        if len(chain) >= MAX_EXTENDS:
            message = f'"extends" goes more than {MAX_EXTENDS} files deep: {chain[0][1]} -> ... -> {ref.display}'
            self.problems.append(Problem(Location(chain[-1][1], 1, 1), ("extends",), message))
            return None
        doc = self.read(ref)
        if doc is None:
            return None
        if doc.data.get("kind") == "house_rule":
            self.problems.append(
                Problem(
                    doc.locate(("kind",)),
                    ("kind",),
                    "this is a house rule, not a ruleset: add it with -H/--house-rule or house_rules:",
                )
            )
            return None
        if "extends" in doc.data and "name" not in doc.data:
            message = 'a ruleset that extends another needs its own "name:", or it would be shown as its parent'
            self.problems.append(Problem(doc.locate(("extends",), key=True), ("name",), message))
        layer = Layer.of(doc)
        for key in ("kind", "extends", "house_rules"):
            layer.data.pop(key, None)
            _drop_under(layer.values, (key,))
            _drop_under(layer.keys, (key,))
        applied: list[str] = []
        base: Layer | None = None
        if "extends" in doc.data:
            parent_ref = self.find(doc, ("extends",), doc.data["extends"], house_rule=False, parent=ref)
            if parent_ref is None:
                return None
            parent = self.ruleset_layer(parent_ref, (*chain, (ref.identity, ref.display)))
            if parent is None:
                return None
            base, applied = parent
            self.warnings.extend(_inherited_words(doc, base, parent_ref.display))
        self.files.append(ref.display)
        names = doc.data.get("house_rules", [])
        if isinstance(names, list) and len(names) > MAX_HOUSE_RULES:
            message = f"{len(names)} house rules: at most {MAX_HOUSE_RULES} (name each once)"
            self.problems.append(Problem(doc.locate(("house_rules",)), ("house_rules",), message))
            return None
        # The precedence (docs/writing-a-ruleset.md): the parent, then the house rules the file lists, in
        # their order, then the file's own keys: what a club writes itself is what is played. The lists a
        # house rule changes entry by entry (designations, sol bids) and the plugins it adds are the
        # exception: its changes apply to the file's own list.
        own = layer
        if base is not None:
            layer, problems = merge(base, own)
            self.problems.extend(problems)
        for i, name in enumerate(names):
            house_ref = self.find(doc, ("house_rules", i), name, house_rule=True, parent=ref)
            if house_ref is not None:
                layer = self.overlay(layer, house_ref, applied)
        if names:
            layer, problems = merge(layer, _without(own, BY_ENTRY))
            self.problems.extend(problems)
        return layer, applied

    def contradictions(self, name: str, changes: Layer) -> None:
        """Two house rules that set the same rule to different values contradict each other: say so at the
        second, rather than let the later one win silently (its source is not a rule's word)."""
        for path, value in _leaves(changes.data):
            if path[-1] == "source" or path == ("plugins",):  # sources cite; plugins add up
                continue
            earlier = self.set_by.get(path)
            if earlier is not None and earlier[1] != value:
                message = (
                    f'contradicts the house rule "{earlier[0]}", which sets it to {earlier[1]!r}, '
                    f"while this one sets {value!r}: apply one of them"
                )
                where = changes.values.get(path) or changes.keys.get(path[:1]) or Location("?", 1, 1)
                self.problems.append(Problem(where, path, message))
            self.set_by.setdefault(path, (name, value))

    def overlay(self, layer: Layer, ref: FileRef, applied: list[str]) -> Layer:
        if ref.identity in self.overlaid:
            return layer
        self.overlaid.add(ref.identity)
        doc = self.read(ref)
        if doc is None:
            return layer
        if doc.data.get("kind") != "house_rule":
            self.problems.append(
                Problem(
                    doc.locate(()), ("kind",), 'this is not a house rule: a house-rule file says "kind: house_rule"'
                )
            )
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
    ref: str | FileRef, house_rules: Sequence[str | FileRef] = (), *, shipped_only: bool = False
) -> ResolvedRuleset:
    """Load, merge and check a ruleset; raise ``RulesetError`` listing every problem.

    ``shipped_only``: every ``extends`` and house rule, in the files and in ``house_rules``, must name
    a shipped file; a path is a problem, and no file it names is read.
    """
    resolver = _Resolver(shipped_only)
    root = ref if isinstance(ref, FileRef) else find_file(ref, house_rule=False)
    built = resolver.ruleset_layer(root)
    if built is None:
        raise RulesetError(_sorted(resolver.problems))
    layer, applied = built
    if len(house_rules) > MAX_HOUSE_RULES:
        raise RulesetNotFound(f"{len(house_rules)} house rules: at most {MAX_HOUSE_RULES} (name each once)")
    for house in house_rules:
        if shipped_only and not isinstance(house, FileRef) and is_path(house):
            raise RulesetNotFound(f'house rule "{house}": {SHIPPED_ONLY}')
        house_ref = house if isinstance(house, FileRef) else find_file(house, house_rule=True)
        layer = resolver.overlay(layer, house_ref, applied)
    if resolver.problems:
        raise RulesetError(_sorted(resolver.problems))
    fallback = Location(root.display, 1, 1)

    def at(path: Path, *, key: bool = False) -> Location:
        return locate(layer.values, layer.keys, path, key=key, fallback=fallback)

    try:
        ruleset = Ruleset.model_validate(layer.data)
    except ValidationError as exc:
        raise RulesetError(_sorted(_model_problems(exc, layer.data, at))) from None
    problems = [Problem(at(path), path, message) for path, message in check_ruleset(ruleset)]
    if problems:
        raise RulesetError(_sorted(problems))
    info = tuple(resolver.house_rules[name] for name in applied)
    return ResolvedRuleset(
        ruleset,
        tuple(dict.fromkeys(resolver.files)),
        tuple(applied),
        layer.values,
        layer.keys,
        info,
        tuple(_sorted(resolver.warnings)),
    )


def _model_problems(exc: ValidationError, data: dict[str, Any], at: Any) -> list[Problem]:
    problems = []
    for error in exc.errors():
        path: list[str | int] = []
        node: Any = data
        for part in error["loc"]:
            if isinstance(node, dict) and part in node:  # noqa: SIM114 - mypy needs the list branch apart
                node = node[part]
                path.append(part)
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
                path.append(part)
            elif error["type"] == "missing" and isinstance(part, str) and isinstance(node, dict):
                path.append(part)
                break
        where = tuple(path)
        if error["type"] == "missing":
            message = f'"{where[-1]}" is missing: this rule must be given (here or in the ruleset it extends)'
        else:
            message = error["msg"]
        problems.append(Problem(at(where), where, message))
    return problems


def validate_file(path: str) -> list[Problem]:
    """Every problem of one file: a ruleset (resolved with what it extends) or a house rule."""
    return check_file(path)[0]


def check_file(path: str) -> tuple[list[Problem], list[Problem]]:
    """Every problem of one file, and its warnings (valid, but likely not meant)."""
    try:
        ref = find_file(path, house_rule=False)
    except RulesetNotFound as exc:
        return [Problem(Location(path, 1, 1), (), str(exc))], []
    doc, found = read_file(ref)
    if doc is None or found or doc.data.get("kind") == "house_rule":
        return found, []
    try:
        resolved = load_ruleset(ref)
    except RulesetError as exc:
        return exc.problems, []
    from regelmotor.ruleset.compile import compile_problems

    return compile_problems(resolved), list(resolved.warnings)
