"""Shell completion for bash and zsh, made by ``shtab`` from the command line's parser itself: the commands,
each command's options and their choices, and where a ruleset or a house rule is asked for, the shipped
ones beside the files of the folder (a club's own file is a path).

``regelmotor completion bash`` (``eval "$(regelmotor completion bash)"`` in ``~/.bashrc``) and
``regelmotor completion zsh`` (saved as ``_regelmotor`` in a folder of ``$fpath``).
"""

from __future__ import annotations

import argparse
from typing import Any

import shtab

from regelmotor.ruleset.catalogue import shipped_house_rules, shipped_rulesets

SHELLS = ("bash", "zsh")
NAMED = frozenset({"RULESET", "A", "B", "HOUSE_RULE"})
"""The metavars of the arguments that take a shipped ruleset or house rule by name, or a path."""
_SHIPPED = "_regelmotor_shipped_or_files"  # "_file" in the name: bash is told the words are file names


def _preamble(names: list[str]) -> dict[str, str]:
    words = " ".join(names)
    return {
        "bash": f"""{_SHIPPED}() {{
  compgen -W "{words}" -- "$1"
  compgen -f -- "$1"
}}
# the completion's name of old: complete -F _regelmotor regelmotor
_regelmotor() {{ _shtab_regelmotor "$@"; }}
""",
        "zsh": f"""{_SHIPPED}() {{
  _alternative 'shipped:shipped ruleset or house rule:({words})' 'files:file:_files'
}}
""",
    }


def _mark(parser: argparse.ArgumentParser) -> None:
    """Tells shtab what each argument takes: a shipped name or a path where a ruleset is asked for, a path
    where anything else without choices is (an output, a sheet, a record)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark(sub)
        elif action.nargs != 0 and action.choices is None and action.dest != "help":
            complete: Any = {"bash": _SHIPPED, "zsh": _SHIPPED} if action.metavar in NAMED else shtab.FILE
            action.complete = complete  # type: ignore[attr-defined]


def completion_script(parser: argparse.ArgumentParser, shell: str = "bash") -> str:
    """The completion script for ``shell`` (one of ``SHELLS``)."""
    _mark(parser)
    names = [*shipped_rulesets(), *shipped_house_rules()]
    return shtab.complete(parser, shell=shell, preamble=_preamble(names)[shell])


__all__ = ["SHELLS", "completion_script"]
