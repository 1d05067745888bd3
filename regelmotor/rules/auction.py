"""Melde tilbage: the auction procedure of 001, 003 5-10 and (inferred) Thorsen.

Forhånd opens (bid or pass); the next player overcalls or passes; an overcalled player may
raise or pass, and the two go on until one passes; then the next player enters against the
highest bid. A pass is final, and the holder of the highest bid is never asked while he holds
it (000 3.3). Where gå med is allowed, the player to call may join the highest bid instead;
an overcall sends the holder and his joiners back, in that order, to answer it. Where kan selv
is allowed (002: "tage den i baghånden"), forhånd, overcalled, may take the bid over at the same
height, and the player he took it from must answer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from regelmotor.bids import Bid, Ladder, fold
from regelmotor.errors import IllegalCall, NotationError
from regelmotor.hooks import Auction, AuctionStatus, hookimpl
from regelmotor.ruleset.model import Ruleset

PASS = "pass"
JOIN = "gå med"
HOLD = "selv"
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


class MeldeTilbage:
    def __init__(self, ladder: Ladder, may_join: Callable[[Bid], bool], kan_selv: bool = False) -> None:
        self.ladder = ladder
        self.may_join = may_join
        self.kan_selv = kan_selv
        # The status is recomputed from the calls on every step: parse each spelling once.
        self._parsed: dict[str, str | Bid] = {}
        self._higher: dict[int, tuple[str, ...]] = {}

    def __call__(self, seats: Sequence[int], calls: Sequence[str]) -> AuctionStatus:
        forhaand = seats[0]
        entrants = deque(seats)
        pending: deque[int] = deque()
        passed: set[int] = set()
        joiners: list[int] = []
        holder: int | None = None
        highest: Bid | None = None
        to_act: int | None = entrants.popleft()

        def next_to_act() -> int | None:
            while pending:
                seat = pending.popleft()
                if seat not in passed and seat != holder and seat not in joiners:
                    return seat
            return entrants.popleft() if entrants else None

        for index, text in enumerate(calls):
            if to_act is None:
                raise IllegalCall(index, None, f'"{text}": the auction is already over')
            call = self._parsed.get(text)
            if call is None:
                try:
                    call = self._parsed[text] = parse_call(text, self.ladder)
                except NotationError as exc:
                    raise IllegalCall(index, to_act, str(exc)) from None
            if call == PASS:
                passed.add(to_act)
            elif call == JOIN:
                if highest is None or not self.may_join(highest):
                    what = "no bid" if highest is None else f"the highest bid {highest}"
                    raise IllegalCall(index, to_act, f"gå med is not allowed on {what} (auction.gaa_med)")
                joiners.append(to_act)
            elif call == HOLD:
                if not self.may_hold(to_act, forhaand, holder):
                    raise IllegalCall(
                        index, to_act, "only forhånd, overcalled, may take the bid himself (auction.kan_selv)"
                    )
                pending = deque([*([holder] if holder is not None else []), *joiners, *pending])
                holder, joiners = to_act, []
            else:
                assert isinstance(call, Bid)
                if highest is not None and call.rank <= highest.rank:
                    same = "is as high as" if call.rank == highest.rank else "is lower than"
                    raise IllegalCall(
                        index, to_act, f"{call} {same} the highest bid {highest}: a bid must be higher (melde tilbage)"
                    )
                answering = [s for s in ([holder] if holder is not None else []) + joiners]
                pending = deque([*answering, *pending])
                holder, highest, joiners = to_act, call, []
            to_act = next_to_act()

        legal: tuple[str, ...] = ()
        if to_act is not None:
            rank = -1 if highest is None else highest.rank
            bids = self._higher.get(rank)
            if bids is None:
                bids = self._higher[rank] = tuple(b.text for b in self.ladder.bids if b.rank > rank)
            join = (JOIN,) if highest is not None and self.may_join(highest) else ()
            hold = (HOLD,) if self.may_hold(to_act, forhaand, holder) else ()
            legal = (PASS, *join, *hold, *bids)
        return AuctionStatus(to_act, highest, holder, tuple(joiners), frozenset(passed), legal)

    def may_hold(self, seat: int, forhaand: int, holder: int | None) -> bool:
        return self.kan_selv and seat == forhaand and holder is not None and holder != seat


class AuctionRules:
    @hookimpl
    def regelmotor_auction(self, ruleset: Ruleset, ladder: Ladder, may_join: Callable[[Bid], bool]) -> Auction:
        if ruleset.auction.procedure != "melde_tilbage":  # pragma: no cover - the schema allows only this
            from regelmotor.errors import RuleNotImplemented

            raise RuleNotImplemented(f"auction.procedure: {ruleset.auction.procedure}")
        return MeldeTilbage(ladder, may_join, ruleset.auction.kan_selv)
