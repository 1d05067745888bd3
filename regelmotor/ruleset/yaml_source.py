"""Read a ruleset file as plain data, with the line and column of every key and value.

Club files are untrusted input: they are composed into a node tree (never constructed by
PyYAML, so no tag can build a Python object), walked under a size budget (so an alias bomb
cannot exhaust memory), and every YAML trap a club can fall into is reported with its
location: duplicate keys (PyYAML silently keeps the last), YAML 1.1 booleans such as ``on``
and ``yes``, octal-looking numbers, merge keys.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from regelmotor.errors import Location, Problem, RegelmotorError, RulesetError
from regelmotor.phrase_table import Word

MAX_BYTES = 1_000_000
"""A ruleset is a few kilobytes; a megabyte is certainly not a ruleset."""
MAX_VALUES = 100_000
"""Values after expanding aliases: far above any real ruleset, far below an alias bomb."""
MAX_DEPTH = 64

Path = tuple[str | int, ...]
"""Mapping keys are ``str``, list indexes ``int``."""

_YAML11_BOOL = re.compile(r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")
_YAML11_OCTAL = re.compile(r"^[-+]?0[0-9_]+$")
_YAML11_NUMBER = re.compile(r"^[-+]?(0x[0-9a-fA-F_]+|0b[01_]+|[0-9][0-9_]*_[0-9_]*(\.[0-9_]*)?)$")
"""Hexadecimal, binary and underscored numbers: YAML 1.1 reads them as numbers, YAML 1.2 and JSON do not."""
MAX_DIGITS = 30
"""No rule needs a number longer than this; a longer one is a mistake or an attack (and slows arithmetic)."""
_CORE = "tag:yaml.org,2002:"
_ALLOWED_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp")}


@dataclass
class Document:
    """One file's data, and where each value (and each mapping key) was written."""

    file: str
    data: Any
    values: dict[Path, Location] = field(default_factory=dict)
    keys: dict[Path, Location] = field(default_factory=dict)

    def locate(self, path: Path, *, key: bool = False) -> Location:
        """The location of ``path``, or of its nearest written ancestor."""
        return locate(self.values, self.keys, path, key=key, fallback=Location(self.file, 1, 1))


def locate(
    values: dict[Path, Location],
    keys: dict[Path, Location],
    path: Path,
    *,
    key: bool,
    fallback: Location,
) -> Location:
    if key and path in keys:
        return keys[path]
    probe = path
    while probe:
        if probe in values:
            return values[probe]
        probe = probe[:-1]
    return values.get((), fallback)


def _location(file: str, node: Node) -> Location:
    mark = node.start_mark
    return Location(file, mark.line + 1, mark.column + 1)


class _Walker:
    def __init__(self, file: str) -> None:
        self.file = file
        self.values: dict[Path, Location] = {}
        self.keys: dict[Path, Location] = {}
        self.problems: list[Problem] = []
        self.budget = MAX_VALUES
        self.constructor = yaml.SafeLoader("")

    def walk(self, node: Node, path: Path, depth: int = 0) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _TooBig(node, path)
        if depth > MAX_DEPTH:
            raise _TooDeep(node, path)
        self.values.setdefault(path, _location(self.file, node))
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            if node.tag != _CORE + "seq":
                self.tag_problem(node, path)
            return [self.walk(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        return self.scalar(node, path)

    def tag_problem(self, node: Node, path: Path) -> None:
        phrase = "tag_code" if "python" in node.tag else "tag_data"
        self.problems.append(Problem.said(_location(self.file, node), path, phrase, tag=node.tag))

    def mapping(self, node: MappingNode, path: Path, depth: int) -> dict[Any, Any]:
        if node.tag != _CORE + "map":
            self.tag_problem(node, path)
        out: dict[Any, Any] = {}
        first: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _CORE + "merge":
                self.problems.append(Problem.said(_location(self.file, key_node), path, "yaml_merge"))
                continue
            if not isinstance(key_node, ScalarNode):
                self.problems.append(Problem.said(_location(self.file, key_node), path, "yaml_key_plain"))
                continue
            key = self.scalar(key_node, path)
            if not isinstance(key, str | int) or isinstance(key, bool):
                self.problems.append(
                    Problem.said(_location(self.file, key_node), path, "yaml_key_word", key=str(key_node.value)[:40])
                )
                continue
            # Keys are text, as in JSON: a point table's ``7:`` and ``"7":`` are the same key.
            key = str(key)
            child = (*path, key)
            if key in first:
                line = first[key].start_mark.line + 1
                self.problems.append(
                    Problem.said(_location(self.file, key_node), child, "duplicate_key", key=key, line=line)
                )
                continue
            first[key] = key_node
            self.keys[child] = _location(self.file, key_node)
            if not isinstance(value_node, ScalarNode):
                # A section or list is pointed out by its key, where the reader looks for it.
                self.values[child] = self.keys[child]
            out[key] = self.walk(value_node, child, depth + 1)
        return out

    def scalar(self, node: ScalarNode, path: Path) -> Any:
        tag = node.tag
        if tag not in _ALLOWED_SCALAR_TAGS:
            self.tag_problem(node, path)
            return node.value
        if node.style is None:  # plain, unquoted
            if _YAML11_BOOL.match(node.value):
                self.problems.append(Problem.said(_location(self.file, node), path, "yaml11_bool", value=node.value))
                return node.value
            if tag == _CORE + "int" and (_YAML11_OCTAL.match(node.value) or ":" in node.value):
                self.problems.append(Problem.said(_location(self.file, node), path, "yaml11_octal", value=node.value))
                return node.value
            if tag == _CORE + "float" and ":" in node.value:
                self.problems.append(Problem.said(_location(self.file, node), path, "yaml11_base60", value=node.value))
                return node.value
            if tag in (_CORE + "int", _CORE + "float") and _YAML11_NUMBER.match(node.value):
                self.problems.append(Problem.said(_location(self.file, node), path, "yaml11_number", value=node.value))
                return node.value
            if tag in (_CORE + "int", _CORE + "float") and len(node.value) > MAX_DIGITS:
                self.problems.append(
                    Problem.said(_location(self.file, node), path, "yaml_number_long", most=MAX_DIGITS)
                )
                return node.value
        if tag == _CORE + "timestamp":
            return node.value  # a date means nothing in a ruleset; keep the text
        return self.constructor.construct_object(node)


class TooLarge(RegelmotorError, ValueError):
    """A file larger than its kind can be: refused before it is read into memory."""


def read_bounded(path: FsPath, limit: int) -> bytes:
    """The bytes of ``path``, read only when there are at most ``limit`` of them (checked first, and again
    while reading, so a file that grows or a device that never ends costs at most ``limit`` bytes)."""
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise TooLarge.said("in_too_large", size=size, most=limit)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise TooLarge.said("in_too_large_over", most=limit)
    return data


class _TooBig(Exception):
    def __init__(self, node: Node, path: Path) -> None:
        self.node, self.path = node, path


class _TooDeep(_TooBig):
    pass


def read_document(text: str | bytes, file: str) -> Document:
    """Parse ``text`` (the contents of ``file``) or raise a ``RulesetError`` with every problem."""
    doc, problems = read_document_lenient(text, file)
    if problems or doc is None:
        raise RulesetError(problems)
    return doc


YAML_PROBLEMS = {
    "mapping values are not allowed here": "yaml_colon",
    "could not find expected ':'": "yaml_no_colon",
    "found character '\\t' that cannot start any token": "yaml_tab",  # PyYAML shows the tab as its repr
    "did not find expected key": "yaml_indent",
    "did not find expected '-' indicator": "yaml_dash",
    "expected <block end>, but found": "yaml_indent",
    "found unexpected end of stream": "yaml_end",
    "found undefined alias": "yaml_alias",
    "expected ',' or '}', but got": "yaml_flow_mapping",
    "expected ',' or ']', but got": "yaml_flow_list",
    "found unknown escape character": "yaml_escape",
    "found a tab character": "yaml_tab",
    "found character '": "yaml_reserved",  # @ ` or % (the tab, above, first)
    "expected alphabetic or numeric character": "yaml_anchor",
    "expected chomping or indentation indicators": "yaml_block",
    "expected the node content": "yaml_node",
    "expected escape sequence": "yaml_escape",
    "expected '<document start>'": "yaml_document",
    "found duplicate YAML directive": "yaml_document",
    "found incompatible YAML document": "yaml_document",
}
"""PyYAML's problems (English) by the words of the phrase table that say them (``word_yaml_*``); one it
does not list is shown as PyYAML says it."""


def _yaml_problem(problem: str) -> str:
    found = next((key for text, key in YAML_PROBLEMS.items() if problem.startswith(text)), None)
    return problem if found is None else Word(found)


def read_document_lenient(text: str | bytes, file: str) -> tuple[Document | None, list[Problem]]:
    """Parse as far as possible: the data (where the file is YAML at all) and its problems.

    The data lets the caller report the schema's problems of the same file at once; values
    that were themselves a problem (a ``yes``, a tag) are kept as their text.
    """

    def failed(phrase: str, line: int = 1, column: int = 1, **values: object) -> tuple[None, list[Problem]]:
        return None, [Problem.said(Location(file, line, column), (), phrase, **values)]

    if len(text) > MAX_BYTES:
        return failed("in_too_large", size=len(text), most=MAX_BYTES)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            return failed("not_utf8", byte=exc.start)
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return failed("invalid_yaml", line, column, detail=_yaml_problem(exc.problem or exc.context or "not YAML"))
    except yaml.reader.ReaderError as exc:  # a control character: PyYAML says where as an offset, not a line
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - text.rfind("\n", 0, exc.position)
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return failed("yaml_character", line, column, character=code)
    except yaml.YAMLError as exc:
        return failed("invalid_yaml", detail=str(exc))
    except RecursionError:
        return failed("yaml_deep", most=MAX_DEPTH)
    if len(nodes) != 1:
        return failed("empty_file" if not nodes else "several_documents")
    walker = _Walker(file)
    try:
        data = walker.walk(nodes[0], ())
    except _TooDeep as exc:
        where = _location(file, exc.node)
        return None, [Problem.said(where, exc.path, "yaml_deep", most=MAX_DEPTH)]
    except _TooBig as exc:
        where = _location(file, exc.node)
        return None, [Problem.said(where, exc.path, "yaml_big", most=MAX_VALUES)]
    if not isinstance(data, dict):
        where = _location(file, nodes[0])
        return failed("not_mapping", where.line, where.column)
    return Document(file, data, walker.values, walker.keys), walker.problems
