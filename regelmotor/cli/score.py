"""``score``: the points of one finished game per role, as the point table and the formulas give them."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from regelmotor.bids import Bid
from regelmotor.cli.base import (
    EXIT_INVALID,
    EXIT_OK,
    LANG_DEFAULT,
    Command,
    lang_arg,
    load_rules,
    print_json,
    ruleset_args,
    say_to,
)
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import ContractInfo
from regelmotor.numbers import NumberError, whole
from regelmotor.rounding import number_text
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.compile import Rules
from regelmotor.score_sheet import (
    tricks_of,
)


def _score_args(command: argparse.ArgumentParser) -> None:
    ruleset_args(command)
    lang_arg(command)
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


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    resolved, rules = load_rules(args)
    bid = rules.contract_bid(args.contract)
    side = rules.auction.side(bid)
    if side is Side.EACH:
        return _score_each(args, rules, bid, out)
    try:
        args.tricks = whole(args.tricks)
    except NumberError:
        raise RegelmotorError.said("tricks_text", text=args.tricks) from None
    problem = None
    if side is Side.PAIRS and not 7 <= args.tricks <= 13:
        problem = say_to(args, "err_score_pair_tricks", bid=bid, tricks=args.tricks)
    elif not 0 <= args.tricks <= 13:
        problem = say_to(args, "err_score_tricks", tricks=args.tricks)
    elif args.doubled and not rules.declaration.doubling.most:
        problem = say_to(args, "err_score_no_doubling", ruleset=resolved.label)
    elif args.doubled > rules.declaration.doubling.most:
        problem = say_to(args, "err_score_doubled", most=rules.declaration.doubling.most, ruleset=resolved.label)
    elif bid.is_sol and args.selvmakker:
        problem = say_to(args, "err_score_selvmakker")
    elif args.vip_card is not None:
        turns = 0 if bid.designation is None else rules.declaration.vip_turns(bid.designation)
        if not 1 <= args.vip_card <= turns:
            problem = (
                say_to(args, "err_score_vip_card", turns=turns) if turns else say_to(args, "err_score_not_vip", bid=bid)
            )
    if problem:
        sys.stderr.write(f"regelmotor: {problem}\n")
        return EXIT_INVALID
    scores = rules.scoring.role_points(
        bid, args.tricks, alone=args.selvmakker, vip_card=args.vip_card or 0, doublings=args.doubled
    )
    shown = rules.scoring.shown_roles(scores)
    each = list(shown.each_opponent)
    if args.json:
        print_json(
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
        out.write(f"{say_to(args, key):<12}{number_text(value, lang, signed=True)}{note}\n")

    if side is Side.PAIRS:  # engelsk whist: no declarer, the pair with more tricks wins
        out.write(say_to(args, "cli_score_pairs", ruleset=resolved.label, bid=bid, tricks=args.tricks) + "\n")
        each_of_two = f"  ({say_to(args, 'cli_each_of', n=2)})"
        line("cli_winner", shown.declarer, each_of_two)
        line("cli_loser", shown.opponent, each_of_two)
        line("cli_sum", shown.total)
        return EXIT_OK
    playing = say_to(args, "cli_score_alone" if scores.partner is None else "cli_score_partner")
    out.write(say_to(args, "cli_score_head", ruleset=resolved.label, bid=bid, tricks=args.tricks, side=playing) + "\n")
    line("cli_declarer", shown.declarer)
    if shown.partner is not None:
        line("cli_partner", shown.partner)
    on_sheet = ", ".join(number_text(x, lang, signed=True) for x in each)
    split = "" if len(set(each)) == 1 else say_to(args, "cli_on_sheet", values=on_sheet)
    line("cli_opponent", shown.opponent, f"  ({say_to(args, 'cli_each_of', n=scores.opponents)}{split})")
    line("cli_sum", shown.total)
    if shown.declarer_evened:
        out.write(say_to(args, "cli_declarer_pays") + "\n")
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
    shown = rules.scoring.shown_points(rules.scoring.points(ContractInfo(bid, ()), tricks))
    if args.json:
        print_json({"tricks": list(tricks), "points": shown, "sum": sum(shown)}, out)
        return EXIT_OK
    lang = getattr(args, "lang", LANG_DEFAULT)
    out.write(say_to(args, "cli_each_head", bid=bid, tricks=", ".join(map(str, tricks))) + "\n")
    for seat, (taken, got) in enumerate(zip(tricks, shown, strict=True)):
        out.write(
            say_to(
                args, "cli_each_line", seat=seat + 1, taken=f"{taken:>2}", points=number_text(got, lang, signed=True)
            )
            + "\n"
        )
    return EXIT_OK


COMMANDS = (Command("score", "the points of one finished game per role", _score_args, cmd_score),)
