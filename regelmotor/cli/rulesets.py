"""The commands that read a club's file: ``rulesets``, ``validate``, ``show``, ``schema``, ``ladder``,
``diff`` and ``rulebook``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import yaml

from regelmotor.cli.base import (
    EXIT_INVALID,
    EXIT_OK,
    LANG_DEFAULT,
    Command,
    lang_arg,
    load_rules,
    no_args,
    print_json,
    ruleset_args,
    say_to,
    two_rulesets_args,
)
from regelmotor.diff import diff_rulesets, write_diff
from regelmotor.errors import Problem, RegelmotorError
from regelmotor.files import check_output, refuse_binary_terminal, write_atomic
from regelmotor.phrases import Word
from regelmotor.records import record_schema_text
from regelmotor.rulebook import FORMATS, LANGS, PAPERS, build_rulebook, render
from regelmotor.rulebook.build import cited
from regelmotor.ruleset.catalogue import shipped_catalogue
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.schema import schema_text
from regelmotor.ruleset.validate import check_file
from regelmotor.safe_text import escape_controls


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    entries = shipped_catalogue()
    if args.json:
        print_json(entries, out)
        return EXIT_OK
    from regelmotor.phrases import phrases

    lang = getattr(args, "lang", LANG_DEFAULT)
    described = "description_en" if lang == "en" else "description"
    width = max(len(str(e["name"])) for e in entries) + 2  # one column for the descriptions, however long a name
    out.write(say_to(args, "cli_rulesets_head") + "\n")
    rulesets = [e for e in entries if e["kind"] == "ruleset"]
    for game in sorted(dict.fromkeys(e["game"] for e in rulesets), key=lambda g: g != "esmakkerwhist"):
        name = phrases(lang).get(f"game_{game}", game)
        out.write(f"  {name[0].upper()}{name[1:]}:\n")
        for entry in (e for e in rulesets if e["game"] == game):
            out.write(f"    {entry['name']:<{width}}{entry[described]}\n")
    out.write(say_to(args, "cli_house_rules_head") + "\n")
    for entry in (e for e in entries if e["kind"] == "house_rule"):
        out.write(f"    {entry['name']:<{width}}{entry[described]}\n")
    return EXIT_OK


def _validate_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("files", nargs="+", metavar="FILE", help="a ruleset or house-rule file (or a shipped name)")
    lang_arg(command)


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "file": problem.location.file,
        "line": problem.location.line,
        "column": problem.location.column,
        "path": problem.key_path,
        "message": problem.message,
    }


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    checked = {path: check_file(path) for path in args.files}
    results = {path: found for path, (found, _) in checked.items()}
    problems = [p for found in results.values() for p in found]
    warnings = [w for _, found in checked.values() for w in found]
    if args.json:
        print_json(
            [
                {
                    "file": path,
                    "valid": not found,
                    "problems": [_problem_json(p) for p in found],
                    "warnings": [_problem_json(w) for w in warned],
                }
                for path, (found, warned) in checked.items()
            ],
            out,
        )
    else:
        for problem in [*problems, *warnings]:
            out.write(f"{problem.text(args.lang)}\n")
        bad = sum(1 for found in results.values() if found)
        if bad:
            sys.stderr.write(say_to(args, "cli_invalid", problems=len(problems), bad=bad, n=len(results)) + "\n")
        else:
            count = len(results)
            sys.stderr.write(
                (say_to(args, "cli_valid_one") if count == 1 else say_to(args, "cli_valid_many", n=count)) + "\n"
            )
    return EXIT_INVALID if problems else EXIT_OK


def _show_args(parser: argparse.ArgumentParser) -> None:
    ruleset_args(parser)
    parser.add_argument("--where", action="store_true", help="each rule with the file and line that set it")
    lang_arg(parser)


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    resolved, _ = load_rules(args)
    data = resolved.ruleset.model_dump(mode="json", exclude_defaults=False)
    if args.json:
        print_json(data, out)
        return EXIT_OK
    out.write(f"# {resolved.ruleset.title}: {resolved.label}\n")
    out.write(say_to(args, "show_built_from", files=", ".join(resolved.files)) + "\n")
    out.write(say_to(args, "show_fingerprint", fingerprint=resolved.fingerprint) + "\n")
    if args.where:  # every rule with the file and line that set it (the precedence in writing-a-ruleset.md)
        for path, value in _leaves(data):
            if path[-1] != "source":
                set_at = resolved.set_at(path)
                said = say_to(args, "show_default") if set_at is None else f"{set_at.file}:{set_at.line}"
                name = ".".join(str(p) for p in path)
                out.write(f"{name}: {json.dumps(value, ensure_ascii=False)}  # {said}\n")
        for gone in resolved.gone:  # what an inherited file set and these rules no longer have
            name = ".".join(str(p) for p in gone.path)
            by = f"{gone.by.file}:{gone.by.line}"
            out.write(f"# {name}  " + say_to(args, f"show_{gone.phrase}", written=gone.written, by=by) + "\n")
        return EXIT_OK
    out.write(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100))
    return EXIT_OK


def _leaves(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path, value


def _schema_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("--record", action="store_true", help="the schema of game records instead")


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    out.write(record_schema_text() if args.record else schema_text())
    return EXIT_OK


def cmd_ladder(args: argparse.Namespace, out: TextIO) -> int:
    _, rules = load_rules(args)
    ladder = rules.auction.ladder
    if args.json:
        print_json([bid.text for bid in ladder], out)
        return EXIT_OK
    if not ladder.bids:
        contract = rules.dealing.redealing.all_pass_contract
        out.write(say_to(args, "cli_ladder_none", ruleset=rules.name, contract=contract) + "\n")
        return EXIT_OK
    lines: list[str] = []
    plain = rules.auction.designations[0].id if rules.auction.designations else None
    for group in ladder.groups:
        text = " = ".join(bid.text for bid in group)
        starts_level = group[0].level is not None and group[0].designation == plain
        if not lines or starts_level:
            lines.append(text if not lines else f"< {text}")
        else:
            lines[-1] += f" < {text}"
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


def _diff_args(command: argparse.ArgumentParser) -> None:
    two_rulesets_args(command)
    lang_arg(command)


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    a = load_ruleset(args.a)
    b = load_ruleset(args.b, args.house_rule)
    if args.json:  # each value credited to the file that wrote it; two files of one name told apart
        print_json([d.__dict__ for d in diff_rulesets(a, b)], out)
        return EXIT_OK
    lang = getattr(args, "lang", LANG_DEFAULT)  # sources by their titles, "udledt" in Danish, as the rule book
    write_diff(a, b, out, lambda source: cited(source, lang), lang)
    return EXIT_OK


def _rulebook_args(command: argparse.ArgumentParser) -> None:
    ruleset_args(command)
    command.add_argument("--format", choices=FORMATS, default="md", help="md (default), html or pdf")
    command.add_argument(
        "--paper", choices=PAPERS, default="a4", help="the PDF's paper: a4 (default) or a5 (a booklet)"
    )
    command.add_argument("--lang", choices=LANGS, default="da", help="da (default) or en")
    command.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    command.add_argument("--force", action="store_true", help="write over FILE even if it is a sheet or a record")


def cmd_rulebook(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = load_rules(args)
    book = build_rulebook(resolved, rules, args.lang)
    if args.output:
        check_output(Path(args.output), force=args.force, replace=True)
    rendered = render(book, args.format, args.paper)
    if args.output:
        write_atomic(Path(args.output), escape_controls(rendered) if isinstance(rendered, str) else rendered)
        sys.stderr.write(say_to(args, "cli_wrote", file=args.output) + "\n")
    elif isinstance(rendered, bytes):
        binary = getattr(out, "buffer", None)
        if binary is None:
            raise RegelmotorError.said("pdf_to_file")
        refuse_binary_terminal(out, Word("pdf"))
        binary.write(rendered)
    else:
        out.write(rendered)
    return EXIT_OK


COMMANDS = (
    Command("rulesets", "list the shipped rulesets and house rules", no_args, cmd_rulesets),
    Command("validate", "validate ruleset and house-rule files", _validate_args, cmd_validate),
    Command("show", "print the fully resolved ruleset", _show_args, cmd_show),
    Command("schema", "print the JSON Schema of ruleset files", _schema_args, cmd_schema, json=False),
    Command("ladder", "print every bid from lowest to highest", ruleset_args, cmd_ladder),
    Command("diff", "the rule differences between two rulesets (da; --lang en)", _diff_args, cmd_diff),
    Command("rulebook", "a printed rule summary, generated from the ruleset", _rulebook_args, cmd_rulebook, json=False),
)
