"""Where the shipped rulesets and schemas are, installed or in a source checkout.

They live at the top of the repository (``rulesets/``, ``schemas/``), where clubs look for
them; a wheel installs them as ``regelmotor._rulesets`` and ``regelmotor._schemas``, while an
editable install leaves them where they are.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def data_dir(name: str) -> Path:
    """``rulesets`` or ``schemas``."""
    try:
        installed = Path(str(resources.files(f"regelmotor._{name}")))
    except ModuleNotFoundError:
        installed = None
    if installed is not None and installed.is_dir():
        return installed
    checkout = _CHECKOUT / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"regelmotor's {name} are not installed (looked in the package and in {checkout})")
