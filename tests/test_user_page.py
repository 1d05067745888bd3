"""Issue 72: the README is a user's page, every guide it points to is in the project, and nothing in the project
cites a file outside it (the notation contract is docs/notation.md)."""

from __future__ import annotations

import ast
import re
import shlex

import pytest

from regelmotor.cli.commands import build_parser

from .conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
RESULTS = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")


def test_the_readme_is_a_page_not_a_notebook() -> None:
    assert len(README.splitlines()) <= 250
    assert README.startswith("# regelmotor\n\n**Es-makker whist efter jeres egne regler.**")
    for section in ("## Set-up", "## A tour of the commands", "## A club's own ruleset", "## Where to read more"):
        assert f"\n{section}\n" in README
    assert "\n### What regelmotor promises with a club's data\n" in README
    assert README.count(" 20" + "26") <= 3  # a figure names its run; the dated runs are in benchmarks/RESULTS.md


@pytest.mark.parametrize("page", ["README.md", *(f"docs/{p.name}" for p in sorted((REPO / "docs").glob("*.md")))])
def test_every_link_of_the_readme_and_the_guides_resolves(page: str) -> None:
    path = REPO / page
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (path.parent / target).exists(), f"{page}: {target}"


def test_the_readme_links_every_guide() -> None:
    for guide in ("developing", "bots", "library", "notation", "serving", "analysis", "tuning"):
        assert f"(docs/{guide}.md)" in README, guide


def _tour() -> list[str]:
    tour = README.split("## A tour of the commands", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", tour, re.DOTALL)
    assert block is not None
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line.startswith("regelmotor ")]


@pytest.mark.parametrize("command", _tour())
def test_every_command_of_the_tour_is_one_the_command_line_takes(command: str) -> None:
    words = shlex.split(command.split(" > ")[0])[1:]
    parser = build_parser()
    parser.parse_args(words)  # a wrong command or option exits 2 here


def test_the_readmes_figures_are_the_latest_measured_and_say_where_from() -> None:
    """The README said a full engelsk deal took "5-6×" DDS's time in one place and "6.2×" in another; it now
    gives the latest run's ratio, as benchmarks/RESULTS.md has it, and names the file."""
    assert "5-6×" not in README and "6.2×" in README and "**6.2× `analyse_start`**" in RESULTS
    assert "22.3 points [16.4, 28.2]" in " ".join(README.split()) and "`standard` +22.3 [16.4, 28.2]" in RESULTS
    assert "(benchmarks/RESULTS.md)" in README


def test_the_notation_contract_is_in_the_project_and_nothing_cites_a_file_outside_it() -> None:
    notation = (REPO / "docs" / "notation.md").read_text(encoding="utf-8")
    assert notation.startswith("# Notation contract")
    assert "calibrate" not in notation  # kept current: only commands that exist
    parser = build_parser()
    table = notation.split("## Command line", 1)[1]
    commands = re.findall(r"^\| `([a-z]+)[ `]", table, re.MULTILINE)
    known = {name for action in parser._actions if isinstance(action.choices, dict) for name in action.choices}
    assert commands and set(commands) <= known, set(commands) - known
    cited: list[str] = []
    for path in [REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(REPO / "regelmotor").rglob("*.py")]:
        if "../shared" in path.read_text(encoding="utf-8"):
            cited.append(f"{path.relative_to(REPO)}: ../shared")
    for path in (REPO / "regelmotor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                docstring = node.value.value
                if isinstance(docstring, str) and re.search(r"(?<!docs/)notation\.md", docstring):
                    cited.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert cited == []
