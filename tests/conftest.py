"""Shared helpers: writing club files into a temporary folder, and the rule sources.

The rule texts live beside the project in ../shared/sources/ (not in the package); tests quote
them in their docstrings, and test_sources.py checks the quotes against the files when they
are present.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings

from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import load_ruleset

# Property tests check what the rules allow, never how fast: no deadline, a fixed example budget.
settings.register_profile("regelmotor", deadline=None, max_examples=100)
settings.load_profile("regelmotor")

REPO = Path(__file__).resolve().parent.parent
SOURCES = REPO.parent / "shared" / "sources"
RULESETS = ("standard", "thorsen", "whistklubben", "gruppe2")
HOUSE_RULES = ("joker-trumpable", "gaa-med", "jernhaand", "fordaekt", "dobling", "kan-selv")


@cache
def rules_of(name: str, *house: str) -> Rules:
    """A shipped ruleset compiled once per test session (rules are immutable)."""
    return compile_rules(load_ruleset(name, list(house)))


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """Write a file (dedented) into a fresh working folder and return its name."""
    monkeypatch.chdir(tmp_path)

    def write(name: str, text: str | bytes) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return name

    return write
