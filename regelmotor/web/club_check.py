"""A draft of the club's file checked as ``regelmotor validate`` checks a file, in a process of its own (the upload
pool's, ``upload.isolated``): its problems in validate's words at their line, column and key, the form of its
rules, and, where asked, its rule book or its differences from the saved file or a shipped ruleset.

A draft is loaded from a private temporary folder, never beside the club's file, and may extend and list only
shipped rulesets and house rules (the server reads no file by a path a client names): the saved file is read
by the path the operator gave ``serve``, and only for ``against: "saved"``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import tempfile
from pathlib import Path
from typing import Any

from regelmotor.diff import diff_rulesets
from regelmotor.errors import Problem, RegelmotorError, RulesetError
from regelmotor.ruleset.catalogue import FileRef, is_path
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.validate import check_file
from regelmotor.web.club_form import base_text, build_form, change_text
from regelmotor.web.club_yaml import ClubYamlError, load_text

CLUB_NAME = "klub.yaml"
"""How a draft is named in its problems when the club's file has no name of its own to give."""


def _problem(problem: Problem, name: str, folder: str, severity: str = "error") -> dict[str, Any]:
    file = problem.location.file.replace(folder + "/", "")
    return {
        "file": name if file.endswith(name) and "/" not in file else file,
        "line": problem.location.line,
        "column": problem.location.column,
        "path": problem.key_path,
        "key": list(problem.path),
        "message": problem.said_as("da").replace(folder + "/", ""),
        "message_en": problem.said_as("en").replace(folder + "/", ""),
        "severity": severity,
    }


def _shipped_only(text: str) -> list[dict[str, Any]]:
    """The draft's ``extends`` and ``house_rules`` that name a path: refused at their line before any is read."""
    data = load_text(text)
    named: list[tuple[tuple[str | int, ...], Any]] = [(("extends",), data.get("extends"))]
    rules = data.get("house_rules")
    if isinstance(rules, list):
        named += [(("house_rules", i), rule) for i, rule in enumerate(rules)]
    refused = []
    for path, ref in named:
        if isinstance(ref, str) and is_path(ref):
            line = data.lc.line + 1 if path == ("extends",) else 1
            with contextlib.suppress(AttributeError, KeyError, IndexError, TypeError):
                line = (data.lc.key(path[0])[0] + 1) if len(path) == 1 else data[path[0]].lc.item(path[1])[0] + 1
            refused.append(
                {
                    "file": CLUB_NAME,
                    "line": line,
                    "column": 1,
                    "path": ".".join(str(p) for p in path),
                    "key": list(path),
                    "message": "kun et medfølgende reglesæt eller en medfølgende husregel kan nævnes her, ved sit "
                    "navn (siden læser ingen fil ved en sti)",
                    "message_en": "only a shipped ruleset or house rule may be named here, by its name "
                    "(the page reads no file by a path)",
                    "severity": "error",
                }
            )
    return refused


def _resolve(text: str, name: str, folder: str) -> tuple[ResolvedRuleset | None, list[dict[str, Any]]]:
    """The draft's rules, or its problems as ``validate`` says them (and its warnings), loaded from ``folder``."""
    refused = _shipped_only(text)
    if refused:
        return None, refused
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    problems, warnings = check_file(str(path))
    said = [_problem(p, name, folder) for p in problems] + [_problem(w, name, folder, "warning") for w in warnings]
    if problems:
        return None, said
    try:
        resolved = load_ruleset(FileRef(path, name), shipped_only=True)
    except RulesetError as exc:
        return None, said + [_problem(p, name, folder) for p in exc.problems]
    files = tuple(f.replace(folder + "/", "") for f in resolved.files)
    return dataclasses.replace(resolved, files=files), said


def _base(text: str, folder: str) -> ResolvedRuleset | None:
    """What the draft builds on: its parent with the house rules it lists (None where that cannot load)."""
    parent = base_text(text)
    if parent is None or _shipped_only(parent):
        return None
    path = Path(folder) / "parent.yaml"
    path.write_text(parent, encoding="utf-8")
    try:
        return load_ruleset(FileRef(path, "parent.yaml"), shipped_only=True)
    except RegelmotorError:
        return None


def check_draft(text: str, name: str, change: dict[str, Any] | None) -> tuple[dict[str, Any], ResolvedRuleset | None]:
    """The draft (with ``change`` of the form written in first) checked: ``{"ok", "fingerprint", "problems",
    "form", "yaml"}`` and its rules where it has no problem. Run in a process of its own (``upload.isolated``)."""
    with tempfile.TemporaryDirectory() as folder:
        if change is not None:
            try:
                load_text(text)
                before, _ = _resolve(text, name, folder)
                text = change_text(text, change, before, _base(text, folder))
            except ClubYamlError as exc:
                return _refused(exc, text), None
        try:
            load_text(text)
        except ClubYamlError as exc:
            return _refused(exc, text), None
        resolved, problems = _resolve(text, name, folder)
        base = _base(text, folder)
        ok = resolved is not None
        answer: dict[str, Any] = {
            "ok": ok,
            "fingerprint": resolved.fingerprint if resolved is not None else None,
            "problems": problems,
            "yaml": text,
            "form": build_form(resolved, base, text) if resolved is not None else None,
            "label": resolved.label if resolved is not None else None,
        }
        return answer, resolved


def _refused(error: RegelmotorError, text: str) -> dict[str, Any]:
    said = {"line": 1, "column": 1, "path": "", "key": [], "severity": "error", "file": CLUB_NAME}
    return {
        "ok": False,
        "fingerprint": None,
        "problems": [{**said, "message": error.text("da"), "message_en": error.text("en")}],
        "yaml": text,
        "form": None,
        "label": None,
    }


def draft_rulebook(text: str, name: str, fmt: str, lang: str, paper: str) -> str | bytes:
    """The draft's rule book (html, or pdf on A4 or A5), as ``regelmotor rulebook`` makes it."""
    from regelmotor.rulebook import build_rulebook, render
    from regelmotor.ruleset.compile import compile_rules

    with tempfile.TemporaryDirectory() as folder:
        resolved, problems = _resolve(text, name, folder)
    if resolved is None:
        raise ClubYamlError.said("club_has_problems", count=len([p for p in problems if p["severity"] == "error"]))
    return render(build_rulebook(resolved, compile_rules(resolved), lang), fmt, paper)


def draft_diff(text: str, name: str, against: str, saved: str | None) -> list[dict[str, Any]]:
    """``diff --json`` of the draft against a shipped ruleset or the saved file (``saved``: the path ``serve`` was
    given; never one a client names): each difference with both values and their sources."""
    with tempfile.TemporaryDirectory() as folder:
        resolved, problems = _resolve(text, name, folder)
    if resolved is None:
        raise ClubYamlError.said("club_has_problems", count=len([p for p in problems if p["severity"] == "error"]))
    other = (
        load_ruleset(saved) if against == "saved" and saved is not None else load_ruleset(against, shipped_only=True)
    )
    return [_jsonable(d.__dict__) for d in diff_rulesets(other, resolved)]


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


__all__ = ["CLUB_NAME", "check_draft", "draft_diff", "draft_rulebook"]
