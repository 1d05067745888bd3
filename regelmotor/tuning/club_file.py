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
from regelmotor.ruleset.catalogue import FileRef, find_file, is_path
from regelmotor.ruleset.load import load_ruleset
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


def read_files(ruleset: str, house_rules: Sequence[str]) -> tuple[FsPath, ...]:
    """The files ``tune`` reads that a club named (its ruleset and house rules given as paths) and every
    file they extend: an output is never one of them."""
    if not is_path(ruleset) and not any(is_path(rule) for rule in house_rules):
        return ()
    resolved = load_ruleset(find_file(ruleset, house_rule=False), list(house_rules))
    return tuple(FsPath(name) for name in resolved.files)


def check_writable(
    ruleset: str, house_rules: Sequence[str], changes: Sequence[Change], target: FsPath, *, force: bool
) -> None:
    """Refuse, before any deal is played, a file that could not be written, or a key that could not be
    written into it (one inside a list): the changes tried with the values the ruleset has now."""
    _checked_text(ruleset, house_rules, changes, "", target, force=force)


def _checked_text(
    ruleset: str, house_rules: Sequence[str], changes: Sequence[Change], comment: str, target: FsPath, *, force: bool
) -> str:
    """The club's file with ``changes`` written in, checked: the target writable, the text valid and playing
    the changes' values."""
    check_output(target, force=force, inputs=read_files(ruleset, house_rules))
    text = _start_text(ruleset, target)
    for change in changes:
        text = write_change(text, change, comment)
    check_written(text, target, house_rules, changes)
    return text


def write_club_file(
    ruleset: str,
    house_rules: Sequence[str],
    changes: Sequence[Change],
    comment: str,
    target: FsPath,
    *,
    force: bool,
) -> str:
    """Write the club's file with ``changes`` in it to ``target``, checked first; the text written."""
    text = _checked_text(ruleset, house_rules, changes, comment, target, force=force)
    write_atomic(target, text)
    return text


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
