"""The commands that read a played deal: ``replay`` (the state a record reaches) and ``analyse`` (what
each card cost, with every hand open, or a hand record's table)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from regelmotor.cards import SUIT_LETTERS, SUIT_SYMBOLS
from regelmotor.cli.base import EXIT_INVALID, EXIT_OK, Command, cores, house_rule_arg, print_json, whole_number
from regelmotor.cli.words import helped
from regelmotor.double_dummy.analysis import NODES, AnalysisError, analyse_game, played_cards
from regelmotor.double_dummy.report import analysis_json, analysis_text, hand_table_json, hand_table_text
from regelmotor.double_dummy.table import (
    CELLS,
    TRUMPS,
    check_boards,
    hand_table,
    read_hand_file,
    table_seconds,
    table_solvers,
)
from regelmotor.engine.game import Game
from regelmotor.phrase_table import seat_no
from regelmotor.phrases import card_shown, phrases, said, say
from regelmotor.prepare import prepare
from regelmotor.progress import Progress, duration
from regelmotor.records import check_replay, read_record, replay, state_json
from regelmotor.rounding import number_text
from regelmotor.rulebook import LANGS
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset


def _replay_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("record", metavar="RECORD", help="a game record (JSON, docs/notation.md)")
    command.add_argument(
        "--lang", choices=LANGS, default="da", help="the language of a refusal's reason: da (default) or en"
    )


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.record)
    result = replay(read_record(path), base=path.parent, where=path)
    check = check_replay(result, args.record)
    game = result.game
    state = state_json(game)
    for warning in check.warnings:
        sys.stderr.write(f"regelmotor: {warning.text(args.lang)}\n")
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
        print_json(state, out)
    else:
        out.write(_describe_state(game, result.resolved.label, args.lang))
    if check.rules_differ is not None:
        sys.stderr.write(f"regelmotor: {check.rules_differ.text(args.lang)}\n")
    for refusal in check.refusals:  # in the reader's language
        sys.stderr.write(f"{refusal.text(args.lang)}\n")
    return EXIT_INVALID if check.refusals else EXIT_OK


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
        shown = game.rules.scoring.shown_points(game.scores)  # the same numbers as --json and the score sheet
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


def _analyse_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("record", metavar="RECORD", nargs="?", help="a game record (JSON, docs/notation.md)")
    command.add_argument(
        "--table", metavar="RULESET", help="instead of a record: the double-dummy table of a hand record (--deal)"
    )
    command.add_argument(
        "--deal",
        metavar="FILE",
        action="append",
        help='a hand record: "1: AS KS ..." per seat, a PBN deal, or an evening\'s PBN file of boards; repeatable',
    )
    house_rule_arg(command, "the --table ruleset")
    command.add_argument("--lang", choices=LANGS, default="da", help="the language: da (default) or en")
    command.add_argument(
        "--nodes",
        type=whole_number(1_000, 10**10),
        default=NODES,
        metavar="N",
        help=helped(
            "a search's node budget, shared by a position's cards and by a trump's cells; "
            "a card it does not settle is shown unknown (default {nodes})",
            nodes=NODES,
        ),
    )
    command.add_argument(
        "--jobs",
        type=whole_number(1, len(TRUMPS)),
        default=None,
        metavar="J",
        help=helped(
            "--table: the trumps searched side by side on J threads, a 100 MB table each (default: one a core, "
            "at most {most}; the table is the same for any J)",
            most=len(TRUMPS),
        ),
    )
    command.add_argument(
        "--from-trick",
        type=whole_number(1, 13),
        default=1,
        metavar="N",
        help="analyse from trick N (the end of a deal is quick; the first tricks cost the most)",
    )


def _table_jobs(args: argparse.Namespace) -> int:
    """``--jobs``, or one thread for each core this process may use (at most one a trump)."""
    if args.jobs is not None:
        return int(args.jobs)
    return min(cores(), len(TRUMPS))


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    if args.table is not None:
        if args.record is not None or args.deal is None:
            raise AnalysisError("analyse --table RULESET --deal FILE takes a hand record, not a game record")
        return _analyse_table(args, out)
    if args.record is None or args.deal is not None or args.house_rule:
        raise AnalysisError("analyse takes a game record (RECORD), or --table RULESET --deal FILE")
    path = Path(args.record)
    result = replay(read_record(path), base=path.parent, where=path)
    check = check_replay(result, args.record)  # what replay checks, said in the reader's language
    for warning in check.warnings:
        sys.stderr.write(f"regelmotor: {warning.text(args.lang)}\n")
    if check.rules_differ is not None:  # the rules are not the record's: said so, not blamed on a card
        sys.stderr.write(f"regelmotor: {check.rules_differ.text(args.lang)}\n")
        return EXIT_INVALID
    if check.refusals:
        for refusal in check.refusals:
            sys.stderr.write(f"{refusal.text(args.lang)}\n")
        return EXIT_INVALID
    prepare(["search"], args.lang)  # the first run after installing compiles the search: said on a terminal
    progress = Progress(len(played_cards(result.game)), "cards", args.lang)
    analysis = analyse_game(result.game, result.resolved.label, args.nodes, args.from_trick, progress=progress)
    if args.json:
        print_json(analysis_json(analysis), out)
    else:
        out.write(analysis_text(analysis, args.lang))
    return EXIT_OK


def _analyse_table(args: argparse.Namespace, out: TextIO) -> int:
    """The tables of the hand records (``--deal``): every file read and every board checked before any is
    searched, the most the search may take said before it starts, one progress line for all the cells."""
    resolved = load_ruleset(args.table, args.house_rule)
    rules = compile_rules(resolved)
    files = [read_hand_file(Path(file)) for file in args.deal]
    for file in files:
        if file.notice is not None:  # a BOM skipped
            sys.stderr.write(f"regelmotor: {file.notice.text(args.lang)}\n")
    boards = [board for file in files for board in file.boards]
    check_boards(boards, rules)
    jobs = _table_jobs(args)
    if len(boards) > 1:
        sys.stderr.write(_bound(len(boards), args.nodes, jobs, args.lang) + "\n")
    several = len(files) > 1  # a board is named by its file where there are several
    prepare(["search"], args.lang)  # the first run after installing compiles the search: said on a terminal
    solvers = table_solvers(rules, jobs)  # the evening's tables, cleared for each trump
    progress = Progress(len(boards) * CELLS, "cells", args.lang)
    tables = []
    for number, board in enumerate(boards):
        if board.name is None:
            shown = board.path.name if len(boards) > 1 else None
        else:
            shown = f"{board.path.name}, {board.name}" if several else board.name
        done = _from(progress, number * CELLS)
        tables.append(hand_table(rules, resolved.label, board.hands, args.nodes, done, shown, solvers))
    if args.json:  # one hand record: its table; an evening's PBN file or several boards: a list, always
        listed = len(tables) > 1 or any(file.evening for file in files)
        print_json([hand_table_json(t) for t in tables] if listed else hand_table_json(tables[0]), out)
    else:
        out.write("\n".join(hand_table_text(table, args.lang) for table in tables))
    return EXIT_OK


def _from(progress: Progress, first: int) -> Callable[[int], None]:
    """A board's progress in the progress of all the boards: its cells counted after those before it."""

    def done(cells: int) -> None:
        progress(first + cells)

    return done


def _bound(boards: int, nodes: int, jobs: int, lang: str) -> str:
    """The most the boards' tables may take, said before the search starts."""
    seconds = table_seconds(boards, nodes, jobs)
    time = duration(seconds, lang) if seconds < 7200 else say("analysis_hours", {"hours": round(seconds / 3600)}, lang)
    shown = f"{nodes:,}".replace(",", "." if lang == "da" else ",")
    return say("analysis_bound", {"boards": boards, "cells": CELLS, "nodes": shown, "time": time, "jobs": jobs}, lang)


COMMANDS = (
    Command("replay", "replay a game record and print the state reached", _replay_args, cmd_replay),
    Command("analyse", "what each card of a played deal cost, with every hand open", _analyse_args, cmd_analyse),
)
