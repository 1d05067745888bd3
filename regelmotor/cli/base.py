"""What every command shares: the exit codes, JSON on stdout, the reader's language, the arguments
that name a ruleset, and ``Command``, one subcommand with its arguments and its handler."""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from regelmotor.cli.words import default_lang, helped, now
from regelmotor.numbers import NumberError, whole
from regelmotor.phrases import phrases
from regelmotor.rulebook import LANGS
from regelmotor.ruleset.catalogue import shipped_house_rules, shipped_rulesets
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


LANG_DEFAULT = default_lang()
"""What a club member reads is Danish unless ``--lang en`` or ``REGELMOTOR_LANG=en`` says English."""


def cores() -> int:
    """The cores this process may use (its affinity where the system tells it)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def print_json(value: Any, out: TextIO) -> None:
    out.write(json.dumps(_finite(value), ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def _finite(value: Any) -> Any:
    """JSON has no NaN: a figure with nothing to count (no deals of a kind, no interval) is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def load_rules(args: argparse.Namespace) -> tuple[ResolvedRuleset, Rules]:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    return resolved, compile_rules(resolved)


def lang_arg(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--lang", choices=LANGS, default=LANG_DEFAULT, help="da (default; REGELMOTOR_LANG=en sets English) or en"
    )


def say_to(args: argparse.Namespace, key: str, **values: object) -> str:
    """A message of the command line in the reader's language, from the one phrase table."""
    return phrases(getattr(args, "lang", LANG_DEFAULT))[key].format(**values)


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argument that is a whole number from ``low`` to ``high`` (argparse says so, with the usage)."""

    def parse(text: str) -> int:
        try:
            value = whole(text)
        except NumberError:
            raise argparse.ArgumentTypeError(now("a whole number, not {text!r}", text=text)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(now("{low} to {high}, not {value}", low=low, high=high, value=value))
        return value

    return parse


def house_rule_arg(parser: argparse.ArgumentParser, whose: str) -> None:
    names = ", ".join(shipped_house_rules())
    parser.add_argument(
        "-H",
        "--house-rule",
        action="append",
        default=[],  # argparse copies it before appending: a parser kept for the process stays as it was
        metavar="HOUSE_RULE",
        help=helped("add a house rule to {whose} by name ({names}) or path; repeatable", whose=whose, names=names),
    )


def ruleset_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ruleset",
        metavar="RULESET",
        help=helped("a shipped ruleset ({names}) or a path", names=", ".join(shipped_rulesets())),
    )
    house_rule_arg(parser, "the ruleset")


def two_rulesets_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a shipped ruleset or a path")
    parser.add_argument("b", metavar="B", help="a shipped ruleset or a path")
    house_rule_arg(parser, "B")


def no_args(command: argparse.ArgumentParser) -> None:
    return None


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line help, its arguments and what it does."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]
    json: bool = True
    """Whether it can print JSON (``--json``)."""
