"""The engine holds state and asks hooks: ``engine/game.py`` decides no rule from the ruleset itself.

Every rule family lives in one module of ``regelmotor/rules/`` named after it, registered as a
standard plugin; the state machine reads ``rules.<hook>``, never ``ruleset.<field>``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from regelmotor.ruleset.compile import STANDARD_PLUGINS
from regelmotor.ruleset.validate import validate_file

from .conftest import REPO

ENGINE = REPO / "regelmotor" / "engine"
MACHINE = [ENGINE / "game.py", ENGINE / "state.py", *sorted((ENGINE / "phases").glob("*.py"))]


def test_the_state_machine_reads_no_ruleset_field() -> None:
    reads = []
    for path in MACHINE:
        reads += [f"{path.name} {read}" for read in _ruleset_reads(ast.parse(path.read_text(encoding="utf-8")))]
    assert reads == [], "the engine decides from the ruleset itself: " + "; ".join(reads)


def test_the_engine_is_split_by_phase() -> None:
    assert {p.stem for p in (ENGINE / "phases").glob("*.py")} >= {"auction", "declaration", "exchange", "play"}


def _ruleset_reads(tree: ast.AST) -> list[str]:
    reads = []
    for node in ast.walk(tree):
        inner = node.value if isinstance(node, ast.Attribute) else None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(inner, ast.Attribute)
            and inner.attr == "ruleset"
            and not (isinstance(inner.value, ast.Name) and inner.value.id == "rules" and node.attr == "name")
        ):
            reads.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ruleset":
            reads.append(f"line {node.lineno}: {ast.unparse(node)}")
    return reads


def test_every_standard_rule_family_is_one_module_named_after_it() -> None:
    modules = {plugin.__module__ for plugin in STANDARD_PLUGINS}
    assert all(m.startswith("regelmotor.rules.") for m in modules)
    assert len(modules) == len(STANDARD_PLUGINS)  # one family per module


def test_validate_reports_what_the_engine_would_refuse_at_its_place(club: Callable[..., str]) -> None:
    """One table of rules the engine lacks: a file that validates is one every game accepts."""
    path = club(
        "k.yaml",
        """
        extends: standard
        name: k
        title: K
        description: K
        source: K
        exchange:
          order: take_first
        """,
    )
    (problem,) = validate_file(path)
    assert problem.path == ("exchange", "order") and problem.location.line == 7
    assert "take_first" in problem.message


NOTATION_WORDS = {
    "vip": "the notation's action that turns the kitty (docs/notation.md), and the state of turning it",
    "sol": "the sol card order, a field of the hooks' TrickContext",
    "sans": "a spelling of the notation's trump none",
}
"""Words of the notation and the hook API that are also bid names in some ruleset: the engine speaks the
notation, so they are its words; no other name of a ruleset, a bid or a game may appear in it."""


def _names_of_rulesets_bids_and_games() -> set[str]:
    from regelmotor.ruleset.catalogue import shipped_rulesets

    from .conftest import CONFIGS, rules_of

    names = {"whist", "esmakkerwhist", "es-makker"}
    for name, house in CONFIGS:
        ruleset = rules_of(name, *([house] if house else [])).ruleset  # compiled once for the whole run
        names |= {ruleset.name, ruleset.game}
        names |= {d.id for d in ruleset.designations} | {s.id for s in ruleset.named_bids()}
    names |= set(shipped_rulesets())
    return {n.lower() for n in names} - set(NOTATION_WORDS)


def test_no_ruleset_bid_or_game_is_named_in_the_engine() -> None:
    """Issue "the whole whist family": no ruleset id, designation id or game name appears in regelmotor/engine/
    (code, strings, comments): engelsk and dansk whist are data and hooks, not a second engine."""
    names = _names_of_rulesets_bids_and_games()
    assert {"engelsk", "dansk", "grandi", "pasnolo", "nolo", "halve", "gode", "thorsen"} <= names
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text(encoding="utf-8").lower()
        for number, line in enumerate(text.splitlines(), 1):
            for name in names:
                if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line):
                    found.append(f"{path.relative_to(REPO)}:{number}: {name}")
    assert found == []


def test_a_deal_is_declared_once_and_cloned_by_its_declaration() -> None:
    """Issue 72: "One deal is declared twice ... its 58 attributes in `engine/state.py` and again in
    `engine/game.py` (so `clone()` needs tables of copy rules)": ``State`` declares every field once, with its
    default and how a clone copies it; ``Game.__init__`` sets only what the dealt cards decide."""
    import ast
    import dataclasses
    import inspect
    import textwrap

    from regelmotor.engine.game import Game
    from regelmotor.engine.state import DERIVED, State
    from regelmotor.simulate import Table, table_rules

    declared = {f.name: f.metadata.get("copy") for f in dataclasses.fields(State)}
    assert all(how in {"shared", "list", "nested", "dict", "vip", "deep", "derived"} for how in declared.values())
    game = Game.from_seed(table_rules(Table("standard")), 4, 0)
    assert set(game.__dict__) - set(DERIVED) <= set(declared)
    init = ast.parse(textwrap.dedent(inspect.getsource(Game.__init__)))
    assigned = {
        target.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    assert assigned == {"leader", "claims", "_auction"}  # what the seats and the rules work out
    twin = game.clone()
    for name, how in declared.items():
        if how in {"list", "nested", "dict"} and getattr(game, name, None) is not None:
            assert getattr(twin, name) == getattr(game, name) and getattr(twin, name) is not getattr(game, name), name
