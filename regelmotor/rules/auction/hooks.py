"""Melde tilbage: the auction procedure of 001, 003 5-10 and (inferred) Thorsen.

Forhånd opens (bid or pass); the next player overcalls or passes; an overcalled player may
raise or pass, and the two go on until one passes; then the next player enters against the
highest bid. A pass is final, and the holder of the highest bid is never asked while he holds
it (000 3.3). Where gå med is allowed, the player to call may join the highest bid instead;
an overcall sends the holder and his joiners back, in that order, to answer it. Where kan selv
is allowed (002: "tage den i baghånden"), forhånd, overcalled, may take the bid over at the same
height, and the player he took it from must answer; where the club gives it to every overcalled
bidder (``kan_selv_for: overcalled``), any seat answering an overcall may. A bid taken so is never
taken back at the same height: the one it was taken from must go higher or pass, so the auction ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from regelmotor.bids import HOLD, JOIN, PASS, Bid, Ladder, parse_call
from regelmotor.errors import IllegalCall, NotationError
from regelmotor.hooks import Auction, AuctionStatus, hookimpl
from regelmotor.model.ruleset import Ruleset


class _Fold:
    """An auction replayed whole: ``start``, then ``advance`` once per call (records; why a call is refused)."""

    def start(self, seats: Sequence[int]) -> AuctionStatus:
        raise NotImplementedError

    def advance(self, status: AuctionStatus, text: str) -> AuctionStatus:
        raise NotImplementedError

    def __call__(self, seats: Sequence[int], calls: Sequence[str]) -> AuctionStatus:
        status = self.start(seats)
        for text in calls:
            status = self.advance(status, text)
        return status


class MeldeTilbage(_Fold):
    """The auction as a fold: ``start`` gives the status before the first call, ``advance`` adds one.

    The engine keeps the status and advances it once per call; ``__call__`` replays a whole
    list of calls (for records and for saying why a call is refused).
    """

    def __init__(
        self, ladder: Ladder, may_join: Callable[[Bid], bool], kan_selv: bool = False, kan_selv_for: str = "forhaand"
    ) -> None:
        """``kan_selv_for``: who may take an overcall at its own height, ``forhaand`` or any ``overcalled`` bidder."""
        self.ladder = ladder
        self.may_join = may_join
        self.kan_selv = kan_selv
        self.kan_selv_for = kan_selv_for
        self._parsed: dict[str, str | Bid] = {}
        self._legal: dict[tuple[int, bool, bool], tuple[str, ...]] = {}

    def start(self, seats: Sequence[int]) -> AuctionStatus:
        """Forhånd (``seats[0]``) opens; the others enter in seat order."""
        order = tuple(seats)
        return self._status(order[0], None, None, (), frozenset(), order, order[1:], (), 0)

    def advance(self, status: AuctionStatus, text: str) -> AuctionStatus:
        """The status after ``status.to_act`` calls ``text``; ``IllegalCall`` if he may not."""
        index, to_act = status.calls, status.to_act
        if to_act is None:
            raise IllegalCall(index, None, f'"{text}": the auction is already over', phrase="auction_over", values={})
        call = self._parsed.get(text)
        if call is None:
            try:
                call = self._parsed[text] = parse_call(text, self.ladder)
            except NotationError as exc:
                raise IllegalCall(index, to_act, str(exc), phrase="not_a_bid", values={"action": text}) from None
        highest, holder, joiners, passed, pending = (
            status.highest,
            status.holder,
            status.joiners,
            status.passed,
            status.pending,
        )
        if call == PASS:
            passed = passed | {to_act}
        elif call == JOIN:
            if highest is None:
                raise IllegalCall(
                    index,
                    to_act,
                    "gå med is not allowed on no bid",
                    rule="auction.gaa_med",
                    phrase="gaa_med_no_bid",
                    values={},
                )
            if not self.may_join(highest):
                raise IllegalCall(
                    index,
                    to_act,
                    f"gå med is not allowed on the highest bid {highest}",
                    rule="auction.gaa_med",
                    phrase="gaa_med",
                    values={"bid": highest.text},
                )
            joiners = (*joiners, to_act)
        elif call == HOLD:
            if not self.may_hold(to_act, status):
                anyone = self.kan_selv and self.kan_selv_for == "overcalled"
                raise IllegalCall(
                    index,
                    to_act,
                    "only a bidder who is overcalled may take the bid himself, and not a bid taken so"
                    if anyone
                    else "only forhånd, overcalled, may take the bid himself",
                    rule="auction.kan_selv_for" if anyone else "auction.kan_selv",
                    phrase="kan_selv_overcalled" if anyone else "kan_selv",
                    values={},
                )
            pending = (*(() if holder is None else (holder,)), *joiners, *pending)
            holder, joiners = to_act, ()
        else:
            assert isinstance(call, Bid)
            if highest is not None and call.rank <= highest.rank:
                same = "is as high as" if call.rank == highest.rank else "is lower than"
                raise IllegalCall(
                    index,
                    to_act,
                    f"{call} {same} the highest bid {highest}: a bid must be higher (melde tilbage)",
                    phrase="bid_equal" if call.rank == highest.rank else "bid_lower",
                    values={"bid": call.text, "highest": highest.text},
                )
            pending = (*(() if holder is None else (holder,)), *joiners, *pending)
            holder, highest, joiners = to_act, call, ()
        # Who calls next: an overcalled seat that must answer, else the next seat to enter.
        entrants = status.entrants
        taken = call == HOLD or (status.taken and call in (PASS, JOIN))
        while pending:
            seat, pending = pending[0], pending[1:]
            if seat not in passed and seat != holder and seat not in joiners:
                return self._status(
                    seat, highest, holder, joiners, passed, status.seats, entrants, pending, index + 1, True, taken
                )
        following = entrants[0] if entrants else None
        return self._status(
            following, highest, holder, joiners, passed, status.seats, entrants[1:], (), index + 1, False, taken
        )

    def _status(
        self,
        to_act: int | None,
        highest: Bid | None,
        holder: int | None,
        joiners: tuple[int, ...],
        passed: frozenset[int],
        seats: tuple[int, ...],
        entrants: tuple[int, ...],
        pending: tuple[int, ...],
        calls: int,
        answering: bool = False,
        taken: bool = False,
    ) -> AuctionStatus:
        legal: tuple[str, ...] = ()
        if to_act is not None:
            rank = -1 if highest is None else highest.rank
            join = highest is not None and self.may_join(highest)
            hold = self._may_hold(to_act, holder, seats[0], answering, taken)
            legal = self._legal.get((rank, join, hold), ())
            if not legal:
                bids = tuple(b.text for b in self.ladder.bids if b.rank > rank)
                legal = self._legal[rank, join, hold] = (
                    PASS,
                    *((JOIN,) if join else ()),
                    *((HOLD,) if hold else ()),
                    *bids,
                )
        return AuctionStatus(
            to_act, highest, holder, joiners, passed, legal, seats, entrants, pending, calls, answering, taken
        )

    def may_hold(self, seat: int, status: AuctionStatus) -> bool:
        """Whether ``seat`` may take the highest bid at its own height: he answers an overcall (forhånd
        alone, or any overcalled bidder where the club says so), and the bid was not itself taken so."""
        return self._may_hold(seat, status.holder, status.seats[0], status.answering, status.taken)

    def _may_hold(self, seat: int, holder: int | None, forhaand: int, answering: bool, taken: bool) -> bool:
        if not self.kan_selv or holder is None or holder == seat:
            return False
        if self.kan_selv_for == "overcalled":
            return answering and not taken
        return seat == forhaand


class NoAuction(_Fold):
    """No one bids: the game is the one contract the ruleset names (engelsk whist: 002 "trumf bestemmes
    af giverens sidste kort", with no meldinger). The auction is over before it starts."""

    def start(self, seats: Sequence[int]) -> AuctionStatus:
        order = tuple(seats)
        return AuctionStatus(None, None, None, (), frozenset(), (), order, (), (), 0)

    def advance(self, status: AuctionStatus, text: str) -> AuctionStatus:
        raise IllegalCall(
            status.calls,
            None,
            f'"{text}": there is no auction in this game',
            rule="auction.procedure",
            phrase="no_auction",
            values={},
        )


class AuctionRules:
    @hookimpl
    def regelmotor_auction(self, ruleset: Ruleset, ladder: Ladder, may_join: Callable[[Bid], bool]) -> Auction:
        if ruleset.auction.procedure == "none":
            return NoAuction()
        return MeldeTilbage(ladder, may_join, ruleset.auction.kan_selv, ruleset.auction.kan_selv_for)
