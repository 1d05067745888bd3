"""Where the shipped rulesets and schemas are, installed or in a source checkout.

They live at the top of the repository (``rulesets/``, ``schemas/``), where clubs look for
them; a wheel installs them inside the package as ``_rulesets/`` and ``_schemas/``, while an
editable install leaves them where they are.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """``rulesets`` or ``schemas``."""
    for candidate in (_PACKAGE / f"_{name}", _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"regelmotor's {name} are not installed (looked in {_PACKAGE / f'_{name}'})")
