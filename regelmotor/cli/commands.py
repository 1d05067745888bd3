"""The ``regelmotor`` command line (notation.md, "Command line").

Exit codes: 0 success, 1 invalid input (a ruleset with problems, an unknown name), 2 usage.
``--json`` output is the only thing on stdout; human messages and problems go to stderr,
except for ``validate``, whose problems are its output.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO, cast

import yaml

from regelmotor import __version__
from regelmotor.bids import Bid
from regelmotor.bots import BOTS, available_bots, check_bot
from regelmotor.cards import SUIT_LETTERS, SUIT_SYMBOLS
from regelmotor.cli.words import argparse_in, default_lang, helped, lang_of, now, translate_parser
from regelmotor.compare import (
    TABLE_WORDS,
    check_plot_target,
    comparison,
    row_label,
    row_texts,
    summary_lines,
    write_plot,
)
from regelmotor.diff import diff_rulesets, show_value
from regelmotor.double_dummy.analysis import NODES, AnalysisError, analyse_game, played_cards
from regelmotor.double_dummy.report import analysis_json, analysis_text, hand_table_json, hand_table_text
from regelmotor.double_dummy.table import CELLS, check_hands, hand_table, read_boards
from regelmotor.engine.game import Game
from regelmotor.errors import Problem, RegelmotorError, RulesetError
from regelmotor.files import OutputError, check_output, refuse_binary_terminal, write_atomic
from regelmotor.hooks import ContractInfo
from regelmotor.match import run_match
from regelmotor.model.ruleset import Side
from regelmotor.phrase_table import seat_no
from regelmotor.phrases import Word, card_shown, phrases, said, say
from regelmotor.play import TerminalGame
from regelmotor.progress import Progress
from regelmotor.records import read_record, record_schema_text, replay, state_json
from regelmotor.rounding import number_text
from regelmotor.rulebook import FORMATS, LANGS, PAPERS, build_rulebook, render
from regelmotor.rulebook.build import cited
from regelmotor.ruleset.catalogue import is_path, shipped_catalogue, shipped_house_rules, shipped_rulesets
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
from regelmotor.ruleset.schema import schema_text
from regelmotor.ruleset.validate import check_file
from regelmotor.safe_text import EscapingStream, escape_controls
from regelmotor.score_sheet import (
    REDEALS,
    SHEET_FORMATS,
    Line,
    Scored,
    Sheet,
    SheetError,
    describe_line,
    edit_sheet,
    kroner,
    names,
    payment_lines,
    rate_of,
    read_sheet,
    score,
    sheet_document,
    sheet_number,
    tricks_of,
    write_sheet,
)
from regelmotor.simulate import MIN_SIGNIFICANT, iter_lines, progress_bar, run_deals, summarize

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _print_json(value: Any, out: TextIO) -> None:
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


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "file": problem.location.file,
        "line": problem.location.line,
        "column": problem.location.column,
        "path": problem.key_path,
        "message": problem.message,
    }


def _load(args: argparse.Namespace) -> tuple[ResolvedRuleset, Rules]:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    return resolved, compile_rules(resolved)


# --- commands --------------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    entries = shipped_catalogue()
    if args.json:
        _print_json(entries, out)
        return EXIT_OK
    from regelmotor.phrases import phrases

    width = max(len(str(e["name"])) for e in entries) + 2  # one column for the descriptions, however long a name
    out.write("Reglesæt (REGLESÆT), efter spil:\n")
    rulesets = [e for e in entries if e["kind"] == "ruleset"]
    for game in sorted(dict.fromkeys(e["game"] for e in rulesets), key=lambda g: g != "esmakkerwhist"):
        name = phrases("da").get(f"game_{game}", game)
        out.write(f"  {name[0].upper()}{name[1:]}:\n")
        for entry in (e for e in rulesets if e["game"] == game):
            out.write(f"    {entry['name']:<{width}}{entry['description']}\n")
    out.write("Husregler (-H HUSREGEL), til es-makker whist:\n")
    for entry in (e for e in entries if e["kind"] == "house_rule"):
        out.write(f"    {entry['name']:<{width}}{entry['description']}\n")
    return EXIT_OK


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    checked = {path: check_file(path) for path in args.files}
    results = {path: found for path, (found, _) in checked.items()}
    problems = [p for found in results.values() for p in found]
    warnings = [w for _, found in checked.values() for w in found]
    if args.json:
        _print_json(
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
            sys.stderr.write(_say(args, "cli_invalid", problems=len(problems), bad=bad, n=len(results)) + "\n")
        else:
            count = len(results)
            sys.stderr.write(
                (_say(args, "cli_valid_one") if count == 1 else _say(args, "cli_valid_many", n=count)) + "\n"
            )
    return EXIT_INVALID if problems else EXIT_OK


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    resolved, _ = _load(args)
    data = resolved.ruleset.model_dump(mode="json", exclude_defaults=False)
    if args.json:
        _print_json(data, out)
        return EXIT_OK
    out.write(f"# {resolved.ruleset.title}: {resolved.label}\n")
    out.write(_say(args, "show_built_from", files=", ".join(resolved.files)) + "\n")
    out.write(_say(args, "show_fingerprint", fingerprint=resolved.fingerprint) + "\n")
    if args.where:  # every rule with the file and line that set it (the precedence in writing-a-ruleset.md)
        for path, value in _leaves(data):
            if path[-1] != "source":
                set_at = resolved.set_at(path)
                said = _say(args, "show_default") if set_at is None else f"{set_at.file}:{set_at.line}"
                name = ".".join(str(p) for p in path)
                out.write(f"{name}: {json.dumps(value, ensure_ascii=False)}  # {said}\n")
        for gone in resolved.gone:  # what an inherited file set and these rules no longer have
            name = ".".join(str(p) for p in gone.path)
            by = f"{gone.by.file}:{gone.by.line}"
            out.write(f"# {name}  " + _say(args, f"show_{gone.phrase}", written=gone.written, by=by) + "\n")
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


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = _load(args)
    bid = rules.contract_bid(args.contract)
    side = rules.side(bid)
    if side is Side.EACH:
        return _score_each(args, rules, bid, out)
    try:
        args.tricks = int(args.tricks)
    except ValueError:
        raise RegelmotorError.said("tricks_text", text=args.tricks) from None
    problem = None
    if side is Side.PAIRS and not 7 <= args.tricks <= 13:
        problem = _say(args, "err_score_pair_tricks", bid=bid, tricks=args.tricks)
    elif not 0 <= args.tricks <= 13:
        problem = _say(args, "err_score_tricks", tricks=args.tricks)
    elif args.doubled and not rules.doubling.most:
        problem = _say(args, "err_score_no_doubling", ruleset=resolved.label)
    elif args.doubled > rules.doubling.most:
        problem = _say(args, "err_score_doubled", most=rules.doubling.most, ruleset=resolved.label)
    elif bid.is_sol and args.selvmakker:
        problem = _say(args, "err_score_selvmakker")
    elif args.vip_card is not None:
        turns = 0 if bid.designation is None else rules.vip_turns(bid.designation)
        if not 1 <= args.vip_card <= turns:
            problem = (
                _say(args, "err_score_vip_card", turns=turns) if turns else _say(args, "err_score_not_vip", bid=bid)
            )
    if problem:
        sys.stderr.write(f"regelmotor: {problem}\n")
        return EXIT_INVALID
    scores = rules.role_points(
        bid, args.tricks, alone=args.selvmakker, vip_card=args.vip_card or 0, doublings=args.doubled
    )
    shown = rules.shown_roles(scores)
    each = list(shown.each_opponent)
    if args.json:
        _print_json(
            {
                "declarer": shown.declarer,
                "partner": shown.partner,
                "opponent": shown.opponent,
                "opponents": scores.opponents,
                "each_opponent": each,
                "sum": shown.total,
            },
            out,
        )
        return EXIT_OK

    lang = getattr(args, "lang", LANG_DEFAULT)

    def line(key: str, value: int | float, note: str = "") -> None:
        out.write(f"{_say(args, key):<12}{number_text(value, lang, signed=True)}{note}\n")

    if side is Side.PAIRS:  # engelsk whist: no declarer, the pair with more tricks wins
        out.write(_say(args, "cli_score_pairs", ruleset=resolved.label, bid=bid, tricks=args.tricks) + "\n")
        each_of_two = f"  ({_say(args, 'cli_each_of', n=2)})"
        line("cli_winner", shown.declarer, each_of_two)
        line("cli_loser", shown.opponent, each_of_two)
        line("cli_sum", shown.total)
        return EXIT_OK
    playing = _say(args, "cli_score_alone" if scores.partner is None else "cli_score_partner")
    out.write(_say(args, "cli_score_head", ruleset=resolved.label, bid=bid, tricks=args.tricks, side=playing) + "\n")
    line("cli_declarer", shown.declarer)
    if shown.partner is not None:
        line("cli_partner", shown.partner)
    on_sheet = ", ".join(number_text(x, lang, signed=True) for x in each)
    split = "" if len(set(each)) == 1 else _say(args, "cli_on_sheet", values=on_sheet)
    line("cli_opponent", shown.opponent, f"  ({_say(args, 'cli_each_of', n=scores.opponents)}{split})")
    line("cli_sum", shown.total)
    if shown.declarer_evened:
        out.write(_say(args, "cli_declarer_pays") + "\n")
    return EXIT_OK


def _score_each(args: argparse.Namespace, rules: Rules, bid: Bid, out: TextIO) -> int:
    """A game of each for himself (pasnolo): every seat's points from every seat's tricks."""
    tricks = tricks_of(str(args.tricks))
    if len(tricks) != 4 or sum(tricks) != 13 or min(tricks) < 0:
        sys.stderr.write(f"regelmotor: --tricks in {bid} is each player's, four numbers that make 13 (e.g. 2,4,3,4)\n")
        return EXIT_INVALID
    if args.doubled or args.selvmakker or args.vip_card is not None:
        sys.stderr.write(f"regelmotor: {bid} has no declarer: give only --tricks\n")
        return EXIT_INVALID
    shown = rules.shown_points(rules.points(ContractInfo(bid, ()), tricks))
    if args.json:
        _print_json({"tricks": list(tricks), "points": shown, "sum": sum(shown)}, out)
        return EXIT_OK
    lang = getattr(args, "lang", LANG_DEFAULT)
    out.write(_say(args, "cli_each_head", bid=bid, tricks=", ".join(map(str, tricks))) + "\n")
    for seat, (taken, got) in enumerate(zip(tricks, shown, strict=True)):
        out.write(
            _say(args, "cli_each_line", seat=seat + 1, taken=f"{taken:>2}", points=number_text(got, lang, signed=True))
            + "\n"
        )
    return EXIT_OK


def cmd_rulebook(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = _load(args)
    book = build_rulebook(resolved, rules, args.lang)
    if args.output:
        check_output(Path(args.output), force=args.force, replace=True)
    rendered = render(book, args.format, args.paper)
    if args.output:
        write_atomic(Path(args.output), escape_controls(rendered) if isinstance(rendered, str) else rendered)
        sys.stderr.write(_say(args, "cli_wrote", file=args.output) + "\n")
    elif isinstance(rendered, bytes):
        binary = getattr(out, "buffer", None)
        if binary is None:
            raise RegelmotorError.said("pdf_to_file")
        refuse_binary_terminal(out, Word("pdf"))
        binary.write(rendered)
    else:
        out.write(rendered)
    return EXIT_OK


def cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    a = load_ruleset(args.a)
    b = load_ruleset(args.b, args.house_rule)
    differences = diff_rulesets(a.ruleset, b.ruleset)
    if args.json:
        _print_json([d.__dict__ for d in differences], out)
        return EXIT_OK
    if not differences:
        out.write(f"{a.label} og {b.label} har de samme regler.\n")
        return EXIT_OK
    section = None
    lang = getattr(args, "lang", LANG_DEFAULT)  # sources by their titles, "udledt" in Danish, as the rule book
    for d in differences:
        if d.section != section:
            section = d.section
            out.write(f"\n## {section}\n")
        out.write(f"- {d.label} ({d.path})\n")
        out.write(f"    {a.label}: {show_value(d.a)}\n")
        out.write(f"    {b.label}: {show_value(d.b)}\n")
        sa, sb = (cited(x, lang) if x else "—" for x in (d.a_source, d.b_source))
        if d.a_source != d.b_source:
            out.write(f"    kilde, {a.label}: {sa}\n    kilde, {b.label}: {sb}\n")
        else:
            out.write(f"    kilde: {sa}\n")
    return EXIT_OK


def _bots(spec: str, *resolved: ResolvedRuleset) -> list[str]:
    """The four seats' bots; a bot may come from a plugin of every ruleset it plays (checked after loading)."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names = names * 4
    offered = [available_bots(compile_rules(r)) for r in resolved] or [dict(BOTS)]
    known = [name for name in offered[0] if all(name in o for o in offered)]
    if len(names) != 4 or any(n not in known for n in names):
        choices = ", ".join(known)
        raise RegelmotorError.said("bots_arg", choices=choices)
    return names


MAX_RUN_DEALS = 1_000_000
"""The most deals one run plays (``--deals``): a million deals is hours of play; more is a typing slip."""


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _max_jobs() -> int:
    """Twice the cores this process may use: more processes only wait for one another."""
    return 2 * _cores()


def _jobs(args: argparse.Namespace) -> int:
    """``--jobs``, or one process for each core this process may use: the numbers are the same either way."""
    if args.jobs is not None:
        if not 1 <= args.jobs <= _max_jobs():
            raise RegelmotorError.said("jobs_arg", most=_max_jobs(), jobs=args.jobs)
        return int(args.jobs)
    return _cores()


LANG_DEFAULT = default_lang()
"""What a club member reads is Danish unless ``--lang en`` or ``REGELMOTOR_LANG=en`` says English."""


def _lang_arg(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--lang", choices=LANGS, default=LANG_DEFAULT, help="da (default; REGELMOTOR_LANG=en sets English) or en"
    )


def _say(args: argparse.Namespace, key: str, **values: object) -> str:
    """A message of the command line in the reader's language, from the one phrase table."""
    return phrases(getattr(args, "lang", LANG_DEFAULT))[key].format(**values)


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argument that is a whole number from ``low`` to ``high`` (argparse says so, with the usage)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(now("a whole number, not {text!r}", text=text)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(now("{low} to {high}, not {value}", low=low, high=high, value=value))
        return value

    return parse


def _record_paths(folder: Path, deals: int, force: bool) -> list[Path]:
    """The record files of a run's deals in ``folder``, checked before any deal is played."""
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: is not a folder")
    if not folder.exists():
        if not folder.parent.is_dir():
            raise OutputError(f"{folder}: the folder {folder.parent} does not exist")
        folder.mkdir()
    paths = [folder / f"deal-{number:04d}.json" for number in range(1, deals + 1)]
    for path in paths:
        check_output(path, force=force)
    return paths


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    bots = _bots(args.bots, resolved)
    paths = None if args.records is None else _record_paths(Path(args.records), args.deals, args.force)
    names = None
    if paths is not None:  # a ruleset named by a path is recorded by its absolute path: it replays from DIR
        names = (
            str(Path(args.ruleset).resolve()) if is_path(args.ruleset) else args.ruleset,
            tuple(str(Path(h).resolve()) if is_path(h) else h for h in args.house_rule),
        )
    results = run_deals(
        args.ruleset,
        args.house_rule,
        args.deals,
        args.seed,
        bots,
        _jobs(args),
        progress_bar(args.deals),
        args.dask,
        names,
    )
    if paths is not None:
        for path, result in zip(paths, results, strict=True):
            assert result.record is not None
            write_atomic(path, result.record + "\n", durable=False)
    summary = summarize(results, bots)
    if args.json:
        _print_json({"ruleset": resolved.label, "seed": args.seed, "bots": bots, **summary.as_json()}, out)
    else:
        out.write("\n".join(iter_lines(summary, resolved.label, args.lang)) + "\n")
    return EXIT_OK


def cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    if args.plot:
        check_plot_target(Path(args.plot))
    a = load_ruleset(args.a)
    b = load_ruleset(args.b, args.house_rule)
    bots = _bots(args.bots, a, b)
    bar = progress_bar(2 * args.deals)
    left = run_deals(args.a, [], args.deals, args.seed, bots, _jobs(args), bar, args.dask)
    later = None if bar is None else (lambda n: bar(args.deals + n))
    right = run_deals(args.b, args.house_rule, args.deals, args.seed, bots, _jobs(args), later, args.dask)
    report = comparison(a.ruleset, b.ruleset, left, right, bots)
    if args.plot:
        write_plot(report, a.label, b.label, Path(args.plot), args.lang)
    if args.json:
        _print_json({"a": a.label, "b": b.label, "seed": args.seed, "bots": bots, **report}, out)
        return EXIT_OK
    words = TABLE_WORDS[args.lang]
    out.write(words["head"].format(a=a.label, b=b.label, deals=args.deals, seed=args.seed) + "\n\n")
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


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    resolved = load_ruleset(args.ruleset, args.house_rule)
    rules = compile_rules(resolved)
    check_bot(args.a, rules)
    check_bot(args.b, rules)
    result = run_match(
        args.a,
        args.b,
        args.ruleset,
        args.house_rule,
        args.deals,
        args.seed,
        label=resolved.label,
        jobs=_jobs(args),
        progress=progress_bar(2 * args.deals),
        dask=args.dask,
    )
    if args.json:
        _print_json(result.as_json(), out)
    else:
        out.write("\n".join(result.lines(args.lang)) + "\n")
    return EXIT_OK


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = _load(args)
    if rules.evening.table_sizes and 4 not in rules.evening.table_sizes:
        raise RegelmotorError.said("not_four", ruleset=resolved.label)
    check_bot(args.bots, rules)
    record = Path(args.record) if args.record is not None else default_record()
    if args.record is None:
        record.parent.mkdir(parents=True, exist_ok=True)
    first = record.with_name(f"{record.stem}-1{record.suffix or '.json'}")
    check_output(first, force=args.force)  # said before the first deal, not after it

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        if not sys.stdin.isatty():
            out.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")

    game = TerminalGame(
        rules,
        resolved.label,
        args.ruleset,
        args.house_rule,
        seed=args.seed if args.seed is not None else random.SystemRandom().getrandbits(32),
        seat=args.seat - 1,  # a person counts seats from 1
        record=record,
        read=read,
        out=out,
        bots=args.bots,
        force=args.force,
    )
    return game.run()


def _data_folder() -> Path:
    """regelmotor's folder of the user's data: ``$XDG_DATA_HOME/regelmotor`` (by default
    ``~/.local/share/regelmotor``), ``%APPDATA%\\regelmotor`` on Windows."""
    if sys.platform == "win32":  # pragma: no cover - Windows only
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "regelmotor"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "regelmotor"


def default_record(now: datetime | None = None) -> Path:
    """Where ``play`` keeps an evening's records unless told: a folder per day under the user's data folder
    (``$XDG_DATA_HOME/regelmotor/spil/2026-12-01``, by default ``~/.local/share``; ``%APPDATA%`` on
    Windows), a name per game started (``spil-1930-1.json``, ...), never the current folder."""
    when = now or datetime.now()
    folder = _data_folder() / "spil" / when.strftime("%Y-%m-%d")
    name = f"spil-{when:%H%M}"
    if (folder / f"{name}-1.json").exists():
        name = f"spil-{when:%H%M%S}"
    return folder / f"{name}.json"


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from regelmotor.web.app import LOCAL_HOSTS, create_app
    from regelmotor.web.server import serve

    everywhere = args.host in ("0.0.0.0", "::")
    if everywhere:  # any Host header is answered: put the server behind a proxy that checks it
        sys.stderr.write("regelmotor: " + _say(args, "cli_serve_everywhere") + "\n")
    allowed = None if everywhere else LOCAL_HOSTS | {args.host.lower()}
    club = None
    if args.ruleset is not None:
        load_ruleset(args.ruleset, args.house_rule)  # a club file with problems is refused before serving
        club = (args.ruleset, list(args.house_rule))
    sheet = None
    if args.sheet is not None:
        sheet = Path(args.sheet).resolve()
        score(read_sheet(sheet))  # a sheet that cannot be read or scored is refused before serving
    sys.stderr.write(f"regelmotor: http://{args.host}:{args.port}/ " + _say(args, "cli_serve_stop") + "\n")
    store = Path(args.store) if args.store else _data_folder() / "borde"
    app = create_app(allowed, club=club, sheet=sheet, store=store)
    serve(app, args.host, args.port)
    return EXIT_OK


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    out.write(record_schema_text() if args.record else schema_text())
    return EXIT_OK


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.record)
    result = replay(read_record(path), base=path.parent)
    game = result.game
    state = state_json(game)
    if result.hash_matches is False:
        sys.stderr.write(
            f"regelmotor: warning: the record was played under other rules than {result.resolved.label} "
            f"now resolves to (fingerprint {result.resolved.fingerprint})\n"
        )
    for note in result.plugin_notes:
        sys.stderr.write(f"regelmotor: warning: {note}\n")
    stop = result.stop
    if args.json:
        state["error"] = (
            None
            if stop is None
            else {
                "index": stop.index,
                "seat": stop.seat,
                "action": stop.action,
                "rule": stop.rule,
                "source": stop.source,
                "message": stop.message,
                "message_da": stop.message_da,
            }
        )
        _print_json(state, out)
    else:
        out.write(_describe_state(game, result.resolved.label, args.lang))
    if stop is not None:
        sys.stderr.write(f"{args.record}: {stop.text(args.lang)}\n")
        return EXIT_INVALID
    if result.result_differs:  # the actions replay, but the stored outcome is not theirs
        for difference in result.result_differs:
            sys.stderr.write(f"{args.record}: the stored result disagrees with the replay: {difference}\n")
        return EXIT_INVALID
    return EXIT_OK


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    if args.table is not None:
        if args.record is not None or args.deal is None:
            raise AnalysisError("analyse --table RULESET --deal FILE takes a hand record, not a game record")
        resolved = load_ruleset(args.table, args.house_rule)
        rules = compile_rules(resolved)
        boards = [(file, name, hands) for file in args.deal for name, hands in read_boards(Path(file))]
        for file, _, hands in boards:  # every board checked before any is searched
            check_hands(hands, rules, file)
        tables = []
        several = len(args.deal) > 1  # a board is named by its file where there are several
        for file, name, hands in boards:
            progress = Progress(CELLS, "cells", args.lang)
            if name is None:
                shown = Path(file).name if len(boards) > 1 else None
            else:
                shown = f"{Path(file).name}, {name}" if several else name
            tables.append(hand_table(rules, resolved.label, hands, args.nodes, progress, shown))
        if args.json:  # one board: its table; an evening's: a list, each with its board
            _print_json(hand_table_json(tables[0]) if len(tables) == 1 else [hand_table_json(t) for t in tables], out)
        else:
            out.write("\n".join(hand_table_text(table, args.lang) for table in tables))
        return EXIT_OK
    if args.record is None or args.deal is not None or args.house_rule:
        raise AnalysisError("analyse takes a game record (RECORD), or --table RULESET --deal FILE")
    path = Path(args.record)
    result = replay(read_record(path), base=path.parent)
    if result.stop is not None:
        sys.stderr.write(f"{args.record}: {result.stop.text(args.lang)}\n")
        return EXIT_INVALID
    progress = Progress(len(played_cards(result.game)), "cards", args.lang)
    analysis = analyse_game(result.game, result.resolved.label, args.nodes, args.from_trick, progress=progress)
    if args.json:
        _print_json(analysis_json(analysis), out)
    else:
        out.write(analysis_text(analysis, args.lang))
    return EXIT_OK


def _describe_state(game: Game, label: str, lang: str = "en") -> str:
    """The deal as ``replay`` prints it, in the reader's language: cards as the reader writes them."""
    words = phrases(lang)

    def line(key: str, **values: object) -> str:
        return say(f"replay_{key}", values, lang)

    def seat(s: int) -> str:
        return line("seat", seat=s)

    def card(c: int) -> str:
        return card_shown(c, lang)

    lines = [line("ruleset", label=label), line("dealer", dealer=game.dealer, forhaand=game.forhaand)]
    if game.seat_calls:
        calls = ", ".join(f"{seat_no(s)}: {said(str(call), lang)}" for s, call in game.seat_calls)
        lines.append(line("auction", calls=calls))
    for event in game.events:
        lines.append(f"  {event.text(lang)}")
    if game.contract is not None:
        lines.append(line("contract", contract=game.contract, declarers=", ".join(map(seat, game.declarers))))
        trump = words["replay_no_trump_yet"] if game.trump is None else _trump_shown(game.trump, lang)
        lines.append(line("trump", trump=trump))
        if game.called is not None:
            partner = (
                seat(game.partner) if game.partner_public and game.partner is not None else words["replay_not_revealed"]
            )
            lines.append(line("partner_card", card=card(game.called), partner=partner))
    for number, trick in enumerate(game.tricks, 1):
        cards = " ".join(f"{seat_no(s)}:{card(c)}" for s, c in zip(trick.seats, trick.cards, strict=True))
        lines.append(line("trick", number=f"{number:>2}", cards=cards, winner=trick.winner))
    if game.tricks:
        lines.append(line("tricks_won", counts=", ".join(f"{seat(s)}: {n}" for s, n in enumerate(game.tricks_won))))
    if game.scores is not None:
        shown = game.rules.shown_points(game.scores)  # the same numbers as --json and the score sheet
        points = [number_text(p, lang, signed=True) for p in shown]  # Danish writes 6,67
        lines.append(line("scores", scores=", ".join(f"{seat(s)}: {p}" for s, p in enumerate(points))))
    lines.append(line("phase", phase=words.get(f"phase_{game.phase}", game.phase)))
    if game.to_act is not None:
        legal = " | ".join(said(str(a), lang) for a in game.legal)
        lines.append(line("to_act", seat=game.to_act, legal=legal))
    return "\n".join(lines) + "\n"


def _trump_shown(trump: str, lang: str) -> str:
    """A trump as the table says it: ``♥``, ``uden trumf``; the notation's letter in English."""
    if lang == "en":
        return trump
    return phrases(lang)["act_no_trump"] if trump == "none" else SUIT_SYMBOLS[SUIT_LETTERS.index(trump)]


def cmd_ladder(args: argparse.Namespace, out: TextIO) -> int:
    _, rules = _load(args)
    ladder = rules.ladder
    if args.json:
        _print_json([bid.text for bid in ladder], out)
        return EXIT_OK
    if not ladder.bids:
        contract = rules.redealing.all_pass_contract
        out.write(f"no bidding in {rules.name}: every deal is {contract}\n")
        return EXIT_OK
    lines: list[str] = []
    plain = rules.designations[0].id if rules.designations else None
    for group in ladder.groups:
        text = " = ".join(bid.text for bid in group)
        starts_level = group[0].level is not None and group[0].designation == plain
        if not lines or starts_level:
            lines.append(text if not lines else f"< {text}")
        else:
            lines[-1] += f" < {text}"
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


# --- parser ----------------------------------------------------------------------------------


def _add_house_rule_arg(parser: argparse.ArgumentParser, whose: str) -> None:
    names = ", ".join(shipped_house_rules())
    parser.add_argument(
        "-H",
        "--house-rule",
        action="append",
        default=[],  # argparse copies it before appending: a parser kept for the process stays as it was
        metavar="HOUSE_RULE",
        help=helped("add a house rule to {whose} by name ({names}) or path; repeatable", whose=whose, names=names),
    )


def _add_ruleset_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ruleset",
        metavar="RULESET",
        help=helped("a shipped ruleset ({names}) or a path", names=", ".join(shipped_rulesets())),
    )
    _add_house_rule_arg(parser, "the ruleset")


def _show_args(parser: argparse.ArgumentParser) -> None:
    _add_ruleset_args(parser)
    parser.add_argument("--where", action="store_true", help="each rule with the file and line that set it")
    _lang_arg(parser)


def _add_two_rulesets_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="a shipped ruleset or a path")
    parser.add_argument("b", metavar="B", help="a shipped ruleset or a path")
    _add_house_rule_arg(parser, "B")


def _validate_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("files", nargs="+", metavar="FILE", help="a ruleset or house-rule file (or a shipped name)")
    _lang_arg(command)


def _score_args(command: argparse.ArgumentParser) -> None:
    _add_ruleset_args(command)
    _lang_arg(command)
    command.add_argument("--contract", required=True, metavar="BID", help="the contract, e.g. 8, '9 gode', sol")
    command.add_argument(
        "--tricks",
        required=True,
        metavar="N",
        help="tricks the declarer's side took (in sol: the declarer; engelsk whist: the winning pair; "
        "pasnolo: each player's, A,B,C,D)",
    )
    command.add_argument("--selvmakker", action="store_true", help="the declarer played alone against three")
    command.add_argument("--doubled", type=int, default=0, metavar="N", help="1 doubled, 2 redoubled")
    command.add_argument("--vip-card", type=int, metavar="N", help="in vip: the number of the kitty card accepted")


def _rulebook_args(command: argparse.ArgumentParser) -> None:
    _add_ruleset_args(command)
    command.add_argument("--format", choices=FORMATS, default="md", help="md (default), html or pdf")
    command.add_argument(
        "--paper", choices=PAPERS, default="a4", help="the PDF's paper: a4 (default) or a5 (a booklet)"
    )
    command.add_argument("--lang", choices=LANGS, default="da", help="da (default) or en")
    command.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    command.add_argument("--force", action="store_true", help="write over FILE even if it is a sheet or a record")


def _run_args(command: argparse.ArgumentParser, *, bots: bool) -> None:
    """What every command that plays many deals takes: how many, the seed, the bots, where to run them."""
    command.add_argument(
        "--deals",
        type=_whole_number(1, MAX_RUN_DEALS),
        default=1000,
        metavar="N",
        help=helped("deals to play, 1 to {most} (default 1000)", most=MAX_RUN_DEALS),
    )
    command.add_argument(
        "--seed", type=_whole_number(0, 2**63 - 1), default=1, metavar="S", help="the seed of the run (default 1)"
    )
    if bots:
        command.add_argument(
            "--bots",
            default="heuristic",
            metavar="NAME",
            help=helped(
                "{bots} (or a plugin's bot), or four names A,B,C,D (default {default})",
                bots=", ".join(BOTS),
                default="heuristic",
            ),
        )
    command.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="J",
        help="local processes (default: one per core; the numbers are the same for any J)",
    )
    command.add_argument("--dask", metavar="ADDRESS", help="play the deals on a Dask cluster (extra: regelmotor[dask])")


def _simulate_args(command: argparse.ArgumentParser) -> None:
    _add_ruleset_args(command)
    _run_args(command, bots=True)
    _lang_arg(command)
    command.add_argument(
        "--records",
        metavar="DIR",
        help="write every deal's game record to DIR (deal-0001.json, ...) for replay and analyse",
    )
    command.add_argument("--force", action="store_true", help="write over records of an earlier run in DIR")


def _compare_args(command: argparse.ArgumentParser) -> None:
    _add_two_rulesets_args(command)
    command.add_argument("--plot", metavar="FILE", help="write a chart of the comparison (.svg or .png)")
    command.add_argument("--lang", choices=LANGS, default="da", help="the summary's language: da (default) or en")
    _run_args(command, bots=True)


def _match_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("a", metavar="A", help=helped("a bot: {bots} or a plugin's bot", bots=", ".join(BOTS)))
    command.add_argument("b", metavar="B", help="the bot it plays against")
    _add_ruleset_args(command)
    _run_args(command, bots=False)
    _lang_arg(command)


def _play_args(command: argparse.ArgumentParser) -> None:
    _add_ruleset_args(command)
    command.add_argument(
        "--seed", type=_whole_number(0, 2**63 - 1), default=None, metavar="N", help="the same seed deals the same cards"
    )
    command.add_argument(
        "--seat",
        type=int,
        default=1,
        choices=range(1, 5),
        metavar="SEAT",
        help="your seat in the first deal, 1-4 (1 is forhånd; the deal passes round)",
    )
    command.add_argument(
        "--record",
        metavar="FILE",
        help="save each deal as FILE-1.json, ... (default: a folder per evening, see README)",
    )
    command.add_argument("--force", action="store_true", help="write over records of an earlier game")
    command.add_argument(
        "--bots",
        default="heuristic",
        help=helped(
            "the computer players: {bots} or a plugin's bot (default {default})",
            bots=", ".join(BOTS),
            default="heuristic",
        ),
    )


def _serve_args(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "ruleset", nargs="?", metavar="RULESET", help="the club's ruleset to offer first (a shipped name or a file)"
    )
    _add_house_rule_arg(command, "the club's ruleset")
    command.add_argument(
        "--port", type=_whole_number(1, 65535), default=8000, metavar="P", help="the port, 1-65535 (default 8000)"
    )
    command.add_argument(
        "--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1: this machine only)"
    )
    command.add_argument(
        "--sheet",
        metavar="FILE",
        help="an evening's score sheet (regelmotor session) to show at /sheet, read anew each time",
    )
    command.add_argument(
        "--store",
        metavar="DIR",
        help="the folder the games are kept in, so a restart loses none (default: regelmotor/borde in the "
        "user's data folder, see README)",
    )


def _replay_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("record", metavar="RECORD", help="a game record (JSON, notation.md)")
    command.add_argument(
        "--lang", choices=LANGS, default="da", help="the language of a refusal's reason: da (default) or en"
    )


def _analyse_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("record", metavar="RECORD", nargs="?", help="a game record (JSON, notation.md)")
    command.add_argument(
        "--table", metavar="RULESET", help="instead of a record: the double-dummy table of a hand record (--deal)"
    )
    command.add_argument(
        "--deal",
        metavar="FILE",
        action="append",
        help='a hand record: "1: AS KS ..." per seat, a PBN deal, or an evening\'s PBN file of boards; repeatable',
    )
    _add_house_rule_arg(command, "the --table ruleset")
    command.add_argument("--lang", choices=LANGS, default="da", help="the language: da (default) or en")
    command.add_argument(
        "--nodes",
        type=_whole_number(1_000, 10**10),
        default=NODES,
        metavar="N",
        help=helped(
            "a search's node budget; a card it does not settle is shown unknown (default {nodes})", nodes=NODES
        ),
    )
    command.add_argument(
        "--from-trick",
        type=_whole_number(1, 13),
        default=1,
        metavar="N",
        help="analyse from trick N (the end of a deal is quick; the first tricks cost the most)",
    )


def _schema_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("--record", action="store_true", help="the schema of game records instead")


def _no_args(command: argparse.ArgumentParser) -> None:
    return None


def _session_args(command: argparse.ArgumentParser) -> None:
    sub = command.add_subparsers(dest="session_command", metavar="ACTION", required=True)
    new = sub.add_parser("new", help="start a score sheet for the evening")
    new.add_argument("file", metavar="FILE", help="the score sheet to create (JSON)")
    _add_ruleset_args(new)
    new.add_argument("--players", required=True, metavar="A,B,C,D", help="the players in their seats round the table")
    new.add_argument("--first-dealer", metavar="NAME", help="who deals first (default: the first player)")
    new.add_argument("--rate", default="1", metavar="KR", help="kroner per point for the settlement (default 1)")
    add = sub.add_parser("add", help="enter one deal as the table reports it")
    add.add_argument("file", metavar="FILE", help="the score sheet")
    add.add_argument("--contract", metavar="BID", help="the contract, e.g. 8, '9 gode', sol")
    add.add_argument("--declarer", metavar="NAME", help="who won the auction")
    add.add_argument("--partner", metavar="NAME", help="who held the partner card (leave out for a selvmakker)")
    add.add_argument("--joiners", default="", metavar="A,B", help="in sol: the players who went with (gå med)")
    add.add_argument("--tricks", metavar="N", help="the declarer's side's tricks (in sol: each declarer's, A,B)")
    add.add_argument("--doubled", type=int, default=0, metavar="N", help="1 doubled, 2 redoubled")
    add.add_argument("--vip-card", type=int, default=0, metavar="N", help="in vip: the kitty card accepted")
    add.add_argument("--redeal", choices=REDEALS, help="the deal was void: all_pass, misdeal, jernhaand, omblanding")
    add.add_argument("--culprit", metavar="NAME", help="in a misdeal: the player at fault, where he pays")
    add.add_argument("--tricks-help", action="store_true", help=argparse.SUPPRESS)
    undo = sub.add_parser("undo", help="take back the last deal entered")
    undo.add_argument("file", metavar="FILE", help="the score sheet")
    show = sub.add_parser("show", help="the score sheet, the totals and the settlement")
    show.add_argument("file", metavar="FILE", help="the score sheet")
    show.add_argument("--rate", metavar="KR", help="kroner per point (default: the sheet's)")
    show.add_argument("--json", action="store_true", help="print JSON on stdout")
    show.add_argument(
        "--format", choices=("text", *SHEET_FORMATS), default="text", help="text (default), md, html, pdf or csv"
    )
    show.add_argument("-o", "--output", metavar="FILE", help="write to FILE (a pdf needs one)")
    show.add_argument("--force", action="store_true", help="replace FILE if it exists")
    rescore = sub.add_parser("rescore", help="what the sheet's deals would score by the club file as it is today")
    rescore.add_argument("file", metavar="FILE", help="the score sheet")
    rescore.add_argument("--apply", action="store_true", help="score the sheet by today's rules from now on")
    for action in (new, add, undo, show, rescore):
        _lang_arg(action)


def cmd_session(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.file)
    if args.session_command == "new":
        return _new_sheet(args, path, out)
    if args.session_command in ("add", "undo", "rescore"):
        said: list[str] = []

        def change(sheet: Sheet) -> bool:
            if args.session_command == "add":
                said.append(_add_deal(args, sheet))
            elif args.session_command == "undo":
                said.append(_undo_deal(args, path, sheet))
            else:
                said.append(_rescore(sheet, args.apply, args.lang))
                return bool(args.apply)  # without --apply the sheet is only read
            return True

        edit_sheet(path, change, lambda sheet: _warn_drift(sheet, args.session_command))
        out.write(said[0])
        return EXIT_OK
    sheet = read_sheet(path)
    _warn_drift(sheet, "show")
    scored = score(sheet)
    rate = rate_of(args.rate or sheet.rate)
    if args.format != "text":
        if args.output:
            check_output(Path(args.output), force=args.force, inputs=(path,), replace=True)
        data = sheet_document(sheet, scored, rate, args.format, args.lang)
        if args.output:
            write_atomic(Path(args.output), escape_controls(data) if isinstance(data, str) else data)
            out.write(_say(args, "cli_wrote", file=args.output) + "\n")
        elif isinstance(data, bytes):
            raise RegelmotorError.said("pdf_needs_file")
        else:
            out.write(data)
        return EXIT_OK
    _print_sheet(sheet, scored, rate, args.json, out, args.lang)
    return EXIT_OK


def _new_sheet(args: argparse.Namespace, path: Path, out: TextIO) -> int:
    if path.exists() or path.is_symlink():
        raise RegelmotorError.said("sheet_exists", path=path)
    check_output(path)
    players = names(args.players)
    first = players.index(args.first_dealer) if args.first_dealer in players else 0
    if args.first_dealer is not None and args.first_dealer not in players:
        raise RegelmotorError.said("first_dealer", name=args.first_dealer)
    rate_of(args.rate)
    folder = path.parent.resolve()

    def from_sheet(ref: str) -> str:  # a path is kept relative to the sheet's folder, not today's
        return os.path.relpath(Path(ref).resolve(), folder) if is_path(ref) else ref

    sheet = Sheet(
        from_sheet(args.ruleset),
        players,
        tuple(from_sheet(h) for h in args.house_rule),
        first,
        args.rate,
        folder=path.parent,
    )
    sheet.freeze(sheet.current())
    score(sheet)  # the ruleset and the table are checked before the file is written
    write_sheet(path, sheet)
    said = _say(
        args, "cli_sheet_new", path=path, players=", ".join(players), ruleset=sheet.ruleset, dealer=players[first]
    )
    out.write(said + "\n")
    return EXIT_OK


def _warn_drift(sheet: Sheet, command: str) -> None:
    if sheet.rules is None:
        if command != "show":  # a version 1 sheet: its rules are frozen as it is written now
            sheet.freeze(sheet.current())
        return
    if command != "rescore":
        drift = sheet.drift()
        if drift is not None:
            sys.stderr.write(f"regelmotor: {drift}\n")


def _add_deal(args: argparse.Namespace, sheet: Sheet) -> str:
    line = Line(
        contract=args.contract,
        declarer=args.declarer,
        partner=args.partner,
        joiners=names(args.joiners),
        tricks=tricks_of(args.tricks) if args.tricks is not None else (),
        doubled=args.doubled,
        vip_card=args.vip_card,
        redeal=args.redeal,
        culprit=args.culprit,
    )
    try:  # the same checks as a deal read from the file, said of the option the club member typed
        Line.of(line.as_json(), "deal")
    except SheetError as exc:
        key = exc.values.get("key")
        if exc.phrase in ("deal_whole", "deal_text") and isinstance(key, str):
            raise SheetError.said(exc.phrase, **{**exc.values, "key": "--" + key.replace("_", "-")}) from None
        raise
    sheet.lines.append(line.named_as(sheet.players))
    try:
        scored = score(sheet)
    except SheetError as exc:  # a name left out is asked for by its option: "skriv navnet på melderen (--declarer)"
        inner = exc.values.get("error")
        role = inner.values.get("role") if isinstance(inner, RegelmotorError) else None
        if exc.phrase == "in_deal" and isinstance(inner, RegelmotorError) and inner.phrase == "name_the" and role:
            option = {"joiner": "joiners", "player": "tricks"}.get(str(role), str(role))
            named = RegelmotorError.said("name_the_option", role=role, option=f"--{option}")
            raise SheetError.said("in_deal", number=exc.values.get("number"), error=named) from None
        raise
    entry = scored.entries[-1]
    shown = scored.rules.shown_points(list(entry.points))
    lang = getattr(args, "lang", LANG_DEFAULT)
    booked = ", ".join(f"{n} {number_text(p, lang)}" for n, p in zip(sheet.players, shown, strict=True))
    return _say(args, "cli_deal_scored", number=entry.number, points=booked) + "\n"


def _undo_deal(args: argparse.Namespace, path: Path, sheet: Sheet) -> str:
    if not sheet.lines:
        raise RegelmotorError.said("no_undo", path=path)
    removed = sheet.lines.pop()
    fixed = score(sheet).rules.fixed_partners
    deal = describe_line(removed, fixed, args.lang)
    return _say(args, "cli_taken_back", number=len(sheet.lines) + 1, deal=deal) + "\n"


def _rescore(sheet: Sheet, apply: bool, lang: str = LANG_DEFAULT) -> str:
    """The sheet scored by today's club file beside its frozen rules: what would change, deal by deal."""
    words = phrases(lang)
    now = sheet.current()
    before = score(sheet)
    after = score(sheet, compile_rules(now))
    shown = before.rules.shown_points  # the sheet's points as they were printed, before and after

    def changes(a: Sequence[int | float], b: Sequence[int | float]) -> str:
        both = zip(sheet.players, a, b, strict=True)
        return ", ".join(f"{n} {number_text(x, lang)} → {number_text(y, lang)}" for n, x, y in both)

    lines = [
        words["sheet_rescore_deal"].format(
            number=old.number,
            changes=changes(shown(list(old.points)), shown(list(new.points))),
        )
        for old, new in zip(before.entries, after.entries, strict=True)
        if old.points != new.points
    ]
    if now.fingerprint == sheet.fingerprint:
        return words["sheet_rescore_same"].format(ruleset=sheet.ruleset) + "\n"
    old_totals, new_totals = (shown(r.session.totals) for r in (before, after))
    head = words["sheet_rescore_head"].format(ruleset=sheet.ruleset) + "\n"
    body = "\n".join(lines) if lines else words["sheet_rescore_none"]
    summary = words["sheet_rescore_total"].format(changes=changes(old_totals, new_totals))
    if apply:
        sheet.freeze(now)
    return head + body + "\n" + summary + "\n" + words[f"sheet_rescore_{'' if apply else 'not_'}applied"] + "\n"


def _print_sheet(
    sheet: Sheet, scored: Scored, rate: Fraction, as_json: bool, out: TextIO, lang: str = LANG_DEFAULT
) -> None:
    words = phrases(lang)
    session, rules = scored.session, scored.rules
    settled = scored.settlement(rate)
    players = sheet.players
    rows = []
    for line, entry in zip(sheet.lines, scored.entries, strict=True):
        rows.append((entry, describe_line(line, rules.fixed_partners, lang), rules.shown_points(list(entry.points))))
    totals = rules.shown_points(session.totals)
    if as_json:
        _print_json(
            {
                "ruleset": rules.name,
                "players": list(players),
                "deals": [
                    {
                        "number": e.number,
                        "dealer": players[e.dealer],
                        "deal": text,
                        "points": dict(zip(players, p, strict=True)),
                    }
                    for e, text, p in rows
                ],
                "totals": dict(zip(players, totals, strict=True)),
                "games_won": dict(zip(players, session.games_won, strict=True)),
                "can_end": session.can_end(),
                "settlement": {
                    "rate": str(rate),
                    "money": {n: float(m) for n, m in zip(players, settled.money, strict=True)},
                    "transfers": [
                        {
                            "payer": players[t.payer],
                            "payee": "kassen" if t.payee < 0 else players[t.payee],
                            "amount": float(t.amount),
                        }
                        for t in settled.transfers
                    ],
                    "box": float(settled.box),
                },
            },
            out,
        )
        return
    width = max(8, *(len(p) + 2 for p in players))
    margin = 5 + width + 34

    def numbers(values: Sequence[int | float]) -> str:
        return "".join(f"{number_text(x, lang):>{width}}" for x in values)

    out.write(f"{sheet.ruleset}: {', '.join(players)}\n\n")
    out.write(
        f"{words['sheet_deal']:<5}{words['sheet_dealer']:<{width}}{'':<34}"
        + "".join(f"{p:>{width}}" for p in players)
        + "\n"
    )
    for entry, text, shown in rows:
        out.write(f"{entry.number:<5}{players[entry.dealer]:<{width}}{text:<34}" + numbers(shown) + "\n")
    out.write(f"{words['sheet_total']:<{margin}}" + numbers(totals) + "\n")
    target = rules.evening.game_to
    if target is not None:  # games (partier) to a target: who won how many, and the game under way
        won = "".join(f"{n:>{width}}" for n in session.games_won)
        going = numbers(rules.shown_points(session.game_totals))
        out.write(f"{words['sheet_games_won'].format(target=target):<{margin}}{won}\n")
        out.write(f"{words['sheet_game_going']:<{margin}}{going}\n")
    if rules.evening.whole_rounds:  # 000: "Session – En enhed som omfatter et helt antal runder"
        left = (session.size - session.rotations % session.size) % session.size
        out.write((words["sheet_rounds_whole"] if left == 0 else words["sheet_rounds_left"].format(left=left)) + "\n")
    evening = rules.evening.deals
    if evening is not None:  # an evening of a fixed number of deals
        over = session.evening_over()
        out.write(
            (
                words["sheet_evening_over"]
                if over
                else words["sheet_deal_of"].format(played=session.played(), deals=evening)
            )
            + "\n"
        )
    out.write("\n")
    money = ", ".join(f"{n} {kroner(m, signed=True, lang=lang)}" for n, m in zip(players, settled.money, strict=True))
    out.write(words["sheet_settlement"].format(rate=sheet_number(float(rate), lang=lang)) + f": {money}\n")
    for payment in payment_lines(players, settled, lang):
        out.write(f"  {payment}\n")


def _completion_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("shell", choices=("bash",), help="the shell (bash; zsh reads it with bashcompinit)")


def completion_script(parser: argparse.ArgumentParser) -> str:
    """A bash completion script made from the parser itself: the commands, each command's options, and
    the shipped rulesets and house rules where a ruleset is asked for."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = " ".join(sub.choices)
    options = []
    for name, command in sub.choices.items():
        flags = sorted({flag for action in command._actions for flag in action.option_strings})
        options.append(f'        {name}) opts="{" ".join(flags)}" ;;')
    shipped = " ".join([*shipped_rulesets(), *shipped_house_rules()])
    cases = "\n".join(options)
    return f"""# regelmotor bash completion: eval "$(regelmotor completion bash)"
_regelmotor() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" command="${{COMP_WORDS[1]}}" opts=""
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "{names} --version --help" -- "$cur")); return
    fi
    case "$command" in
{cases}
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "{shipped}" -- "$cur") $(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _regelmotor regelmotor
"""


def cmd_completion(args: argparse.Namespace, out: TextIO) -> int:
    out.write(completion_script(build_parser()))
    return EXIT_OK


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line help, its arguments and what it does."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]
    json: bool = True
    """Whether it can print JSON (``--json``)."""


COMMANDS = (
    Command("rulesets", "list the shipped rulesets and house rules", _no_args, cmd_rulesets),
    Command("validate", "validate ruleset and house-rule files", _validate_args, cmd_validate),
    Command("show", "print the fully resolved ruleset", _show_args, cmd_show),
    Command("schema", "print the JSON Schema of ruleset files", _schema_args, cmd_schema, json=False),
    Command("ladder", "print every bid from lowest to highest", _add_ruleset_args, cmd_ladder),
    Command("replay", "replay a game record and print the state reached", _replay_args, cmd_replay),
    Command("analyse", "what each card of a played deal cost, with every hand open", _analyse_args, cmd_analyse),
    Command("score", "the points of one finished game per role", _score_args, cmd_score),
    Command("rulebook", "a printed rule summary, generated from the ruleset", _rulebook_args, cmd_rulebook, json=False),
    Command("diff", "the rule differences between two rulesets, in Danish", _add_two_rulesets_args, cmd_diff),
    Command("simulate", "play many deals with bots and report statistics", _simulate_args, cmd_simulate),
    Command("compare", "the same deals under two rulesets, statistics side by side", _compare_args, cmd_compare),
    Command("match", "two bots head to head on the same cards, each deal played both ways", _match_args, cmd_match),
    Command("play", "play in the terminal against three computer players", _play_args, cmd_play, json=False),
    Command(
        "serve",
        "play in the browser: against computer players, or with others at one table online",
        _serve_args,
        cmd_serve,
        json=False,
    ),
    Command(
        "session",
        "the evening's score sheet for a table playing with real cards",
        _session_args,
        cmd_session,
        json=False,
    ),
    Command("completion", "print a shell completion script", _completion_args, cmd_completion, json=False),
)


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
    except BrokenPipeError:  # the reader (head, less) stopped reading: not an error of ours
        stderr.close()
        return EXIT_OK
    finally:
        sys.stderr = stderr
