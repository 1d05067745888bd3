"""What the other seats' calls say about their hands, as the sampler reads it.

A seat that bid 9 holds a strong hand, one that passed at 7 a weak one; a sampler that deals the
hidden cards at random ignores that, and every bid is then priced against opponents and partners
who are as likely weak as strong (the largest optimism left in the expert's auction). GIB's approach
is followed: the meaning of each call is what the bots themselves bid it on, and the sampled deals
are weighted by how likely each seat's calls are with the hand it got there.

Two measures of a hand carry the meaning, the ones the heuristic bids by: the tricks it should take
with its longest suit as trump (``tricks``), and the high cards in sol that too few low ones cover
(``danger``). A call's likelihood is a logistic curve in the measure against the call's level:

- a trump bid needing L tricks: ``σ((tricks − L − offset) / scale)``;
- a pass where the cheapest trump bid open needed L: ``1 − σ((tricks − L − offset) / scale)``;
- a bid to take few tricks (sol and its kin, gå med): ``σ((sol_offset − danger) / sol_scale)``.

The curves' parameters are fitted to the expert's own calls by ``benchmarks/call_meanings.py``
(logistic regression on every call it made in self-play) and kept in ``Meanings``. Every
likelihood is at least ``floor``: a call is now and then made on other grounds (an overcall to
push, a pass behind a partner's bid), so no deal is ever ruled out, the real one included.

Deals are weighted, not rejected: many are dealt at random (``oversample`` per deal wanted) and
``count`` of them drawn without replacement in proportion to their weights. Rejection sampling
fails here because strong hands are rare; weights let a rare strong hand count for more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from regelmotor.bids import Bid
from regelmotor.engine.actions import Action, Verb
from regelmotor.ruleset.compile import Rules

Floats = npt.NDArray[np.float64]

AUCTION_VERBS = frozenset({Verb.PASS, Verb.BID, Verb.JOIN, Verb.HOLD, Verb.MISDEAL, Verb.CLAIM, Verb.KEEP})
"""The verbs of the auction (and the redeal claims before it); the first other verb ends it."""


@dataclass(frozen=True)
class Meanings:
    """The fitted curves: ``benchmarks/call_meanings.py --deals 300 --reading`` on ``standard``, the expert's
    1,593 calls where a trump bid was open (652 of them trump bids) and 1,593 where a sol bid was (31 sol
    bids: the sol curve rests on few calls). The bidders read the calls with these same curves while they
    were fitted (a fixed point; fitted on bidders that read nothing, the trump curve was -3.15 and 1.40)."""

    offset: float = -3.07
    """A seat bids L tricks when its own tricks are about L + offset (the partner brings the rest)."""
    scale: float = 1.70
    sol_offset: float = 1.59
    """A seat bids sol when its hand's sol danger is below about this."""
    sol_scale: float = 1.31
    floor: float = 0.03
    """No call rules a hand out: the least likelihood a call gives any hand."""


MEANINGS = Meanings()

MEANINGS_BY_RULESET = {
    "standard": MEANINGS,
    "whistklubben": Meanings(offset=-3.23, scale=1.75, sol_offset=1.76, sol_scale=1.17),
    "thorsen": Meanings(offset=-2.36, scale=1.25, sol_offset=2.46, sol_scale=1.64),
    "gruppe2": Meanings(offset=-3.62, scale=1.14, sol_offset=-0.50, sol_scale=1.72),
}
"""Each shipped game's curves, fitted the same way (``--ruleset NAME --deals 300 --reading``; gruppe2's sol
curve rests on 13 sol bids, whistklubben's on 28, thorsen's on 79). The bots bid differently in each game
(in gruppe2 on weaker hands than in standard, in thorsen on stronger), so one game's meanings misread
another's calls. A ruleset of another name (a club's own) reads calls with ``standard``'s where it is a
game of trump bids with designations (es-makker whist); one of named bids only (dansk whist) is not read."""


def meanings_for(rules: Rules) -> Meanings | None:
    """The meanings to read ``rules``' calls by, or None: no curve fitted for a game like it."""
    found = MEANINGS_BY_RULESET.get(rules.name)
    if found is None and rules.auction.designations:
        return MEANINGS
    return found


@dataclass(frozen=True, slots=True)
class Said:
    """What one seat's calls in the auction say, as levels the hand is read against."""

    bid_level: int | None = None
    """The tricks its highest trump bid (or hold) needed."""
    passed_at: int | None = None
    """The tricks the cheapest trump bid open needed when it last passed (None: no trump bid was open)."""
    sol: bool = False
    """It bid (or joined) a contract to take few tricks."""

    @property
    def empty(self) -> bool:
        return self.bid_level is None and self.passed_at is None and not self.sol


@dataclass(frozen=True)
class HandMeasures:
    """The two measures of every holding of a suit, looked up rather than counted (a playout decision
    reads hundreds of hands)."""

    length: npt.NDArray[np.int64]
    """Holding (13 bits, bit r for rank r) -> its cards; the same index for the tables below."""
    rank_sum: npt.NDArray[np.int64]
    honours: Floats
    """The tricks the holding's honours should take: the ace, a guarded king, a twice-guarded queen."""
    danger: npt.NDArray[np.int64]
    """Its high cards in sol that too few low ones cover."""
    joker_trick: float

    @classmethod
    def of(cls, rules: Rules) -> HandMeasures:
        """The measures of ``rules``' ranks, made once per compiled ruleset."""
        return rules.kept("hand measures", cls._made)

    @classmethod
    def _made(cls, rules: Rules) -> HandMeasures:
        wins = rules.play.led_joker_wins
        strength = rules.play.sol_strength
        holdings = np.arange(1 << 13, dtype=np.int64)
        has = (holdings[:, None] >> np.arange(13)) & 1 == 1
        length = has.sum(axis=1)
        ace, king, queen = has[:, 12], has[:, 11], has[:, 10]
        honours = ace + 0.6 * (king & (length >= 2)) + 0.3 * (queen & (length >= 3))
        order = np.argsort(-np.array(strength), kind="stable")
        by_strength = has[:, order]
        position = np.cumsum(by_strength, axis=1) - 1
        danger = (by_strength & (np.array(strength)[order] >= 9 - 2 * position)).sum(axis=1)
        return cls(
            length.astype(np.int64),
            (has * np.arange(13)).sum(axis=1).astype(np.int64),
            honours.astype(np.float64),
            danger.astype(np.int64),
            0.9 if wins else 0.6,
        )

    def measure(self, hands: npt.NDArray[np.int64]) -> tuple[Floats, Floats]:
        """``tricks`` and ``danger`` of each hand (a mask of its cards, bit c for card c).

        The heuristic's own counts (``HeuristicBot._trump_estimate``, ``_sol_danger``), on many hands at once.
        """
        holding = (hands[:, None] >> (13 * np.arange(4, dtype=np.int64))) & 0x1FFF
        length = self.length[holding]
        trump = np.argmax(length * 1000 + self.rank_sum[holding], axis=1)
        long = np.take_along_axis(length, trump[:, None], axis=1)[:, 0]
        jokers = ((hands >> 52) & 1) + ((hands >> 53) & 1) + ((hands >> 54) & 1)
        tricks = self.honours[holding].sum(axis=1) + 0.9 * np.maximum(0, long - 3) + self.joker_trick * jokers
        return tricks.astype(np.float64), self.danger[holding].sum(axis=1).astype(np.float64)


def _sigmoid(x: Floats) -> Floats:
    return 1.0 / (1.0 + np.exp(-x))


def _trump_level(bid: Bid) -> int | None:
    return bid.level if bid.designation is not None else None


def takes_few(rules: Rules, bid: Bid) -> bool:
    """A bid to take few tricks (sol, bordlægger, a plugin's like them): read by the sol measure."""
    named = rules.auction.named(bid)
    return named is not None and named.max_tricks is not None


def what_calls_say(history: Sequence[tuple[int, Action]], rules: Rules, seats: int = 4) -> list[Said]:
    """Each seat's calls in ``history`` (a public history) read as levels: its highest trump bid, the
    cheapest trump bid open at its last pass, whether it bid to take few tricks."""
    bid_level: list[int | None] = [None] * seats
    passed_at: list[int | None] = [None] * seats
    sol = [False] * seats
    trump_bids = [b for b in rules.auction.ladder.bids if b.designation is not None]
    current: Bid | None = None
    for seat, action in history:
        if action.verb not in AUCTION_VERBS:
            break
        if action.verb is Verb.BID and action.bid is not None:
            current = action.bid
            level = _trump_level(action.bid)
            if level is not None:
                bid_level[seat] = max(level, bid_level[seat] or 0)
            elif takes_few(rules, action.bid):
                sol[seat] = True
        elif action.verb is Verb.HOLD and current is not None:
            level = _trump_level(current)
            if level is not None:
                bid_level[seat] = max(level, bid_level[seat] or 0)
            elif takes_few(rules, current):
                sol[seat] = True
        elif action.verb is Verb.JOIN:
            sol[seat] = True
        elif action.verb is Verb.PASS:
            rank = -1 if current is None else current.rank
            open_bid = next((b for b in trump_bids if b.rank > rank), None)
            passed_at[seat] = None if open_bid is None else open_bid.level
    return [Said(bid_level[s], passed_at[s], sol[s]) for s in range(seats)]


def weights(
    held: Sequence[npt.NDArray[np.int64]],
    said: Sequence[Said],
    measures: HandMeasures,
    meanings: Meanings = MEANINGS,
) -> Floats:
    """Each sampled deal's weight: the product over seats of how likely its calls are with its hand there.

    ``held[i]`` is the ``i``-th read seat's hand in each deal, as card masks.
    """
    total: Floats | None = None
    for hands, what in zip(held, said, strict=True):
        if what.empty:
            continue
        tricks, danger = measures.measure(hands)
        like = np.ones(len(tricks))
        if what.bid_level is not None:
            like *= _sigmoid((tricks - what.bid_level - meanings.offset) / meanings.scale)
        if what.passed_at is not None and what.bid_level is None:
            like *= 1.0 - _sigmoid((tricks - what.passed_at - meanings.offset) / meanings.scale)
        if what.sol:
            like *= _sigmoid((meanings.sol_offset - danger) / meanings.sol_scale)
        like = meanings.floor + (1.0 - meanings.floor) * like
        total = like if total is None else total * like
    if total is None:
        return np.ones(len(held[0]) if held else 0)
    return total


def weighted_order(w: Floats, rng_value: Floats) -> list[int]:
    """The deals in the order of a draw without replacement in proportion to ``w`` (Efraimidis and
    Spirakis: the largest ``u ** (1 / w)`` first), ``rng_value`` being one uniform draw per deal."""
    keys = np.log(np.maximum(rng_value, 1e-300)) / np.maximum(w, 1e-300)
    return [int(i) for i in np.argsort(-keys, kind="stable")]


def effective_size(w: Floats) -> float:
    """Kish's effective sample size of weights ``w`` (how many equal-weight deals they are worth)."""
    total = float(w.sum())
    squares = float((w * w).sum())
    return 0.0 if squares == 0 else total * total / squares


def logistic_fit(x: Sequence[float], y: Sequence[int], iterations: int = 50) -> tuple[float, float]:
    """``(offset, scale)`` of ``P(y = 1) = σ((x − offset) / scale)`` by maximum likelihood (Newton's method),
    for ``benchmarks/call_meanings.py``."""
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    design = np.stack([np.ones_like(xs), xs], axis=1)
    beta = np.zeros(2)
    for _ in range(iterations):
        p = _sigmoid(design @ beta)
        gradient = design.T @ (ys - p)
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if float(np.abs(step).max()) < 1e-10:
            break
    slope = float(beta[1])
    if slope == 0 or not math.isfinite(slope):
        raise ValueError("the calls do not depend on the measure: no curve to fit")
    return -float(beta[0]) / slope, 1.0 / slope
