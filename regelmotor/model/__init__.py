"""The ruleset's types: what a club's file says, as pydantic models (``ruleset``) and the formulas it may
hold (``formula``). The ground the rule families, the hooks and the bid ladder stand on; loading and
compiling a ruleset (``regelmotor.ruleset``) stand above the rule families."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any


def moved_from(old: str, new: ModuleType) -> Callable[[str], Any]:
    """A module ``__getattr__`` for an old address: each name read there warns and is the new module's own,
    so that a plugin written against the old address still loads."""

    def forward(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        warnings.warn(f"{old}.{name} is now {new.__name__}.{name}", DeprecationWarning, stacklevel=2)
        return getattr(new, name)

    return forward
