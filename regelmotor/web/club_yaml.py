"""The club's file as text that a form changes: one key set or taken out at a time, the rest of the file as it
was (its comments, its order, its quoting and its layout), by ruamel.yaml's round trip.

A key is written only where the club's value differs from what it would have without it (its parent's, with
the house rules the file lists): a value set back to the parent's is taken out of the file, and a section left
with nothing (or with only its ``source:``) goes with it. A list of entries (``designations``, ``sol_bids``,
``table.sitting_out``) is written whole, as a ruleset file writes it (``docs/writing-a-ruleset.md``).
"""

from __future__ import annotations

import copy
import functools
import io
import re
from fractions import Fraction
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import SingleQuotedScalarString

from regelmotor.errors import RegelmotorError
from regelmotor.model.ruleset import WORDS

MAX_TEXT = 200_000
"""The largest club file the page edits (an upload's bound: a club's file is a few kilobytes)."""
FILE_HEAD = ("kind", "extends", "name", *WORDS, "source", "house_rules")
"""The keys a club's file begins with: what it is, what it builds on and what it is called."""


REMOVE = object()
"""``write_key``'s value for "take the key out": the club plays its parent's value."""


class ClubYamlError(RegelmotorError):
    """The file is not YAML the form can edit (said at the page's field, in Danish first)."""


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # a long source: is kept on its line, never folded
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def load_text(text: str) -> CommentedMap:
    """The file's mapping as the round trip reads it; ``ClubYamlError`` for anything else."""
    if len(text) > MAX_TEXT:
        raise ClubYamlError.said("club_too_large", limit=MAX_TEXT)
    try:
        data = _yaml().load(text) if text.strip() else CommentedMap()
    except YAMLError as exc:
        raise ClubYamlError.said("club_not_yaml", problem=str(exc).splitlines()[-1][:200]) from None
    if data is None:
        data = CommentedMap()
    if not isinstance(data, CommentedMap):
        raise ClubYamlError.said("club_not_mapping")
    return data


def dump_text(data: CommentedMap) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


_LEVEL = re.compile(r"[0-9]{1,2}")
_READER = yaml.resolver.Resolver()
"""How the file is read back (``yaml_source``: PyYAML's safe loader, YAML 1.1), which the writer (ruamel, YAML
1.2) must not contradict: ``no``, ``on`` and ``1:30`` are text to ruamel and a yes/no or a number to the reader."""
_TEXT = "tag:yaml.org,2002:str"


def _scalar(value: Any) -> Any:
    """A JSON scalar as the file writes it, so that the reader reads back the very value: a text the reader would
    take for something else in quotes; a number JSON gives as a float exactly as written (``2.0`` is 2; ``1e-05``,
    which YAML 1.1 reads as text, the fraction ``1/100000``, as the rules read a decimal)."""
    if isinstance(value, str) and not isinstance(value, SingleQuotedScalarString):
        if _READER.resolve(yaml.ScalarNode, value, (True, False)) != _TEXT:  # type: ignore[no-untyped-call]
            return SingleQuotedScalarString(value)
        return value
    if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):
        exact = Fraction(repr(value))
        if exact.denominator == 1:
            return exact.numerator
        if "e" in repr(value).lower():
            return str(exact)
    return value


def _key(key: Any) -> Any:
    """A mapping's key as the file writes it: a number of tricks as a number (``7:``), a text as text."""
    if isinstance(key, str) and _LEVEL.fullmatch(key):
        return int(key)
    return _scalar(key)


def _node(value: Any, key: str | None = None) -> Any:
    """A JSON value as the file writes it: a short list or a point table's values in one line, numbers of
    tricks as numbers (``{7: 10, 8: 20}``), mappings of mappings in block style, every scalar as ``_scalar``."""
    if isinstance(value, dict):
        mapping = CommentedMap()
        for k, v in value.items():
            mapping[_key(k)] = _node(v, str(k))
        if value and all(not isinstance(v, (dict, list)) for v in value.values()) and key in ("values", "constants"):
            mapping.fa.set_flow_style()
        return mapping
    if isinstance(value, list):
        seq = CommentedSeq(_node(v) for v in value)
        if all(not isinstance(v, (dict, list)) for v in value):
            seq.fa.set_flow_style()
        return seq
    return _scalar(value)


def _plain(value: Any) -> Any:
    """A value read from the file, as JSON has it (keys as text), to compare with the resolved rules."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@functools.lru_cache(maxsize=16)
def _document(text: str) -> Any:
    """The file as JSON-like data, read once for the many questions a change of the form asks of it (a round
    trip's read of a ruleset costs tens of milliseconds)."""
    return _plain(load_text(text))


def written(text: str, path: tuple[str, ...]) -> Any:
    """The value the file itself writes at ``path`` (JSON-like, the caller's own copy), or ``REMOVE`` where it
    writes none."""
    node: Any = _document(text)
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return REMOVE
        node = node[part]
    return copy.deepcopy(node)


def _empty(node: Any) -> bool:
    return isinstance(node, dict) and all(k == "source" for k in node)


def write_key(text: str, path: tuple[str, ...], value: Any) -> str:
    """``text`` with the key at ``path`` set to ``value`` (a JSON value), or taken out (``REMOVE``), and the
    sections a removal leaves empty taken out with it; everything else as it stood."""
    if not path:
        raise ClubYamlError.said("club_no_key")
    data = load_text(text)
    if value is REMOVE:
        trail: list[CommentedMap] = [data]
        node: Any = data
        for part in path[:-1]:
            if not isinstance(node, dict) or part not in node:
                return text
            node = node[part]
            trail.append(node)
        if not isinstance(node, dict) or path[-1] not in node:
            return text
        del node[path[-1]]
        for depth in range(len(path) - 1, 0, -1):  # the sections it leaves with nothing to say
            if _empty(trail[depth]):
                del trail[depth - 1][path[depth - 1]]
            else:
                break
        return dump_text(data)
    node = data
    for part in path[:-1]:
        child = node.get(part) if isinstance(node, dict) else None
        if not isinstance(child, dict):
            child = CommentedMap()
            node[part] = child
        node = child
    old = node.get(path[-1], REMOVE)
    if old is not REMOVE and _plain(old) == value:
        return text
    if (
        isinstance(old, CommentedSeq)
        and isinstance(value, list)
        and all(not isinstance(v, (dict, list)) for v in value)
    ):
        old[:] = [_scalar(v) for v in value]  # its own style (one line or one a line) kept
    elif (
        isinstance(old, CommentedMap)
        and isinstance(value, dict)
        and not any(isinstance(v, dict) for v in value.values())
    ):
        for k in [k for k in old if str(k) not in {str(x) for x in value}]:
            del old[k]
        for k, v in value.items():
            written_key = next((ok for ok in old if str(ok) == str(k)), None)
            old[written_key if written_key is not None else _key(k)] = _node(v)
    else:
        node[path[-1]] = _node(value, path[-1])
    return dump_text(data)


def _move_comment_below(data: CommentedMap, above: Any, new: str) -> None:
    """The lines of comment under the key ``above`` (the round trip keeps them with it) moved under ``new``,
    inserted right after it: a comment that heads the next section stays with that section, not above ``new``;
    one at the end of ``above``'s own line stays there."""
    tokens = data.ca.items.get(above)
    if not tokens or len(tokens) < 3 or tokens[2] is None:
        return
    token = tokens[2]
    own, newline, below = token.value.partition("\n")
    if not below.strip():
        return  # nothing but the key's own end-of-line comment
    token.value = own + newline
    moved = copy.copy(token)
    moved.value = "\n" + below
    data.ca.items[new] = [None, None, moved, None]


def house_rules_of(text: str) -> list[str]:
    """The house rules the file lists (its ``house_rules:``), in order."""
    listed = written(text, ("house_rules",))
    return [str(h) for h in listed] if isinstance(listed, list) else []


def with_house_rule(text: str, name: str, on: bool) -> str:
    """``text`` listing ``name`` among its house rules, or not; the list kept in its order and style."""
    listed = house_rules_of(text)
    if on == (name in listed):
        return text
    wanted = [*listed, name] if on else [h for h in listed if h != name]
    if not wanted:
        return write_key(text, ("house_rules",), REMOVE)
    data = load_text(text)
    if "house_rules" not in data:  # under the header keys, where a club's file names them
        at = max(
            (i for i, k in enumerate(data) if k in FILE_HEAD and k != "house_rules"),
            default=-1,
        )
        data.insert(at + 1, "house_rules", _node(wanted))
        if at >= 0:
            _move_comment_below(data, list(data)[at], "house_rules")
        return dump_text(data)
    return write_key(text, ("house_rules",), wanted)


__all__ = [
    "MAX_TEXT",
    "REMOVE",
    "ClubYamlError",
    "house_rules_of",
    "load_text",
    "with_house_rule",
    "write_key",
    "written",
]
