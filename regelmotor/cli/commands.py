"""The ``regelmotor`` command line (docs/notation.md, "Command line"): the commands assembled into one parser,
in the order ``--help`` lists them, and the shell completion made from it. Each command's arguments and
handler live together in its family's module.

Exit codes: 0 success, 1 invalid input (a ruleset with problems, an unknown name), 2 usage.
``--json`` output is the only thing on stdout; human messages and problems go to stderr,
except for ``validate``, whose problems are its output.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from typing import TextIO, cast

from regelmotor import __version__
from regelmotor.cli import analysis, rulesets, runs, score, session, table, tune
from regelmotor.cli.base import EXIT_INVALID, EXIT_OK, LANG_DEFAULT, Command, lang_arg
from regelmotor.cli.completion import SHELLS, completion_script
from regelmotor.cli.words import LANGS, argparse_in, helped, lang_of, translate_parser
from regelmotor.errors import RegelmotorError, RulesetError
from regelmotor.phrases import phrases
from regelmotor.safe_text import EscapingStream


def _completion_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")


def _prepare_args(command: argparse.ArgumentParser) -> None:
    from regelmotor.prepare import PARTS

    shown = ", ".join(PARTS)
    command.add_argument("parts", nargs="*", metavar="PART", help=helped("{parts} (default: all)", parts=shown))
    lang_arg(command)


def cmd_prepare(args: argparse.Namespace, out: TextIO) -> int:
    """Compiles the search and the expert into the cache after installing, saying so: the first ``analyse``
    and game against the expert then start at once."""
    from regelmotor.prepare import PARTS, compiled_already, prepare

    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        raise RegelmotorError.said("prepare_part", part=unknown[0], parts=", ".join(PARTS))
    if not prepare(args.parts or list(PARTS), args.lang, always=True):
        sys.stderr.write(compiled_already(args.lang) + "\n")
    return EXIT_OK


def cmd_completion(args: argparse.Namespace, out: TextIO) -> int:
    out.write(completion_script(build_parser(), args.shell))
    return EXIT_OK


EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C, as a shell counts it (128 + SIGINT)."""

_FAMILIES = (rulesets, score, runs, tune, table, analysis, session)
_BY_NAME = {command.name: command for family in _FAMILIES for command in family.COMMANDS}
_HELP_ORDER = (
    "rulesets validate show schema ladder replay analyse score rulebook diff simulate compare match tune calibrate "
    "play serve session"
)
COMMANDS = (
    *(_BY_NAME[name] for name in _HELP_ORDER.split()),
    Command(
        "prepare",
        "compile the search and the expert now (a minute or two, once after installing)",
        _prepare_args,
        cmd_prepare,
        json=False,
    ),
    Command("completion", "print a shell completion script", _completion_args, cmd_completion, json=False),
)
"""Every command, in the order ``--help`` lists them: a club's file first, then a game, then many games."""


@functools.cache
def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line's parser in ``lang``, built once per process: building it is most of a short
    command's time (``score`` called for every cell of a point table), and parsing leaves it as it was."""
    with argparse_in(lang):
        parser = _parser()
    translate_parser(parser, lang)
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="regelmotor",
        description="Es-makker whist and its club variants: rulesets as data, one engine.",
    )
    parser.add_argument("--version", action="version", version=f"regelmotor {__version__}")
    parser.add_argument("--lang", dest="lang_before", choices=LANGS, help="da or en, before the command as after it")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub_parser = sub.add_parser(
            command.name, help=command.help, description=command.help[0].upper() + command.help[1:] + "."
        )
        sub_parser.set_defaults(handler=command.run)
        command.arguments(sub_parser)
        if command.json:
            sub_parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    asked = lang_of(words)
    parser = build_parser(asked)
    with argparse_in(asked):
        args = parser.parse_args(words)
    stdout = cast(TextIO, EscapingStream(out if out is not None else sys.stdout))
    stderr = sys.stderr
    sys.stderr = cast(TextIO, EscapingStream(stderr))  # a name or a title never writes to the terminal itself
    if args.lang_before is not None and getattr(args, "lang", LANG_DEFAULT) == LANG_DEFAULT:
        args.lang = args.lang_before  # "regelmotor --lang en ladder standard": said before the command
    lang = getattr(args, "lang", LANG_DEFAULT)
    try:
        code: int = args.handler(args, stdout)
        return code
    except RulesetError as exc:
        for problem in exc.problems:
            sys.stderr.write(f"{problem.text(lang)}\n")
        return EXIT_INVALID
    except RegelmotorError as exc:  # said in the reader's language where the error is said (RegelmotorError.said)
        sys.stderr.write(f"regelmotor: {exc.text(lang)}\n")
        return EXIT_INVALID
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback; the workers were stopped on the way out
        sys.stderr.write(f"\nregelmotor: {phrases(lang)['cli_interrupted']}\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader (head, less) stopped reading: not an error of ours
        stderr.close()
        return EXIT_OK
    finally:
        sys.stderr = stderr
