"""Validate one file as ``regelmotor validate`` does: load it, then compile it (the compiler's problems too)."""

from __future__ import annotations

from regelmotor.errors import Location, Problem, RulesetError, RulesetNotFound
from regelmotor.ruleset.catalogue import find_file
from regelmotor.ruleset.compile import compile_problems
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.schema_check import read_file


def validate_file(path: str) -> list[Problem]:
    """Every problem of one file: a ruleset (resolved with what it extends) or a house rule."""
    return check_file(path)[0]


def check_file(path: str) -> tuple[list[Problem], list[Problem]]:
    """Every problem of one file, and its warnings (valid, but likely not meant)."""
    try:
        ref = find_file(path, house_rule=False)
    except RulesetNotFound as exc:
        return [Problem.said(Location(path, 1, 1), (), "as_is", error=exc)], []
    doc, found = read_file(ref)
    if doc is None or found or doc.data.get("kind") == "house_rule":
        return found, []
    try:
        resolved = load_ruleset(ref)
    except RulesetError as exc:
        return exc.problems, []
    return compile_problems(resolved), list(resolved.warnings)
