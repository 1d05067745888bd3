"""Schema validation of one file, each JSON Schema error said in the club's words at its line."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from functools import cache
from typing import Any

import jsonschema

from regelmotor._data import data_dir
from regelmotor.errors import Location, Problem
from regelmotor.ruleset.catalogue import FileRef
from regelmotor.ruleset.model import EXACT_DESCRIPTION
from regelmotor.ruleset.yaml_source import (
    MAX_BYTES,
    Document,
    Path,
    TooLarge,
    read_bounded,
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
