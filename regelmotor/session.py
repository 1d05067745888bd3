"""A session at the table: players, who sits out, who deals, running totals and the settlement.

Es-makker whist is played four to a deal; with five or six at the table some sit out each deal
(000 2.1). Each deal's scores sum to zero, so the running totals do too; misdeal penalties
(000 2.7) are zero-sum as well. A club that plays in whole rounds (000: "Session – En enhed som
omfatter et helt antal runder") may only stop when the deal has gone round the table.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from regelmotor.bids import Bid
from regelmotor.cards import Card
from regelmotor.engine.game import FINISHED, REDEAL, Game, Redeal
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import Money
from regelmotor.numbers import number
from regelmotor.rules.contracts.keys import Side
from regelmotor.ruleset.compile import Rules

GAME_DEALER = 3
"""Each deal is played with seat 0 as forhånd and seat 3 as the dealer (or the 4th active player)."""


class SessionError(RegelmotorError, ValueError):
    """A session the ruleset does not allow, or a deal that does not belong to it."""


@dataclass(frozen=True)
class DealEntry:
    """One deal of the session, as the score sheet shows it."""

    number: int
    dealer: int
    seating: tuple[int, ...]
    """The players at seats 0-3 (seat 0 forhånd)."""
    outcome: str
    reason: str | None
    points: tuple[Fraction, ...]
    """What each player (by player index) got for this deal; sitting-out players get 0."""
    game_won_by: tuple[int, ...] = ()
    """The players who won the game (partiet) with this deal, where the ruleset plays games to a target
    (engelsk whist: 5 points; a pair's two players win together)."""


class Session:
    def __init__(self, rules: Rules, players: Sequence[str], *, first_dealer: int = 0) -> None:
        sizes = rules.evening.table_sizes
        if len(players) not in sizes:
            allowed = "/".join(str(n) for n in sizes)
            raise SessionError.said("players_count", ruleset=rules.name, allowed=allowed, count=len(players))
        if not 0 <= first_dealer < len(players):
            raise SessionError(f"the first dealer is a player 0-{len(players) - 1}, not {first_dealer}")
        self.rules = rules
        self.players = tuple(players)
        self.dealer = first_dealer
        self.deals: list[DealEntry] = []
        self.totals = [Fraction(0)] * len(players)
        self.rotations = 0
        self.game_totals = [Fraction(0)] * len(players)
        """Each player's points in the game (partiet) under way, where the ruleset plays to a target."""
        self.games_won = [0] * len(players)
        self._entered: weakref.WeakSet[Game] = weakref.WeakSet()
        """The games already entered: a deal is booked once."""

    @property
    def size(self) -> int:
        return len(self.players)

    def sitting_out(self) -> tuple[int, ...]:
        """The players who sit out the next deal (000 2.1)."""
        return self.rules.evening.sitting_out(self.size, self.dealer)

    def seating(self) -> tuple[int, ...]:
        """The four active players at seats 0-3, clockwise from the dealer's left (forhånd first)."""
        out = set(self.sitting_out())
        order = [(self.dealer + i) % self.size for i in range(1, self.size + 1)]
        active = [p for p in order if p not in out]
        return tuple(active[:4])

    def new_game(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card] | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        kitty: Sequence[Card] = (),
    ) -> Game:
        """The next deal, dealt by a seed, a deck order, or as the table dealt it."""
        at_table = self.dealer not in self.sitting_out()  # at 5-6 players the dealer may sit out (000 2.1)
        if hands is not None:
            return Game(self.rules, hands, kitty, GAME_DEALER, dealer_at_table=at_table)
        if deck is not None:
            return Game.from_deck(self.rules, deck, GAME_DEALER, dealer_at_table=at_table)
        return Game.from_seed(self.rules, 0 if seed is None else seed, GAME_DEALER, dealer_at_table=at_table)

    def played(self) -> int:
        """The deals played (finished) this evening: void deals dealt again are not counted."""
        return sum(1 for entry in self.deals if entry.outcome == FINISHED)

    def evening_over(self) -> bool:
        """Whether the evening's fixed number of deals (``session.deals``) is played."""
        most = self.rules.evening.deals
        return most is not None and self.played() >= most

    def record(self, game: Game) -> DealEntry:
        """Enter a finished or void deal: score it, then pass the deal on as the rules say."""
        if game.phase not in (FINISHED, REDEAL):
            raise SessionError(f"only a finished or void deal can be entered, not one in {game.phase}")
        if game.dealer != GAME_DEALER or game.rules.ruleset is not self.rules.ruleset:
            raise SessionError("the deal was not dealt by this session (use Session.new_game)")
        if game in self._entered:
            raise SessionError("this deal is already entered: a deal is booked once")
        self._entered.add(game)
        if game.phase == FINISHED:
            assert game.scores is not None
            return self.enter(game.scores, sol=self.sol_alone(game.bid))
        assert game.redeal is not None
        return self.enter(None, game.redeal, dealer_at_table=game.dealer_at_table)

    def sol_alone(self, bid: Bid | None) -> bool:
        """Whether ``bid`` is a sol bid, its declarer alone against three (what ``same_dealer_after_sol`` reads)."""
        return bid is not None and self.rules.auction.side(bid) is Side.ALONE

    def enter(
        self,
        scores: Sequence[Fraction] | None,
        redeal: Redeal | None = None,
        *,
        dealer_at_table: bool = True,
        sol: bool = False,
    ) -> DealEntry:
        """Enter one deal's outcome: the four seats' points (seat 0 forhånd), or the redeal that voided
        it. What ``record`` does with a played game, and what a score sheet does with a deal played with
        real cards; then the deal passes on as the rules say (``sol``: the deal was a sol, which some clubs
        let the same dealer follow). A deal played is booked even past the evening's fixed number of deals
        (``evening_over`` says when that is reached; the score sheet refuses to write one more)."""
        seating = self.seating()
        points = [Fraction(0)] * self.size
        reason = None
        zero_sum = self.rules.scoring.zero_sum  # engelsk whist scores the winners alone (002)
        if scores is not None:
            if len(scores) != 4 or (zero_sum and sum(scores) != 0):
                raise SessionError(f"a deal's four scores sum to zero, not {list(scores)}")
            for seat, player in enumerate(seating):
                points[player] = Fraction(scores[seat])
        else:
            assert redeal is not None
            reason = redeal.reason
            if reason == "misdeal":
                self._misdeal_penalty(points, seating, redeal.seat, dealer_at_table)
        if zero_sum and sum(points) != 0:  # pragma: no cover - every such game and penalty is zero-sum
            raise SessionError(f"a deal's points do not sum to zero: {points}")
        outcome = FINISHED if scores is not None else REDEAL
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        won = self._game_over(points)
        entry = DealEntry(len(self.deals) + 1, self.dealer, seating, outcome, reason, tuple(points), won)
        self.deals.append(entry)
        same_dealer = redeal is not None and redeal.next_dealer == GAME_DEALER
        same_dealer |= sol and self.rules.evening.same_dealer_after_sol
        if not same_dealer:
            self.dealer = (self.dealer + 1) % self.size
            self.rotations += 1
        return entry

    def _game_over(self, points: Sequence[Fraction]) -> tuple[int, ...]:
        """Add a deal to the game under way; when a player reaches the target the game is won and a new one
        begins (002: "Der spilles typisk flere spil, indtil et makkerpar når 5 point").

        The game counts the points a deal wins, not what it loses (002: "Det par, der vinder flest stik, får
        1 point pr. stik udover de første 6 stik"): the other pair's loss in the evening's sum, which keeps the
        money square, takes nothing from its points towards the game."""
        target = self.rules.evening.game_to
        if target is None:
            return ()
        self.game_totals = [t + max(p, Fraction(0)) for t, p in zip(self.game_totals, points, strict=True)]
        best = max(self.game_totals)
        if best < target:
            return ()
        winners = tuple(player for player, total in enumerate(self.game_totals) if total == best)
        for player in winners:
            self.games_won[player] += 1
        self.game_totals = [Fraction(0)] * self.size
        return winners

    def _misdeal_penalty(
        self, points: list[Fraction], seating: tuple[int, ...], culprit_seat: int | None, dealer_at_table: bool
    ) -> None:
        """000 2.7: a penalty to each of the other players, paid by the dealer, or by another player at fault
        (at 5-6 players, when the dealer sits out, the fourth player in the deal too)."""
        evening = self.rules.evening
        if evening.misdeal_penalty == 0:
            return
        payer = self.dealer
        if evening.culprit_pays and culprit_seat is not None and (culprit_seat != GAME_DEALER or not dealer_at_table):
            payer = seating[culprit_seat]
        for player in range(self.size):
            if player != payer:
                points[player] += evening.misdeal_penalty
                points[payer] -= evening.misdeal_penalty

    def can_end(self) -> bool:
        """Whole rounds where the ruleset asks for them: the deal has gone round the table; and the evening's
        fixed number of deals, where it has one, all played."""
        evening = self.rules.evening
        if evening.deals is not None and self.played() < evening.deals:
            return False
        if not evening.whole_rounds:
            return True
        return self.rotations % self.size == 0

    def settlement(self, rate: Fraction | int | float | str) -> Money:
        """The evening in money at ``rate`` per point, as the ruleset settles it: each player's money
        and the payments that settle it (between players, and to the club's box where it has one).

        The rate is taken exactly as written (``0.1`` is one tenth, not the float nearest it), so the
        money sums to what the points sum to; amounts are whole øre, rounded so that the payments still
        balance (the largest remainders get the extra øre)."""
        exact = number(str(rate)) if isinstance(rate, float | str) else Fraction(rate)
        return self.rules.evening.settlement(self.totals, exact)
