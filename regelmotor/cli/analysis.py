"""The commands that read a played deal: ``replay`` (the state a record reaches) and ``analyse`` (what
each card cost, with every hand open, or a hand record's table)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from regelmotor.cards import SUIT_LETTERS, SUIT_SYMBOLS
from regelmotor.cli.base import EXIT_INVALID, EXIT_OK, Command, cores, house_rule_arg, print_json, whole_number
from regelmotor.cli.words import helped
from regelmotor.double_dummy.analysis import NODES, AnalysisError, analyse_game, played_cards
from regelmotor.double_dummy.report import analysis_json, analysis_text, hand_table_json, hand_table_text
from regelmotor.double_dummy.table import CELLS, TRUMPS, check_hands, hand_table, read_boards, table_solvers
from regelmotor.engine.game import Game
from regelmotor.phrase_table import seat_no
from regelmotor.phrases import card_shown, phrases, said, say
from regelmotor.progress import Progress
from regelmotor.records import read_record, replay, state_json
from regelmotor.rounding import number_text
from regelmotor.rulebook import LANGS
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset


def _replay_args(command: argparse.ArgumentParser) -> None:
    command.add_argument("record", metavar="RECORD", help="a game record (JSON, notation.md)")
    command.add_argument(
        "--lang", choices=LANGS, default="da", help="the language of a refusal's reason: da (default) or en"
    )


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
        print_json(state, out)
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
        resolved = load_ruleset(args.table, args.house_rule)
        rules = compile_rules(resolved)
        boards = [(file, name, hands) for file in args.deal for name, hands in read_boards(Path(file))]
        for file, _, hands in boards:  # every board checked before any is searched
            check_hands(hands, rules, file)
        tables = []
        several = len(args.deal) > 1  # a board is named by its file where there are several
        solvers = table_solvers(rules, _table_jobs(args))  # the evening's tables, cleared for each trump
        for file, name, hands in boards:
            progress = Progress(CELLS, "cells", args.lang)
            if name is None:
                shown = Path(file).name if len(boards) > 1 else None
            else:
                shown = f"{Path(file).name}, {name}" if several else name
            tables.append(hand_table(rules, resolved.label, hands, args.nodes, progress, shown, solvers))
        if args.json:  # one board: its table; an evening's: a list, each with its board
            print_json(hand_table_json(tables[0]) if len(tables) == 1 else [hand_table_json(t) for t in tables], out)
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
        print_json(analysis_json(analysis), out)
    else:
        out.write(analysis_text(analysis, args.lang))
    return EXIT_OK


COMMANDS = (
    Command("replay", "replay a game record and print the state reached", _replay_args, cmd_replay),
    Command("analyse", "what each card of a played deal cost, with every hand open", _analyse_args, cmd_analyse),
)
