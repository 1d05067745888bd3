"""Bids named by their name: who plays together, what they must take, and each player's share.

Es-makker whist's sol bids are one declarer against three, within a number of tricks (001). The
same kind of bid carries dansk whist (002: "Melderen har udspil og skal tage de 7 første stik"
(grandi); "Melderen spiller alene og må højst tage 1 stik" (sol); "Melderen skal sammen med sin
makker tage mindst 7 stik" (grand); "... højst 6 stik" (nolo)), its pasnolo ("I pasnolo spiller
alle for sig selv og forsøger at få færrest mulige stik") and engelsk whist's one game ("Det par,
der vinder flest stik, får 1 point pr. stik udover de første 6 stik"). What differs is the side:
alone, with a fixed partner, pair against pair, or each for himself. Everything here is worked out
from the tricks each seat took, so the engine, the scorer and the bots agree.

A player's share ``D`` sums to zero round the table whatever the side: +3 and three times -1 for
one against three; +1, +1, -1, -1 for two against two; and in pasnolo, with ``k`` players on the
fewest tricks, ``4 - k`` for each of them and ``-k`` for each of the others; or, where the club settles
a game of each for himself by the difference in tricks, the sum of the differences between his tricks
and each other player's (``4t - 13``, negated where the fewest tricks win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from regelmotor.phrase_table import Said
from regelmotor.rules.contracts.keys import SolBid

SEATS = 4
TRICKS = 13


def partner_across(seat: int) -> int:
    """The fixed partner sits across the table (002: faste makkerpar; da.wikipedia.org/wiki/Whist:
    "Makkerne i de to par placeres overfor hinanden")."""
    return (seat + 2) % SEATS


@dataclass(frozen=True, slots=True)
class Share:
    """One seat's part in a finished named contract: its share ``D``, the tricks ``T`` the scoring
    counts for it, and whether the contract was made (``V`` = +1, the same for every seat, as in a
    trump game). A game without a declarer (pairs, each) is always "made": ``D`` says who won."""

    share: int
    tricks: int
    made: bool

    @property
    def won(self) -> bool:
        """Whether this seat is on the winning side."""
        return (self.share > 0) == self.made


def one_against_three(bid: SolBid) -> bool:
    """Es-makker whist's kind of sol bid: the declarer alone within a most of tricks, without trump, in the sol
    order, forhånd leading (001). The expert's fast playouts know only this kind; the rule book says it in its
    own words."""
    return (
        bid.side == "alone"
        and bid.max_tricks is not None
        and bid.min_tricks is None
        and bid.first_tricks is None
        and bid.leader == "forhaand"
        and bid.trump == "none"
        and bid.card_order == "sol_games"
    )


def side_tricks(bid: SolBid, declarer: int, tricks_won: Sequence[int]) -> int:
    """The tricks of the declarer's side: his own, or his and his fixed partner's."""
    taken = tricks_won[declarer]
    if bid.side == "partner":
        taken += tricks_won[partner_across(declarer)]
    return taken


def within(bid: SolBid, taken: int) -> bool:
    """Whether a side with ``taken`` tricks made the bid. A bid of the first tricks is made by taking
    them all: play ends at the first of them lost (``cardplay.end_of_play``), so the count tells."""
    if bid.first_tricks is not None and taken < bid.first_tricks:
        return False
    if bid.max_tricks is not None and taken > bid.max_tricks:
        return False
    return bid.min_tricks is None or taken >= bid.min_tricks


def shares(bid: SolBid, declarers: Sequence[int], tricks_won: Sequence[int]) -> tuple[Share, ...]:
    """Every seat's share in a contract played by sides (``partner``, ``pairs``, ``each``).

    One against three (``alone``) is scored per declarer by the caller, as each declarer who
    joined a sol is his own game (000 7.3).
    """
    if bid.side == "partner":
        declarer = declarers[0]
        side = (declarer, partner_across(declarer))
        taken = side_tricks(bid, declarer, tricks_won)
        made = within(bid, taken)
        return tuple(Share(1 if seat in side else -1, taken, made) for seat in range(SEATS))
    if bid.side == "pairs":
        pair_tricks = (tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3])
        if bid.fewest_tricks:
            winner = 0 if pair_tricks[0] < pair_tricks[1] else 1
        else:
            winner = 0 if pair_tricks[0] > pair_tricks[1] else 1
        return tuple(Share(1 if seat % 2 == winner else -1, pair_tricks[winner], True) for seat in range(SEATS))
    if bid.side == "each" and bid.settle == "trick_difference":
        # Each pair of players settles the difference in their tricks: D is the sum of those differences.
        total = sum(tricks_won)
        sign = -1 if bid.fewest_tricks else 1
        return tuple(Share(sign * (SEATS * t - total), t, True) for t in tricks_won)
    if bid.side == "each":
        best = min(tricks_won) if bid.fewest_tricks else max(tricks_won)
        winners = sum(1 for t in tricks_won if t == best)
        return tuple(Share(SEATS - winners if t == best else -winners, t, True) for t in tricks_won)
    raise ValueError(f'the side "{bid.side}" is scored per declarer')


def share_cases(bid: SolBid) -> list[tuple[str, tuple[Share, ...]]]:
    """Every way a contract by sides can end, for checking that its scoring sums to zero."""
    cases: list[tuple[str, tuple[Share, ...]]] = []
    if bid.side == "partner":
        for taken in range(TRICKS + 1):
            tricks = [taken, 0, 0, 0]
            cases.append((Said.of("game_tricks", bid=bid.id, tricks=taken), shares(bid, (0,), tricks)))
    elif bid.side in ("pairs", "each"):
        for split in _splits(TRICKS, SEATS):
            label = Said.of("game_split", bid=bid.id, tricks="-".join(map(str, split)))
            cases.append((label, shares(bid, (), split)))
    return cases


def _splits(total: int, parts: int, most: int | None = None) -> list[tuple[int, ...]]:
    """The ways to share ``total`` tricks among ``parts`` seats, largest first (each order once)."""
    most = total if most is None else most
    if parts == 1:
        return [(total,)] if total <= most else []
    out: list[tuple[int, ...]] = []
    for first in range(min(total, most), -1, -1):
        out += [(first, *rest) for rest in _splits(total - first, parts - 1, first)]
    return out
