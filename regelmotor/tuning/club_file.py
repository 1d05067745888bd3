"""The club's file with the values a rule search chose written in (``tune -o klub-ny.yaml``).

The file is edited as text, so that the club's own comments, order and layout stay: a value the file writes
is replaced where it stands; a value it inherits is written in under the nearest section the file has (or a
new section at its end), and a comment above it says how the value was found. A ruleset named by its shipped
name (``standard``) gets a new small file that extends it. The new text is loaded and checked, with the same
house rules, before it is written (atomically, and never over a file without ``--force``): it must validate
and play the chosen values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path as FsPath

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from regelmotor.errors import RegelmotorError
from regelmotor.files import check_output, read_input, scratch_file, write_atomic
from regelmotor.model.formula import with_constant
from regelmotor.model.ruleset import WORDS
from regelmotor.ruleset.catalogue import FileRef, find_file, is_path
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.settings import Key, exact_text, find_key
from regelmotor.ruleset.yaml_source import MAX_BYTES


class WriteError(RegelmotorError):
    """A chosen value that cannot be written into the club's file as asked."""


@dataclass(frozen=True)
class Change:
    """A key and the value to write for it."""

    key: Key
    value: Fraction
    formula: str | None = None
    """For a formula's number: the whole formula as the merged ruleset has it (the file may inherit it)."""


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_æøåÆØÅ][A-Za-z0-9_ æøåÆØÅ-]*")


def _key_text(part: str | int) -> str:
    text = str(part)
    return text if _PLAIN_KEY.fullmatch(text) and not text.endswith(" ") else json.dumps(text, ensure_ascii=False)


def _value_text(change: Change) -> str:
    if change.formula is not None:
        assert change.key.constant is not None
        return json.dumps(with_constant(change.formula, change.key.constant, change.value), ensure_ascii=False)
    text = exact_text(change.value)
    return text if change.value.denominator == 1 else json.dumps(text)


def _child(node: Node, part: str | int) -> Node | None:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == str(part):
                found: Node = v
                return found
    return None


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _indent_of(text: str, index: int) -> str:
    start = _line_start(text, index)
    return re.match(r"[ ]*", text[start:]).group(0)  # type: ignore[union-attr]


def _comment_above(text: str, index: int, comment: str) -> str:
    start = _line_start(text, index)
    return text[:start] + f"{_indent_of(text, index)}# {comment}\n" + text[start:]


def write_change(text: str, change: Change, comment: str) -> str:
    """``text`` with ``change`` written in, a comment above the line it stands on."""
    path = change.key.path
    if any(isinstance(part, int) for part in path):
        raise WriteError.said("tune_write_list", key=change.key.text, value=exact_text(change.value))
    root = yaml.compose(text) if text.strip() else None
    node: Node | None = root
    depth = 0
    while node is not None and depth < len(path):
        child = _child(node, path[depth])
        if child is None:
            break
        node, depth = child, depth + 1
    value = _value_text(change)
    if depth == len(path) and isinstance(node, ScalarNode):  # the file writes it: replaced where it stands
        start, end = node.start_mark.index, node.end_mark.index
        return _comment_above(text[:start] + value + text[end:], start, comment)
    if depth == len(path):
        raise WriteError.said("tune_write_list", key=change.key.text, value=exact_text(change.value))
    rest = path[depth:]
    if node is None or depth == 0:  # no section of it: a new one at the end of the file
        lines = [f"# {comment}"]
        for level, part in enumerate(rest):
            tail = f" {value}" if level == len(rest) - 1 else ""
            lines.append(f"{'  ' * level}{_key_text(part)}:{tail}")
        return text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"
    if not isinstance(node, MappingNode):
        raise WriteError.said("tune_write_list", key=change.key.text, value=exact_text(change.value))
    if node.flow_style:  # {sol: 150}: the entry added inside the braces
        close = node.end_mark.index - 1
        nested = value
        for part in reversed(rest[1:]):
            nested = f"{{{_key_text(part)}: {nested}}}"
        entry = f"{_key_text(rest[0])}: {nested}"
        separator = ", " if node.value else ""
        return _comment_above(text[:close] + separator + entry + text[close:], close, comment)
    first = node.value[0][0] if node.value else None
    indent = " " * first.start_mark.column if first is not None else _indent_of(text, node.start_mark.index) + "  "
    lines = [f"{indent}# {comment}"]
    for level, part in enumerate(rest):
        tail = f" {value}" if level == len(rest) - 1 else ""
        lines.append(f"{indent}{'  ' * level}{_key_text(part)}:{tail}")
    at = _line_start(text, first.start_mark.index) if first is not None else len(text)
    return text[:at] + "\n".join(lines) + "\n" + text[at:]


def new_club_text(ruleset: str, name: str) -> str:
    """The start of a new file for a shipped ruleset: it extends it and changes nothing yet; its short name is
    the file's, as a ruleset's name is written (small letters, digits, - and _: "Klub ny" is klub-ny)."""
    short = name.lower().replace("æ", "ae").replace("ø", "oe").replace("å", "aa")
    short = re.sub(r"[^a-z0-9_-]+", "-", short).strip("-_") or "klub"
    return f"kind: ruleset\nextends: {ruleset}\nname: {short}\n"


def _start_text(ruleset: str, target: FsPath) -> str:
    """The text the changes are written into: the club's file, or a new one extending a shipped ruleset."""
    if is_path(ruleset):
        return read_input(find_file(ruleset, house_rule=False).path, MAX_BYTES).data.decode("utf-8")
    find_file(ruleset, house_rule=False)
    return new_club_text(ruleset, target.stem)


def _loaded(ruleset: str, house_rules: Sequence[str]) -> ResolvedRuleset:
    return load_ruleset(find_file(ruleset, house_rule=False), list(house_rules))


def check_writable(
    ruleset: str, house_rules: Sequence[str], changes: Sequence[Change], target: FsPath, *, force: bool
) -> None:
    """Refuse, before any deal is played, a file that could not be written, or a key that could not be
    written into it (one inside a list): the changes tried with the values the ruleset has now."""
    _checked_text(ruleset, house_rules, changes, "", target, force=force)


def _checked_text(
    ruleset: str, house_rules: Sequence[str], changes: Sequence[Change], comment: str, target: FsPath, *, force: bool
) -> tuple[str, list[RegelmotorError]]:
    """The club's file with ``changes`` written in, checked: the target writable, the text valid and playing
    the changes' values; and what was said again in the file's own words (``restate``)."""
    # The files tune reads that a club named (its ruleset and house rules given as paths) and every file they
    # extend: an output is never one of them. Loaded once, and before the output's check only where it names them.
    named = is_path(ruleset) or any(is_path(rule) for rule in house_rules)
    before = _loaded(ruleset, house_rules) if named else None
    check_output(target, force=force, inputs=tuple(FsPath(name) for name in before.files) if before else ())
    text = _start_text(ruleset, target)
    if before is None:
        before = _loaded(ruleset, house_rules)
    notes: list[RegelmotorError] = []
    for change in changes:
        old = find_key(before.ruleset, change.key.text).current
        text = write_change(text, change, comment)
        text, said = restate(text, change, old)
        notes += said
    check_written(text, target, house_rules, changes)
    return text, notes


def _as_written(value: Fraction) -> set[str]:
    """How prose may write a value: ``75``, ``3/2``, and a finite decimal with a point or a comma (``1.5``,
    ``1,5``)."""
    forms = {exact_text(value)}
    places = next((k for k in range(1, 7) if (value * 10**k).denominator == 1), None)
    if places is not None and value.denominator != 1:
        decimal = f"{float(value):.{places}f}"
        forms |= {decimal, decimal.replace(".", ",")}
    return forms


_DESCRIBING = (*WORDS, "source")
"""The prose a file writes about its rules: where an old value may still be told."""


def restate(text: str, change: Change, old: object) -> tuple[str, list[RegelmotorError]]:
    """``text`` with the old value told again as the new one in the prose that describes the changed key: the
    file's ``title`` and ``description`` and the ``source`` of each section on the key's path ("sol betaler 75"
    above ``sol: 50`` is a fact told twice). A text that names the old number once has it replaced, and is
    said (``tune_restated``); one that names it more than once is left and said (``tune_restate_by_hand``), and
    a ``source`` (who decided the old value) is never rewritten, only said (``tune_restate_source``)."""
    if not isinstance(old, Fraction | int) or old == change.value:
        return text, []
    shown = _as_written(Fraction(old))
    new = exact_text(change.value)
    number = re.compile(r"(?<![\d.,/])(" + "|".join(re.escape(s) for s in shown) + r")(?![\d]|[.,/]\d)")
    root = yaml.compose(text)
    places: list[tuple[tuple[str, ...], Node]] = []
    for depth in range(len(change.key.path)):  # the sections on the key's path, the file's top first
        node: Node | None = root
        for part in change.key.path[:depth]:
            node = _child(node, part) if node is not None else None
        for name in _DESCRIBING if depth == 0 else ("source",):
            found = _child(node, name) if node is not None else None
            if isinstance(found, ScalarNode):
                places.append(((*map(str, change.key.path[:depth]), name), found))
    notes: list[RegelmotorError] = []
    for where, node in sorted(places, key=lambda place: -place[1].start_mark.index):  # from the end: spans stay
        start, end = node.start_mark.index, node.end_mark.index
        hits = number.findall(text[start:end])
        if not hits:
            continue
        key = ".".join(where)
        if where[-1] == "source":  # who decided it: only the club can say who decides the new value
            notes.append(WriteError.said("tune_restate_source", key=key, old=hits[0], new=new))
            continue
        if len(hits) > 1:
            notes.append(WriteError.said("tune_restate_by_hand", key=key, old=hits[0], new=new))
            continue
        text = text[:start] + number.sub(new, text[start:end]) + text[end:]
        notes.append(WriteError.said("tune_restated", key=key, old=hits[0], new=new))
    return text, notes


def write_club_file(
    ruleset: str,
    house_rules: Sequence[str],
    changes: Sequence[Change],
    comment: str,
    target: FsPath,
    *,
    force: bool,
) -> tuple[str, list[RegelmotorError]]:
    """Write the club's file with ``changes`` in it to ``target``, checked first; the text written, and the
    prose told again with the new value (or to be told again by hand), for the member to read."""
    text, notes = _checked_text(ruleset, house_rules, changes, comment, target, force=force)
    write_atomic(target, text)
    return text, notes


def check_written(text: str, target: FsPath, house_rules: Sequence[str], changes: Sequence[Change]) -> None:
    """The new text loads (beside the target, so that its own ``extends`` resolve as they will) and plays the
    chosen values with the same house rules."""
    with scratch_file(target, ".tune-check.yaml", text) as probe:  # a new file: nothing planted is written through
        resolved = load_ruleset(FileRef(probe, str(target)), list(house_rules))  # its problems named as the target
    for change in changes:
        now = find_key(resolved.ruleset, change.key.text).current
        if now != change.value:
            raise WriteError.said(
                "tune_write_overridden", key=change.key.text, value=exact_text(change.value), now=exact_text(now)
            )


def changes_for(keys: Sequence[Key], values: Sequence[Fraction]) -> list[Change]:
    """The changes of a chosen candidate, each formula's number with the formula it stands in."""
    return [Change(key, value, key.formula) for key, value in zip(keys, values, strict=True)]
