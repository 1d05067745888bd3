"""Quotes are real: every quoted fragment in a shipped ruleset's source fields and in the tests'
docstrings appears, word for word, in the document it cites.

The documents are beside the project (../shared/sources/, ../shared/docs/rules-matrix.md for
Whistklubben's quotes); where they are not, these tests are skipped.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regelmotor.ruleset.yaml_source import read_document

from .conftest import REPO, SOURCES

DOCS = {
    "000": "000_5ff45d385a286ea5.txt",
    "001": "001_b88eb8000c0a2767.txt",
    "002": "002_299b3a88b3c291e8.txt",
    "003": "003_7bef287eedffe464.txt",
}
MATRIX = SOURCES.parent / "docs" / "rules-matrix.md"
CITATION = re.compile(r"\b(000|001|002|003)(?:_[0-9a-f]{16}\.txt)?\b|\b(WK|rules-matrix\.md)\b")
QUOTE = re.compile(r'"([^"]{12,})"')
WEB = re.compile(r"\b(?:[a-z0-9-]+\.)+(?:dk|eu|org|com|no|net)\b")
"""A public page cited by its address: its quotes are not checked here (the page is not beside the project)."""

pytestmark = pytest.mark.skipif(not SOURCES.is_dir(), reason="the rule sources (../shared/sources) are not here")


def _normal(text: str) -> str:
    """Compare text, not typography: fraction glyphs, dashes, Markdown bold and table tabs."""
    text = text.replace("³/₂", "3/2").replace("⁵/₂", "5/2").replace("⁴⁵/₄", "45/4").replace("^{(C – 8)}", "^(C - 8)")
    text = text.replace("–", "-").replace("’", "'").replace("„", '"').replace("“", '"').replace("”", '"')
    text = text.replace("**", "")
    return " ".join(text.split()).lower()


def _document(key: str) -> str:
    path = MATRIX if key in ("WK", "rules-matrix.md") else SOURCES / DOCS[key]
    return _normal(path.read_text(encoding="utf-8"))


def _fragments(quote: str) -> Iterator[str]:
    """A quote may skip text ("...") or join table cells (" / "); each piece must be in the document."""
    for piece in re.split(r"\s*(?:\.\.\.|…|\[[^\]]*\]|\s/\s)\s*", quote):
        piece = piece.strip(" ,.;:/")
        if len(piece) >= 8:
            yield piece


def _cited_quotes(text: str) -> Iterator[tuple[str, str]]:
    """(document key, quote) for each quote, attributed to the nearest citation before it."""
    cited = None
    for match in re.finditer(rf"{CITATION.pattern}|{QUOTE.pattern}|(?P<web>{WEB.pattern})", text):
        if match.group("web"):
            cited = None
        elif match.group(1) or match.group(2):
            cited = match.group(1) or match.group(2)
        elif cited is not None:
            yield cited, match.group(3)


def _check(where: str, text: str) -> list[str]:
    missing = []
    for key, quote in _cited_quotes(text):
        if key in ("WK", "rules-matrix.md") and not MATRIX.is_file():
            continue
        document = _document(key)
        for piece in _fragments(quote):
            if _normal(piece) not in document:
                missing.append(f"{where}: {key} does not say {piece!r}")
    return missing


def _source_fields(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "source" and isinstance(value, str):
                yield path or "(top)", value
            else:
                yield from _source_fields(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _source_fields(value, f"{path}[{i}]")


@pytest.mark.parametrize("path", sorted((REPO / "rulesets").rglob("*.yaml")), ids=lambda p: p.name)
def test_quotes_in_a_shipped_ruleset_are_in_the_cited_source(path: Path) -> None:
    data = read_document(path.read_bytes(), path.name).data
    missing = [m for where, text in _source_fields(data) for m in _check(f"{path.name}{where}", text)]
    assert missing == []


def _docstrings(path: Path) -> Iterator[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            doc = ast.get_docstring(node)
            if doc:
                yield node.name, doc


@pytest.mark.parametrize("path", sorted((REPO / "tests").glob("test_*.py")), ids=lambda p: p.name)
def test_quotes_in_test_docstrings_are_in_the_cited_source(path: Path) -> None:
    missing = [m for name, doc in _docstrings(path) for m in _check(f"{path.name}::{name}", doc)]
    assert missing == []


def test_the_checker_catches_a_misquote() -> None:
    assert _check("here", '001: "Jokere må spilles når som helst"') == []
    assert _check("here", '001: "Jokere må aldrig spilles ud"') == [
        "here: 001 does not say 'Jokere må aldrig spilles ud'"
    ]
