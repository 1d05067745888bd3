"""Bids and the bid ladder.

The ladder is never written by hand: it follows from the ruleset's trick range, the
designations' tiers (equal tier = equal rank, as in Whistgruppe 2) and where each sol bid is
placed (``after: "9"``). Bids compare by rank, so the auction asks one integer question.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from regelmotor.errors import NotationError, RegelmotorError
from regelmotor.model.ruleset import Ruleset

_FOLD = str.maketrans({"æ": "ae", "ø": "oe", "å": "aa", "_": " "})
_LEADING_LEVEL = re.compile(r"^(\d+)\s*(.*)$")


def fold(text: str) -> str:
    """The form names are compared in: lower case, ASCII spellings of æøå, ``_`` as a space."""
    return " ".join(text.lower().translate(_FOLD).split())


@dataclass(frozen=True, slots=True)
class Bid:
    """One bid of the ladder. ``rank`` orders bids; equal rank cannot overcall each other."""

    text: str
    rank: int
    level: int | None = None
    designation: str | None = None
    sol: str | None = None

    @property
    def is_sol(self) -> bool:
        return self.sol is not None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class LadderProblem(Exception):
    """A ladder the ruleset describes cannot be built; ``path`` is where to fix it."""

    path: tuple[str | int, ...]
    message: RegelmotorError
    """Said in the reader's language (``text``); ``str()`` is the English."""


class Ladder:
    """Every bid of a ruleset, lowest first, grouped by rank."""

    def __init__(self, groups: tuple[tuple[Bid, ...], ...], aliases: dict[str, Bid]) -> None:
        self.groups = groups
        self.bids = tuple(bid for group in groups for bid in group)
        self.by_text = {bid.text: bid for bid in self.bids}
        """Canonical text -> bid, for callers that already hold canonical notation."""
        self._aliases = aliases

    def __iter__(self) -> Iterator[Bid]:
        return iter(self.bids)

    def __len__(self) -> int:
        return len(self.bids)

    def parse(self, text: str) -> Bid:
        """A bid in the notation: ``8``, ``8 vip``, ``8 vip i 2.``, ``ren sol``, ``ren_sol``."""
        bid = self._aliases.get(fold(text))
        if bid is None and not self.bids:
            raise NotationError.said("no_bidding", text=text)
        if bid is None:
            raise NotationError.said("not_a_bid", text=text, low=self.bids[0], high=self.bids[-1])
        return bid

    def trump_bid(self, designation: str, level: int) -> Bid:
        """The bid of a designation at a level: the ladder's, or (a level the ladder leaves out for that
        designation, as a point table's every cell needs) one made for it, of no rank."""
        for bid in self.bids:
            if bid.level == level and bid.designation == designation:
                return bid
        return Bid(level=level, designation=designation, rank=0, text=f"{level} {designation}")

    def higher(self, bid: Bid) -> tuple[Bid, ...]:
        """The bids that overcall ``bid``."""
        return tuple(b for b in self.bids if b.rank > bid.rank)

    def describe(self) -> str:
        """``7 < 7 vip < ...``; equal ranks joined by ``=``."""
        return " < ".join(" = ".join(b.text for b in group) for group in self.groups)


def build_ladder(ruleset: Ruleset) -> Ladder:
    """The ladder of ``ruleset``; raises ``LadderProblem`` naming the key to fix."""
    plain = ruleset.designations[0] if ruleset.designations else None
    tiers = sorted({d.tier for d in ruleset.designations})
    trump_groups: list[list[Bid]] = []
    aliases: dict[str, Bid] = {}
    for level in ruleset.levels:
        for tier in tiers:
            group = []
            for designation in ruleset.designations:
                if designation.tier != tier:
                    continue
                text = str(level) if designation is plain else f"{level} {designation.id}"
                bid = Bid(text, 0, level=level, designation=designation.id)
                group.append(bid)
                for name in {designation.id, designation.display}:
                    aliases[fold(f"{level} {name}")] = bid
                if designation is plain:
                    aliases[fold(str(level))] = bid
            trump_groups.append(group)

    # Each sol bid sits right after the group of the bid it names; the chain may continue
    # through other sol bids (after: "sol").
    by_text = {fold(b.text): b for group in trump_groups for b in group}
    sol_after: dict[str, int] = {}  # folded anchor -> index of the sol bid placed there
    sol_ids = {fold(s.id) for s in ruleset.sol_bids}
    for i, sol in enumerate(ruleset.sol_bids):
        if sol.after is None:  # the lowest bid of all (dansk whist's nolo)
            if trump_groups:
                raise LadderProblem(
                    ("sol_bids", i, "after"),
                    RegelmotorError.said("ladder_no_after", bid=sol.id, lowest=trump_groups[0][0]),
                )
            if LOWEST in sol_after:
                other = ruleset.sol_bids[sol_after[LOWEST]]
                raise LadderProblem(
                    ("sol_bids", i, "after"), RegelmotorError.said("ladder_two_lowest", bid=sol.id, other=other.id)
                )
            sol_after[LOWEST] = i
            continue
        anchor = fold(sol.after)
        if anchor in aliases:
            anchor = fold(aliases[anchor].text)
        if anchor not in by_text and anchor not in sol_ids:
            raise LadderProblem(
                ("sol_bids", i, "after"), RegelmotorError.said("ladder_unknown_after", after=sol.after, bid=sol.id)
            )
        anchor_group = _group_key(anchor, trump_groups, by_text)
        if anchor_group in sol_after:
            other = ruleset.sol_bids[sol_after[anchor_group]]
            raise LadderProblem(
                ("sol_bids", i, "after"),
                RegelmotorError.said("ladder_same_place", bid=sol.id, other=other.id, after=sol.after),
            )
        sol_after[anchor_group] = i

    groups: list[tuple[Bid, ...]] = []
    placed: set[int] = set()

    def emit_sols(anchor_key: str) -> None:
        index = sol_after.get(anchor_key)
        if index is None or index in placed:
            return
        placed.add(index)
        sol = ruleset.sol_bids[index]
        groups.append((Bid(sol.id, 0, sol=sol.id),))
        emit_sols(fold(sol.id))

    emit_sols(LOWEST)
    for group in trump_groups:
        groups.append(tuple(group))
        emit_sols(_group_key(fold(group[0].text), trump_groups, by_text))
    for i, sol in enumerate(ruleset.sol_bids):
        if i not in placed:
            raise LadderProblem(("sol_bids", i, "after"), RegelmotorError.said("ladder_circle", bid=sol.id))

    ranked = tuple(
        tuple(Bid(b.text, rank, b.level, b.designation, b.sol) for b in group) for rank, group in enumerate(groups)
    )
    final = {fold(b.text): b for group in ranked for b in group}
    resolved_aliases = {alias: final[fold(bid.text)] for alias, bid in aliases.items()}
    for sol in ruleset.sol_bids:
        bid = final[fold(sol.id)]
        resolved_aliases[fold(sol.id)] = bid
        resolved_aliases[fold(sol.display)] = bid
    return Ladder(ranked, resolved_aliases)


LOWEST = ""
"""The anchor of a sol bid with no ``after``: the bottom of the ladder."""


def _group_key(anchor: str, trump_groups: list[list[Bid]], by_text: dict[str, Bid]) -> str:
    """Bids of equal rank share one place: key a trump bid by the first bid of its group."""
    bid = by_text.get(anchor)
    if bid is None:
        return anchor  # a sol bid's id
    for group in trump_groups:
        if bid in group:
            return fold(group[0].text)
    return anchor


PASS = "pass"
JOIN = "gå med"
HOLD = "selv"
"""The auction's calls besides bids, in the notation."""
_JOIN_SPELLINGS = {fold(s) for s in ("gå med", "ga med", "gaa med", "gå_med")}
_HOLD_SPELLINGS = {fold(s) for s in ("selv", "kan selv")}


def parse_call(text: str, ladder: Ladder) -> str | Bid:
    """``pass``, ``gå med``, ``selv`` or a bid of the ladder."""
    key = fold(text)
    if key == PASS:
        return PASS
    if key in _JOIN_SPELLINGS:
        return JOIN
    if key in _HOLD_SPELLINGS:
        return HOLD
    return ladder.parse(text)
