"""The commands that seat a player at a table: ``play`` in the terminal and ``serve`` in the browser."""

from __future__ import annotations

import argparse
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

import platformdirs

from regelmotor.bots import BOTS, check_bot
from regelmotor.bots.style import base_name
from regelmotor.cli.base import EXIT_OK, Command, house_rule_arg, load_rules, ruleset_args, say_to, whole_number
from regelmotor.cli.runs import style_arg, styled
from regelmotor.cli.words import helped
from regelmotor.errors import RegelmotorError
from regelmotor.files import check_output
from regelmotor.play import TerminalGame
from regelmotor.prepare import parts_of_bots, prepare
from regelmotor.ruleset.catalogue import is_path
from regelmotor.ruleset.load import load_ruleset
from regelmotor.score_sheet import (
    read_sheet,
    score,
)


def _play_args(command: argparse.ArgumentParser) -> None:
    ruleset_args(command)
    command.add_argument(
        "--seed", type=whole_number(0, 2**63 - 1), default=None, metavar="N", help="the same seed deals the same cards"
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
    style_arg(command)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = load_rules(args)
    if rules.evening.table_sizes and 4 not in rules.evening.table_sizes:
        raise RegelmotorError.said("not_four", ruleset=resolved.label)
    check_bot(base_name(args.bots), rules)
    args.bots = styled(args.bots, args.style, resolved)  # the expert in the club's style (--style, expert:FILE)
    record = Path(args.record) if args.record is not None else default_record()
    if args.record is None:
        record.parent.mkdir(parents=True, exist_ok=True)
    first = record.with_name(f"{record.stem}-1{record.suffix or '.json'}")
    check_output(first, force=args.force, records=True)  # said before the first deal, not after it
    prepare(parts_of_bots([args.bots]), getattr(args, "lang", "da"))  # the expert's first game compiles it

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
    """regelmotor's folder of the user's data, where the platform keeps an application's (``platformdirs``):
    ``$XDG_DATA_HOME/regelmotor`` on Linux (by default ``~/.local/share/regelmotor``),
    ``~/Library/Application Support/regelmotor`` on macOS, ``%APPDATA%\\regelmotor`` on Windows."""
    return Path(platformdirs.user_data_dir("regelmotor", appauthor=False, roaming=True))


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


def _serve_args(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "ruleset", nargs="?", metavar="RULESET", help="the club's ruleset to offer first (a shipped name or a file)"
    )
    house_rule_arg(command, "the club's ruleset")
    command.add_argument(
        "--port", type=whole_number(1, 65535), default=8000, metavar="P", help="the port, 1-65535 (default 8000)"
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
    command.add_argument(
        "--questions",
        type=whole_number(1, 8),
        default=1,
        metavar="N",
        help="the club's questions (compare, tune) answered at once on the club's page, 1-8 (default 1)",
    )


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from regelmotor.web.app import create_app
    from regelmotor.web.guard import LOCAL_HOSTS
    from regelmotor.web.server import admin_link, admin_secret, bind, serve

    everywhere = args.host in ("0.0.0.0", "::")
    if everywhere:  # any Host header is answered: put the server behind a proxy that checks it
        sys.stderr.write("regelmotor: " + say_to(args, "cli_serve_everywhere") + "\n")
    allowed = None if everywhere else LOCAL_HOSTS | {args.host.lower()}
    club = None
    if args.ruleset is not None:
        load_ruleset(args.ruleset, args.house_rule)  # a club file with problems is refused before serving
        club = (args.ruleset, list(args.house_rule))
    sheet = None
    if args.sheet is not None:
        sheet = Path(args.sheet).resolve()
        score(read_sheet(sheet))  # a sheet that cannot be read or scored is refused before serving
    listening = bind(args.host, args.port)  # a port in use is said before the address is
    shown = f"[{args.host}]" if ":" in args.host else args.host
    sys.stderr.write(f"regelmotor: http://{shown}:{args.port}/ " + say_to(args, "cli_serve_stop") + "\n")
    store = Path(args.store) if args.store else _data_folder() / "borde"
    admin = None
    if args.ruleset is not None and is_path(args.ruleset):  # the club's page saves the club's file: its link
        admin = admin_secret()
        link = admin_link(shown, args.port, admin)
        sys.stderr.write("regelmotor: " + say_to(args, "cli_serve_admin", link=link) + "\n")
    app = create_app(allowed, club=club, sheet=sheet, store=store, club_admin=admin, questions=args.questions)
    serve(app, listening)
    return EXIT_OK


COMMANDS = (
    Command("play", "play in the terminal against three computer players", _play_args, cmd_play, json=False),
    Command(
        "serve",
        "play in the browser: against computer players, or with others at one table online",
        _serve_args,
        cmd_serve,
        json=False,
    ),
)
