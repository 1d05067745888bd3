"""The JSON Schema of ruleset files, generated from the models.

The models describe a *resolved* ruleset, where every rule is present. A file on disk is
usually partial (``extends: standard`` plus a few lines, or a house-rule overlay), so the file
schema is the model schema with nothing required: it checks keys, types and allowed values of
what a file says, and the models check completeness after the files are merged. The schema is
committed at ``schemas/ruleset.schema.json`` so editors can use it; a test keeps it in sync.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from regelmotor.model.ruleset import WORDS, Ruleset

SCHEMA_ID = "https://regelmotor.dk/schemas/ruleset.schema.json"
REGENERATE = "python -m regelmotor schema > schemas/ruleset.schema.json"

_FILE_KEYS: dict[str, Any] = {
    "kind": {
        "enum": ["ruleset", "house_rule"],
        "description": "Filens art: et reglesæt (standard) eller en husregel der lægges ovenpå et reglesæt.",
    },
    "extends": {
        "type": "string",
        "minLength": 1,
        "description": 'Reglesættet som dette bygger på: et medfølgende navn (fx "standard") eller en relativ sti.',
    },
    "house_rules": {
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "description": (
            'Husregler der lægges ovenpå, i rækkefølge: medfølgende navne (fx "gaa-med") eller relative stier.'
        ),
    },
    "remove": {
        "type": "object",
        "additionalProperties": False,
        "description": (
            "Det der fjernes af det arvede (efter extends og husreglerne): meldinger (designations) og "
            "solomeldinger (sol_bids) efter id, og enkelte poster i pointtabellerne. En fjernet solomeldings "
            "poster i tabeller efter melding fjernes med den."
        ),
        "properties": {
            "designations": {
                "type": "array",
                "items": {"type": "string", "minLength": 1},
                "uniqueItems": True,
                "description": 'Meldinger der ikke spilles i klubben, efter id (fx "halve").',
            },
            "sol_bids": {
                "type": "array",
                "items": {"type": "string", "minLength": 1},
                "uniqueItems": True,
                "description": 'Solomeldinger der ikke spilles i klubben, efter id (fx "ren bordlægger").',
            },
            "tables": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": ["string", "integer"]},
                    "uniqueItems": True,
                },
                "description": (
                    'Poster der fjernes fra pointtabellerne: tabellens navn og postens nøgle (fx "S: [13]").'
                ),
            },
        },
    },
}


def _strip(node: Any, *, names: bool = False) -> Any:
    """Drop ``required`` (files are partial), titles and the models' English class docstrings.

    ``names`` is true for a ``properties`` mapping, whose keys are field names, not keywords.
    """
    if isinstance(node, dict):
        if names:
            return {k: _strip(v) for k, v in node.items()}
        out = {
            k: _strip(v, names=k in ("properties", "$defs")) for k, v in node.items() if k not in ("required", "title")
        }
        if "properties" in node and "description" in out and node.get("type") == "object":
            del out["description"]
        return out
    if isinstance(node, list):
        return [_strip(item) for item in node]
    return node


def ruleset_schema() -> dict[str, Any]:
    """The schema of a ruleset or house-rule file."""
    model = Ruleset.model_json_schema(ref_template="#/$defs/{model}")
    defs = {name: _strip(definition) for name, definition in model.pop("$defs").items()}
    ruleset = _strip(model)
    ruleset_file = copy.deepcopy(ruleset)
    ruleset_file["properties"] = {**_FILE_KEYS, **ruleset_file["properties"]}
    ruleset_file["properties"]["kind"] = {
        **_FILE_KEYS["kind"],
        "const": "ruleset",
    }
    ruleset_file["properties"]["kind"].pop("enum")
    changes = copy.deepcopy(ruleset)
    for key in ("name", "source", *WORDS):  # a house rule changes rules, not what a ruleset is called
        changes["properties"].pop(key)
    defs["RulesetFile"] = ruleset_file
    defs["HouseRuleFile"] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "name", "title", "description", "source", "changes"],
        "properties": {
            "kind": {"const": "house_rule", "description": _FILE_KEYS["kind"]["description"]},
            "name": {
                "type": "string",
                "pattern": r"^[a-z0-9][a-z0-9_-]*$",
                "description": 'Husreglens korte navn, som det skrives efter -H (fx "gaa-med").',
            },
            "title": {"type": "string", "minLength": 1, "description": "Husreglens navn som det vises."},
            "description": {"type": "string", "minLength": 1, "description": "En linje om husreglen."},
            "title_en": {
                "type": "string",
                "minLength": 1,
                "description": "Husreglens navn på engelsk.",
            },
            "description_en": {"type": "string", "minLength": 1, "description": "Linjen om husreglen på engelsk."},
            "source": ruleset["properties"]["source"],
            "changes": {
                **changes,
                "description": "De regler husreglen ændrer, skrevet som i et reglesæt; de lægges ovenpå reglesættet.",
            },
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "regelmotor: reglesæt for es-makker whist",
        "description": (
            "Et reglesæt (kind: ruleset, eventuelt med extends og house_rules) eller en husregel "
            "(kind: house_rule) for regelmotor."
        ),
        "if": {
            "required": ["kind"],
            "properties": {"kind": {"const": "house_rule", "description": "En husregel-fil har kind: house_rule."}},
        },
        "then": {"$ref": "#/$defs/HouseRuleFile"},
        "else": {"$ref": "#/$defs/RulesetFile"},
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    return json.dumps(ruleset_schema(), indent=2, ensure_ascii=False) + "\n"
