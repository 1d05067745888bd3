"""The evening's score sheet in the browser: the deals of a table playing with real cards, entered at
``/sheet`` as ``regelmotor session add`` enters them.

The server writes only the sheet its operator named (``serve --sheet FILE``), never a path a client
names, and through the same door as the command line: under the sheet's lock, read, the deal checked
and scored with the sheet's frozen rules, and written only when it scores (a refused deal changes
nothing).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from regelmotor.phrases import phrases
from regelmotor.score_sheet import (
    REDEALS,
    Line,
    Sheet,
    SheetError,
    edit_sheet,
    kroner,
    names,
    next_deal,
    read_sheet,
    score,
    sheet_rate,
    shown_deals,
    tricks_of,
)

FIELDS = ("contract", "declarer", "partner", "joiners", "tricks", "doubled", "vip_card", "redeal", "culprit")


def sheet_state(path: Path, lang: str = "da") -> dict[str, Any]:
    """What the page shows: the players, the contracts the ruleset has, every deal with its points and
    the standing after it, the totals and the settlement, said in the page's language (``da`` or ``en``)."""
    sheet = read_sheet(path)
    scored = score(sheet)
    rules = scored.rules
    deals = [dataclasses.asdict(deal) for deal in shown_deals(sheet, scored, lang)]
    settled = scored.settlement(sheet_rate(sheet, Path(path.name)))  # the file's name, never its folder
    contracts = [bid.text for group in rules.auction.ladder.groups for bid in group]
    extra = rules.dealing.redealing.all_pass_contract  # the redeal hook's, as the command line asks it
    if extra is not None:
        contracts.append(extra.text)
    return {
        "title": rules.title,
        "players": list(sheet.players),
        "contracts": contracts,
        "redeals": [{"id": r, "label": phrases(lang).get(f"redeal_{r}", r)} for r in REDEALS],
        "deals": deals,
        "totals": rules.scoring.shown_points(scored.session.totals),
        "money": [kroner(m, signed=True, lang=lang) for m in settled.money],
        "rate": sheet.rate,
        "next": None if scored.session.evening_over() else next_deal(scored.session, sheet.players, lang),
    }


def _line(payload: dict[str, Any]) -> Line:
    """The deal the page sent, read as the sheet's own deals are (unknown fields refused)."""
    unknown = sorted(set(payload) - set(FIELDS))
    if unknown:
        raise SheetError.said("deal_field", place="deal", key=unknown[0], fields=", ".join(FIELDS))
    data = {k: v for k, v in payload.items() if v not in (None, "", [], 0)}
    if isinstance(data.get("tricks"), str):
        data["tricks"] = list(tricks_of(data["tricks"]))
    elif isinstance(data.get("tricks"), int):
        data["tricks"] = [data["tricks"]]
    if isinstance(data.get("joiners"), str):
        data["joiners"] = list(names(data["joiners"]))
    return Line.of(data, "deal")


def add_deal(path: Path, payload: dict[str, Any], lang: str = "da") -> dict[str, Any]:
    """Enter one deal: checked and scored first, written only when it scores."""
    line = _line(payload)

    def enter(sheet: Sheet) -> bool:
        sheet.lines.append(line.named_as(sheet.players))  # "anna" is Anna
        score(sheet)  # refuses the deal (SheetError, RegelmotorError) before anything is written
        return True

    edit_sheet(path, enter)
    return sheet_state(path, lang)


def undo_deal(path: Path, lang: str = "da") -> dict[str, Any]:
    """Take back the last deal entered."""

    def take_back(sheet: Sheet) -> bool:
        if not sheet.lines:
            raise SheetError.said("no_undo", path=path.name)
        sheet.lines.pop()
        return True

    edit_sheet(path, take_back)
    return sheet_state(path, lang)
