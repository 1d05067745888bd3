"""The commands that play many deals with bots: ``simulate``, ``compare`` and ``match``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from regelmotor.bots import BOTS, available_bots, check_bot
from regelmotor.bots.style import STYLED, Style, base_name, check_kinds, read_style, style_of, styled_bot
from regelmotor.cli.base import (
    EXIT_OK,
    Command,
    cores,
    lang_arg,
    print_json,
    ruleset_args,
    two_rulesets_args,
    whole_number,
)
from regelmotor.cli.words import helped
from regelmotor.compare import (
    TABLE_WORDS,
    check_plot_target,
    comparison,
    contract_kinds,
    row_label,
    row_texts,
    summary_lines,
    write_plot,
)
from regelmotor.diff import show_value
from regelmotor.errors import RegelmotorError
from regelmotor.files import OutputError, check_output, write_atomic
from regelmotor.match import run_match
from regelmotor.phrases import phrases
from regelmotor.prepare import parts_of_bots, prepare
from regelmotor.progress import Progress
from regelmotor.rulebook import LANGS
from regelmotor.ruleset.catalogue import is_path
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.simulate import MIN_SIGNIFICANT, iter_lines, run_deals, summarize


def say_in(lang: str, key: str, **values: object) -> str:
    return phrases(lang)[key].format(**values)


DEFAULT_BOTS = "expert"
"""The bots of ``simulate`` and ``compare`` unless told otherwise: the only ones that weigh a call by the points
it can bring, so the only ones that bid otherwise when a club changes its points (``--bots heuristic`` is
quicker, for questions of play)."""
MAX_RUN_DEALS = 1_000_000
"""The most deals one run plays (``--deals``): a million deals is hours of play; more is a typing slip."""


def _max_jobs() -> int:
    """Twice the cores this process may use: more processes only wait for one another."""
    return 2 * cores()


def jobs_of(args: argparse.Namespace) -> int:
    """``--jobs``, or one process for each core this process may use: the numbers are the same either way."""
    if args.jobs is not None:
        if not 1 <= args.jobs <= _max_jobs():
            raise RegelmotorError.said("jobs_arg", most=_max_jobs(), jobs=args.jobs)
        return int(args.jobs)
    return cores()


def bots_of(spec: str, *resolved: ResolvedRuleset, style: str | None = None) -> list[str]:
    """The four seats' bots; a bot may come from a plugin of every ruleset it plays (checked after loading).
    ``expert:stil.yaml`` is the expert in the style of that file, and ``style`` (``--style``) the style of
    every expert seat (``bots/style.py``): the style is in the bot's name from here on."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names = names * 4
    offered = [available_bots(compile_rules(r)) for r in resolved] or [dict(BOTS)]
    known = [name for name in offered[0] if all(name in o for o in offered)]
    if len(names) != 4 or any(base_name(n) not in known for n in names):
        choices = ", ".join(known)
        raise RegelmotorError.said("bots_arg", choices=choices)
    return [styled(name, style, *resolved) for name in names]


def styled(name: str, style: str | None, *resolved: ResolvedRuleset) -> str:
    """A bot's name with its style in it: from ``expert:FILE`` (or a style's token, as ``--json`` gives it),
    else from ``--style FILE`` for an expert; the style's kinds checked against every ruleset it plays."""
    base, _, given = name.partition(":")
    if not given and (style is None or base != STYLED):
        return name
    if base != STYLED:
        raise RegelmotorError.said("style_bot", bot=base[:40])
    source = given or style
    assert source is not None
    found = Style.from_token(source) if "=" in source and not Path(source).exists() else read_style(Path(source))
    for r in resolved:
        check_kinds(found, contract_kinds(compile_rules(r)), r.label, source)
    return styled_bot(found)


def style_arg(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--style",
        metavar="FILE",
        help="the expert's style (a file of regelmotor calibrate): every expert seat plays in it",
    )


def style_json(bots: Sequence[str]) -> dict[str, Any] | None:
    """The style the run's experts played in, as ``--json`` says it (None: today's expert)."""
    style = style_of(bots)
    return None if style is None else style.as_json()


def style_lines(bots: Sequence[str], lang: str) -> list[str]:
    """The line a text report says its experts' style in (none for today's expert)."""
    style = style_of(bots)
    return [] if style is None else [say_in(lang, "style_used", style=style.describe(lang))]


def progress_of(args: argparse.Namespace, total: int, out: TextIO) -> Progress:
    """The run's progress on the terminal (after two seconds; never with ``--quiet``, off a terminal, or where
    ``--json`` goes to a pipe: a script reading it wants no line on the screen either)."""
    piped = bool(getattr(args, "json", False)) and not bool(getattr(out, "isatty", lambda: False)())
    return Progress(total, "deals", args.lang, quiet=args.quiet or piped)


def _record_paths(folder: Path, deals: int, force: bool) -> list[Path]:
    """The record files of a run's deals in ``folder``, checked before any deal is played."""
    if folder.exists() and not folder.is_dir():
        raise OutputError.said("out_not_folder", path=folder)
    if not folder.exists():
        if not folder.parent.is_dir():
            raise OutputError.said("out_no_folder", path=folder, folder=folder.parent)
        folder.mkdir()
    paths = [folder / f"deal-{number:04d}.json" for number in range(1, deals + 1)]
    for path in paths:
        check_output(path, force=force, records=True)
    return paths


def run_args(
    command: argparse.ArgumentParser,
    *,
    bots: bool,
    deals: int = 1000,
    deals_help: str = "deals to play, 1 to {most} (default {default})",
) -> None:
    """What every command that plays many deals takes: how many, the seed, the bots, where to run them."""
    command.add_argument(
        "--deals",
        type=whole_number(1, MAX_RUN_DEALS),
        default=deals,
        metavar="N",
        help=helped(deals_help, most=MAX_RUN_DEALS, default=deals),
    )
    command.add_argument(
        "--seed", type=whole_number(0, 2**63 - 1), default=1, metavar="S", help="the seed of the run (default 1)"
    )
    if bots:
        command.add_argument(
            "--bots",
            default=DEFAULT_BOTS,
            metavar="NAME",
            help=helped(
                "{bots} (or a plugin's bot), or four names A,B,C,D (default {default})",
                bots=", ".join(BOTS),
                default=DEFAULT_BOTS,
            ),
        )
        style_arg(command)
    command.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="J",
        help="local processes (default: one per core; the numbers are the same for any J)",
    )
    command.add_argument("--dask", metavar="ADDRESS", help="play the deals on a Dask cluster (extra: regelmotor[dask])")
    command.add_argument("--quiet", action="store_true", help="no progress on the terminal")


def _simulate_args(command: argparse.ArgumentParser) -> None:
    ruleset_args(command)
    run_args(command, bots=True)
    lang_arg(command)
    command.add_argument(
        "--records",
        metavar="DIR",
        help="write every deal's game record to DIR (deal-0001.json, ...) for replay and analyse",
    )
    command.add_argument("--force", action="store_true", help="write over records of an earlier run in DIR")


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    bots = bots_of(args.bots, resolved, style=args.style)
    paths = None if args.records is None else _record_paths(Path(args.records), args.deals, args.force)
    names = None
    if paths is not None:  # a ruleset named by a path is recorded by its absolute path: it replays from DIR
        names = (
            str(Path(args.ruleset).resolve()) if is_path(args.ruleset) else args.ruleset,
            tuple(str(Path(h).resolve()) if is_path(h) else h for h in args.house_rule),
        )
    if args.dask is None:  # the expert's first run compiles it, said on a terminal (a cluster's workers compile)
        prepare(parts_of_bots(bots), args.lang, quiet=args.quiet)
    results = run_deals(
        args.ruleset,
        args.house_rule,
        args.deals,
        args.seed,
        bots,
        jobs_of(args),
        progress_of(args, args.deals, out),
        args.dask,
        names,
    )
    if paths is not None:
        for path, result in zip(paths, results, strict=True):
            assert result.record is not None
            write_atomic(path, result.record + "\n", durable=False)
    summary = summarize(results, bots)
    if args.json:
        head = {"ruleset": resolved.label, "seed": args.seed, "bots": bots, "style": style_json(bots)}
        print_json({**head, **summary.as_json()}, out)
    else:
        out.write("\n".join([*iter_lines(summary, resolved.label, args.lang), *style_lines(bots, args.lang)]) + "\n")
    return EXIT_OK


def _compare_args(command: argparse.ArgumentParser) -> None:
    two_rulesets_args(command)
    command.add_argument("--plot", metavar="FILE", help="write a chart of the comparison (.svg or .png)")
    command.add_argument("--lang", choices=LANGS, default="da", help="the summary's language: da (default) or en")
    run_args(command, bots=True)


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    if args.plot:
        check_plot_target(Path(args.plot))
    a = load_ruleset(args.a)
    b = load_ruleset(args.b, args.house_rule)
    bots = bots_of(args.bots, a, b, style=args.style)
    if args.dask is None:  # the expert's first run compiles it, said on a terminal (a cluster's workers compile)
        prepare(parts_of_bots(bots), args.lang, quiet=args.quiet)
    bar = progress_of(args, 2 * args.deals, out)
    left = run_deals(args.a, [], args.deals, args.seed, bots, jobs_of(args), bar, args.dask)

    def later(done: int) -> None:  # the second ruleset's deals count on from the first's
        bar(args.deals + done)

    right = run_deals(args.b, args.house_rule, args.deals, args.seed, bots, jobs_of(args), later, args.dask)
    report = comparison(a.ruleset, b.ruleset, left, right, bots)
    if args.plot:
        write_plot(report, a.label, b.label, Path(args.plot), args.lang)
    if args.json:
        head = {"a": a.label, "b": b.label, "seed": args.seed, "bots": bots, "style": style_json(bots)}
        print_json({**head, **report}, out)
        return EXIT_OK
    words = TABLE_WORDS[args.lang]
    out.write(words["head"].format(a=a.label, b=b.label, deals=args.deals, seed=args.seed) + "\n")
    out.write("".join(line + "\n" for line in style_lines(bots, args.lang)) + "\n")
    out.write("\n".join(summary_lines(report, args.deals, args.lang)) + "\n")
    out.write("\n" + words["diff"] + "\n")
    label = "label" if args.lang == "da" else "label_en"  # the schema says what a key is in Danish only
    for d in report["diff"] or [{label: words["none"], "a": None, "b": None}]:
        out.write(f"  {d[label]}: {show_value(d['a'], args.lang)} / {show_value(d['b'], args.lang)}\n")
    out.write("\n" + words["table"] + "\n")
    for row in report["rows"]:
        mark = "*" if row["significant"] else " "
        a_text, b_text, difference = row_texts(row, args.lang)
        out.write(f"{mark} {row_label(row['name'], args.lang):<36} {a_text:<36} {b_text:<36} {difference}\n")
    out.write("\n" + words["foot"].format(rows=len(report["rows"]), least=MIN_SIGNIFICANT) + "\n")
    return EXIT_OK


def _match_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("a", metavar="A", help=helped("a bot: {bots} or a plugin's bot", bots=", ".join(BOTS)))
    command.add_argument("b", metavar="B", help="the bot it plays against")
    ruleset_args(command)
    run_args(command, bots=False)
    style_arg(command)
    lang_arg(command)


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    rules = compile_rules(resolved)
    check_bot(base_name(args.a), rules)
    check_bot(base_name(args.b), rules)
    a, b = (styled(name, args.style, resolved) for name in (args.a, args.b))
    if args.dask is None:  # the expert's first run compiles it, said on a terminal (a cluster's workers compile)
        prepare(parts_of_bots([a, b]), args.lang, quiet=args.quiet)
    result = run_match(
        a,
        b,
        args.ruleset,
        args.house_rule,
        args.deals,
        args.seed,
        label=resolved.label,
        jobs=jobs_of(args),
        progress=progress_of(args, 2 * args.deals, out),
        dask=args.dask,
    )
    if args.json:
        styles = {"a_style": style_json([a]), "b_style": style_json([b])}
        print_json({**result.as_json(), **styles}, out)
    else:
        said = [f"{name}: {line}" for name, bot in (("A", a), ("B", b)) for line in style_lines([bot], args.lang)]
        out.write("\n".join([*result.lines(args.lang), *said]) + "\n")
    return EXIT_OK


COMMANDS = (
    Command("simulate", "play many deals with bots and report statistics", _simulate_args, cmd_simulate),
    Command("compare", "the same deals under two rulesets, statistics side by side", _compare_args, cmd_compare),
    Command("match", "two bots head to head on the same cards, each deal played both ways", _match_args, cmd_match),
)
