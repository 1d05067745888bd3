"""``session``: the evening's score sheet of a table playing with real cards (new, add, undo, show,
rescore)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from regelmotor.cli.base import EXIT_OK, LANG_DEFAULT, Command, lang_arg, print_json, ruleset_args, say_to
from regelmotor.cli.words import now
from regelmotor.errors import RegelmotorError
from regelmotor.files import check_output, write_atomic
from regelmotor.names import check_names, find_player
from regelmotor.phrases import phrases
from regelmotor.rounding import number_text
from regelmotor.ruleset.catalogue import is_path
from regelmotor.ruleset.compile import compile_rules
from regelmotor.safe_text import escape_controls
from regelmotor.score_sheet import (
    CSV_DIALECTS,
    REDEALS,
    SHEET_FORMATS,
    Line,
    Sheet,
    SheetError,
    describe_line,
    edit_sheet,
    names,
    next_deal,
    rate_of,
    read_sheet,
    score,
    sheet_document,
    sheet_json,
    sheet_on_screen,
    sheet_rate,
    tricks_of,
    write_sheet,
)


def _session_args(command: argparse.ArgumentParser) -> None:
    sub = command.add_subparsers(dest="session_command", metavar="ACTION", required=True)
    new = sub.add_parser("new", help="start a score sheet for the evening")
    new.add_argument("file", metavar="FILE", help="the score sheet to create (JSON)")
    ruleset_args(new)
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
    add.add_argument(
        "--redeal",
        type=_redeal,
        metavar="WHY",
        help="the deal was void: pas (all passed), fejlgivning (a misdeal), jernhånd, omblanding",
    )
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
    show.add_argument(
        "--csv-dialect",
        choices=CSV_DIALECTS,
        default=CSV_DIALECTS[0],
        help="csv for a Danish spreadsheet (semikolon: ; and 0,25) or an English one (komma: , and 0.25)",
    )
    rescore = sub.add_parser("rescore", help="what the sheet's deals would score by the club file as it is today")
    rescore.add_argument("file", metavar="FILE", help="the score sheet")
    rescore.add_argument("--apply", action="store_true", help="score the sheet by today's rules from now on")
    for action in (new, add, undo, show, rescore):
        lang_arg(action)


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
    try:
        scored = score(sheet)
    except SheetError as exc:  # the frozen rules edited by hand, a deal that cannot be scored: in which file
        raise SheetError.said("at_path", path=path, error=exc) from None
    rate = rate_of(args.rate) if args.rate else sheet_rate(sheet, path)
    if args.output:  # -o in every format: the text and the JSON as they print, the others as documents
        check_output(Path(args.output), force=args.force, inputs=(path,), replace=True)
    data: str | bytes
    if args.format != "text":
        data = sheet_document(sheet, scored, rate, args.format, args.lang, args.csv_dialect)
    elif args.json:
        data = json.dumps(sheet_json(sheet, scored, rate, args.lang), ensure_ascii=False, indent=1) + "\n"
    else:
        data = sheet_on_screen(sheet, scored, rate, args.lang)
    if args.output:
        write_atomic(Path(args.output), escape_controls(data) if isinstance(data, str) else data)
        (sys.stderr if args.json else out).write(say_to(args, "cli_wrote", file=args.output) + "\n")
    elif isinstance(data, bytes):
        raise RegelmotorError.said("pdf_needs_file")
    elif args.json:
        print_json(sheet_json(sheet, scored, rate, args.lang), out)
    else:
        out.write(data)
    return EXIT_OK


REDEAL_WORDS = {"pas": "all_pass", "fejlgivning": "misdeal", "jernhånd": "jernhaand"}
"""Why a deal was void, in the game's words as a member types them; the sheet keeps the ids (``REDEALS``),
which are taken too."""


def _redeal(text: str) -> str:
    """``--redeal``'s value: a word of the game (``pas``, ``fejlgivning``, ``jernhånd``, ``omblanding``) or
    the id the sheet keeps."""
    word = text.strip().lower()
    found = REDEAL_WORDS.get(word, word)
    if found not in REDEALS:
        shown = ", ".join([*REDEAL_WORDS, "omblanding"])
        raise argparse.ArgumentTypeError(now("one of {choices}, not {text!r}", choices=shown, text=text))
    return found


def _new_sheet(args: argparse.Namespace, path: Path, out: TextIO) -> int:
    if path.exists() or path.is_symlink():
        raise RegelmotorError.said("sheet_exists", path=path)
    check_output(path)
    players = check_names(names(args.players))
    dealer = find_player(players, args.first_dealer) if args.first_dealer is not None else players[0]
    if dealer is None:
        raise RegelmotorError.said("first_dealer", name=args.first_dealer)
    first = players.index(dealer)
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
    scored = score(sheet)  # the ruleset and the table are checked before the file is written
    write_sheet(path, sheet)
    said = say_to(
        args, "cli_sheet_new", path=path, players=", ".join(players), ruleset=sheet.ruleset, dealer=players[first]
    )
    out.write(said + "\n")
    if scored.session.sitting_out():  # at five or six, who sits out the first deal too
        out.write(next_deal(scored.session, players, args.lang) + "\n")
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
    shown = scored.rules.scoring.shown_points(list(entry.points))
    lang = getattr(args, "lang", LANG_DEFAULT)
    booked = ", ".join(f"{n} {number_text(p, lang)}" for n, p in zip(sheet.players, shown, strict=True))
    coming = "" if scored.session.evening_over() else next_deal(scored.session, sheet.players, lang) + "\n"
    return say_to(args, "cli_deal_scored", number=entry.number, points=booked) + "\n" + coming


def _undo_deal(args: argparse.Namespace, path: Path, sheet: Sheet) -> str:
    if not sheet.lines:
        raise RegelmotorError.said("no_undo", path=path)
    removed = sheet.lines.pop()
    fixed = score(sheet).rules.auction.fixed_partners
    deal = describe_line(removed, fixed, args.lang)
    return say_to(args, "cli_taken_back", number=len(sheet.lines) + 1, deal=deal) + "\n"


def _rescore(sheet: Sheet, apply: bool, lang: str = LANG_DEFAULT) -> str:
    """The sheet scored by today's club file beside its frozen rules: what would change, deal by deal."""
    words = phrases(lang)
    now = sheet.current()
    before = score(sheet)
    after = score(sheet, compile_rules(now))
    shown = before.rules.scoring.shown_points  # the sheet's points as they were printed, before and after

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


COMMANDS = (
    Command(
        "session",
        "the evening's score sheet for a table playing with real cards",
        _session_args,
        cmd_session,
        json=False,
    ),
)
