"""The club's rules as a form, generated from the ruleset schema and the rule families, never written key by key:
every setting the schema allows, grouped by the family that owns it (``rules.families``), said in the schema's
Danish (its field descriptions, the words ``diff`` labels a rule with) and the English labels beside them, with
the club's value, the value it would have without its own line (its parent's, with the house rules it lists),
and who set it. A key added to a family's model is in the form without a line here.

A field's kind follows its schema: yes/no is a switch, an enum a choice, a set of enum values (the suits to
choose trump from) a set of switches, a number a number, a formula a formula, a point table a table, any other
list a list. Only what the schema lets a club write is offered: ids and names of entries, and fixed values,
are not fields.

A change of a field is written into the file by ``change_text``: the key at the field's path, or the whole list
for an entry of one (``designations``, ``sol_bids``), and taken out where it equals the parent's, compared as the
rules' model reads both (``1.5`` is ``"3/2"``, an entry's left-out keys are its defaults). For a file that extends
nothing, the parent is the model's defaults: a key set back to its default goes, and a key of a section such a
file does not write brings the section whole (the model fills only a section that is not there at all).
``tests/test_club_page.py`` holds every field to it: a change is the value chosen or a problem ``validate`` says
at its place, and set back, the file is as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from regelmotor.diff import ENGLISH_VALUE_WORDS, VALUE_WORDS, label_of
from regelmotor.model.ruleset import WORDS
from regelmotor.rules.families import FAMILIES, family_of
from regelmotor.ruleset.catalogue import shipped_house_rules
from regelmotor.ruleset.load import ResolvedRuleset
from regelmotor.ruleset.schema_check import committed_schema
from regelmotor.web.club_yaml import FILE_HEAD, REMOVE, ClubYamlError, with_house_rule, write_key, written

Key = tuple[str | int, ...]

HEADER = ("kind", "extends", "house_rules", "remove")
"""A file's own keys that are no rule: what it builds on and what it takes away (the page's header)."""
SKIPPED = ("id", "notes", "plugins", "same_rank_as")
"""Keys that name or add, not set: an entry's id (its tables are keyed by it), the club's notes (prose the page
leaves to the file) and the plugins (code the server does not load by a page's word)."""
UNORDERED = (("trump", "choices"), ("table", "players"), ("sitting_out", "seats"), ("jernhaand", "court_ranks"))
"""Lists of enum values whose order means nothing: a set of switches (as ``diff`` compares them as sets)."""
FORMULAS = ("formula", "made", "failed")
MAX_LIST = 40
"""The most items a list field takes (a dealing pattern has 16-17)."""


def _defs() -> dict[str, Any]:
    defs: dict[str, Any] = committed_schema()["$defs"]
    return defs


def _plain(node: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A schema node with its ``$ref`` and nullable ``anyOf`` followed, and whether null is allowed."""
    nullable = False
    defs = _defs()
    while True:
        if "$ref" in node:
            node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
        elif "anyOf" in node and not _is_exact(node):
            others = [n for n in node["anyOf"] if n.get("type") != "null"]
            nullable = nullable or len(others) < len(node["anyOf"])
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            node = {**others[0], **rest} if len(others) == 1 else {**rest, "anyOf": others}
            if len(others) != 1:
                return node, nullable
        else:
            return node, nullable


def _is_exact(node: dict[str, Any]) -> bool:
    """An exact number (``model.Exact``): a whole number, a number or a fraction written as text."""
    shapes = sorted((s.get("type"), "pattern" in s) for s in node.get("anyOf", []) if s.get("type") != "null")
    return shapes == [("integer", False), ("number", False), ("string", True)]


def _option(value: Any) -> dict[str, Any]:
    text = str(value)
    return {
        "value": value,
        "label": VALUE_WORDS.get(text, text),
        "label_en": ENGLISH_VALUE_WORDS.get(text, text.replace("_", " ")),
    }


def _at(data: Any, key: Key) -> Any:
    for part in key:
        if isinstance(data, dict) and part in data:  # noqa: SIM114 - mypy needs the list branch apart
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _shown_path(key: Key, data: dict[str, Any]) -> str:
    """The key as a club reads it: a list's entry by its id (``designations[vip].trump.turns``)."""
    parts: list[str] = []
    node: Any = data
    for part in key:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            name = item.get("id", item.get("players")) if isinstance(item, dict) else None
            parts[-1] += f"[{name if name is not None else part + 1}]"
        else:
            parts.append(str(part))
        node = _at(node, (part,))
    return ".".join(parts)


def _fields(node: dict[str, Any], key: Key, data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every field under ``key``, walking its schema beside the resolved rules' data."""
    node, nullable = _plain(node)
    described = node.get("description", "")
    name = key[-1] if key else None
    if node.get("type") == "object" and "properties" in node:
        for prop, child in node["properties"].items():
            if prop in ("source", *SKIPPED, *(HEADER if not key else ())) or "const" in child:
                continue
            yield from _fields(child, (*key, prop), data)
        return
    if node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict):
        inner, _ = _plain(node["additionalProperties"])
        value = _at(data, key) or {}
        if inner.get("type") == "object":  # named entries (the point tables): each as its own fields
            for entry in value:
                yield from _fields(node["additionalProperties"], (*key, entry), data)
            return
        yield _field(key, "table", data, described, nullable)
        return
    if node.get("type") == "array":
        items, _ = _plain(node.get("items", {}))
        if items.get("type") == "object":  # entries: each entry's fields, written as the whole list
            for i, _entry in enumerate(_at(data, key) or []):
                yield from _fields(node["items"], (*key, i), data)
            return
        field = _field(key, "list", data, described, nullable)
        if "enum" in items:
            field["options"] = [_option(v) for v in items["enum"]]
            above = [p for p in key if isinstance(p, str)]
            if (len(above) >= 2 and (above[-2], above[-1]) in UNORDERED) or (key[-1] == "choices"):
                field["kind"] = "set"
        field["items"] = "number" if items.get("type") == "integer" else "enum" if "enum" in items else "mixed"
        yield field
        return
    if node.get("type") == "boolean":
        yield _field(key, "switch", data, described, nullable)
    elif "enum" in node:
        field = _field(key, "choice", data, described, nullable)
        field["options"] = [_option(v) for v in node["enum"]]
        yield field
    elif node.get("type") in ("integer", "number") or _is_exact(node) or "anyOf" in node:
        field = _field(key, "number", data, described, nullable)
        for bound in ("minimum", "maximum"):
            if bound in node:
                field[bound[:3]] = node[bound]
        field["whole"] = node.get("type") == "integer"
        yield field
    elif node.get("type") == "string":
        yield _field(key, "formula" if name in FORMULAS else "text", data, described, nullable)


def _field(key: Key, kind: str, data: dict[str, Any], described: str, nullable: bool) -> dict[str, Any]:
    label_key = tuple(f"[{p}]" if isinstance(p, int) else p for p in key)
    return {
        "key": list(key),
        "path": _shown_path(key, data),
        "kind": kind,
        "label": label_of(label_key, "da"),
        "label_en": label_of(label_key, "en"),
        "sentence": described,
        "nullable": nullable,
    }


def _source(data: dict[str, Any], key: Key) -> str | None:
    """The innermost ``source:`` on the key's path: the rule the value belongs to, as the file cites it."""
    found = data.get("source")
    node: Any = data
    for part in key:
        node = _at(node, (part,))
        if isinstance(node, dict) and node.get("source"):
            found = node["source"]
    return str(found) if found else None


def _origin(resolved: ResolvedRuleset, key: Key) -> tuple[str, str | None]:
    """Who set the value: ``own`` (the club's file), ``house_rule`` (a house rule it lists), ``parent`` (what it
    extends) or ``default`` (no file: the model's default), and the file's name."""
    at = resolved.set_at(key)
    if at is None:
        return "default", None
    if at.file == resolved.root:
        return "own", at.file
    if "/house/" in at.file or at.file.startswith("house/"):
        return "house_rule", at.file.rsplit("/", 1)[-1].removesuffix(".yaml")
    return "parent", at.file


def build_form(resolved: ResolvedRuleset, base: ResolvedRuleset | None, text: str) -> dict[str, Any]:
    """The form of a club's rules: the groups (a rule family each, in the families' order), each field with its
    value, its parent's value (``inherited``), where the value comes from and its source; the house rules as
    switches; and the file's header (``extends``, the house rules it lists)."""
    data = resolved.ruleset.model_dump(mode="json", by_alias=True)
    base_data = base.ruleset.model_dump(mode="json", by_alias=True) if base is not None else None
    groups: dict[str, list[dict[str, Any]]] = {family.name: [] for family in FAMILIES}
    for field in _fields(_defs()["RulesetFile"], (), data):
        key = tuple(field["key"])
        field["value"] = _at(data, key)
        field["inherited"] = _at(base_data, key) if base_data is not None else None
        field["from"], field["set_by"] = _origin(resolved, key)
        field["source"] = _source(data, key)
        try:
            family = family_of(key).name
        except KeyError:
            family = "about"
        groups[family].append(field)
    listed = written(text, ("house_rules",))
    listed = listed if isinstance(listed, list) else []
    house = [
        {
            "name": info.name,
            "title": info.title,
            "description": info.description,
            "title_en": info.title_en or info.title,
            "description_en": info.description_en or info.description,
            "on": info.name in listed,
        }
        for info in _house_rule_info()
    ]
    extends = written(text, ("extends",))
    return {
        "extends": extends if isinstance(extends, str) else None,
        "house_rules": house,
        "groups": [
            {"name": family.name, "title": family.title, "title_en": family.title_en, "fields": groups[family.name]}
            for family in FAMILIES
            if groups[family.name]
        ],
    }


def _house_rule_info() -> list[Any]:
    from regelmotor.ruleset.load import HouseRuleInfo
    from regelmotor.ruleset.yaml_source import read_document

    found = []
    for name, ref in shipped_house_rules().items():
        d = read_document(ref.path.read_bytes(), ref.display).data
        found.append(
            HouseRuleInfo(
                name,
                str(d.get("title", name)),
                str(d.get("description", "")),
                str(d.get("source", "")),
                None if d.get("title_en") is None else str(d["title_en"]),
                None if d.get("description_en") is None else str(d["description_en"]),
            )
        )
    return found


def base_text(text: str) -> str | None:
    """The club's file without its own rules: what it extends, with the house rules it lists and its name (the
    parent's values a field shows beside the club's own). None for a file that extends nothing."""
    from regelmotor.web.club_yaml import dump_text, load_text

    data = load_text(text)
    if not isinstance(data.get("extends"), str):
        return None
    kept = copy.deepcopy(data)
    for k in list(kept):
        if k not in FILE_HEAD:
            del kept[k]
    return dump_text(kept)


def change_text(
    text: str, change: dict[str, Any], resolved: ResolvedRuleset | None, base: ResolvedRuleset | None
) -> str:
    """The file with one change of the form written in: ``{"key": [...], "value": ...}`` sets a field (the key
    taken out where the value is the parent's; an entry of a list writes the list whole), ``{"house_rule":
    NAME, "on": bool}`` lists a shipped house rule or not."""
    if "house_rule" in change:
        name = change["house_rule"]
        if not isinstance(name, str) or name not in shipped_house_rules():
            raise ClubYamlError.said("club_no_house_rule", name=str(name)[:60])
        return with_house_rule(text, name, bool(change.get("on")))
    key = change.get("key")
    if not isinstance(key, list) or not key or not all(isinstance(p, (str, int)) for p in key) or len(key) > 12:
        raise ClubYamlError.said("club_no_key")
    path: Key = tuple(key)
    value = change.get("value")
    if not isinstance(path[0], str) or path[0] in HEADER:
        raise ClubYamlError.said("club_no_key")
    listed = next((i for i, p in enumerate(path) if isinstance(p, int)), None)
    base_data = base.ruleset.model_dump(mode="json", by_alias=True) if base is not None else None
    resolved_data = resolved.ruleset.model_dump(mode="json", by_alias=True) if resolved is not None else None
    if resolved_data is not None and _at(resolved_data, path) == value and _origin_written(text, path):
        return text  # the rules have it so already: nothing to write
    if value is None and resolved_data is not None and _at(resolved_data, path) is None:
        return text  # a section the rules do not have (a designation without exchange rules): nothing to set
    if listed is not None:  # an entry's field: the whole list as it will be, written
        unit = path[:listed]
        now = written(text, tuple(map(str, unit)))
        if now is REMOVE or not isinstance(now, list) or len(now) <= int(path[listed]):
            source = resolved_data if resolved_data is not None else base_data
            now = _compact(_at(source, unit)) if source is not None else None
        if not isinstance(now, list):
            raise ClubYamlError.said("club_no_key")
        whole = copy.deepcopy(now)
        holder: Any = whole
        trail: list[tuple[Any, str | int]] = []
        for part in path[listed:-1]:
            if isinstance(holder, dict) and not isinstance(holder.get(part), dict):
                holder[part] = {}  # a section the file's entry leaves to the defaults
            trail.append((holder, part))
            holder = _at(holder, (part,))
        if not isinstance(holder, (dict, list)):
            raise ClubYamlError.said("club_no_key")
        holder[path[-1]] = value  # type: ignore[index]
        parent = _parent_entry(base_data, unit, whole[int(path[listed])]) if base_data is not None else None
        for depth in range(len(trail) - 1, 0, -1):  # a section the change leaves with nothing set, none in the
            above, part = trail[depth]  # parent's entry: none again, as the parent has it ({} is its defaults)
            section = above[part]
            if not isinstance(section, dict) or any(v is not None for k, v in section.items() if k != "source"):
                break
            if base_data is not None and _at(parent, path[listed + 1 : listed + 1 + depth]) is not None:
                break
            del above[part]
        value, path = _compact(whole), unit
    inherited = _at(base_data, path) if base_data is not None else REMOVE
    named = tuple(str(p) for p in path)
    if named[0] in ("name", "source", *WORDS) and len(named) == 1:
        return write_key(text, named, value)  # the club's own name and words: always its own
    if value is None and (base_data is None or inherited is None):  # null is "none": the key is not written
        return write_key(text, named, REMOVE)
    if base is not None:
        return write_key(text, named, REMOVE if _as_parent_has_it(base, path, value) else value)
    if resolved is None or written(text, ("house_rules",)) not in (REMOVE, []):
        return write_key(text, named, value)
    # A file that extends nothing: what the model has where the file says nothing is its parent's value.
    after = _reread(resolved, path, value)
    for depth in range(1, len(path) + 1):  # the key, or the section it is in, as the model has it without them
        without = _reread(resolved, path[:depth], REMOVE)
        if after is not None and without is not None and _at(after, path[:depth]) == _at(without, path[:depth]):
            return write_key(text, named[:depth], REMOVE)
    path, value = _whole_section(text, resolved, path, value)
    return write_key(text, tuple(str(p) for p in path), value)


def _as_parent_has_it(base: ResolvedRuleset, path: Key, value: Any) -> bool:
    """Whether ``value`` at ``path`` is what the parent has there, read as the rules read it: a list's entries
    with the keys a file leaves out at their defaults, ``1.5`` and ``"3/2"`` one number; its sources too (a
    club's own words for a rule are kept)."""
    data = base.ruleset.model_dump(mode="json", by_alias=True)
    inherited = _at(data, path)
    if inherited == value:
        return True
    again = _reread(base, path, value)
    return again is not None and _at(again, path) == inherited


def _reread(rules: ResolvedRuleset, path: Key, value: Any) -> dict[str, Any] | None:
    """The rules' data with ``value`` at ``path`` instead (``REMOVE``: the key left out, so at its default), as
    the rules' model reads it; None where the model takes no such value (or needs the key)."""
    data = rules.ruleset.model_dump(mode="json", by_alias=True)
    holder = _at(data, path[:-1])
    if not isinstance(holder, dict) or path[-1] not in holder:
        return None
    if value is REMOVE:
        del holder[path[-1]]
    else:
        holder[path[-1]] = copy.deepcopy(value)
    try:
        again: dict[str, Any] = type(rules.ruleset).model_validate(data).model_dump(mode="json", by_alias=True)
    except ValueError:  # pydantic's refusal
        return None
    return again


def _whole_section(text: str, resolved: ResolvedRuleset, path: Key, value: Any) -> tuple[Key, Any]:
    """In a file that extends nothing, a key of a section the file does not write: the section written whole,
    with the key's new value. The model gives a section no line names its defaults, but a section named in
    part has nothing to fill the rest with (each key it lacks is missing)."""
    data = resolved.ruleset.model_dump(mode="json", by_alias=True)
    for depth in range(1, len(path)):
        if written(text, tuple(str(p) for p in path[:depth])) is not REMOVE:
            continue
        whole = copy.deepcopy(_at(data, path[:depth]))
        holder = whole
        for part in path[depth:-1]:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if not isinstance(holder, dict):  # a section that is none (no contract when all pass): the key alone
            return path, value
        holder[path[-1]] = value
        return path[:depth], _compact(whole)
    return path, value


def _parent_entry(base_data: dict[str, Any], unit: Key, entry: Any) -> Any:
    """The parent's entry of a list that is the club's ``entry``: the one with its id (or its players)."""
    for name in ("id", "players"):
        if isinstance(entry, dict) and name in entry:
            found = [e for e in _at(base_data, unit) or [] if isinstance(e, dict) and e.get(name) == entry[name]]
            return found[0] if found else None
    return None


def _origin_written(text: str, path: Key) -> bool:
    """Whether the file writes nothing at ``path`` (nor its list): then a value the rules already have needs no
    line. A key the file writes itself is written or taken out as the form says (equal to the parent's: out)."""
    listed = next((i for i, p in enumerate(path) if isinstance(p, int)), len(path))
    return written(text, tuple(str(p) for p in path[:listed])) is REMOVE


def _compact(value: Any) -> Any:
    """A list's entries as a file writes them: a key at null (the model's "none") left out."""
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


__all__ = ["base_text", "build_form", "change_text"]
