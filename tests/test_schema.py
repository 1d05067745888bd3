"""The committed JSON Schema: generated from the models, in sync, in Danish, and valid."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest

from regelmotor.ruleset.schema import REGENERATE, ruleset_schema, schema_text
from regelmotor.ruleset.schema_check import committed_schema

from .conftest import REPO

# English function words; a Danish description has none of them (quoted values aside).
ENGLISH = re.compile(r"\b(the|of|and|which|when|with|this|that|are|must|may|should|every|each)\b", re.IGNORECASE)
QUOTED = re.compile(r'"[^"]*"')


def test_committed_schema_is_generated_from_the_models() -> None:
    committed = (REPO / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), f"schemas/ruleset.schema.json is out of date; regenerate it with: {REGENERATE}"


def test_committed_schema_is_a_valid_json_schema() -> None:
    schema = committed_schema()
    jsonschema.validators.validator_for(schema).check_schema(schema)


def _properties(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            found.append((f"{path}.{name}", sub))
        for key, sub in node.items():
            if key != "properties":
                found.extend(_properties(sub, f"{path}/{key}"))
            else:
                for name, prop in sub.items():
                    found.extend(_properties(prop, f"{path}.{name}"))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            found.extend(_properties(sub, f"{path}[{i}]"))
    return found


def test_every_property_has_a_danish_description() -> None:
    """Design: "a Danish description on every schema property so an editor shows help on hover"."""
    properties = _properties(ruleset_schema())
    assert len(properties) > 100
    for path, prop in properties:
        description = prop.get("description", "")
        assert description, f"{path} has no description"
        assert not ENGLISH.search(QUOTED.sub("", description)), f"{path}: the description is English: {description!r}"


@pytest.mark.parametrize("path", sorted((REPO / "rulesets").rglob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_file_is_valid_against_the_schema(path: Any) -> None:
    from regelmotor.ruleset.yaml_source import read_document

    doc = read_document(path.read_bytes(), path.name)
    errors = list(jsonschema.validators.validator_for(committed_schema())(committed_schema()).iter_errors(doc.data))
    assert errors == []


def test_the_schema_is_json_and_names_itself() -> None:
    schema = json.loads(schema_text())
    assert schema["$id"].endswith("ruleset.schema.json")
    assert set(schema["$defs"]) >= {"RulesetFile", "HouseRuleFile", "Designation", "Scoring"}
