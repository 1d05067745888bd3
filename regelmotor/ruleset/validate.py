"""Validate one file as ``regelmotor validate`` does: load it, then compile it (the compiler's problems too)."""

from __future__ import annotations

from regelmotor.errors import Location, Problem, RulesetError, RulesetNotFound
from regelmotor.ruleset.catalogue import FileRef, find_file
from regelmotor.ruleset.compile import compile_problems
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.schema_check import read_file
from regelmotor.ruleset.yaml_source import Document


def validate_file(path: str) -> list[Problem]:
    """Every problem of one file: a ruleset (resolved with what it extends) or a house rule."""
    return check_file(path)[0]


def _reference_problems(doc: Document, ref: FileRef) -> list[Problem]:
    """The file's ``extends`` and ``house_rules`` that name nothing there is, each at its line: said with the
    schema's problems, not only once those are mended."""
    data = doc.data
    named: list[tuple[tuple[str | int, ...], str, bool]] = []
    if isinstance(data.get("extends"), str):
        named.append((("extends",), data["extends"], False))
    rules = data.get("house_rules")
    if isinstance(rules, list):
        named += [(("house_rules", i), rule, True) for i, rule in enumerate(rules) if isinstance(rule, str)]
    found = []
    for path, name, house_rule in named:
        try:
            find_file(name, house_rule=house_rule, relative_to=ref)
        except RulesetNotFound as exc:
            found.append(Problem.said(doc.locate(path), path, "as_is", error=exc))
    return found


def check_file(path: str) -> tuple[list[Problem], list[Problem]]:
    """Every problem of one file, and its warnings (valid, but likely not meant)."""
    try:
        ref = find_file(path, house_rule=False)
    except RulesetNotFound as exc:
        return [Problem.said(Location(path, 1, 1), (), "as_is", error=exc)], []
    doc, found = read_file(ref)
    if doc is not None and found:  # the schema's problems, and the names it points to, at once
        said = {problem.path for problem in found}
        found += [problem for problem in _reference_problems(doc, ref) if problem.path not in said]
        found.sort(key=lambda problem: (problem.location.line, problem.location.column))
    if doc is None or found or doc.data.get("kind") == "house_rule":
        return found, []
    try:
        resolved = load_ruleset(ref)
    except RulesetError as exc:
        return exc.problems, []
    return compile_problems(resolved), list(resolved.warnings)
