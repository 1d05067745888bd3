"""``Rules`` is the only door: consumers of the rules (bots, the kernel, ``score``, ``session``, the rule
book, ``diff``, ``compare``, ``simulate``) go through the compiled hooks, never around them.

A consumer that imports a rule family's module, or reads the scorer behind ``settle``, misses what a
club's plugin changes in that hook (the example plugin's slam bonus, a plugin's selvmakker rule). The
few imports left are named below with the reason each is not a rule decided outside ``Rules``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from regelmotor.score_sheet import score

from .conftest import REPO, rules_of

PACKAGE = REPO / "regelmotor"
INSIDE = ("rules/", "ruleset/compile.py", "ruleset/phases.py", "ruleset/checks.py")
"""Where the rule families are written, compiled and their checks run."""
ALLOWED: dict[tuple[str, str], str] = {
    (
        "play_row.py",
        "regelmotor.rules.cardplay",
    ): "the play row plays by the play rules' bitmask functions, written once",
    ("bots/kernel.py", "regelmotor.rules.cardplay"): "the playouts read the card encoding of those functions",
    ("bots/double_dummy.py", "regelmotor.rules.cardplay"): "the search plays by those same functions",
    ("double_dummy/solver.py", "regelmotor.rules.cardplay"): "the solver plays by those same functions",
    ("double_dummy/position.py", "regelmotor.rules.cardplay"): "the search's side and its ceiling, by them too",
    ("double_dummy/transposition.py", "regelmotor.rules.cardplay"): "its table keys positions by their cards",
    ("double_dummy/ordering.py", "regelmotor.rules.cardplay"): "its move ordering plays by those functions",
    ("double_dummy/quick_tricks.py", "regelmotor.rules.cardplay"): "its sure tricks ask the rule families",
    ("double_dummy/sure_bound.py", "regelmotor.rules.cardplay"): "the bound of the sure tricks, compiled as they are",
    ("double_dummy/analysis.py", "regelmotor.rules.cardplay"): "the solver's row names the contract's side by them",
    ("double_dummy/table.py", "regelmotor.rules.cardplay"): "a hand record's row is a trump game of theirs",
    ("rulebook/build.py", "regelmotor.rules.contracts.named"): "the rule book's words for a kind of sol bid",
    ("diff.py", "regelmotor.rules.contracts.designation_kinds"): "the diff's words for a designation",
}


CARD_BITS = ("regelmotor.rules.cardplay", "regelmotor.rules.jokers.cardplay", "regelmotor.rules.called_card.cardplay")
"""The play rules' bitmask functions: the shared machinery (``rules/cardplay``) and the families' own bits.
An allowance for ``regelmotor.rules.cardplay`` is one for all of them."""
THE_MODEL = ("regelmotor.rules.families",)
"""A family's keys (``rules/<family>/keys.py``), its sentences (``book.py``) and the index of the families are
the model and its words, not a rule decided: anyone may import them."""


def _is_the_model(module: str) -> bool:
    """A family's keys, or its sentences for the rule book (``book.py``): words about the rule, not the rule."""
    parts = module.split(".")
    family_part = len(parts) == 4 and parts[:2] == ["regelmotor", "rules"] and parts[3] in ("keys", "book")
    return module in THE_MODEL or family_part


def _covers(allowed: str, module: str) -> bool:
    targets = CARD_BITS if allowed == "regelmotor.rules.cardplay" else (allowed,)
    return any(module == m or module.startswith(m + ".") for m in targets)


def _submodule(package: str, name: str) -> str:
    full = f"{package}.{name}"
    return full if (REPO / (full.replace(".", "/") + ".py")).exists() else package


def _consumers() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if not any(str(p.relative_to(PACKAGE)).startswith(inside) for inside in INSIDE)
    ]


def _rule_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:  # ``from package import module``: the module
            names = [_submodule(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        found += [
            n for n in names if (n == "regelmotor.rules" or n.startswith("regelmotor.rules.")) and not _is_the_model(n)
        ]
    return found


def test_no_consumer_imports_a_rule_family_around_the_compiled_rules() -> None:
    offenders = []
    for path in _consumers():
        where = str(path.relative_to(PACKAGE))
        for module in _rule_imports(path):
            if not any(where == w and _covers(m, module) for w, m in ALLOWED):
                offenders.append(f"{where} imports {module}")
    assert offenders == [], "score, play and bid through Rules: " + "; ".join(offenders)


def test_no_consumer_scores_with_the_scorer_behind_settle() -> None:
    """One scoring door: ``Rules.points`` and ``Rules.role_points`` (settle with every wrapper)."""
    offenders = []
    for path in _consumers():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "scorer":
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == [], "scored around settle at " + ", ".join(offenders)


def test_every_allowed_import_is_still_there() -> None:
    """An allowance no longer needed is removed, so that the list stays the truth."""
    for where, module in ALLOWED:
        assert any(_covers(module, m) for m in _rule_imports(PACKAGE / where)), (where, module)


# --- the side door: the raw model read past ``Rules`` -------------------------------------------------

MODEL_READERS = ("ruleset/", "rules/", "rulebook/", "model/", "diff.py")
"""Where the model is the subject: loading and compiling it, the rule families made from it, the rule book
and the diff that print it."""
MODEL_READS_ALLOWED: dict[tuple[str, str], str] = {
    ("cli/rulesets.py", ".ruleset.model_dump"): "``show`` prints the resolved file itself",
    ("cli/rulesets.py", ".ruleset.title"): "``show`` heads the file it prints with the file's own title",
    ("score_sheet.py", ".ruleset.model_dump"): "a sheet keeps the file it was started with, to score by it again",
    ("web/app.py", "bound to .ruleset"): "the page's list of rulesets offers the operator's file by its own words",
    (
        "web/club_form.py",
        ".ruleset.model_dump",
    ): "the club's page edits the club's file: its form holds the file's values",
    (
        "web/club_history.py",
        ".ruleset.scoring",
    ): "the history says a changed point table entry by entry, from two files",
}
"""Consumers that hold the model for what it is, a club's file, never to ask a rule of it."""


def _argument(node: ast.Attribute) -> bool:
    """``args.ruleset``: the command line's argument, the name of a ruleset, not a model."""
    return isinstance(node.value, ast.Name) and node.value.id == "args"


def _model_reads(path: Path) -> list[str]:
    """Every read of a field through ``.ruleset`` (``rules.ruleset.scoring``), and every name bound to a
    ``.ruleset`` (``ruleset = rules.ruleset``: the same read, one line later)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "ruleset":
            found.append(f"{node.lineno}: .ruleset.{node.attr}")
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        values = value.elts if isinstance(value, ast.Tuple) else [value]  # ``game, ruleset = g, rules.ruleset``
        if any(isinstance(v, ast.Attribute) and v.attr == "ruleset" and not _argument(v) for v in values):
            found.append(f"{node.lineno}: bound to .ruleset")
    return found


def _side_door() -> list[str]:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        if where.startswith(MODEL_READERS):
            continue
        for read in _model_reads(path):
            if (where, read.split(": ", 1)[1]) not in MODEL_READS_ALLOWED:
                offenders.append(f"{where}:{read}")
    return offenders


def test_no_consumer_reads_the_model_past_rules() -> None:
    """``Rules`` answers what consumers ask (the points as shown, a bid's side, fixed partners, the
    evening's rules, the deck): a consumer that asks the model instead misses what a plugin changes."""
    assert _side_door() == [], "ask Rules: " + "; ".join(_side_door())


def test_the_side_door_check_sees_a_planted_read(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def f(rules):\n    ruleset = rules.ruleset\n    return rules.ruleset.scoring.decimals\n")
    assert sorted(_model_reads(planted)) == ["2: bound to .ruleset", "3: .ruleset.scoring"]


def test_every_allowed_model_read_is_still_there() -> None:
    for where, read in MODEL_READS_ALLOWED:
        assert any(found.endswith(": " + read) for found in _model_reads(PACKAGE / where)), (where, read)


# --- issue 47's two divergences: the evening's sheet asks the rules as score and the command line do ------


def test_the_sheet_counts_vip_turns_by_the_hook_as_score_does(tmp_path: Path) -> None:
    """Issue 47: "`score_sheet.py` counts vip turns from `trump.turns` while `score` asks the `vip_turns`
    hook, so a plugin's `vip_turns` changes `score` but not the evening's sheet"."""
    import dataclasses

    from regelmotor.score_sheet import Line, Sheet, SheetError

    rules = rules_of("standard")
    turns = dataclasses.replace(rules.declaration, vip_turns=lambda designation: 1 if designation == "vip" else 0)
    one_turn = dataclasses.replace(rules, declaration=turns)
    sheet = Sheet("standard", ("Anna", "Bo", "Carl", "Dorte"))
    sheet.lines.append(Line(contract="8 vip", declarer="Anna", partner="Carl", tricks=(9,), vip_card=2))
    score(sheet, rules)  # the shipped rules: three turns, the second card accepted
    with pytest.raises(SheetError) as caught:
        score(sheet, one_turn)  # a plugin's one turn: there is no second card
    assert "2" in caught.value.text()


def test_the_pages_sheet_offers_the_contract_the_redeal_hook_plays_when_all_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47: "`web/sheet.py` reads `ruleset.all_pass.contract` where the command line asks
    `rules.dealing.redealing.all_pass_contract`": a club's plugin that plays a game when all pass is on the page."""
    import dataclasses

    from regelmotor.score_sheet import Sheet, write_sheet
    from regelmotor.web import sheet as web_sheet

    dansk = rules_of("dansk")
    pasnolo = dansk.dealing.redealing.all_pass_contract
    assert pasnolo is not None
    standard = rules_of("standard")
    redealing = dataclasses.replace(standard.dealing.redealing, all_pass_contract=pasnolo)
    played = dataclasses.replace(standard, dealing=dataclasses.replace(standard.dealing, redealing=redealing))
    real = web_sheet.score
    monkeypatch.setattr(web_sheet, "score", lambda sheet: real(sheet, played))
    path = tmp_path / "aften.json"
    sheet = Sheet("standard", ("Anna", "Bo", "Carl", "Dorte"), folder=tmp_path)
    sheet.freeze(sheet.current())
    write_sheet(path, sheet)
    assert web_sheet.sheet_state(path)["contracts"][-1] == pasnolo.text


def _trump_by_branches(source: str) -> list[int]:
    """The lines where ``source`` compares a designation's ``trump.by`` (``X.trump.by``, or ``trump.by`` of
    a name bound to it) with anything."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Attribute) and side.attr == "by":
                    owner = side.value
                    named = isinstance(owner, ast.Name) and owner.id == "trump"
                    if named or (isinstance(owner, ast.Attribute) and owner.attr == "trump"):
                        found.append(node.lineno)
    return found


def test_who_decides_trump_is_asked_of_the_designation_kind_never_branched_on() -> None:
    """Issue 47: "``DesignationKind`` promises one registry in place of branches on ``trump.by``, yet
    ``declaration.py`` and ``checks.py`` still branch": every module asks ``kind_of`` instead."""
    branches = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "designation_kinds.py" and (lines := _trump_by_branches(path.read_text(encoding="utf-8")))
    }
    assert branches == {}


def test_the_trump_by_check_sees_a_planted_branch() -> None:
    assert _trump_by_branches('if d.trump.by == "kitty":\n    pass\n') == [1]
    assert _trump_by_branches('trump = d.trump\nif trump.by != "partner":\n    pass\n') == [2]
    assert _trump_by_branches('if d.exchange.by == "partner":\n    pass\n') == []


def _raw_constant_reads(path: Path) -> list[str]:
    """Each ``consts[...]`` or ``<anything>.constants[...]`` read of a module: the play constants' array indexed
    by hand (a ruleset's ``scoring.constants``, the formulas' named numbers, is not it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and (
            (isinstance(node.value, ast.Name) and node.value.id == "consts")
            or (
                isinstance(node.value, ast.Attribute)
                and node.value.attr == "constants"
                and not (isinstance(node.value.value, ast.Name) and node.value.value.id == "scoring")
            )
        )
    ]


def test_the_search_asks_the_rule_families_never_the_constants_array() -> None:
    """Issue 72: "the solver and kernel ask `jokers.led_beats_trump(consts)`, never a raw index": outside the
    rule families (``rules/``) no module reads the play constants by index, so a rule's meaning lives in its
    family once."""
    found = [
        read
        for path in sorted(PACKAGE.rglob("*.py"))
        if not str(path.relative_to(PACKAGE)).startswith("rules/")
        for read in _raw_constant_reads(path)
    ]
    assert found == []


def test_the_constants_check_sees_a_planted_read(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def f(consts, rules):\n    return consts[4] == 0 or rules.play.constants[8] == 0\n")
    assert len(_raw_constant_reads(planted)) == 2
