"""The expert's budget: how many deals it samples and how it spends them, in one place (issue 47: out of
``expert.py``, which plays by it). Each setting says what it does and why it has its value."""

from __future__ import annotations

from dataclasses import dataclass

from regelmotor.bots.call_reading import Meanings


@dataclass(frozen=True)
class Budget:
    """Every setting of the expert's search, in one place (the defaults measured in benchmarks/expert.py)."""

    play_samples: int = 24
    """Sampled deals per card played to a trick already led. On 200 engelsk deals (benchmarks/expert.py,
    ddloss) a side gave away 2.20 tricks a deal to double-dummy play with 12 deals per card and the last 16
    cards solved, 2.00 with 24 and the last 20: a card's value on 12 deals was mostly its playouts' luck."""
    lead_samples: int = 24
    """Sampled deals per card led, kept apart because the lead is where most tricks go: 1.4 of the 2.2
    a side gave away were lost leading (a lead has the most cards to weigh, and the least to read)."""
    plan_samples: int = 8
    """Sampled deals per decision before play."""
    bid_samples: int = 10
    """The auction samples this many times ``plan_samples`` deals (80): the contract it bids decides the most.
    Measured on 40 random ``standard`` hands with 6 seeds each (benchmarks/expert.py, stability): with 40
    deals the same first call came on 4 of the 6 seeds on 19 hands, with 80 on 26, at a third more time
    a deal; against ``expert-v1`` (300 deals) dansk went from +0.13 [-0.01, 0.27] to +0.20 [0.06, 0.34]
    and thorsen from +1.8 [0.2, 3.4] to +2.9 [1.2, 4.6]."""
    selection: tuple[tuple[float, int], ...] = ((0.1, 3), (0.1, 2))
    """Successive halving over the bidding's sampled deals: (share of the deals, kinds kept after it); the
    kinds left are priced on the rest. Eight deals choose the three most promising kinds, eight more the two
    finalists, and the finalists are priced on 64: the price's noise is what the caution below weighs, and
    on 8 deals it was so large that tripling sol's points left the bids unchanged (benchmarks/expert.py,
    decisions: sol 7.0% -> 8.7% of the deals under richsol, not significant, against a significant rise on 32).
    Stopping the finalists' pricing once the call was two standard errors ahead of every other (checked
    every 16 deals) saved 15% of their deals, some 4% of a deal's time: the calls are seldom that clear."""
    common_chances: bool = True
    """Every card weighed on a sampled deal is played out with the same chances (``kernel.evaluate_cards``)."""
    exchange_choices: int = 1
    """The exchange weighs discards among the ``count + exchange_choices`` cards its hand values least."""
    fordaekt_choices: int = 3
    dd_cards: int = 20
    """From this many cards left in the hands, each card is valued double dummy on each sampled deal. On 300
    engelsk deals (benchmarks/expert.py, ddloss; the time with DDS judging every card) from 28 cards a side
    gave away 0.15 [0.05, 0.25] tricks a deal less to double-dummy play, at 3.5 times the time; from 24, on
    600 deals, 0.03 [-0.01, 0.07] less at 1.3 times."""
    dd_nodes: int = 200_000
    """The most nodes one double-dummy search may visit; a search that needs more keeps its playout."""
    dd_lead_cards: int = 0
    """From this many cards left (when more than ``dd_cards``), the ``dd_lead_finalists`` leads the
    playouts rank highest are solved double dummy, and one of them is led (0: off). Measured on 300
    engelsk deals (benchmarks/expert.py, ddloss), from 28 cards with 3 finalists a side gave away 1.91
    tricks a deal to double-dummy play against 2.01 without, paired -0.10 [-0.17, -0.03], but took twice
    the time there and 1.7 times on ``standard``, where head to head against the default it scored -0.60
    [-2.15, 0.95] points per seat per deal (300 deals): not a default. Solving every lead from 28 cards
    (not just 3) gained no more (-0.10) at 1.4 times this cost; from 36 cards, none more (-0.10). Two
    finalists from 28 cards: 1.93, paired -0.07 [-0.14, -0.01], at 1.4 times ``standard``'s time a deal."""
    dd_lead_finalists: int = 3
    dd_sol_cards: int = 16
    """In a sol bid (whether the declarer stays within his most is all it asks: a narrow search), from
    this many cards left."""
    dd_sol_nodes: int = 20_000
    plan_dd_cards: int = 16
    """The playouts that price the bids (and every other choice before play) are solved double dummy from
    this many cards left (0: played out to the end), at most ``plan_dd_nodes`` nodes a deal; a deal the
    search cannot settle is played out. The experts at the table solve their last tricks, and playouts
    that play them by rules of thumb misjudged what a contract brings (benchmarks/expert.py, calibration,
    1,000 deals): on ``standard`` sans was priced at 67 and brought 114 [70, 157]; from 16 cards it is
    priced at 62 and brings 72 [26, 117], and the kinds priced within what they bring went from 5 of 7 to
    6 of 7 (``thorsen``: 5 of 7 to 6 of 8). Runs taken in turn were 7% to 37% slower with it; head to head
    against the same expert without it (300 deals) ``standard`` +4.9 [-2.4, 12.2], ``thorsen`` +0.59
    [-0.94, 2.12]. On 2,000 ``standard`` deals the contracts where the declarer's own play counts most
    are still priced low (sans 63 against 96 [69, 124], sol 64 against 93 [72, 114]). From 20 cards
    (1,000 deals) all 7 kinds were inside (sans 68 against 105 [55, 156]), but head to head against 16
    it scored +2.75 [-5.65, 11.15] points per seat per deal (300 deals; ``thorsen`` +0.25 [-0.90, 1.39]),
    not significant, and it is slower: not the default."""
    plan_dd_nodes: int = 20_000
    plan_dd_open_sol_cards: int = 16
    """An open sol's playouts before play (bordlægger: the declarer's hand lies on the table) are solved
    from this many cards left instead (when more than ``plan_dd_cards``), at most
    ``plan_dd_open_sol_nodes`` nodes a deal. Measured (benchmarks/expert.py, calibration, 1,000 deals;
    match, 300): from 20 cards bordlægger is bid on 6% of the ``standard`` deals, not 11.5%, priced at
    177 where it brings 248 [125, 371] (from 16: 194 against 57 [-62, 176]), and ``thorsen``'s
    bordlæggersol at 47 against 42 [30, 53] (48 against 33 [23, 43]). But the bot so calibrated lost to
    this one head to head, ``thorsen`` -1.44 [-2.77, -0.11] points per seat per deal and ``standard``
    -1.9 [-9.9, 6.1] (in a trial, not kept, where its defenders at the table also solved an open sol from
    20 cards: -1.33 [-2.67, 0.02] and -3.4 [-11.5, 4.7]), at 0.85 of its speed (from 24 cards: 0.71). A
    bordlægger priced high still brings more than the bid the hand would get instead, so the default
    stays 16: no deeper leaf."""
    plan_dd_open_sol_nodes: int = 20_000
    plan_closed_sol_looking: int = 2
    """In a closed sol's playouts before play, the declarer weighs each of his cards by a playout of it in
    the first this many tricks (``kernel.playout_rows_looking``; 0: the rules of thumb throughout), as the
    declarer at the table weighs his (where ``plan_dd_cards`` is set and ``plan_dd_closed_sol_cards`` is 0).
    On the real cards of the 148 closed ``thorsen`` sols of 600 deals (benchmarks/sol_play.py's deals),
    played out 64 times each, the declarer made 71.8% by the rules of thumb, 79.8% looking ahead in the
    first trick, 82.5% in two, 85.2% in three and 89.5% in all, against 83.1% at the table. With two
    (benchmarks/expert.py, calibration, 1,000 deals) ``thorsen``'s sol is priced at 17.8 and brings 17.3
    [14.4, 20.3] (by the rules of thumb: 13.5 against 19.6 [16.3, 23.0]), every kind bid 30 times within
    what it brings on ``thorsen`` (6 of 6) and 6 of 7 on ``standard`` (sol 79 against 92 [71, 113], sans 71
    against 97 [59, 135]; vip 58 against 13 [-22, 48], which in a run with another random stream brought 49
    [15, 84], all 7 inside). Head to head against the expert without it (300 deals, none significant):
    ``standard`` +3.07 [-3.73, 9.86], ``whistklubben`` +2.48 [-5.67, 10.64], ``gruppe2`` +0.07 [-7.34,
    7.48], ``thorsen`` -0.29 [-1.59, 1.00]; ``thorsen`` 5% slower."""
    plan_dd_closed_sol_cards: int = 0
    """A closed sol's playouts before play (the declarer's hand hidden to the end) are solved from this many
    cards left instead of ``plan_dd_cards`` (0: played out to the end, ``plan_closed_sol_looking``). A solved leaf
    shows its defenders the hidden hand, which the defenders at the table never see. Measured on the 91
    ``thorsen`` sols the experts played in 600 deals, each played out 64 times on its real cards
    (benchmarks/sol_play.py, before the sol declarer's rules of thumb of ``kernel.sol_exit`` and
    ``keep_value``): the declarer stayed within his one trick in 66% of the playouts solved from 16 cards,
    73% of those played out, and on 77% of the deals at the table; with those rules of thumb, on 148 sols,
    66%, 71% and 83%. With both, ``thorsen``'s sol is priced at 13.5 where it brings 19.6 [16.3, 23.0]
    (benchmarks/expert.py, calibration, 1,000 deals); before, at 11.5 where it brought 19.2 [15.1, 23.3]."""
    bid_caution: float = 1.5
    """A bid is weighed by its mean less this many standard errors of that mean. Every seat bids on its own
    noisy estimate, and the contract goes to the seat whose estimate is highest: the winner's curse across
    the table, which pricing on unseen samples does not remove. Weighing the estimate's noise takes the
    optimism out of the contracts bid (benchmarks/expert.py, calibration), and the high-variance bids (a
    bordlægger on a thin hand) with it; 0 bids on the mean (the bot ``expert-v1``). With the finalists priced
    on 32 deals, 1.5 kept both the soberness and the bids' answer to the scores (2.0 muted it)."""
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
