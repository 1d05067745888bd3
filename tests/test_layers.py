"""The package's layers: no import circles, and the engine is the state machine only.

Every import counts, also one made only for type checking or inside a function: a circle hidden in
either still ties two modules into one. The engine (``engine/``) neither reads nor writes files
(records and their I/O are ``records.py``) and asks the rule families only through the compiled
``Rules``.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from .conftest import REPO

PACKAGE = REPO / "regelmotor"


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in PACKAGE.rglob("*.py")}


def _imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports, anywhere in it (TYPE_CHECKING blocks and functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {m for m in found if m in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def _circles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(GRAPH[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return groups


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    assert _circles() == []


def test_the_circle_check_sees_a_circle_made_for_type_checking_only() -> None:
    """The check is not vacuous: add one edge back and it reports the circle."""
    GRAPH["regelmotor.cards"].add("regelmotor.engine.game")
    try:
        assert any("regelmotor.cards" in group and "regelmotor.engine.game" in group for group in _circles())
    finally:
        GRAPH["regelmotor.cards"].discard("regelmotor.engine.game")


def test_the_engine_does_no_file_io_and_imports_no_rule_family() -> None:
    for name in (n for n in MODULES if n.startswith("regelmotor.engine")):
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not imported & {"json", "pathlib", "pydantic", "os", "io"}, name
        assert not any(m == "regelmotor.rules" or m.startswith("regelmotor.rules.") for m in imported), name
        calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert "open" not in calls, name


def test_the_loader_is_split_by_concern() -> None:
    """Finding files, checking one file against the schema, the overlay algebra, resolving, validating:
    a module each (``ruleset/load.py`` resolves only)."""
    for part in ("catalogue", "schema_check", "overlay", "load", "validate"):
        assert f"regelmotor.ruleset.{part}" in MODULES
    assert len(MODULES["regelmotor.ruleset.load"].read_text(encoding="utf-8").splitlines()) < 400


FLOORS: tuple[tuple[str, ...], ...] = (
    ("_data", "numba_cache", "phrase_table", "rounding", "safe_text"),
    ("compiled", "errors", "progress"),
    ("cards", "files", "names", "numbers"),
    ("model.base", "model.formula"),
    ("family keys",),
    ("model",),
    ("bids",),
    ("hooks", "phrases"),
    ("rules",),
    ("ruleset",),
    ("diff", "engine"),
    ("play_row", "records", "rulebook", "session"),
    ("double_dummy", "score_sheet"),
    ("bots",),
    ("play", "simulate"),
    ("compare", "match", "prepare"),
    ("tuning",),
    ("web",),  # the club's page asks compare's and tune's questions (web/club_questions.py)
    ("cli",),
    ("__main__",),
)
"""The house's floors from the ground up, each a set of rooms (a module, or a package with all it holds):
the ruleset's types (each family's keys among them) under the rule families, loading and compiling above them, the engine above that, the
consumers over it. A room imports only rooms on lower floors."""


def _room(module: str) -> str:
    """A module's room: its top-level package, but for the model's parts. A rule family's keys
    (``rules/<family>/keys.py``) are its part of the model, standing with the model's value types
    under the model that puts them together, and under everything else of the rule families."""
    parts = module.split(".")
    if len(parts) == 4 and parts[1] == "rules" and parts[3] == "keys":
        return "family keys"
    if module in ("regelmotor.model.base", "regelmotor.model.formula"):
        return module.removeprefix("regelmotor.")
    return parts[1] if len(parts) > 1 else "__init__"


def _floor_of(room: str) -> int:
    return next(i for i, rooms in enumerate(FLOORS) if room in rooms)


def _imports_up_or_sideways() -> list[str]:
    """Every import from one room into a room on its own floor or above."""
    found = []
    for name, imported in sorted(GRAPH.items()):
        room = _room(name)
        if room == "__init__":
            continue  # the package's face: ``regelmotor`` itself
        for other in sorted(imported):
            there = _room(other)
            if there not in (room, "__init__") and _floor_of(there) >= _floor_of(room):
                found.append(f"{name} -> {other}")
    return found


def test_every_room_stands_on_a_floor() -> None:
    placed = {room for rooms in FLOORS for room in rooms}
    assert {_room(m) for m in MODULES} - {"__init__"} <= placed


def test_an_import_only_goes_down_a_floor() -> None:
    assert _imports_up_or_sideways() == []


def test_the_floors_check_sees_an_import_that_goes_up() -> None:
    """The check is not vacuous: a rule family importing the engine is reported."""
    GRAPH["regelmotor.rules.vip.hooks"].add("regelmotor.engine.game")
    try:
        assert "regelmotor.rules.vip.hooks -> regelmotor.engine.game" in _imports_up_or_sideways()
    finally:
        GRAPH["regelmotor.rules.vip.hooks"].discard("regelmotor.engine.game")


@pytest.mark.parametrize("old", ["ruleset.model", "ruleset.formula"])
def test_the_models_old_addresses_are_gone(old: str) -> None:
    """Issue 47 moved the model's types "to the floor under the rule families" and kept their old addresses a
    while; issue 72 took the two re-exporting modules away: the types are at ``regelmotor.model`` only."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"regelmotor.{old}")
