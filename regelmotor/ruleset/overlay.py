"""The overlay algebra: layers of ruleset data merged with every value's location kept.

A file extends its parent, listed house rules overlay it, and the file's own keys are merged last
(the precedence ``docs/writing-a-ruleset.md`` states); entries of ``BY_ENTRY`` lists are changed by id."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from regelmotor.bids import fold
from regelmotor.errors import Location, Problem, format_path
from regelmotor.model.ruleset import ENGLISH_OF, WORDS, Ruleset
from regelmotor.phrase_table import Word
from regelmotor.ruleset.yaml_source import (
    Document,
    Path,
)


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


def drop_parents_english(layer: Layer, own: Layer) -> None:
    """Take out of ``layer`` (a file merged on its parent) the parent's English for what the file says itself."""
    for said, english in ENGLISH_OF.items():
        if said in own.data and english not in own.data:
            layer.data.pop(english, None)
            _drop_under(layer.values, (english,))
            _drop_under(layer.keys, (english,))


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
                    Problem.said(
                        top.keys.get(child) or top.values.get(child) or Location("?", 1, 1),
                        child,
                        "house_rule_no_section",
                        rule=overlay,
                        key=key,
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
            problems.append(Problem.said(where, source, "house_rule_by_id", key=key))
            continue
        ids = [item.get("id") if isinstance(item, dict) else None for item in items]
        if change["id"] not in ids and "display" not in change:
            problems.append(
                Problem.said(where, (*source, "id"), "house_rule_no_entry", rule=overlay, key=key, id=change["id"])
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


_OWN_WORDS = {"name", "source", *WORDS, "kind", "extends", "house_rules", "notes", "plugins"}


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


def _inherited_words(doc: Document, base: Layer, parent: str, bids: set[str]) -> Iterator[Problem]:
    """Warnings for a file that extends another: a rule it changes whose ``source`` is still the parent's
    words, and a point table it gives only some values of (the rest are the parent's; an entry for a bid
    the file's rules no longer have, one of ``bids``, goes with its bid and is not kept)."""
    warned: set[Path] = set()
    for path, location in sorted(doc.values.items(), key=lambda item: (item[1].line, item[1].column)):
        if not path or path[0] in _OWN_WORDS or path[-1] == "source":
            continue
        if path[:2] == ("scoring", "tables") and len(path) == 4 and path[3] == "values":
            own, inherited = _at(doc.data, path), _at(base.data, path)
            if isinstance(own, dict) and isinstance(inherited, dict):
                by_bid = _at(base.data, (*path[:3], "key")) == "bid" or _at(doc.data, (*path[:3], "key")) == "bid"
                kept = [str(k) for k in inherited if k not in own and (not by_bid or str(k) in bids)]
                if kept:
                    where = doc.locate(path, key=True)
                    yield Problem.said(where, path, "warn_table_keeps", parent=parent, kept=", ".join(kept))
            continue
        if _at(doc.data, path) == _at(base.data, path) or isinstance(_at(doc.data, path), dict):
            continue
        owner = path[:-1]
        while owner and not (isinstance(_at(base.data, owner), dict) and "source" in _at(base.data, owner)):
            owner = owner[:-1]
        own = any((*path[:depth], "source") in doc.values for depth in range(len(owner), len(path)))
        if own or owner in warned or _at(base.data, (*owner, "source")) is _MISSING:  # own: a source nearer
            continue
        warned.add(owner)
        if owner:  # where the club's own source goes: the section whose source it inherits
            yield Problem.said(location, path, "warn_source", parent=parent, section=format_path(owner, first=1))
        else:
            yield Problem.said(location, path, "warn_source_top", parent=parent)


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


REMOVABLE = {"designations": "designation", "sol_bids": "sol bid"}
"""The lists a file may take entries out of by id (``remove:``), and what an entry is called."""


def _shift_out(mapping: dict[Path, Location], key: str, at: int) -> None:
    """``mapping`` without the entry ``key[at]``, the entries after it moved up one place."""
    moved: dict[Path, Location] = {}
    for path in list(mapping):
        if len(path) >= 2 and path[0] == key and isinstance(path[1], int) and path[1] >= at:
            location = mapping.pop(path)
            if path[1] > at:
                moved[(key, path[1] - 1, *path[2:])] = location
    mapping.update(moved)


def remove_inherited(doc: Document, layer: Layer, removal: Any, gone: list[Gone] | None = None) -> list[Problem]:
    """Take what ``removal`` (a file's ``remove:``) names out of ``layer``, the file's merged rules.

    Designations and sol bids go by id (read as the ladder reads names: ``ren bordlaegger`` is ``ren
    bordlægger``), and their entries in the point tables keyed by bid go with them (they can no longer
    apply); a table entry goes by its table and key. Naming what is not there, or removing what the same
    file sets, is an error at the ``remove:`` entry. What is taken out is added to ``gone``.
    """
    problems: list[Problem] = []
    taken: list[Gone] = [] if gone is None else gone

    def take(path: Path, by: Path, stored: Path | None = None) -> None:
        at = path if stored is None else stored  # a list's entries are stored by index, shown by id
        written = layer.values.get(at) or layer.keys.get(at) or Location("?", 1, 1)
        taken.append(Gone(path, written, "gone_removed", doc.locate(by)))

    if not isinstance(removal, dict):
        return problems  # the schema has said what is wrong with it
    for key in REMOVABLE:
        for index, ident in enumerate(removal.get(key) or []):
            path: Path = ("remove", key, index)
            where = doc.locate(path)
            items = layer.data.get(key)
            entries: list[Any] = items if isinstance(items, list) else []
            ids = [e.get("id") if isinstance(e, dict) else None for e in entries]
            ident = next((i for i in ids if isinstance(i, str) and fold(i) == fold(str(ident))), ident)
            if ident not in ids:
                there = ", ".join(str(i) for i in ids if i is not None) or Word("none")
                problems.append(Problem.said(where, path, f"remove_none_{key}", ident=ident, there=there))
                continue
            own = doc.data.get(key)
            if isinstance(own, list) and any(isinstance(e, dict) and e.get("id") == ident for e in own):
                problems.append(Problem.said(where, path, f"remove_and_set_{key}", ident=ident))
                continue
            at = ids.index(ident)
            take((key, ident), path, (key, at))
            del entries[at]
            _shift_out(layer.values, key, at)
            _shift_out(layer.keys, key, at)
            # the entries of the point tables keyed by bid that name it go with it
            for name, table in _tables(layer).items():
                values = table.get("values") if isinstance(table, dict) else None
                if isinstance(values, dict) and table.get("key") == "bid" and ident in values:
                    take(("scoring", "tables", name, "values", ident), path)
                    _drop_entry(layer, name, ident)
    if removal.get("designations"):  # the tiers left close up: alm < vip < gode less vip is alm < gode
        entries = [e for e in layer.data.get("designations") or [] if isinstance(e, dict)]
        tiers = sorted({e["tier"] for e in entries if isinstance(e.get("tier"), int)})
        for entry in entries:
            if isinstance(entry.get("tier"), int):
                entry["tier"] = tiers.index(entry["tier"])
    for name, keys in (removal.get("tables") or {}).items():
        tables = _tables(layer)
        table = tables.get(name)
        for index, entry in enumerate(keys or []):
            path = ("remove", "tables", name, index)
            where = doc.locate(path)
            values = table.get("values") if isinstance(table, dict) else None
            if not isinstance(values, dict):
                there = ", ".join(tables) or Word("none")
                problems.append(Problem.said(where, path, "remove_no_table", name=name, there=there))
                break
            found = next((k for k in values if str(k) == str(entry)), None)
            if found is None:
                there = ", ".join(str(k) for k in values)
                problems.append(Problem.said(where, path, "remove_no_entry", name=name, entry=entry, there=there))
                continue
            own = _at(doc.data, ("scoring", "tables", name, "values"))
            if isinstance(own, dict) and found in own:
                problems.append(Problem.said(where, path, "remove_and_set_entry", name=name, entry=entry))
                continue
            take(("scoring", "tables", name, "values", found), path)
            _drop_entry(layer, name, found)
    return problems


def _tables(layer: Layer) -> dict[str, Any]:
    """The merged point tables, by name (none where the rules have no scoring section yet)."""
    scoring = layer.data.get("scoring")
    tables = scoring.get("tables") if isinstance(scoring, dict) else None
    return tables if isinstance(tables, dict) else {}


@dataclass(frozen=True)
class Gone:
    """An inherited value the resolved ruleset no longer has, where it was written, and what took it out
    (``show --where`` lists them, so a club sees where its parent's entry went)."""

    path: Path
    written: Location
    phrase: str
    """``gone_removed`` (the file's ``remove:``) or ``gone_no_bid`` (the bid it is keyed by is gone)."""
    by: Location


def bids_of(data: dict[str, Any]) -> set[str]:
    """The bids a point table keyed by bid may name: the designations, the sol bids and the contract
    played when all pass (``Ruleset.named_bids`` over raw data, before the model is built)."""
    entries = [*(data.get("designations") or []), *(data.get("sol_bids") or [])]
    all_pass = data.get("all_pass")
    contract = all_pass.get("contract") if isinstance(all_pass, dict) else None
    entries.append(contract)
    return {str(e["id"]) for e in entries if isinstance(e, dict) and e.get("id") is not None}


def drop_orphaned_entries(doc: Document, layer: Layer) -> list[Gone]:
    """Inherited entries of the point tables keyed by bid whose bid the file's rules no longer have.

    A club that writes its own ``sol_bids:`` replaces the list whole, and its parent's table entries for
    the bids it left out can no longer apply: they go with the bid (as ``remove:`` takes them), where an
    error would point at a line in a file the club cannot edit. An entry the file itself writes for a
    bid that does not exist stays, and is an error at the club's own line.
    """
    bids = bids_of(layer.data)
    gone: list[Gone] = []
    list_key = next((k for k in ("sol_bids", "designations") if k in doc.data), None)
    by = doc.locate((list_key,), key=True) if list_key else doc.locate(())  # the list that left the bid out
    for name, table in _tables(layer).items():
        values = table.get("values") if isinstance(table, dict) else None
        if not isinstance(values, dict) or table.get("key") != "bid":
            continue
        for key in [k for k in values if str(k) not in bids]:
            path: Path = ("scoring", "tables", name, "values", key)
            written = layer.values.get(path) or layer.keys.get(path) or Location("?", 1, 1)
            if written.file == doc.file:
                continue
            _drop_entry(layer, name, key)
            gone.append(Gone(path, written, "gone_no_bid", by))
    return gone


def _drop_entry(layer: Layer, table: str, key: Any) -> None:
    """One entry out of a point table, with the locations of what was written under it."""
    del layer.data["scoring"]["tables"][table]["values"][key]
    for mapping in (layer.values, layer.keys):
        _drop_under(mapping, ("scoring", "tables", table, "values", key))
