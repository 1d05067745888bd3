"""The evening's score sheet for a table that plays with real cards.

A sheet is a small JSON file: the ruleset, the players in their seats round the table, who dealt
first, and one line per deal as the table says it ("Anna 8 gode with Carl, 9 tricks"; "all pass";
"misdeal, Bo's fault"). Every line is scored by the ruleset's own rules (the same settlement the
engine uses) and the deal passes round as the ruleset says, who sits out included; the totals and
the evening's money follow from the lines, so a line entered wrongly is corrected by editing it.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from regelmotor.bids import Bid
from regelmotor.engine.game import Redeal
from regelmotor.errors import NotationError, RegelmotorError
from regelmotor.files import InputError, locked, read_input, write_atomic
from regelmotor.hooks import ContractInfo, Money, next_dealer
from regelmotor.model.ruleset import Ruleset
from regelmotor.names import PlayerNameError, check_names, find_player, spreadsheet_text
from regelmotor.numbers import NumberError, whole
from regelmotor.numbers import number as read_number
from regelmotor.phrases import phrases
from regelmotor.records import RecordError, parse_json
from regelmotor.rounding import number_text
from regelmotor.rulebook.model import Item, RuleBook, Section, Table
from regelmotor.rulebook.render import render
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.catalogue import FileRef, is_path
from regelmotor.ruleset.checks import check_ruleset
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.fingerprint import ruleset_fingerprint
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset
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

    def named_as(self, players: Sequence[str]) -> Line:
        """The deal with each name spelled as the sheet spells the player ("anna" is Anna), where one player
        alone is called so; a name no player has stays, and scoring says so."""

        def spelled(name: str | None) -> str | None:
            return None if name is None else player_named(players, name) or name

        joiners = tuple(spelled(j) or j for j in self.joiners)
        return dataclasses.replace(
            self,
            declarer=spelled(self.declarer),
            partner=spelled(self.partner),
            joiners=joiners,
            culprit=spelled(self.culprit),
        )

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
    def of(cls, data: Any, where: str = "deal") -> Line:
        """A deal as written in the file, read strictly: a hand-edited ``7.9`` or ``true`` is refused, not
        turned into a number, and a field the sheet does not know is refused, not ignored."""
        if not isinstance(data, dict):
            raise SheetError.said("deal_object", place=where)
        unknown = sorted(set(data) - LINE_FIELDS)
        if unknown:
            raise SheetError.said("deal_field", place=where, key=unknown[0], fields=", ".join(sorted(LINE_FIELDS)))
        joiners = data.get("joiners", [])
        tricks = data.get("tricks", [])
        if not isinstance(joiners, list) or not isinstance(tricks, list) or len(joiners) > 6 or len(tricks) > 6:
            raise SheetError.said("deal_lists", place=where)
        return cls(
            contract=_text(data, "contract", where),
            declarer=_text(data, "declarer", where),
            partner=_text(data, "partner", where),
            joiners=tuple(_text({"joiner": j}, "joiner", where) or "" for j in joiners),
            tricks=tuple(_whole({"tricks": t}, "tricks", where, 0, 13) for t in tricks),
            doubled=_whole(data, "doubled", where, 0, 8),
            vip_card=_whole(data, "vip_card", where, 0, 8),
            redeal=_text(data, "redeal", where),
            culprit=_text(data, "culprit", where),
        )


LINE_FIELDS = frozenset(
    ("contract", "declarer", "partner", "joiners", "tricks", "doubled", "vip_card", "redeal", "culprit")
)
MAX_TEXT = 200
"""A name or a contract is a few words."""


def _text(data: dict[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise SheetError.said("deal_text", place=where, key=key, most=MAX_TEXT, value=json.dumps(value)[:40])
    return value


def _whole(data: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    """A whole number in range: a JSON ``true`` is not 1 and ``7.9`` is not 7."""
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SheetError.said("deal_whole", place=where, key=key, low=low, high=high, value=json.dumps(value)[:40])
    return value


SHEET_VERSION = 2
"""2: the sheet keeps the rules it was started with (``rules``, ``fingerprint``); 1 named them only."""
MAX_DEALS = 2000
"""An evening is a few dozen deals; a sheet of thousands is a mistake (or an attack)."""
SHEET_FIELDS = frozenset(
    ("kind", "version", "ruleset", "house_rules", "players", "first_dealer", "rate", "deals", "rules", "fingerprint")
)


@dataclass
class Sheet:
    ruleset: str
    """The ruleset as the secretary named it: a shipped name, or a path relative to the sheet's folder."""
    players: tuple[str, ...]
    house_rules: tuple[str, ...] = ()
    first_dealer: int = 0
    rate: str = "1"
    lines: list[Line] = field(default_factory=list)
    rules: dict[str, Any] | None = None
    """The resolved rules the evening is scored by, frozen when the sheet was started: last night's deals
    keep their points when the club file changes (``session rescore`` applies a change on purpose)."""
    fingerprint: str | None = None
    folder: Path | None = None
    """The folder the sheet lies in (not stored): a path in the sheet is relative to it."""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "regelmotor score sheet",
            "version": SHEET_VERSION,
            "ruleset": self.ruleset,
            "house_rules": list(self.house_rules),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "rate": self.rate,
            "deals": [line.as_json() for line in self.lines],
        }
        if self.rules is not None:
            data["fingerprint"] = self.fingerprint
            data["rules"] = self.rules
        return data

    @classmethod
    def of(cls, data: Any, folder: Path | None = None) -> Sheet:
        if not isinstance(data, dict) or data.get("kind") != "regelmotor score sheet":
            raise SheetError.said("not_a_sheet")
        version = data.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= SHEET_VERSION:
            raise SheetError.said("sheet_version", version=json.dumps(version)[:20], most=SHEET_VERSION)
        unknown = sorted(set(data) - SHEET_FIELDS)
        if unknown:
            raise SheetError.said("sheet_field", key=unknown[0][:40], fields=", ".join(SHEET_FIELDS))
        players = data.get("players")
        if (
            not isinstance(players, list)
            or not 1 <= len(players) <= 8
            or not all(isinstance(p, str) and 0 < len(p) <= MAX_TEXT for p in players)
        ):
            raise SheetError.said("sheet_players", most=8)
        try:
            check_names(players)
        except PlayerNameError as exc:
            raise SheetError.said("at_path", path="players", error=exc) from None
        ruleset = _text(data, "ruleset", "the sheet")
        if ruleset is None:
            raise SheetError.said("sheet_ruleset")
        house = data.get("house_rules", [])
        if not isinstance(house, list) or len(house) > 32:
            raise SheetError.said("sheet_house_rules")
        deals = data.get("deals", [])
        if not isinstance(deals, list) or len(deals) > MAX_DEALS:
            raise SheetError.said("sheet_deals", most=MAX_DEALS)
        rate = data.get("rate", "1")
        if not isinstance(rate, str):
            raise SheetError.said("sheet_rate_text", value=json.dumps(rate)[:20])
        rules = data.get("rules")
        fingerprint = data.get("fingerprint")
        if (
            (rules is None) != (fingerprint is None)
            or not isinstance(rules, dict | None)
            or not isinstance(fingerprint, str | None)
        ):
            raise SheetError.said("sheet_rules_pair")
        return cls(
            ruleset=ruleset,
            players=tuple(players),
            house_rules=tuple(_text({"house rule": h}, "house rule", "the sheet") or "" for h in house),
            first_dealer=_whole(data, "first_dealer", "the sheet", 0, len(players) - 1),
            rate=rate,
            lines=[Line.of(line, f"deal {number}") for number, line in enumerate(deals, 1)],
            rules=rules,
            fingerprint=fingerprint,
            folder=folder,
        )

    def refs(self) -> tuple[str | FileRef, list[str | FileRef]]:
        """The ruleset and house rules as the loader takes them: a path relative to the sheet's folder."""

        def ref(name: str) -> str | FileRef:
            if self.folder is None or not is_path(name):
                return name
            path = self.folder / name
            return FileRef(path, str(path))

        return ref(self.ruleset), [ref(h) for h in self.house_rules]

    def current(self) -> ResolvedRuleset:
        """The rules as the club's files say them today."""
        ruleset, house = self.refs()
        return load_ruleset(ruleset, house)

    def freeze(self, resolved: ResolvedRuleset) -> None:
        self.rules = resolved.ruleset.model_dump(mode="json")
        self.fingerprint = resolved.fingerprint

    def frozen(self) -> Ruleset | None:
        """The rules the sheet was started with (None for a version 1 sheet, which kept none)."""
        if self.rules is None:
            return None
        try:
            ruleset = Ruleset.model_validate(self.rules)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise SheetError.said("sheet_rules_edited", where=where, detail=first["msg"]) from None
        if ruleset_fingerprint(ruleset) != self.fingerprint:
            raise SheetError.said("sheet_fingerprint")
        problems = check_ruleset(ruleset)
        if problems:
            path, message = problems[0]
            raise SheetError.said("sheet_rules_problem", where=".".join(map(str, path)), detail=message)
        return ruleset

    def drift(self) -> str | None:
        """What a club member should know when today's club file no longer gives the sheet's rules."""
        if self.rules is None:
            return None
        try:
            now = self.current()
        except RegelmotorError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return f"{self.ruleset} kan ikke læses nu ({first}); arket regnes med reglerne fra da det blev startet"
        if now.fingerprint == self.fingerprint:
            return None
        return (
            f"{self.ruleset} er ændret siden arket blev startet; arket regnes stadig med de regler, det blev "
            f'startet med ("regelmotor session rescore" viser, hvad ændringen ville give)'
        )


@dataclass
class Scored:
    """A sheet scored: the session it builds, and each line's entry."""

    rules: Rules
    session: Session
    entries: list[DealEntry]

    def settlement(self, rate: Fraction) -> Money:
        return self.session.settlement(rate)


def sheet_rate(sheet: Sheet, path: Path) -> Fraction:
    """The rate the sheet's file writes, its refusal named by the file (a hand-edited rate)."""
    try:
        return rate_of(sheet.rate)
    except SheetError as exc:
        raise SheetError.said("at_path", path=path, error=exc) from None


def rate_of(text: str) -> Fraction:
    try:
        rate = read_number(text)
    except NumberError:
        raise SheetError.said("rate_number", text=text[:40]) from None
    if rate < 0 or rate.denominator > 10**6 or abs(rate) > 10**6:
        raise SheetError.said("rate_range", text=text)
    return rate


def score(sheet: Sheet, rules: Rules | None = None) -> Scored:
    """Every line of the sheet scored in order, by its frozen rules (or ``rules``); ``SheetError`` naming
    the line that cannot be."""
    if rules is None:
        frozen = sheet.frozen()
        rules = compile_rules(frozen if frozen is not None else sheet.current())
    if len(set(sheet.players)) != len(sheet.players):
        raise SheetError.said("name_twice")
    try:
        session = Session(rules, sheet.players, first_dealer=sheet.first_dealer)
    except RegelmotorError as exc:
        raise SheetError.said("as_is", error=exc) from None
    entries = []
    for number, line in enumerate(sheet.lines, 1):
        try:
            entries.append(_enter(rules, session, line))
        except (RegelmotorError, NotationError) as exc:
            raise SheetError.said("in_deal", number=number, error=exc) from None
    return Scored(rules, session, entries)


def player_named(players: Sequence[str], name: str) -> str | None:
    """The player ``name`` means, as the sheet spells him (``names.find_player``: "anna" is Anna)."""
    return find_player(players, name)


def _seat(session: Session, name: str | None, what: str) -> int:
    seating = session.seating()
    if name is None:
        raise SheetError.said("name_the", role=what)
    player_name = player_named(session.players, name)
    if player_name is None:
        raise SheetError.said("no_player", name=name, names=", ".join(session.players))
    name = player_name
    player = session.players.index(name)
    if player not in seating:
        raise SheetError.said("sits_out", name=name)
    return seating.index(player)


def _enter(rules: Rules, session: Session, line: Line) -> DealEntry:
    if line.redeal is not None:
        if line.redeal not in REDEALS:
            raise SheetError.said("redeal_kind", kinds=", ".join(REDEALS), redeal=line.redeal)
        redealing = rules.dealing.redealing
        by = redealing.all_pass if line.redeal == "all_pass" else redealing.misdeal
        if by is None:
            raise SheetError.said("all_pass_played", contract=redealing.all_pass_contract)
        for claim in rules.dealing.redeal_claims:
            if claim.rule == line.redeal:
                by = claim.redeal_by
        culprit = None if line.culprit is None else _seat(session, line.culprit, "culprit")
        redeal = Redeal(line.redeal, next_dealer(by, GAME_DEALER), culprit)
        return session.enter(None, redeal, dealer_at_table=session.dealer not in session.sitting_out())
    if line.contract is None:
        raise SheetError.said("contract_or_redeal")
    if session.evening_over():  # the evening's fixed number of deals is played: no deal more is written
        raise SheetError.said("evening_over", deals=rules.evening.deals)
    bid = rules.contract_bid(line.contract)
    side = rules.auction.side(bid)
    if side in (Side.PAIRS, Side.EACH):
        return session.enter(_each(rules, session, line, bid))
    declarer = _seat(session, line.declarer, "declarer")
    seats = [declarer, *(_seat(session, j, "joiner") for j in line.joiners)]
    partner = None if line.partner is None or bid.is_sol else _seat(session, line.partner, "partner")
    if side is Side.PARTNER:
        if line.partner is not None:
            raise SheetError.said("fixed_partner", bid=bid)
        partner = rules.declaration.plan(ContractInfo(bid, (declarer,))).partner  # the fixed partner, by the rules
    if partner is not None and partner in seats:
        raise SheetError.said("partner_is_declarer")
    if len(line.tricks) != (len(seats) if bid.is_sol else 1):
        raise SheetError.said("tricks_of_side")
    if any(not 0 <= t <= 13 for t in line.tricks):
        raise SheetError.said("tricks_range")
    if not 0 <= line.doubled <= rules.declaration.doubling.most:
        raise SheetError.said("doubled_most", most=rules.declaration.doubling.most)
    turns = (
        0 if bid.designation is None else rules.declaration.vip_turns(bid.designation)
    )  # the hook, as ``score`` asks it
    if not 0 <= line.vip_card <= turns:
        if turns == 0:
            raise SheetError.said("vip_none", bid=bid, given=line.vip_card)
        raise SheetError.said("vip_card", bid=bid, turns=turns, given=line.vip_card)
    won = [0] * 4
    for seat, taken in zip(seats, line.tricks, strict=False):
        won[seat] = taken
    contract = ContractInfo(bid, tuple(seats), partner)
    scores = rules.scoring.settle(contract, won, line.vip_card, line.doubled)
    return session.enter(scores, sol=session.sol_alone(bid))


def _each(rules: Rules, session: Session, line: Line, bid: Bid) -> list[Fraction]:
    """A game without a declarer (engelsk whist, pasnolo): every player's tricks, in the sheet's order of
    players (those who sit out left out)."""
    seating = session.seating()
    playing = [name for player, name in enumerate(session.players) if player in seating]
    if line.declarer is not None or line.partner is not None or line.joiners:
        raise SheetError.said("each_no_declarer", bid=bid)
    if len(line.tricks) != len(seating) or sum(line.tricks) != 13:
        raise SheetError.said("each_tricks", bid=bid, names=", ".join(playing))
    won = [0] * 4
    for name, taken in zip(playing, line.tricks, strict=True):
        won[_seat(session, name, "player")] = taken
    return rules.scoring.settle(ContractInfo(bid, ()), won, 0, line.doubled)


def describe_line(line: Line, fixed_partners: bool = False, lang: str = "da") -> str:
    """One deal of the sheet in a few words of the game: who played what, and the tricks."""
    words = phrases(lang)
    if line.redeal is not None:  # why, in the game's words ("alle meldte pas"), not the sheet's code
        why = words.get(f"redeal_{line.redeal}", line.redeal)
        fault = words["sheet_fault"].format(name=line.culprit) if line.culprit else ""
        return words["sheet_redeal"].format(why=why) + fault
    with_whom = (
        words["sheet_with"].format(partner=line.partner)
        if line.partner
        else (f" + {', '.join(line.joiners)}" if line.joiners else words["sheet_alone"])
    )
    if fixed_partners and not line.partner and not line.joiners:
        with_whom = ""  # the partner across the table, or alone: the contract says which
    tricks = words["sheet_tricks"].format(tricks="/".join(str(t) for t in line.tricks))
    if line.declarer is None:  # a game without a declarer (engelsk whist, pasnolo): every player's tricks
        return f"{line.contract}: {tricks}"
    return f"{line.declarer} {line.contract}{with_whom}: {tricks}"


SHEET_FORMATS = ("md", "html", "pdf", "csv")


def sheet_number(value: int | float, *, signed: bool = False, lang: str = "da") -> str:
    """A number as the reader writes it (``rounding.number_text``): Danish with a decimal comma (6,67; 40),
    a plus where ``signed``; at most two decimals, as the printed sheet's columns hold them."""
    return number_text(value if isinstance(value, int) else round(value, 2), lang, signed=signed)


def kroner(amount: Fraction, *, signed: bool = False, lang: str = "da") -> str:
    """Money to the øre: 258,75 kr. (258.75 kr. in English)."""
    text = f"{float(amount):+.2f}" if signed else f"{float(amount):.2f}"
    return (text.replace(".", ",") if lang == "da" else text) + " kr."


def payment_lines(players: tuple[str, ...], settled: Money, lang: str = "da") -> list[str]:
    """Who pays whom, a line each ("Bo betaler Carl 15,00 kr."): the printed sheet's and the terminal's."""
    words = phrases(lang)
    return [
        words["sheet_pays"].format(
            payer=players[t.payer],
            payee=words["sheet_club_box"] if t.payee < 0 else players[t.payee],
            amount=kroner(t.amount, lang=lang),
        )
        for t in settled.transfers
    ]


def printed_on(day: datetime.date, lang: str = "da") -> str:
    """A date as the reader writes it: 2. december 2026; 2 December 2026."""
    words = phrases(lang)
    return words["sheet_date"].format(day=day.day, month=words["sheet_months"].split()[day.month - 1], year=day.year)


@dataclass(frozen=True)
class ShownDeal:
    """One deal of the sheet as it is printed and shown: its points and the standing after it, rounded so
    that each row sums as the points do."""

    number: int
    dealer: str
    deal: str
    points: list[int | float]
    standing: list[int | float]


def shown_deals(sheet: Sheet, scored: Scored, lang: str = "da") -> list[ShownDeal]:
    rules = scored.rules
    fixed = rules.auction.fixed_partners
    running = [Fraction(0)] * len(sheet.players)
    shown = []
    for line, entry in zip(sheet.lines, scored.entries, strict=True):
        running = [r + p for r, p in zip(running, entry.points, strict=True)]
        shown.append(
            ShownDeal(
                entry.number,
                sheet.players[entry.dealer],
                describe_line(line, fixed, lang),
                rules.scoring.shown_points(list(entry.points)),
                rules.scoring.shown_points(running),
            )
        )
    return shown


def _deals_counted(session: Session, words: dict[str, str]) -> str:
    """The deals played, as ``session show`` counts them (a deal given again is not one), and those given again."""
    played, void = session.played(), len(session.deals) - session.played()
    shown = words["sheet_deals_played"].format(n=played)
    return shown + (words["sheet_deals_void"].format(n=void) if void else "")


CSV_DIALECTS = ("semikolon", "komma")
"""How a CSV export is written: ``semikolon`` (the default) as a Danish spreadsheet opens it, cells parted by
";" and numbers with a decimal comma; ``komma`` as an English one does, "," and a decimal point."""


def sheet_document(
    sheet: Sheet, scored: Scored, rate: Fraction, fmt: str, lang: str = "da", csv_dialect: str = "semikolon"
) -> str | bytes:
    """The evening's sheet to print (md, html, pdf: the rule book's renderers, so it looks like the club's
    rule book) or to export (csv: one row per deal, then the totals and the money, in ``csv_dialect``), in
    the reader's language. A CSV's text cells (names, contracts) never start like a spreadsheet formula."""
    rules, session = scored.rules, scored.session
    words = phrases(lang)
    players = sheet.players
    settled = scored.settlement(rate)
    deals = shown_deals(sheet, scored, lang)
    head = (words["sheet_deal"], words["sheet_dealer"], words["sheet_game"])
    if fmt == "csv":  # for a spreadsheet: the points as numbers, one row per deal
        if csv_dialect not in CSV_DIALECTS:
            raise SheetError.said("csv_dialect", dialect=csv_dialect, choices=", ".join(CSV_DIALECTS))
        comma = csv_dialect == "semikolon"

        def cell(value: object) -> str:  # a number as the spreadsheet reads one
            shown = str(value)
            return shown.replace(".", ",") if comma else shown

        text = spreadsheet_text
        rows = [(str(d.number), text(d.dealer), text(d.deal), *(cell(p) for p in d.points)) for d in deals]
        totals = ("", "", text(words["sheet_total"]), *(cell(p) for p in rules.scoring.shown_points(session.totals)))
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=";" if comma else ",", lineterminator="\n")
        writer.writerow((*(text(word.lower()) for word in head), *(text(p) for p in players)))
        writer.writerows(rows)
        writer.writerow(totals)
        pay = (cell(f"{float(m):.2f}") for m in settled.money)
        writer.writerow(("", "", text(words["sheet_money"].format(rate=cell(f"{float(rate):g}"))), *pay))
        return buffer.getvalue()
    if fmt not in SHEET_FORMATS:
        raise SheetError(f"a sheet is printed as {', '.join(SHEET_FORMATS)}, not {fmt}")

    def number(value: int | float, signed: bool = False) -> str:
        return sheet_number(value, signed=signed, lang=lang)

    printed = [  # each deal's points, then the standing
        (
            str(d.number),
            d.dealer,
            d.deal,
            *(f"{number(p, True)} ({number(r)})" for p, r in zip(d.points, d.standing, strict=True)),
        )
        for d in deals
    ]
    totals = ("", "", words["sheet_total"], *(number(p) for p in rules.scoring.shown_points(session.totals)))
    table = Table(words["sheet_caption"], (*head, *players), (*printed, totals), fill=True)
    section = Section(words["sheet_by_deal"], [], [table])
    money = [f"{n}: {kroner(m, signed=True, lang=lang)}" for n, m in zip(players, settled.money, strict=True)]
    payments = payment_lines(players, settled, lang)
    target = rules.evening.game_to
    if target is not None:
        won = ", ".join(f"{n} {w}" for n, w in zip(players, session.games_won, strict=True))
        section.items.append(Item(words["sheet_games_won_points"].format(target=target, won=won)))
    settlement = Section(
        words["sheet_settlement"].format(rate=number(float(rate))), [Item(m) for m in [*money, *payments]]
    )
    book = RuleBook(
        title=words["sheet_title"].format(title=rules.title),
        subtitle=words["sheet_subtitle"].format(
            players=", ".join(players),
            deals=_deals_counted(session, words),
            date=printed_on(datetime.date.today(), lang),
        ),
        lang=lang,
        sections=(section, settlement),
        inferred_legend="",
        inferred_rules=(),
        sources=(),
        type_size=10,
    )
    return render(book, fmt)


def sheet_json(sheet: Sheet, scored: Scored, rate: Fraction, lang: str = "da") -> dict[str, Any]:
    """The sheet as ``session show --json`` prints it (docs/notation.md): each deal's points, the totals, the games
    won and the settlement at ``rate``."""
    session, rules, players = scored.session, scored.rules, sheet.players
    settled = scored.settlement(rate)
    return {
        "ruleset": rules.name,
        "players": list(players),
        "deals": [
            {
                "number": d.number,
                "dealer": d.dealer,
                "deal": d.deal,
                "points": dict(zip(players, d.points, strict=True)),
            }
            for d in shown_deals(sheet, scored, lang)
        ],
        "totals": dict(zip(players, rules.scoring.shown_points(session.totals), strict=True)),
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
        "next": None if session.evening_over() else next_deal_json(session, players),
    }


def next_deal(session: Session, players: Sequence[str], lang: str = "da") -> str:
    """Who deals the next deal and, at a table of five or six, who sits it out ("Næste spil: Anna giver, Bo
    sidder over"): said where the deals are entered, so that nobody learns it from a refusal."""
    words = phrases(lang)
    dealer = players[session.dealer]
    out = [players[p] for p in session.sitting_out() if p != session.dealer]
    phrase = "sheet_next_deal_gives_out" if session.dealer in session.sitting_out() else "sheet_next_deal"
    if not out:
        return words[phrase].format(dealer=dealer)
    phrase += "_others_out"
    return words[phrase].format(dealer=dealer, out=words["word_and"].join(out))


def next_deal_json(session: Session, players: Sequence[str]) -> dict[str, Any]:
    """``next_deal`` for ``--json`` and the page: the dealer's name and those who sit out."""
    return {"dealer": players[session.dealer], "sits_out": [players[p] for p in session.sitting_out()]}


def sheet_on_screen(sheet: Sheet, scored: Scored, rate: Fraction, lang: str = "da") -> str:
    """The sheet as ``session show`` prints it in the terminal: one line a deal in columns, the totals, where
    the evening stands (games to a target, whole rounds, the deals left) and the money."""
    words = phrases(lang)
    session, rules, players = scored.session, scored.rules, sheet.players
    settled = scored.settlement(rate)
    width = max(8, *(len(p) + 2 for p in players))
    margin = 5 + width + 34

    def numbers(values: Sequence[int | float]) -> str:
        return "".join(f"{number_text(x, lang):>{width}}" for x in values)

    shown = [f"{sheet.ruleset}: {', '.join(players)}", ""]
    shown.append(
        f"{words['sheet_deal']:<5}{words['sheet_dealer']:<{width}}{'':<34}" + "".join(f"{p:>{width}}" for p in players)
    )
    shown += [
        f"{d.number:<5}{d.dealer:<{width}}{d.deal:<34}" + numbers(d.points) for d in shown_deals(sheet, scored, lang)
    ]
    shown.append(f"{words['sheet_total']:<{margin}}" + numbers(rules.scoring.shown_points(session.totals)))
    target = rules.evening.game_to
    if target is not None:  # games (partier) to a target: who won how many, and the game under way
        won = "".join(f"{n:>{width}}" for n in session.games_won)
        shown.append(f"{words['sheet_games_won'].format(target=target):<{margin}}{won}")
        shown.append(f"{words['sheet_game_going']:<{margin}}{numbers(rules.scoring.shown_points(session.game_totals))}")
    if rules.evening.whole_rounds:  # 000: "Session – En enhed som omfatter et helt antal runder"
        left = (session.size - session.rotations % session.size) % session.size
        shown.append(words["sheet_rounds_whole"] if left == 0 else words["sheet_rounds_left"].format(left=left))
    evening = rules.evening.deals
    if evening is not None:  # an evening of a fixed number of deals
        over = session.evening_over()
        shown.append(
            words["sheet_evening_over"]
            if over
            else words["sheet_deal_of"].format(played=session.played(), deals=evening)
        )
    money = ", ".join(f"{n} {kroner(m, signed=True, lang=lang)}" for n, m in zip(players, settled.money, strict=True))
    shown += ["", words["sheet_settlement"].format(rate=sheet_number(float(rate), lang=lang)) + f": {money}"]
    shown += [f"  {payment}" for payment in payment_lines(players, settled, lang)]
    if not session.evening_over():
        shown += ["", next_deal(session, players, lang)]
    return "\n".join(shown) + "\n"


def freeze_first(sheet: Sheet) -> None:
    """A version 1 sheet (which kept no rules) has its rules frozen as it is next written."""
    if sheet.rules is None:
        sheet.freeze(sheet.current())


def edit_sheet(path: Path, change: Callable[[Sheet], bool], prepare: Callable[[Sheet], None] = freeze_first) -> None:
    """Read, change and write the sheet under its lock, the one door every change goes through (the command
    line and the page): ``change`` says whether to write; one that raises leaves the file as it was."""
    with locked(path, MAX_SHEET_BYTES) as held:  # two at the same sheet: each waits for the other
        sheet = parse_sheet(held.data, path)
        prepare(sheet)
        if change(sheet):
            held.write(sheet_text(sheet))


def read_sheet(path: Path) -> Sheet:
    try:
        data = read_input(path, MAX_SHEET_BYTES).data
    except InputError as exc:
        raise SheetError.said("as_is", error=exc) from None
    return parse_sheet(data, path)


def parse_sheet(data: bytes, path: Path) -> Sheet:
    if len(data) > MAX_SHEET_BYTES:
        raise SheetError.said("sheet_large", path=path, most=MAX_SHEET_BYTES)
    try:
        return Sheet.of(parse_json(data, str(path)), path.parent)
    except RecordError as exc:
        raise SheetError.said("as_is", error=exc) from None
    except SheetError as exc:
        raise SheetError.said("at_path", path=path, error=exc) from None


def sheet_text(sheet: Sheet) -> str:
    """The sheet as it is stored; refused when larger than a sheet may be read back."""
    text = json.dumps(sheet.as_json(), ensure_ascii=False, indent=1) + "\n"
    if len(text.encode("utf-8")) > MAX_SHEET_BYTES:
        raise SheetError.said("sheet_full", most=MAX_SHEET_BYTES)
    return text


def write_sheet(path: Path, sheet: Sheet) -> None:
    """Write the sheet whole or not at all (``files.write_atomic``)."""
    write_atomic(path, sheet_text(sheet))


def names(text: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip())


def tricks_of(text: str) -> tuple[int, ...]:
    try:
        return tuple(whole(t) for t in text.split(",")[:7])
    except NumberError:
        raise SheetError.said("tricks_text", text=text[:40]) from None


__all__ = [
    "SHEET_FORMATS",
    "Line",
    "Sheet",
    "SheetError",
    "describe_line",
    "names",
    "next_deal",
    "next_deal_json",
    "parse_sheet",
    "rate_of",
    "read_sheet",
    "score",
    "sheet_document",
    "sheet_rate",
    "sheet_text",
    "tricks_of",
    "write_sheet",
]
