"""The evening's score sheet for a table that plays with real cards.

A sheet is a small JSON file: the ruleset, the players in their seats round the table, who dealt
first, and one line per deal as the table says it ("Anna 8 gode with Carl, 9 tricks"; "all pass";
"misdeal, Bo's fault"). Every line is scored by the ruleset's own rules (the same settlement the
engine uses) and the deal passes round as the ruleset says, who sits out included; the totals and
the evening's money follow from the lines, so a line entered wrongly is corrected by editing it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from regelmotor.bids import Bid
from regelmotor.engine.game import Redeal
from regelmotor.engine.record import RecordError, parse_json, zero_sum_points
from regelmotor.errors import NotationError, RegelmotorError
from regelmotor.hooks import ContractInfo, Money, next_dealer
from regelmotor.rulebook.model import Item, RuleBook, Section, Table
from regelmotor.rulebook.render import render
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import load_ruleset
from regelmotor.ruleset.yaml_source import TooLarge, read_bounded
from regelmotor.session import GAME_DEALER, DealEntry, Session

MAX_SHEET_BYTES = 1_000_000
REDEALS = ("all_pass", "misdeal", "jernhaand", "omblanding")


class SheetError(RegelmotorError, ValueError):
    """A score sheet, or a line for it, that cannot be scored; the sheet is left as it was."""


@dataclass
class Line:
    """One deal as the table reports it."""

    contract: str | None = None
    declarer: str | None = None
    partner: str | None = None
    joiners: tuple[str, ...] = ()
    tricks: tuple[int, ...] = ()
    doubled: int = 0
    vip_card: int = 0
    redeal: str | None = None
    culprit: str | None = None

    def as_json(self) -> dict[str, Any]:
        data = {
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner,
            "joiners": list(self.joiners),
            "tricks": list(self.tricks),
            "doubled": self.doubled,
            "vip_card": self.vip_card,
            "redeal": self.redeal,
            "culprit": self.culprit,
        }
        return {k: v for k, v in data.items() if v not in (None, [], 0)}

    @classmethod
    def of(cls, data: Any) -> Line:
        if not isinstance(data, dict):
            raise SheetError("a deal is a JSON object")
        try:
            return cls(
                contract=_opt_str(data.get("contract")),
                declarer=_opt_str(data.get("declarer")),
                partner=_opt_str(data.get("partner")),
                joiners=tuple(str(j) for j in data.get("joiners", [])),
                tricks=tuple(int(t) for t in data.get("tricks", [])),
                doubled=int(data.get("doubled", 0)),
                vip_card=int(data.get("vip_card", 0)),
                redeal=_opt_str(data.get("redeal")),
                culprit=_opt_str(data.get("culprit")),
            )
        except (TypeError, ValueError) as exc:
            raise SheetError(f"a deal's fields: {exc}") from None


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


@dataclass
class Sheet:
    ruleset: str
    players: tuple[str, ...]
    house_rules: tuple[str, ...] = ()
    first_dealer: int = 0
    rate: str = "1"
    lines: list[Line] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": "regelmotor score sheet",
            "ruleset": self.ruleset,
            "house_rules": list(self.house_rules),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "rate": self.rate,
            "deals": [line.as_json() for line in self.lines],
        }

    @classmethod
    def of(cls, data: Any) -> Sheet:
        if not isinstance(data, dict) or data.get("kind") != "regelmotor score sheet":
            raise SheetError('not a score sheet (start one with "regelmotor session new")')
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SheetError("players: a list of names")
        return cls(
            ruleset=str(data.get("ruleset", "")),
            players=tuple(players),
            house_rules=tuple(str(h) for h in data.get("house_rules", [])),
            first_dealer=int(data.get("first_dealer", 0)),
            rate=str(data.get("rate", "1")),
            lines=[Line.of(line) for line in data.get("deals", [])],
        )


@dataclass
class Scored:
    """A sheet scored: the session it builds, and each line's entry."""

    rules: Rules
    session: Session
    entries: list[DealEntry]

    def settlement(self, rate: Fraction) -> Money:
        return self.session.settlement(rate)


def rate_of(text: str) -> Fraction:
    try:
        rate = Fraction(text.replace(",", ".").strip())
    except (ValueError, ZeroDivisionError):
        raise SheetError(f'the rate "{text}" is not a number (kroner per point, e.g. 0.25)') from None
    if rate < 0 or rate.denominator > 10**6 or abs(rate) > 10**6:
        raise SheetError(f'the rate "{text}" is out of range')
    return rate


def score(sheet: Sheet) -> Scored:
    """Every line of the sheet scored in order; ``SheetError`` naming the line that cannot be."""
    rules = compile_rules(load_ruleset(sheet.ruleset, list(sheet.house_rules)))
    if len(set(sheet.players)) != len(sheet.players):
        raise SheetError("players: a name is given twice")
    try:
        session = Session(rules, sheet.players, first_dealer=sheet.first_dealer)
    except RegelmotorError as exc:
        raise SheetError(str(exc)) from None
    entries = []
    for number, line in enumerate(sheet.lines, 1):
        try:
            entries.append(_enter(rules, session, line))
        except (RegelmotorError, NotationError) as exc:
            raise SheetError(f"deal {number}: {exc}") from None
    return Scored(rules, session, entries)


def _seat(session: Session, name: str | None, what: str) -> int:
    seating = session.seating()
    if name is None:
        raise SheetError(f"name the {what}")
    if name not in session.players:
        raise SheetError(f'no player is called "{name}": {", ".join(session.players)}')
    player = session.players.index(name)
    if player not in seating:
        raise SheetError(f"{name} sits out this deal")
    return seating.index(player)


def _enter(rules: Rules, session: Session, line: Line) -> DealEntry:
    if line.redeal is not None:
        if line.redeal not in REDEALS:
            raise SheetError(f'redeal is one of {", ".join(REDEALS)}, not "{line.redeal}"')
        redealing = rules.redealing
        by = redealing.all_pass if line.redeal == "all_pass" else redealing.misdeal
        if by is None:
            raise SheetError(f"all pass is no redeal in this game: {redealing.all_pass_contract} is played")
        for claim in rules.redeal_claims:
            if claim.rule == line.redeal:
                by = claim.redeal_by
        culprit = None if line.culprit is None else _seat(session, line.culprit, "player at fault")
        redeal = Redeal(line.redeal, next_dealer(by, GAME_DEALER), culprit)
        return session.enter(None, redeal, dealer_at_table=session.dealer not in session.sitting_out())
    if line.contract is None:
        raise SheetError("give the contract, or the redeal")
    bid = rules.contract_bid(line.contract)
    named = None if bid.sol is None else rules.ruleset.sol_bid(bid.sol)
    if named is not None and named.side in ("pairs", "each"):
        return session.enter(_each(rules, session, line, bid))
    declarer = _seat(session, line.declarer, "declarer")
    seats = [declarer, *(_seat(session, j, "joiner") for j in line.joiners)]
    partner = None if line.partner is None or bid.is_sol else _seat(session, line.partner, "partner")
    if named is not None and named.side == "partner":
        if line.partner is not None:
            raise SheetError(f"{bid} is played with the fixed partner across the table: leave out --partner")
        partner = rules.declaration(ContractInfo(bid, (declarer,))).partner  # the fixed partner, by the rules
    if partner is not None and partner in seats:
        raise SheetError("the partner is the declarer: leave out --partner for a selvmakker")
    if len(line.tricks) != (len(seats) if bid.is_sol else 1):
        raise SheetError("give the tricks of the declarer's side (in sol: each declarer's, in order)")
    if any(not 0 <= t <= 13 for t in line.tricks):
        raise SheetError("tricks are 0 to 13")
    if not 0 <= line.doubled <= rules.doubling.most:
        raise SheetError(f"doubled is at most {rules.doubling.most} in this ruleset")
    won = [0] * 4
    for seat, taken in zip(seats, line.tricks, strict=False):
        won[seat] = taken
    contract = ContractInfo(bid, tuple(seats), partner)
    scores = rules.settle(contract, won, line.vip_card, line.doubled)
    return session.enter(scores)


def _each(rules: Rules, session: Session, line: Line, bid: Bid) -> list[Fraction]:
    """A game without a declarer (engelsk whist, pasnolo): every player's tricks, in the sheet's order of
    players (those who sit out left out)."""
    seating = session.seating()
    playing = [name for player, name in enumerate(session.players) if player in seating]
    if line.declarer is not None or line.partner is not None or line.joiners:
        raise SheetError(f"{bid} has no declarer: give only every player's tricks")
    if len(line.tricks) != len(seating) or sum(line.tricks) != 13:
        raise SheetError(f"{bid}: give the tricks of {', '.join(playing)}, in that order, 13 in all")
    won = [0] * 4
    for name, taken in zip(playing, line.tricks, strict=True):
        won[_seat(session, name, "player")] = taken
    return rules.settle(ContractInfo(bid, ()), won, 0, line.doubled)


def describe_line(line: Line, fixed_partners: bool = False) -> str:
    """One deal of the sheet in a few Danish words: who played what, and the tricks."""
    if line.redeal is not None:
        return f"omgivning ({line.redeal})" + (f", {line.culprit}s fejl" if line.culprit else "")
    with_whom = (
        f" m. {line.partner}" if line.partner else (f" + {', '.join(line.joiners)}" if line.joiners else " selv")
    )
    if fixed_partners and not line.partner and not line.joiners:
        with_whom = ""  # the partner across the table, or alone: the contract says which
    tricks = "/".join(str(t) for t in line.tricks)
    if line.declarer is None:  # a game without a declarer (engelsk whist, pasnolo): every player's tricks
        return f"{line.contract}: {tricks} stik"
    return f"{line.declarer} {line.contract}{with_whom}: {tricks} stik"


SHEET_FORMATS = ("md", "html", "pdf", "csv")


def sheet_document(sheet: Sheet, scored: Scored, rate: Fraction, fmt: str) -> str | bytes:
    """The evening's sheet to print (md, html, pdf: the rule book's renderers, so it looks like the club's
    rule book) or to export (csv: one row per deal, then the totals and the money)."""
    rules, session = scored.rules, scored.session
    decimals = rules.ruleset.scoring.decimals
    fixed = rules.ruleset.table.partnerships == "fixed"
    players = sheet.players
    rows = [
        (
            str(entry.number),
            players[entry.dealer],
            describe_line(line, fixed),
            *(str(p) for p in zero_sum_points(list(entry.points), decimals)),
        )
        for line, entry in zip(sheet.lines, scored.entries, strict=True)
    ]
    totals = ("", "", "I alt", *(str(p) for p in zero_sum_points(session.totals, decimals)))
    settled = scored.settlement(rate)
    money = [f"{n}: {float(m):+.2f} kr." for n, m in zip(players, settled.money, strict=True)]
    payments = [
        f"{players[t.payer]} betaler {'klubbens kasse' if t.payee < 0 else players[t.payee]} {float(t.amount):.2f} kr."
        for t in settled.transfers
    ]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(("spil", "giver", "spillet", *players))
        writer.writerows(rows)
        writer.writerow(totals)
        pay = (f"{float(m):.2f}" for m in settled.money)
        writer.writerow(("", "", f"penge ved {float(rate):g} kr. pr. point", *pay))
        return buffer.getvalue()
    if fmt not in SHEET_FORMATS:
        raise SheetError(f"a sheet is printed as {', '.join(SHEET_FORMATS)}, not {fmt}")
    table = Table("Spillene", ("Spil", "Giver", "Spillet", *players), (*rows, totals))
    section = Section("Regnskab", [], [table])
    target = rules.ruleset.session.game_to
    if target is not None:
        won = ", ".join(f"{n} {w}" for n, w in zip(players, session.games_won, strict=True))
        section.items.append(Item(f"Vundne partier (til {target} point): {won}"))
    settlement = Section(f"Afregning ved {float(rate):g} kr. pr. point", [Item(m) for m in [*money, *payments]])
    book = RuleBook(
        title=f"Regnskab: {rules.ruleset.title}",
        subtitle=f"{', '.join(players)}; {len(sheet.lines)} spil. Ført med regelmotor.",
        lang="da",
        sections=(section, settlement),
        inferred_legend="",
        inferred_rules=(),
        sources=(),
    )
    return render(book, fmt)


def read_sheet(path: Path) -> Sheet:
    try:
        data = read_bounded(path, MAX_SHEET_BYTES)
    except OSError as exc:
        raise SheetError(f"{path}: cannot read the sheet: {exc.strerror}") from None
    except TooLarge as exc:
        raise SheetError(f"{path}: {exc}: not a score sheet") from None
    try:
        return Sheet.of(parse_json(data, str(path)))
    except RecordError as exc:
        raise SheetError(str(exc)) from None


def write_sheet(path: Path, sheet: Sheet) -> None:
    """Write the sheet whole or not at all (a new file moved into place)."""
    text = json.dumps(sheet.as_json(), ensure_ascii=False, indent=1) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as handle:
        handle.write(text)
    os.replace(handle.name, path)


def names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def tricks_of(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(t) for t in text.split(","))
    except ValueError:
        raise SheetError(f'--tricks is a number, or numbers separated by commas, not "{text}"') from None


__all__ = [
    "SHEET_FORMATS",
    "Line",
    "Sheet",
    "SheetError",
    "describe_line",
    "names",
    "rate_of",
    "read_sheet",
    "score",
    "sheet_document",
    "tricks_of",
    "write_sheet",
]
