"""``tune``: the value of a ruleset's number that best meets a club's goal, found by playing the values on the
same deals with bots and racing them (``regelmotor.tuning``)."""

from __future__ import annotations

import argparse
import datetime
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from regelmotor.bots.style import MAX_NAME, Style
from regelmotor.cli.base import EXIT_OK, Command, house_rule_arg, lang_arg, print_json, ruleset_args, say_to
from regelmotor.cli.runs import bots_of, jobs_of, progress_of, run_args, style_json, style_lines
from regelmotor.compare import check_plot_target, unseen_by_bots
from regelmotor.errors import RegelmotorError
from regelmotor.files import check_output, write_atomic
from regelmotor.model.ruleset import Ruleset
from regelmotor.prepare import parts_of_bots, prepare
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.settings import find_key, tunable_keys
from regelmotor.simulate import DealRunner
from regelmotor.tuning.calibrate import calibrate, calibration_comment, calibration_lines, make_axes, read_club
from regelmotor.tuning.calibrate import make_plan as make_calibration_plan
from regelmotor.tuning.club_file import changes_for, check_writable, write_club_file
from regelmotor.tuning.goal import parse_goal
from regelmotor.tuning.report import (
    candidate_text,
    goal_text,
    number_text,
    summary_lines,
    table_lines,
    thousands,
    write_chart,
)
from regelmotor.tuning.search import (
    DEFAULT_DEALS,
    Axis,
    TuneError,
    Tuner,
    check_values,
    make_plan,
    number_json,
    parse_range,
    parse_values,
)


def _spec(kind: str) -> Callable[[str], tuple[str, str]]:
    def parse(text: str) -> tuple[str, str]:
        return kind, text

    return parse


def _tune_args(command: argparse.ArgumentParser) -> None:
    ruleset_args(command)
    command.add_argument(
        "--key",
        action="append",
        default=[],
        metavar="PATH",
        help="a number of the ruleset to try values for (up to 3; --list shows them)",
    )
    command.add_argument(
        "--values",
        dest="specs",
        action="append",
        default=[],
        type=_spec("values"),
        metavar="V1,V2,...",
        help="the values to try for the --key before it (a decimal with a point, or a fraction: 1.5, 3/2; "
        "negative ones after =: --values=-3,-2)",
    )
    command.add_argument(
        "--range",
        dest="specs",
        action="append",
        type=_spec("range"),
        metavar="LOW:HIGH:STEP",
        help="the values LOW, LOW+STEP, ... up to HIGH, for the --key before it",
    )
    command.add_argument("--target", metavar="'ROW = VALUE'", help="bring a figure of compare to a value")
    command.add_argument("--minimise", metavar="ROW", help="make a figure of compare as small as it can be")
    command.add_argument("--maximise", metavar="ROW", help="make a figure of compare as large as it can be")
    command.add_argument("--list", action="store_true", help="list the numbers of the ruleset that can be tuned")
    command.add_argument("--plot", metavar="FILE", help="write a chart of the goal's figure by value (.svg or .png)")
    command.add_argument("-o", "--output", metavar="FILE", help="write the ruleset with the best value in it")
    command.add_argument("--force", action="store_true", help="write over an existing FILE")
    run_args(command, bots=True, deals=DEFAULT_DEALS, deals_help="deals each value gets at most (default {default})")
    lang_arg(command)


def _axes(args: argparse.Namespace, ruleset: Ruleset) -> list[Axis]:
    if len(args.specs) != len(args.key):
        raise TuneError.said("tune_values_per_key", keys=len(args.key), values=len(args.specs))
    axes = []
    for key_text, (kind, text) in zip(args.key, args.specs, strict=True):
        key = find_key(ruleset, key_text)
        values = parse_values(text, key.text) if kind == "values" else parse_range(text, key.text)
        axes.append(Axis(key, values))
    return axes


def cmd_tune(args: argparse.Namespace, out: TextIO) -> int:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    if args.list:
        return _list_keys(args, resolved.ruleset, out)
    goal = parse_goal(compile_rules(resolved), args.target, args.minimise, args.maximise)
    plan = make_plan(_axes(args, resolved.ruleset), args.deals)
    bots = bots_of(args.bots, resolved, style=args.style)
    if args.plot:
        check_plot_target(Path(args.plot))
    if args.output:  # the file and where each key goes in it: refused now, not after the deals
        now = changes_for([a.key for a in plan.axes], [a.key.current for a in plan.axes])
        check_writable(args.ruleset, args.house_rule, now, Path(args.output), force=args.force)
    loaded = check_values(args.ruleset, args.house_rule, plan)  # every value refused now, not after an hour
    bar = progress_of(args, plan.most, out)
    if bar.live:  # the bound, said before the first deal
        count = math.prod(len(a.values) for a in plan.axes)
        bound = thousands(plan.most, args.lang)
        bar.stream.write(
            say_to(args, "tune_bound", most=bound, values=count, deals=thousands(plan.deals, args.lang)) + "\n"
        )

    told_last = [-1]

    def told(done: int, total: int) -> None:
        bar.total = total  # the race drops values: the most still to come shrinks
        bar(done)
        told_last[0] = done if done >= total else -1

    with DealRunner(jobs_of(args), args.dask) as runner:
        tuner = Tuner(args.ruleset, args.house_rule, plan, goal, args.seed, bots, runner, loaded, told)
        result = tuner.run()
    if told_last[0] != result.deals:  # the line ends at the deals spent, once
        bar.total = result.deals
        bar(result.deals)
    if args.plot:
        write_chart(result, Path(args.plot), args.lang)
    if args.output:
        chosen = candidate_text(result, result.chosen, "da")
        comment = (
            f"regelmotor tune {datetime.date.today().isoformat()}: {chosen} (målet: {goal_text(goal, 'da')}; "
            f"{thousands(result.deals, 'da')} spil, seed {args.seed}, {','.join(dict.fromkeys(bots))})"
        )
        changes = changes_for([a.key for a in plan.axes], result.chosen)
        _, notes = write_club_file(args.ruleset, args.house_rule, changes, comment, Path(args.output), force=args.force)
        sys.stderr.write(say_to(args, "cli_wrote", file=args.output) + "\n")
        for note in notes:  # the file's own words about the value, told again or to be told again
            sys.stderr.write(f"  {args.output}: {note.text(args.lang)}\n")
    # the keys are all points or money, and no bot reads them: every value is bid and played alike
    blind = unseen_by_bots([{"path": a.key.text} for a in plan.axes], bots)
    if args.json:
        head = {"ruleset": resolved.label, "seed": args.seed, "bots": bots, "style": style_json(bots)}
        print_json({**head, "unseen_by_bots": blind, **result.as_json()}, out)
        return EXIT_OK
    said = [*summary_lines(result, resolved.label, args.seed, args.lang, blind=blind), *style_lines(bots, args.lang)]
    out.write("\n".join(said) + "\n\n")
    out.write("\n".join(table_lines(result, args.lang)) + "\n")
    return EXIT_OK


def _list_keys(args: argparse.Namespace, ruleset: Ruleset, out: TextIO) -> int:
    keys = tunable_keys(ruleset)
    if args.json:
        print_json([{"key": k.text, "value": number_json(k.current)} for k in keys], out)
        return EXIT_OK
    width = max(len(k.text) for k in keys)
    out.write(say_to(args, "tune_list_head", ruleset=ruleset.name) + "\n")
    for k in keys:
        shown = number_text(k.current, args.lang)
        out.write(f"  {k.text:<{width}}  {shown:>5}" + (f"  {k.marked}" if k.marked else "") + "\n")
    return EXIT_OK


TUNE = Command("tune", "find the value of a ruleset's number that best meets a goal", _tune_args, cmd_tune)


# --- calibrate -------------------------------------------------------------------------------------------


CALIBRATE_DEALS = 300
"""Deals a style gets at most, unless told: the race drops the clearly wrong ones after 150."""


def _calibrate_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("sheets", nargs="+", metavar="SHEET", help="the club's score sheets (session's files)")
    command.add_argument("--ruleset", metavar="FILE", help="the rules the sheets were played by (default: the sheets')")
    house_rule_arg(command, "--ruleset")
    command.add_argument("-o", "--output", metavar="FILE", help="write the fitted style to FILE (stil.yaml)")
    command.add_argument("--force", action="store_true", help="write over an existing FILE")
    command.add_argument("--name", metavar="NAME", default="", help="the style's name in the file")
    command.add_argument(
        "--fit",
        metavar="SETTINGS",
        help="the settings to fit, with commas: caution, passing, sol, paahaeng (default: all the rules have)",
    )
    run_args(command, bots=False, deals=CALIBRATE_DEALS, deals_help="deals each style gets at most (default {default})")
    lang_arg(command)


def cmd_calibrate(args: argparse.Namespace, out: TextIO) -> int:
    paths = [Path(p) for p in args.sheets]
    if args.output:  # refused now, not after an hour of deals
        check_output(Path(args.output), force=args.force, inputs=tuple(paths))
    if len(args.name) > MAX_NAME:
        raise RegelmotorError.said("style_text", most=MAX_NAME)
    club = read_club(paths, args.ruleset, args.house_rule)
    settings = [s.strip() for s in args.fit.split(",") if s.strip()] if args.fit else None
    axes = make_axes(club.rules, settings)
    plan = make_calibration_plan(axes, args.deals)
    if args.dask is None:
        prepare(parts_of_bots(["expert"]), args.lang, quiet=args.quiet)
    bar = progress_of(args, plan.most, out)

    def told(done: int, total: int) -> None:
        bar.total = total
        bar(done)

    with DealRunner(jobs_of(args), args.dask) as runner:
        found = calibrate(club, args.deals, args.seed, runner, settings, told)
    style = Style.make(found.style.caution, found.style.passing, dict(found.style.appetite), args.name)
    found.style = style
    if args.output:
        comment = calibration_comment(found, "da")
        write_atomic(Path(args.output), style.yaml_text(club.label, comment))
        sys.stderr.write(say_to(args, "cli_wrote", file=args.output) + "\n")
    if args.json:
        print_json(found.as_json(), out)
        return EXIT_OK
    out.write("\n".join(calibration_lines(found, args.lang)) + "\n")
    return EXIT_OK


COMMANDS = (
    TUNE,
    Command(
        "calibrate",
        "fit the expert's style to a club's score sheets (its contract mix and results)",
        _calibrate_args,
        cmd_calibrate,
    ),
)
