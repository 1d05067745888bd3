"""The expert's budget: how many deals it samples and how it spends them, in one place (``expert.py``
plays by it). Each setting says what it does and why it has its value."""

from __future__ import annotations

from dataclasses import dataclass

from regelmotor.bots.call_reading import Meanings


@dataclass(frozen=True)
class Budget:
    """Every setting of the expert's search, in one place. Each default was measured with
    ``benchmarks/expert.py``; the runs, dated, with their figures, are in ``benchmarks/RESULTS.md``."""

    play_samples: int = 24
    """Sampled deals per card played to a trick already led: on fewer, a card's value is mostly its
    playouts' luck (the measurements: ``benchmarks/RESULTS.md``)."""
    lead_samples: int = 24
    """Sampled deals per card led, kept apart because the lead is where most tricks are lost: it has the
    most cards to weigh and the least to read."""
    plan_samples: int = 8
    """Sampled deals per decision before play."""
    bid_samples: int = 10
    """The auction samples this many times ``plan_samples`` deals (80): the contract decides the most, and
    on fewer deals the same hand's first call changes from seed to seed."""
    selection: tuple[tuple[float, int], ...] = ((0.1, 3), (0.1, 2))
    """Successive halving over the bidding's sampled deals: (share of the deals, kinds kept after it); the
    kinds left are priced on the rest. Eight deals choose the three most promising kinds, eight more the two
    finalists, priced on the other 64: a finalist's price must be steady enough for a change of points to
    move the bid, and the calls are seldom clear enough to stop early."""
    common_chances: bool = True
    """Every card weighed on a sampled deal is played out with the same chances (``kernel.evaluate_cards``),
    so two cards differ by what they do, not by their playouts' luck."""
    exchange_choices: int = 1
    """The exchange weighs discards among the ``count + exchange_choices`` cards its hand values least."""
    fordaekt_choices: int = 3
    dd_cards: int = 20
    """From this many cards left in the hands, each card is valued double dummy on each sampled deal: the
    experts at the table solve their last tricks. Solving from more cards gains little for much more time."""
    dd_nodes: int = 200_000
    """The most nodes one double-dummy search may visit; a search that needs more keeps its playout."""
    dd_lead_cards: int = 0
    """From this many cards left (when more than ``dd_cards``), the ``dd_lead_finalists`` leads the
    playouts rank highest are solved double dummy, and one of them is led (0: off). It loses fewer tricks
    on ``engelsk`` but doubles the time, and scored no better on ``standard``: a setting to measure with."""
    dd_lead_finalists: int = 3
    dd_sol_cards: int = 16
    """In a sol bid (whether the declarer stays within his most is all it asks: a narrow search), from
    this many cards left."""
    dd_sol_nodes: int = 20_000
    plan_dd_cards: int = 16
    """The playouts that price the bids (and every other choice before play) are solved double dummy from
    this many cards left (0: played out to the end), at most ``plan_dd_nodes`` nodes a deal; a deal the
    search cannot settle is played out. The players at the table solve their last tricks, and playouts
    that play them by rules of thumb misjudge what a contract brings; from more cards the prices come no
    closer to what the contracts bring, at more time."""
    plan_dd_nodes: int = 20_000
    plan_dd_open_sol_cards: int = 16
    """An open sol's playouts before play (bordlægger: the declarer's hand lies on the table) are solved
    from this many cards left instead (when more than ``plan_dd_cards``), at most
    ``plan_dd_open_sol_nodes`` nodes a deal. Deeper, bordlægger is priced as it is played, but a
    bordlægger priced high still brings more than the bid the hand would get instead, and the bot so
    priced lost head to head: so no deeper than the other playouts."""
    plan_dd_open_sol_nodes: int = 20_000
    plan_closed_sol_looking: int = 2
    """In a closed sol's playouts before play, the declarer weighs each of his cards by a playout of it in
    the first this many tricks (``kernel.playout_rows_looking``; 0: the rules of thumb throughout), as the
    declarer at the table weighs his (where ``plan_dd_cards`` is set and ``plan_dd_closed_sol_cards`` is 0).
    By the rules of thumb alone the playouts' declarer makes far fewer sols than the table's; two tricks of
    looking ahead bring him to the table's rate, and prices a closed sol as it is played."""
    plan_dd_closed_sol_cards: int = 0
    """A closed sol's playouts before play (the declarer's hand hidden to the end) are solved from this many
    cards left instead of ``plan_dd_cards`` (0: played out to the end, ``plan_closed_sol_looking``). A
    solved leaf shows its defenders the hidden hand, which the defenders at the table never see."""
    bid_caution: float = 1.5
    """A bid is weighed by its mean less this many standard errors of that mean. Every seat bids on its own
    noisy estimate, and the contract goes to the seat whose estimate is highest: the winner's curse across
    the table, which pricing on unseen samples does not remove. Weighing the estimate's noise takes the
    optimism out of the contracts bid, and the high-variance bids (a bordlægger on a thin hand) with it;
    0 bids on the mean (the bot ``expert-v1``). More caution mutes the bids' answer to the points."""
    read_calls: bool = True
    """Deal the hidden cards as the other seats' calls say (``call_reading``), not at random."""
    read_in_play: bool = True
    """Read the calls in card play too (with ``read_calls``): the hidden hands dealt as the auction said."""
    read_oversample: int = 4
    """Reading the calls, this many deals are dealt for each one kept."""
    meanings: Meanings | None = None
    """The calls' meanings to read; None: the ruleset's own (``call_reading.meanings_for``)."""
    honest_samples: int = 0
    """Deals that price the bid it chose again, after choosing (0: none; for measuring, not for play). The
    best of several noisy prices is an overrated one, however the choice is made: a bid is chosen where
    its price came out high. Priced again on deals that took no part in the choice, the value it gives
    (``estimates``) is what its playouts really expect of the bid, and calibration measures the playouts'
    judgement, not the winner's curse (benchmarks/expert.py)."""


DEFAULT_BUDGET = Budget()
V1_BUDGET = Budget(
    play_samples=12,
    lead_samples=12,
    bid_samples=2,
    selection=((0.25, 3), (0.25, 2)),
    common_chances=False,
    dd_cards=0,
    dd_sol_cards=0,
    plan_dd_cards=0,
    plan_closed_sol_looking=0,
    bid_caution=0.0,
    read_calls=False,
)
"""The expert as it was when the bots issue was filed: bidding on its means, dealing the hidden cards at
random whatever the calls said, each card weighed on 12 deals by playouts alone, with their own chances
(the bot ``expert-v1``, to measure against). Not kept of it: the engelsk and dansk playouts then picked
uniformly random cards; they go by the kernel's policy here, as every game's do now."""
