"""Schema validation of one file, each JSON Schema error said in the club's words at its line."""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import jsonschema

from regelmotor._data import data_dir
from regelmotor.errors import Location, Problem, RegelmotorError
from regelmotor.files import InputError, read_input, reason
from regelmotor.phrase_table import Word
from regelmotor.ruleset.catalogue import FileRef
from regelmotor.ruleset.yaml_source import (
    MAX_BYTES,
    Document,
    Path,
    read_document_lenient,
)


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


_TYPES = frozenset(("boolean", "integer", "number", "string", "array", "object", "null"))


def _type(name: str) -> str:
    """A JSON type as the phrase table names it (``word_type_integer``: "et helt tal")."""
    return Word(f"type_{name}") if name in _TYPES else name


def _is_exact(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` is an exact number's (``model.Exact``): a whole number, a number, or one written as
    text ("5/4"), told by its shape (a field's own description stands in the place of the type's)."""
    shapes = [(s.get("type"), "pattern" in s) for s in schema.get("anyOf", []) if s.get("type") != "null"]
    return sorted(shapes) == [("integer", False), ("number", False), ("string", True)]


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return Word("mapping")
    if isinstance(value, list):
        return Word("list")
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)


def _repeated(items: list[Any]) -> str | None:
    """The first item of a list that is there before, as the problem shows it (one pass: a list may be long)."""
    seen: set[str] = set()
    for item in items:
        shown = json.dumps(item, ensure_ascii=False, sort_keys=True) if isinstance(item, dict | list) else _show(item)
        if shown in seen:
            return shown
        seen.add(shown)
    return None


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
            where = doc.locate((*path, key), key=True)
            if close:
                problems.append(Problem.said(where, (*path, key), "unknown_key_close", key=key, close=close[0]))
            else:
                problems.append(Problem.said(where, (*path, key), "unknown_key", key=key))
        return problems
    if kind == "anyOf" and error.context:
        real = [e for e in error.context if not (e.validator == "type" and e.validator_value == "null")]
        best = jsonschema.exceptions.best_match(real) if real else None
        if best is not None and best.validator not in ("type", "anyOf"):
            return _schema_error_problems(doc, best)
        expected = tuple(
            _type(str(s.get("type"))) if "const" not in s else _show(s["const"])
            for s in schema.get("anyOf", [])
            if s.get("type") != "null"
        )
        if _is_exact(schema):
            return [Problem.said(doc.locate(path), path, "not_a_number", instance=_show(error.instance))]
        return [Problem.said(doc.locate(path), path, "not_allowed", instance=_show(error.instance), types=expected)]
    instance = _show(error.instance)
    said: tuple[str, dict[str, object]] | None = None
    if kind == "type":
        names = [expected_value] if isinstance(expected_value, str) else list(expected_value)
        said = "wrong_type", {"types": tuple(_type(n) for n in names), "instance": instance}
    elif kind == "enum":
        said = "enum", {"instance": instance, "options": ", ".join(_show(v) for v in expected_value)}
    elif kind == "const":
        said = "const", {"instance": instance, "value": _show(error.validator_value)}
    elif kind in ("minimum", "exclusiveMinimum"):
        strict = "_strict" if kind == "exclusiveMinimum" else ""
        said = f"too_small{strict}", {"instance": instance, "value": error.validator_value}
    elif kind in ("maximum", "exclusiveMaximum"):
        strict = "_strict" if kind == "exclusiveMaximum" else ""
        said = f"too_large{strict}", {"instance": instance, "value": error.validator_value}
    elif kind == "pattern":
        # The schema's own words for what the value must look like, not its regular expression.
        described = error.schema.get("description") if isinstance(error.schema, dict) else None
        if described:
            said = "pattern", {"instance": instance, "rule": described}
        else:
            said = "pattern_regex", {"instance": instance, "regex": error.validator_value}
    elif kind == "minLength":
        said = "empty_text", {}
    elif kind == "minItems":
        said = "min_items", {"count": error.validator_value}
    elif kind == "maxItems":
        given = len(error.instance) if isinstance(error.instance, list) else "?"
        said = "max_items", {"count": error.validator_value, "given": given}
    elif kind == "required":
        missing = re.match(r"'(.*)' is a required property", error.message)
        if missing:
            said = "missing_key", {"key": missing.group(1)}
    elif kind == "uniqueItems" and isinstance(error.instance, list):
        twice = _repeated(error.instance)
        if twice is not None:
            said = "not_unique", {"item": twice}
    if said is None:
        return [Problem(doc.locate(path), path, error.message)]
    return [Problem.said(doc.locate(path), path, said[0], **said[1])]


_MODEL_TYPES = {
    "string_type": "string",
    "int_type": "integer",
    "int_parsing": "integer",
    "int_from_float": "integer",
    "float_type": "number",
    "float_parsing": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "list_type": "array",
    "tuple_type": "array",
    "none_required": "null",
}
"""Pydantic's type errors by the JSON type the schema's problems name (``word_type_*``)."""


def model_said(error: Mapping[str, Any]) -> tuple[str, dict[str, object]] | None:
    """A pydantic error as the phrase table says it (``err_<phrase>`` and its values), in the words the schema's
    problems use, for the merged ruleset's model and a plugin's settings alike; ``None`` for one it does not
    know, which keeps pydantic's English."""
    kind, ctx, loc = error["type"], error.get("ctx") or {}, error["loc"]
    instance = _show(error["input"])
    if kind in _MODEL_TYPES:
        return "wrong_type", {"types": (_type(_MODEL_TYPES[kind]),), "instance": instance}
    if kind == "missing" and loc and isinstance(loc[-1], str):
        return "missing_key", {"key": loc[-1]}
    if kind == "extra_forbidden" and loc and isinstance(loc[-1], str):
        return "unknown_key", {"key": loc[-1]}
    if kind == "greater_than_equal":
        return "too_small", {"instance": instance, "value": ctx.get("ge")}
    if kind == "greater_than":
        return "too_small_strict", {"instance": instance, "value": ctx.get("gt")}
    if kind == "less_than_equal":
        return "too_large", {"instance": instance, "value": ctx.get("le")}
    if kind == "less_than":
        return "too_large_strict", {"instance": instance, "value": ctx.get("lt")}
    if kind == "literal_error":
        return "enum", {"instance": instance, "options": str(ctx.get("expected", "")).replace(" or ", ", ")}
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return "empty_text", {}
    if kind == "string_pattern_mismatch":
        return "pattern_regex", {"instance": instance, "regex": ctx.get("pattern")}
    if kind == "too_short":
        return "min_items", {"count": ctx.get("min_length")}
    if kind == "too_long":
        return "max_items", {"count": ctx.get("max_length"), "given": ctx.get("actual_length", "?")}
    if kind == "value_error":
        cause = ctx.get("error")
        if isinstance(cause, RegelmotorError):  # an exact number's refusal (``model.base``), said as it is
            return "as_is", {"error": cause}
    return None


def model_problem(location: Location, path: Path, error: Mapping[str, Any]) -> Problem:
    """A pydantic error at ``path``, said (``model_said``) or, for one the table does not know, pydantic's own."""
    said = model_said(error)
    if said is None:
        return Problem(location, path, error["msg"])
    return Problem.said(location, path, said[0], **said[1])


def read_file(ref: FileRef) -> tuple[Document | None, list[Problem]]:
    """A file's data and all of its own problems: YAML first, then the schema's elsewhere."""
    try:
        data = read_input(ref.path, MAX_BYTES).data
    except InputError as exc:
        return None, [Problem.said(Location(ref.display, 1, 1), (), "as_is", error=reason(exc))]
    key = (ref.display, hashlib.sha256(data).digest())
    with _read_lock:
        kept = _read.get(key)
    if kept is None:
        kept = _parse_and_check(data, ref.display)
        with _read_lock:
            _read[key] = kept
            if len(_read) > READ_KEPT:
                _read.popitem(last=False)
    doc, found = kept
    if doc is None:
        return None, list(found)
    # the caller merges the data into its layers: a copy of its own, the locations shared (they are frozen)
    return Document(doc.file, copy.deepcopy(doc.data), dict(doc.values), dict(doc.keys)), list(found)


READ_KEPT = 64
"""Files kept parsed, by a hash of their bytes: a server or a test session loads the same shipped parents again and
again, and parsing and checking a file against the schema is most of loading it."""
_read: OrderedDict[tuple[str, bytes], tuple[Document | None, tuple[Problem, ...]]] = OrderedDict()
_read_lock = threading.Lock()


def _parse_and_check(data: bytes, display: str) -> tuple[Document | None, tuple[Problem, ...]]:
    doc, found = read_document_lenient(data, display)
    if doc is not None:
        reported = [p.path for p in found]
        found += [
            p
            for p in schema_problems(doc)
            if not any(p.path[: len(r)] == r or r[: len(p.path)] == p.path for r in reported)
        ]
    return doc, tuple(_sorted(found))


def schema_problems(doc: Document) -> list[Problem]:
    problems: list[Problem] = []
    for error in _validator().iter_errors(doc.data):
        problems.extend(_schema_error_problems(doc, error))
    return _sorted(problems)


def _sorted(problems: Iterable[Problem]) -> list[Problem]:
    unique = {(p.location, p.path, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: (p.location.file, p.location.line, p.location.column, p.message))
