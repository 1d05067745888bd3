"""Printed rule books, generated from a resolved ruleset (never written per ruleset)."""

from regelmotor.rulebook.build import LANGS, build_rulebook
from regelmotor.rulebook.render import FORMATS, PAPERS, render

__all__ = ["FORMATS", "LANGS", "PAPERS", "build_rulebook", "render"]
