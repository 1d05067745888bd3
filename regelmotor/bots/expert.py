"""The expert: every decision by the points it expects, played out on deals sampled from its own view.

Determinized Monte Carlo, the family of GIB (bridge) and Kermit (Skat): deal the cards the bot
cannot see at random, consistently with everything it has seen; play each candidate action out
to the end of the deal on each sampled deal; score the result through the ruleset's one scoring door
(``rules.scoring.points``, with every plugin's wrapper); take the candidate with the most points on average
for its own seat.

It knows no designation, sol bid or house rule by name. A bid is weighed by what the compiled
ruleset does with it: the engine runs the sampled deal's declaration and exchange (the hooks
decide who names trump, turns the kitty, calls a card, exchanges), the kernel plays the cards
by the ruleset's own play rules (the last four tricks solved double dummy, as the experts at the
table solve theirs: ``Budget.plan_dd_cards``), and the scorer prices the tricks. So a club's own designation,
a sol bid a plugin adds, or a table that pays sol three times as much changes what it bids.

Bidding: for each kind of contract it may bid (each designation, each sol bid) it plays the deal
out on a tenth of the sampled deals, the most promising on another tenth (successive halving), and the
two finalists are priced on the rest, which did not choose them (the winner's curse); every level
of a kind is priced from the same tricks; passing, gå med and kan selv are played out as themselves.
Declaration, exchange, fordækt and doubling: each legal action (the exchange's most plausible
discards, the fordækt's cheapest cards) played out. Card play: each legal card played out by the
kernel's playout policy on each sampled deal, and in the last tricks valued double dummy instead
(``double_dummy``: both sides at their best on that deal). Inside a playout each seat acts on what it
would know there (the kernel's policy reads no hand the rules have not shown it).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from regelmotor import play_row
from regelmotor.bids import Bid
from regelmotor.bots import double_dummy as DD
from regelmotor.bots import kernel as K
from regelmotor.bots.budget import DEFAULT_BUDGET, V1_BUDGET, Budget
from regelmotor.bots.call_reading import HandMeasures, meanings_for
from regelmotor.bots.first_lead import AtFirstLead, ExchangeAsk, Known, first_lead, takes_first_lead_path
from regelmotor.bots.heuristic import HeuristicBot
from regelmotor.bots.knowledge import CallReading, play_knowledge, read_rows, sample_worlds
from regelmotor.bots.style import Style, kind_of
from regelmotor.cards import Card
from regelmotor.engine.actions import (
    KEEP_ACTION,
    NO_FORDAEKT_ACTION,
    PASS_ACTION,
    Action,
    Verb,
    discard,
    fordaekt,
    seat_action,
)
from regelmotor.engine.discards import Discards
from regelmotor.engine.game import PLAY, Game, View
from regelmotor.errors import RegelmotorError
from regelmotor.hooks import ContractInfo
from regelmotor.ruleset.compile import Rules
from regelmotor.ruleset.phases import PlayPhase

__all__ = ["DEFAULT_BUDGET", "V1_BUDGET", "Budget", "ExpertBot"]

K_ = TypeVar("K_")
"""What a batch of playouts is grouped by: a candidate action, or a kind of contract."""


_TOKENS = itertools.count()
_LEAF_TABLES = threading.local()
"""Each thread's double-dummy tables, one per seat, made once (a bot per deal would make four per deal);
a table says which bot and contract its positions belong to, and is cleared for another."""
_WARNED: set[str] = set()


def kernel_for(rules: Rules) -> PlayPhase:
    """The play rules the kernel's playouts play by (``rules.play``); says once when they cannot be exact."""
    kernel = rules.play
    if not kernel.exact and rules.name not in _WARNED:
        _WARNED.add(rules.name)
        print(
            f"regelmotor: a plugin decides a play rule of {rules.name}; the expert bot plays its "
            "deals out with the engine's own functions (slower, but right)",
            file=sys.stderr,
        )
    return kernel


def _value_tables(rules: Rules) -> dict[tuple[object, ...], tuple[float, ...]]:
    """The card value tables of a compiled ruleset, by contract, shared by every bot that plays it (they
    depend on the rules alone, and a bot lives for one deal)."""
    return rules.kept("card values", lambda _: {})


POINTS_KEPT = 100_000
"""The most deal scores kept per ruleset (a few tens of MB); past it the memo starts again."""


def _points_memo(rules: Rules) -> dict[tuple[object, ...], float]:
    """A seat's points for a contract's tricks, by ruleset: the scoring depends on nothing else, and the
    same splits of the tricks recur across decisions, seats and deals (a bot lives for one deal)."""
    memo: dict[tuple[object, ...], float] = rules.kept("deal points", lambda _: {})
    if len(memo) > POINTS_KEPT:
        memo.clear()
    return memo


def _kind(bid: Bid) -> object:
    """A bid's kind of contract: its designation, or its sol bid (every level of a kind is priced from
    the same tricks)."""
    return bid.designation or ("sol", bid.sol)


@dataclass(frozen=True, slots=True)
class Played:
    """A sampled deal played out to the end: what scoring it needs (``bid`` None: the deal was void)."""

    bid: Bid | None
    declarers: tuple[int, ...]
    partner: int | None
    vip_card: int
    doublings: int
    tricks: tuple[int, ...]


VOID = Played(None, (), None, 0, 0, ())


class ExpertBot:
    name = "expert"
    needs_view = True

    def __init__(
        self,
        rules: Rules,
        rng: random.Random,
        play_samples: int | None = None,
        plan_samples: int | None = None,
        budget: Budget = DEFAULT_BUDGET,
        style: Style | None = None,
    ) -> None:
        """``play_samples`` (for a card led too) and ``plan_samples`` override the budget's (tests play small);
        ``style`` (``bots/style.py``) sets its caution in place of the budget's and leans its calls."""
        if style is not None and style.caution != budget.bid_caution:
            budget = dataclasses.replace(budget, bid_caution=style.caution)
        self.style = None if style is None or not (style.appetite or style.passing) else style
        """The style's leanings, where it has any (its caution is in the budget)."""
        self.rules = rules
        self.rng = rng
        self.kernel = kernel_for(rules)
        self.budget = budget
        self.play_samples = budget.play_samples if play_samples is None else play_samples
        self.lead_samples = budget.lead_samples if play_samples is None else play_samples
        self.plan_samples = budget.plan_samples if plan_samples is None else plan_samples
        meanings = budget.meanings or meanings_for(rules)
        self.reading = (
            CallReading(HandMeasures.of(rules), meanings, budget.read_oversample)
            if budget.read_calls and meanings is not None
            else None
        )
        self.quick = HeuristicBot(rules, rng)
        """Cheap choices for the other seats, and its own later ones, inside a playout."""
        self.estimates: dict[Action, float] = {}
        """The value it gave each candidate at its last decision (mean points for its own seat): for
        checking its estimates against what the deals then bring (a bid chosen in the auction priced
        again on fresh deals, where the budget asks for it: ``honest_samples``)."""
        self.chosen_on: dict[Action, float] = {}
        """Each candidate's value on the deals that chose among them, at its last decision before play."""
        self._memo = _points_memo(rules)
        self._errors: dict[Action, float] = {}
        self._values_by_contract = _value_tables(rules)
        self._token = next(_TOKENS)
        """This bot among all in the process (an ``id`` may be a dead bot's): whose positions a leaf table holds."""
        self._seat: int = 0
        self._dealt: tuple[int, tuple[Card, ...]] = (0, ())
        """The seat deciding now and its deal (the dealer and its hand): whose positions its leaf table holds."""
        self._kinds: dict[tuple[object, ...], tuple[dict[object, list[Played]], dict[object, list[Played]]]] = {}
        """Per seat and hand: each kind's playouts that chose the finalists, and the finalists' prices."""
        self._choices: dict[tuple[object, ...], Action] = {}
        """The playouts' trumps, partner cards and exchanges, by hand and choices (``choose_trump``)."""
        self._known = Known()
        """The rules' answers in its playouts taken to the first lead (``first_lead``)."""
        self._first_lead = self.kernel.exact and takes_first_lead_path(rules)
        """Whether the bidding's playouts may go to the first lead without a ``Game`` (``first_lead``): the
        shipped rules decide its steps, and the kernel plays the cards (no plugin's play rule needs facts)."""

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "the expert decides from its view"
        if len(legal) == 1:
            return legal[0]
        self._seat, self._dealt = view.seat, (view.dealer, view.hand)
        if view.phase == PLAY:
            return self._play(view, legal)
        if not view.hand and KEEP_ACTION in legal:  # a claim made before looking: nothing to weigh, so keep
            return KEEP_ACTION
        return self._plan(view, legal)

    # --- card play -------------------------------------------------------------------------------

    def _play(self, view: View, offered: Sequence[Action]) -> Action:
        legal = [a for a in offered if a.card is not None]
        doubling = [a for a in offered if a.card is None]  # a doubling at one's turn to play ("banke")
        if len(legal) == 1 and not doubling:
            return legal[0]
        know = play_knowledge(view, legal, self.rules, self.kernel)
        facts = know.facts
        reading = self.reading if self.budget.read_in_play else None
        samples = self.play_samples if view.play.trick else self.lead_samples
        dealt = samples * (1 if reading is None else reading.oversample)
        rows = K.sample_rows(know.base, know.pool, know.allowed, know.capacity, dealt, self.rng.getrandbits(31))
        if reading is not None:
            rows = read_rows(rows, know, view, self.rules, reading, samples, self.rng)
        candidates = np.array(know.candidates, dtype=np.int64)
        consts = self.kernel.constants
        if self.kernel.exact:  # a run of equivalent cards is weighed once, on the card that stands for it
            twin = DD.twins(rows, candidates, consts).tolist()
            weighed = sorted(set(twin))
            seed = self.rng.getrandbits(31)
            won = K.evaluate_cards(rows, candidates[weighed], consts, seed, self.budget.common_chances)
            self._double_dummy(view, won, rows, candidates[weighed])
        else:
            twin = weighed = list(range(len(legal)))
            won = np.array(
                [
                    [K.engine_playout(self.rules, know.facts, row, self.rng, int(card)) for card in candidates]
                    for row in rows
                ]
            )
        totals = self._card_totals(view, facts, rows, won)
        finalists = self._lead_finalists(view, rows, totals)
        if finalists:  # the leads ranked highest, solved from more cards: only they may be led
            solved = won[:, finalists].copy()
            self._double_dummy(view, solved, rows, candidates[[weighed[c] for c in finalists]], deeper=True)
            for c, total in zip(finalists, self._card_totals(view, facts, rows, solved), strict=True):
                totals[c] = total
        column = {card: c for c, card in enumerate(weighed)}
        self.estimates = {action: totals[column[t]] / len(rows) for action, t in zip(legal, twin, strict=True)}
        best = max(finalists or range(len(weighed)), key=lambda c: (totals[c], -weighed[c]))
        top = weighed[best]
        run = [c for c, t in enumerate(twin) if t == top]
        sol = int(rows[0, play_row.SOL])
        strength = {c: play_row.card_strength(int(candidates[c]), sol, consts) for c in run}
        # equal in tricks: lead the top of the run, follow with its lowest, as a club player does
        chosen = max(run, key=strength.__getitem__) if not view.play.trick else min(run, key=strength.__getitem__)
        if doubling and totals[best] > 0:  # the playouts expect this seat to gain: a doubling multiplies it
            return doubling[0]
        return legal[chosen]

    def _card_totals(
        self, view: View, facts: play_row.PlayFacts, rows: play_row.Rows, won: play_row.Rows
    ) -> list[float]:
        """Each weighed card's points for this seat, summed over the sampled deals."""
        me = view.seat
        totals = [0.0] * won.shape[1]
        key = (facts.bid.text, facts.declarers)
        for r, partner in enumerate(rows[:, play_row.PARTNER].tolist()):
            owner = None if partner < 0 else partner
            contract = (*key, owner, len(view.turned), view.doublings, me)
            for c, tricks in enumerate(won[r].tolist()):
                full = (*contract, *tricks)
                found = self._memo.get(full)
                totals[c] += self._scored(full, facts.bid) if found is None else found
        return totals

    def _lead_finalists(self, view: View, rows: play_row.Rows, totals: list[float]) -> list[int]:
        """The leads the playouts rank highest (``Budget.dd_lead_finalists``), where the budget has a lead
        solved from more cards than the rest of play and the position is within them; else none."""
        budget = self.budget
        if view.play.trick or not self.kernel.exact or len(totals) < 2 or not len(rows):
            return []
        if DD.objective(rows[0]) != DD.MOST or not budget.dd_cards < sum(view.hand_sizes) <= budget.dd_lead_cards:
            return []
        return sorted(range(len(totals)), key=lambda c: -totals[c])[: budget.dd_lead_finalists]

    def _double_dummy(
        self, view: View, won: play_row.Rows, rows: play_row.Rows, candidates: play_row.Rows, deeper: bool = False
    ) -> None:
        """The playouts' tricks replaced by double-dummy values where the budget allows (the late tricks).

        The narrow budget is for a contract whose declarer wants the fewest tricks, as the solver reads
        the row, not for every sol bid by name: engelsk whist's one game and dansk's grand are sol bids
        of the ladder played for the most tricks, and were searched on the sol's budget. ``deeper``: a
        lead's finalists, solved from ``dd_lead_cards``."""
        budget = self.budget
        if not len(rows):
            return
        fewest = DD.objective(rows[0]) == DD.FEWEST
        cards, nodes = (budget.dd_sol_cards, budget.dd_sol_nodes) if fewest else (budget.dd_cards, budget.dd_nodes)
        if deeper:
            cards = budget.dd_lead_cards
        if sum(view.hand_sizes) > cards:
            return
        table = self._leaf_table(view.seat, (view.dealer, view.contract, view.declarers, view.trump, view.called))
        DD.evaluate_cards(won, rows, candidates, self.kernel.constants, table, nodes)

    def _leaf_table(self, seat: int, position: tuple[object, ...]) -> play_row.Rows:
        """The seat's leaf table in this thread, cleared where it held another bot's positions or another
        ``position``'s (a table is 4 MB: one a seat and thread, not one a bot)."""
        owner = (self._token, *position)
        pool: dict[int, tuple[play_row.Rows, list[object]]] = _LEAF_TABLES.__dict__.setdefault("by_seat", {})
        if seat not in pool:
            pool[seat] = (DD.new_table(), [None])
        table, held_for = pool[seat]
        if held_for[0] != owner:
            if held_for[0] is not None:
                DD.clear(table)
            held_for[0] = owner
        return table

    # --- before play ------------------------------------------------------------------------------

    def _plan(self, view: View, legal: Sequence[Action]) -> Action:
        auction = view.phase == "auction"
        count = self.plan_samples * (self.budget.bid_samples if auction else 1)
        worlds = sample_worlds(view, self.rules, self.rng, count, self._hidden, reading=self.reading)
        if not worlds:  # no sampled deal fits what it has seen (rare): decide as the heuristic would
            return self.quick.choose(view, legal)
        claims = [a for a in legal if a != KEEP_ACTION] if auction and KEEP_ACTION in legal else []
        if claims:  # jernhånd, or a plugin's claim: void the deal when no bid pays
            best = max(self._bid_values(view, worlds, legal, claiming=True).values(), default=0.0)
            return KEEP_ACTION if best > 0 else claims[0]
        self._errors = {}
        if auction:
            values = self._bid_values(view, worlds, legal, claiming=False)
        else:
            candidates = self._candidates(view, legal)
            values = self._values(view, worlds, candidates)
        self.estimates = values
        self.chosen_on = values
        if not values:  # nothing could be played out on the sampled deals: decide as the heuristic would
            return self.quick.choose(view, legal)
        order = {action: i for i, action in enumerate(legal)}
        caution, errors = self.budget.bid_caution, self._errors
        decide = {a: v - caution * errors.get(a, 0.0) for a, v in values.items()}
        if auction and self.style is not None:
            decide = self.style.lean(decide)
        choice = max(decide, key=lambda a: (decide[a], a == PASS_ACTION, -order.get(a, 0)))
        if auction and choice.bid is not None and self.budget.honest_samples:
            again = self._priced_again(view, legal, choice.bid)
            if again is not None:
                self.estimates = {**values, choice: again}
        return choice

    def _priced_again(self, view: View, legal: Sequence[Action], bid: Bid) -> float | None:
        """``bid``'s price on ``honest_samples`` fresh deals, played out as its kind is priced (at the
        kind's lowest legal level, the tricks scored at ``bid``); None where none could be played out.

        The bot's own random stream is left where it was, so that it decides everything as it would
        without the second price: the fresh deals come from a stream of their own, seeded by its state."""
        state = self.rng.getstate()
        try:
            fresh = random.Random(hash(state[1]))  # the generator's words: ints hash alike in every process
            kind = _kind(bid)
            group = [a.bid for a in legal if a.bid is not None and _kind(a.bid) == kind]
            count = self.budget.honest_samples
            worlds = sample_worlds(view, self.rules, fresh, count, self._hidden, reading=self.reading)
            played = self._kind_outcomes(view.seat, worlds, [kind], {kind: group})[kind]
            return self._mean(view.seat, played, bid) if played else None
        finally:
            self.rng.setstate(state)

    def _candidates(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The actions worth playing out: all of them, but for the exchange and fordækt shortlists."""
        verb = legal[0].verb
        if verb in (Verb.DISCARD, Verb.KEEP):
            return self._exchange_candidates(view, legal)
        if verb is Verb.NO_FORDAEKT:
            cheap = self._ranked(view)[: self.budget.fordaekt_choices]
            return [NO_FORDAEKT_ACTION, *(fordaekt(c) for c in cheap)]
        return list(legal)

    def _ranked(self, view: View) -> list[int]:
        """The seat's cards but the partner card, those its hand values least first."""
        called = view.called
        sol = view.contract is not None and view.contract.is_sol
        values = self._value_table(sol, view.trump, called)
        return sorted((c for c in view.hand if c != called), key=values.__getitem__)

    def _exchange_candidates(self, view: View, legal: Sequence[Action]) -> list[Action]:
        ranked = self._ranked(view)
        counts = sorted({len(a.cards) for a in legal if a.verb is Verb.DISCARD})
        candidates = [KEEP_ACTION] if KEEP_ACTION in legal else []
        for count in counts:
            for cards in itertools.combinations(ranked[: count + self.budget.exchange_choices], count):
                action = discard(cards)
                if action in legal:
                    candidates.append(action)
        return candidates or [legal[0]]

    def _values(self, view: View, worlds: list[Game], candidates: Sequence[Action]) -> dict[Action, float]:
        """Each candidate's mean points for this seat over the sampled deals."""
        starts: list[tuple[Action, Game]] = []
        for world in worlds:
            for action in candidates:
                game = world.clone()
                try:
                    game.apply(action)
                except RegelmotorError:  # not open to it in this sampled deal: weighed on the others
                    continue
                starts.append((action, game))
        by_action = self._play_out_each(starts, candidates)
        return {a: self._mean(view.seat, deals) for a, deals in by_action.items() if deals}

    def _bid_values(
        self, view: View, worlds: list[Game], legal: Sequence[Action], *, claiming: bool
    ) -> dict[Action, float]:
        """Each call's mean points: a bid priced from its kind's playouts at its own level.

        Choosing the best of many noisy means picks the most overrated one (the winner's curse), so
        the sampled deals that choose are not the ones that price: every kind of contract is played
        out on the first of them (``Budget.selection``: a tenth), the three most promising on the next
        tenth (successive halving), and the best two (the finalists) are priced on the rest, which took
        no part in choosing them. Only finalists are bid; their kinds' prices are kept for the seat's later
        calls in the same deal.
        """
        ladder = self.rules.auction.ladder
        me = view.seat
        chosen, priced = self._kinds.setdefault((me, view.dealer, view.hand), ({}, {}))
        bids = [a.bid for a in legal if a.bid is not None] if not claiming else list(ladder.bids)
        by_kind: dict[object, list[Bid]] = {}
        for bid in bids:
            by_kind.setdefault(_kind(bid), []).append(bid)
        playing = [kind for kind in by_kind if kind not in chosen]
        for kind in playing:
            chosen[kind] = []

        def best(kind: object) -> float:
            price = max(self._mean(me, chosen[kind], bid) for bid in by_kind[kind])
            if self.style is not None:  # a kind the style wants is kept among the finalists as it is bid
                price += self.style.appetite_for(kind_of(by_kind[kind][0]))
            return price

        start = 0
        for share, keep in self.budget.selection:
            stop = start + max(1, round(share * len(worlds)))
            for kind, played in self._kind_outcomes(me, worlds[start:stop], playing, by_kind).items():
                chosen[kind] += played
            start = stop
            playing = sorted((k for k in playing if chosen[k]), key=best, reverse=True)[:keep]
        for kind, played in self._kind_outcomes(me, worlds[start:], playing, by_kind).items():
            if played:
                priced[kind] = played
        stats = {
            Action(Verb.BID, bid=bid): self._stats(me, priced[kind], bid)
            for kind, group in by_kind.items()
            if kind in priced  # a finalist, now or at an earlier call
            for bid in group
        }
        values = {action: mean for action, (mean, _) in stats.items()}
        if self.budget.bid_caution:
            self._errors = {action: error for action, (_, error) in stats.items()}
        if claiming:
            return values
        others = [a for a in legal if a.verb not in (Verb.BID, Verb.MISDEAL)]
        values.update(self._values(view, worlds[: self.plan_samples], others))
        return values

    def _kind_outcomes(
        self, me: int, worlds: list[Game], kinds: list[object], by_kind: dict[object, list[Bid]]
    ) -> dict[object, list[Played]]:
        """Each kind of contract played out on each world, bid at its lowest legal level by this seat."""
        lowest = {kind: Action(Verb.BID, bid=min(by_kind[kind], key=lambda bid: bid.rank)) for kind in kinds}
        starts: list[tuple[object, Game | AtFirstLead]] = []
        for world in worlds:
            at_call = world if world.step == ("call", me) else self._to_my_call(world.clone(), me)
            if at_call is None:
                continue
            for kind in kinds:
                if lowest[kind] not in at_call.legal:
                    continue
                settled = None
                if self._first_lead:
                    settled = first_lead(self.rules, self.kernel, at_call, lowest[kind], self, self._known)
                if settled is None:
                    game = at_call.clone()
                    game.apply(lowest[kind])
                    starts.append((kind, game))
                else:
                    starts.append((kind, settled))
        return self._play_out_each(starts, kinds)

    @staticmethod
    def _to_my_call(game: Game, me: int) -> Game | None:
        """The game moved on to this seat's first call, every other seat passing (after a kept claim)."""
        while game.step is not None and game.step != ("call", me):
            if game.step[0] == "claim":
                game.apply(KEEP_ACTION)
            elif game.step[0] == "call":
                game.apply(PASS_ACTION)
            else:
                return None
        return game if game.step == ("call", me) else None

    # --- playing a sampled deal out ------------------------------------------------------------------

    def _play_out_each(
        self, starts: Sequence[tuple[K_, Game | AtFirstLead]], labels: Sequence[K_]
    ) -> dict[K_, list[Played]]:
        """The games played out in one batch, the deals grouped by the label each started with."""
        grouped: dict[K_, list[Played]] = {label: [] for label in labels}
        for (label, _), deal in zip(starts, self._play_out([game for _, game in starts]), strict=True):
            grouped[label].append(deal)
        return grouped

    def _play_out(self, games: Sequence[Game | AtFirstLead]) -> list[Played]:
        """Each game's remaining choices before play made cheaply, then its cards played out by the kernel
        (a deal ``first_lead`` took to its first lead is played from its row)."""
        rows: list[play_row.Rows] = []
        facts: list[play_row.PlayFacts | None] = []
        for game in games:
            if isinstance(game, AtFirstLead):
                facts.append(None)  # only a plugin's play rules read them, and then no deal comes this way
                rows.append(np.array(game.row, dtype=np.int64))
                continue
            while game.step is not None and game.phase != PLAY:
                kind, seat = game.step
                game.apply(self._quick(game, kind, seat))
            if game.phase == PLAY:
                facts.append(play_row.game_facts(game))
                rows.append(play_row.row_from_game(self.kernel, game, facts[-1]))
        won = iter(self._playouts(rows, facts).tolist())
        return [
            Played(game.bid, game.declarers, game.partner, game.vip_card, 0, tuple(next(won)))
            if isinstance(game, AtFirstLead)
            else Played(game.bid, game.declarers, game.partner, game.vip_card, game.doublings, tuple(next(won)))
            if game.phase == PLAY and game.bid is not None
            else VOID
            for game in games
        ]

    def _quick(self, game: Game, kind: str, seat: int) -> Action:
        """A seat's choice inside a playout: cheap rules of thumb on the sampled deal, no search."""
        legal = game.legal
        hand = game.hands[seat]
        if kind == "claim":
            return KEEP_ACTION
        if kind == "call":
            return PASS_ACTION if PASS_ACTION in legal else legal[0]
        if kind == "exchange":
            return self._quick_exchange(game, seat)
        if kind in ("double", "redouble"):
            return self.choose_double(seat, legal)
        if kind in ("trump", "trump_or_vip"):
            return self.choose_trump(hand, legal)
        if kind == "exchanger":
            return self.choose_exchanger(seat, legal)
        if kind == "call_card":
            return self.choose_partner_card(hand, legal)
        if kind == "vip":
            return self.choose_vip(hand, game.turned[-1], legal)
        return self.quick.choose(game.view(seat), legal)

    def _chosen(self, key: tuple[object, ...], choose: Callable[[], Action]) -> Action:
        """A playout's choice, worked out once a bot for the same ``key`` (the hand and choices it is made
        from: a declarer's own hand recurs over the sampled deals)."""
        found = self._choices.get(key)
        if found is None:
            found = self._choices[key] = choose()
        return found

    def choose_trump(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action:
        """Trump inside a playout, as the heuristic names it."""
        return self._chosen(("trump", tuple(hand), tuple(legal)), lambda: self.quick.choose_trump(hand, legal))

    def choose_partner_card(self, hand: Sequence[Card], legal: Sequence[Action]) -> Action:
        """The partner card inside a playout, as the heuristic calls it."""
        return self._chosen(("call", tuple(hand), tuple(legal)), lambda: self.quick.choose_partner_card(hand, legal))

    def choose_vip(self, hand: Sequence[Card], turned: Card, legal: Sequence[Action]) -> Action:
        """Accept a turned kitty card or turn the next, inside a playout, as the heuristic does."""
        return self.quick.choose_vip(hand, turned, legal)

    def choose_double(self, seat: int, legal: Sequence[Action]) -> Action:
        """A doubling inside a playout: pass (the playouts price the contract as bid)."""
        return PASS_ACTION

    def choose_exchanger(self, seat: int, legal: Sequence[Action]) -> Action:
        """Who exchanges, where the partner ``seat`` chooses: himself."""
        mine = seat_action(Verb.EXCHANGER, seat)
        return mine if mine in legal else legal[0]

    def _quick_exchange(self, game: Game, seat: int) -> Action:
        """``exchange_choice`` for the seat exchanging in ``game``."""
        sol = game.bid is not None and game.bid.is_sol
        hand, counts = tuple(game.hands[seat]), tuple(game.exchange_counts())
        return self.exchange_choice(
            ExchangeAsk(hand, counts, len(game.kitty), game.legal, sol, game.trump, game.called)
        )

    def exchange_choice(self, ask: ExchangeAsk) -> Action:
        """Keep or exchange, and how many, as the hand itself says: a card goes where it is worth less
        than the card that replaces it is on average (any card the seat has not seen), and of the
        numbers the rules allow (``counts``, from a kitty of ``kitty`` cards) the one that gains the most
        (not always the most it may discard). Worked out once a bot for the same hand and choices (a
        declarer's own hand recurs over the sampled deals)."""
        hand, counts, kitty, legal, sol, trump, called = ask
        key = ("exchange", hand, counts, kitty, _actions_key(legal), sol, trump, called)
        return self._chosen(key, lambda: self._exchange_choice(ask))

    def _exchange_choice(self, ask: ExchangeAsk) -> Action:
        hand, counts, kitty, legal, sol, trump, called = ask
        values, ranked = self._least_wanted(hand, sol, trump, called)
        deck = 52 + self.rules.dealing.jokers
        average = (sum(values[:deck]) - sum(values[c] for c in hand)) / (deck - len(hand))
        best, best_gain = None, float("-inf")
        for count in counts:
            if count > kitty or count > len(ranked):
                continue
            gain = sum(average - values[c] for c in ranked[:count])
            if gain > best_gain:
                action = KEEP_ACTION if count == 0 else discard(ranked[:count])
                if action in legal:
                    best, best_gain = action, gain
        return best if best is not None else self._discard_choice(hand, legal, None, sol, trump, called)

    def _discard_choice(
        self,
        hand: Sequence[Card],
        legal: Sequence[Action],
        count: int | None,
        sol: bool,
        trump: str | None,
        called: Card | None,
    ) -> Action:
        """The cards the hand values least, as many as it may discard (or ``count``)."""
        if count is None:
            count = max((len(a.cards) for a in (legal[-1], legal[0]) if a.verb is Verb.DISCARD), default=0)
            if count == 0:
                return legal[0]
        action = discard(self._least_wanted(hand, sol, trump, called)[1][:count])
        return action if action in legal else legal[-1]

    def _least_wanted(
        self, hand: Sequence[Card], sol: bool, trump: str | None, called: Card | None
    ) -> tuple[tuple[float, ...], list[int]]:
        """The contract's value table, and the hand's cards but the partner card, least wanted first."""
        values = self._value_table(sol, trump, called)
        return values, sorted([c for c in hand if c != called], key=values.__getitem__)

    def _value_table(self, sol: bool, trump: str | None, called: int | None) -> tuple[float, ...]:
        """Card -> how much a hand wants to keep it in this contract (the heuristic's measure), made once."""
        key = (sol, trump, called)
        table = self._values_by_contract.get(key)
        if table is None:
            table = self._values_by_contract[key] = tuple(self.quick.value_of(c, sol, trump, called) for c in range(55))
        return table

    def _hidden(self, game: Game, seat: int, count: int) -> Action:
        """What another seat plausibly did where the bot could not see it (discards, a fordækt card)."""
        if game.step is not None and game.step[0] == "exchange":
            sol = game.bid is not None and game.bid.is_sol
            return self._discard_choice(game.hands[seat], game.legal, count, sol, game.trump, game.called)
        values = self._value_table(False, game.trump, game.called)
        return fordaekt(min(game.hands[seat], key=values.__getitem__))

    def _playouts(self, rows: list[play_row.Rows], facts: Sequence[play_row.PlayFacts | None]) -> play_row.Rows:
        if not rows:
            return np.zeros((0, 4), dtype=np.int64)
        if self.kernel.exact:
            cards, consts = self.budget.plan_dd_cards, self.kernel.constants
            if not cards:
                return K.playout_rows(np.array(rows), consts, self.rng.getrandbits(31))
            played = np.array(rows)
            won = np.zeros((len(rows), 4), dtype=np.int64)
            table = self._leaf_table(self._seat, ("before play", self._dealt))
            rest = np.ones(len(rows), dtype=np.bool_)
            leaf = np.ones(len(rows), dtype=np.bool_)  # the rows the common leaf may solve
            budget = self.budget
            deep, deep_nodes = budget.plan_dd_open_sol_cards, budget.plan_dd_open_sol_nodes
            if deep > cards:  # an open sol's playouts solved from more cards
                open_sols = np.flatnonzero((played[:, play_row.SOL_LIMIT] >= 0) & (played[:, play_row.OPEN_SEATS] != 0))
                if open_sols.size:
                    self._solve_from(played, won, rest, open_sols, deep, deep_nodes, table)
            closed = budget.plan_dd_closed_sol_cards
            if closed != cards:  # a closed sol's playouts solved from another number of cards, or played out
                hidden = [DD.objective(row) == DD.FEWEST and row[play_row.OPEN_SEATS] == 0 for row in played]
                closed_sols = np.flatnonzero(hidden)
                if closed_sols.size:
                    leaf[closed_sols] = False
                    if closed:
                        self._solve_from(played, won, rest, closed_sols, closed, budget.plan_dd_nodes, table)
                    elif budget.plan_closed_sol_looking:
                        seed = self.rng.getrandbits(31)
                        won[closed_sols] = K.playout_rows_looking(
                            played[closed_sols], consts, seed, budget.plan_closed_sol_looking
                        )
                        rest[closed_sols] = False
            self._solve_from(played, won, rest, np.flatnonzero(rest & leaf), cards, budget.plan_dd_nodes, table)
            if rest.any():  # no two sides, or a search over its budget: played out to the end
                won[rest] = K.playout_rows(played[rest], consts, self.rng.getrandbits(31))
            return won
        return np.array(
            [K.engine_playout(self.rules, _known(f), row, self.rng) for row, f in zip(rows, facts, strict=True)]
        )

    def _solve_from(
        self,
        played: play_row.Rows,
        won: play_row.Rows,
        rest: npt.NDArray[np.bool_],
        which: npt.NDArray[np.intp],
        cards: int,
        nodes: int,
        table: play_row.Rows,
    ) -> None:
        """The rows ``which`` of ``played`` played on to ``cards`` cards and solved from there (their tricks
        into ``won``, at most ``nodes`` nodes a row); those settled are taken out of ``rest``."""
        part, part_won = played[which], won[which]
        K.play_rows_to(part, self.kernel.constants, self.rng.getrandbits(31), cards)
        settled = DD.finish_rows(part_won, part, self.kernel.constants, table, nodes)
        played[which], won[which] = part, part_won
        rest[which[settled == 1]] = False

    def _mean(self, me: int, played: list[Played], bid: Bid | None = None) -> float:
        """Mean points of ``me`` (a float: a statistic, not a score to book) over the deals played out,
        each scored at ``bid`` where given (the same tricks priced at another level of the same kind)."""
        points = self._deal_points(me, played, bid)
        return sum(points) / len(points) if points else 0.0

    def _stats(self, me: int, played: list[Played], bid: Bid) -> tuple[float, float]:
        """``_mean``'s value at ``bid`` and its standard error."""
        points = self._deal_points(me, played, bid)
        if len(points) < 2:
            return (points[0] if points else 0.0), 0.0
        mean = sum(points) / len(points)
        variance = sum((p - mean) ** 2 for p in points) / (len(points) - 1)
        return mean, float((variance / len(points)) ** 0.5)

    def _deal_points(self, me: int, played: list[Played], bid: Bid | None) -> list[float]:
        """``me``'s points in each deal played out (at ``bid`` where given); a void deal scores nothing."""
        points = []
        memo = self._memo
        for deal in played:
            if deal.bid is None:
                points.append(0.0)
                continue
            contract = bid or deal.bid
            full = (contract.text, deal.declarers, deal.partner, deal.vip_card, deal.doublings, me, *deal.tricks)
            found = memo.get(full)
            points.append(self._scored(full, contract) if found is None else found)
        return points

    def _scored(self, full: tuple[Any, ...], bid: Bid) -> float:
        """``me``'s points for a deal's tricks, by the ruleset's scorer, where the ruleset's memo does not have
        them yet. ``full`` is the memo's key: the contract's text, its declarers, partner, vip
        card and doublings, ``me``, then each seat's tricks."""
        _, declarers, partner, vip_card, doublings, me, *tricks = full
        scores = self.rules.scoring.points(ContractInfo(bid, declarers, partner), tricks, vip_card, doublings)
        points = self._memo[full] = float(scores[me])
        return points


def _known(facts: play_row.PlayFacts | None) -> play_row.PlayFacts:
    """A playout's contract, which the engine's own play needs (a deal ``first_lead`` settled has none, and
    none comes where the kernel is not exact)."""
    assert facts is not None, "first_lead is taken only where the kernel plays the cards"
    return facts


def _actions_key(legal: Sequence[Action]) -> object:
    """Legal actions as a value to key a memo by (the exchange's discards by what decides them)."""
    return legal.key() if isinstance(legal, Discards) else tuple(legal)
